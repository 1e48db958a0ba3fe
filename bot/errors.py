"""One base for every error a user can act on: a one-line message and the exit status it maps to.

The CLI maps a `UserError` to its status and prints the line; the Slack handlers map it to an ephemeral
one-liner. Anything that is not a `UserError` is a defect: one short line, never a traceback.
"""

from __future__ import annotations

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_NOT_FOUND = 0, 1, 2, 3


class UserError(Exception):
    """A one-line reason for the user, with the exit status to use."""

    status: int = EXIT_ERROR

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message.splitlines()[0] if message else message)
        if status is not None:
            self.status = status


class UsageError(UserError):
    """Bad command text, a bad option or an invalid target name."""

    status = EXIT_USAGE


class NotFound(UserError):
    """The target does not exist where the bot looked; the message says where."""

    status = EXIT_NOT_FOUND


class SourceError(UserError):
    """Evidence could not be read: a corrupt bundle, an unreachable control plane, a bad kubeconfig."""

    status = EXIT_ERROR
