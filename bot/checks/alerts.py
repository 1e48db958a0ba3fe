"""An alert a scheduled check raises; `key` is stable across runs so a thread is posted once and updated.

`cause` names the runbook case that explains the alert when the evidence says it (a long-Pending pod whose
scheduling event says "Insufficient cpu"), and `group` the object that alerts of one cause share (the Task or
NodePool the Pending pods belong to): the alert lifecycle folds alerts with the same check, cause and group
into one thread. Both are empty when unknown.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.models import KubeObject
from bot.models.refs import ObjectRef, Severity, alert_key


@dataclass(frozen=True)
class Alert:
    check: str
    case: str
    object: str
    severity: Severity
    since: datetime | None
    summary: str
    cause: str = ""
    group: str = ""
    domain: str = ""  # the RLark Job's spec.domain, for alerts about a Job or its Tasks (channel routing)

    @property
    def key(self) -> str:
        return alert_key(self.check, self.object)

    @property
    def described(self) -> str:
        """The summary as a line on its own (CLI, JSON, diagnosis evidence): the cause named when one is known.
        An alert thread names the cause in its title instead, so it shows `summary` alone."""
        return f"{self.summary}; cause {self.cause}" if self.cause else self.summary


def object_ref(obj: KubeObject, kind: str) -> str:
    """`<cluster>/<namespace>/<Kind>/<name>`; `<cluster>//<Kind>/<name>` for cluster-scoped objects."""
    return str(ObjectRef(obj.cluster, obj.namespace, kind, obj.name))


def cluster_ref(cluster: str, *, kind: str, name: str) -> str:
    """A cluster-scoped object's reference."""
    return str(ObjectRef(cluster, "", kind, name))
