"""An alert a scheduled check raises; `key` is stable across runs so a thread is posted once and updated.

`object` is what the alert is about: an `ObjectRef`, or for an alert folded by cause (`bot.alerts.grouping`)
the `ObjectGroup` its objects share, with `objects` listing them. `cause` names the runbook case that explains
the alert when the evidence says it (a long-Pending pod whose scheduling event says "Insufficient cpu"), and
`group` what alerts of one cause share (the Task or NodePool the Pending pods belong to): the alert lifecycle
folds alerts with the same check, cause and group into one thread. Both are empty when unknown.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.models import KubeObject
from bot.models.refs import AlertObject, ObjectGroup, ObjectRef, Severity, alert_key


@dataclass(frozen=True)
class Alert:
    check: str
    case: str
    object: AlertObject
    severity: Severity
    since: datetime | None
    summary: str
    cause: str = ""
    group: ObjectGroup | None = None
    domain: str = ""  # the RLark Job's spec.domain, for alerts about a Job or its Tasks (channel routing)
    objects: tuple[ObjectRef, ...] = ()  # the objects it covers: (object,) unless it is about a group

    def __post_init__(self) -> None:
        if not self.objects:
            if not isinstance(self.object, ObjectRef):
                raise ValueError(f"an alert about a group lists its objects: {self.object}")
            object.__setattr__(self, "objects", (self.object,))

    @property
    def key(self) -> str:
        return alert_key(self.check, self.object)

    @property
    def cause_key(self) -> str:
        """The key of the thread it belongs to: its group's when it has one, else its own."""
        return alert_key(self.check, self.group) if self.group is not None else self.key

    @property
    def clusters(self) -> frozenset[str]:
        return frozenset({self.object.cluster, *(o.cluster for o in self.objects)})

    @property
    def described(self) -> str:
        """The summary as a line on its own (CLI, JSON, diagnosis evidence): the cause named when one is known.
        An alert thread names the cause in its title instead, so it shows `summary` alone."""
        return f"{self.summary}; cause {self.cause}" if self.cause else self.summary


def object_ref(obj: KubeObject, kind: str) -> ObjectRef:
    """`<cluster>/<namespace>/<Kind>/<name>`; `<cluster>//<Kind>/<name>` for cluster-scoped objects."""
    return ObjectRef(obj.cluster, obj.namespace, kind, obj.name)


def cluster_ref(cluster: str, *, kind: str, name: str) -> ObjectRef:
    """A cluster-scoped object's reference."""
    return ObjectRef(cluster, "", kind, name)
