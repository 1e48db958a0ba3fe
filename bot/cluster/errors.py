"""Errors live collection raises to its caller; everything else becomes a line in `Evidence.problems`."""

from __future__ import annotations


class CollectionError(Exception):
    """Collection could not start or produced nothing usable (unreadable kubeconfig, unknown context).

    The message is one line, fit for stderr as it is.
    """


class TargetNotFound(CollectionError):
    """The target does not exist; `where` names the clusters/namespaces that were searched."""

    def __init__(self, where: str) -> None:
        super().__init__(f"not found in {where}")
        self.where = where


class ReadOnlyViolation(RuntimeError):
    """Something tried to send a non-GET request or read Secrets. A programming error, never expected."""


class ReadFailed(Exception):
    """One read failed after retries; the collector turns it into a line in `Evidence.problems`."""

    def __init__(self, message: str, *, status: int | None = None, cluster_down: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.cluster_down = cluster_down
