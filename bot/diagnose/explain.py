""""Explained by an earlier failure": which matched findings are consequences of others.

The loudest or last line is rarely the cause. A failure explains another when it came first along the way a
job starts, on the same pod or on a pod the other depends on:

* **Same pod.** A wait of the pod (a claim waiting for the pod to be scheduled) is explained by a concrete
  failure of the pod at the same or an earlier stage (the pod cannot be scheduled).
  Within one container log, the earlier line explains the later one (a conda environment that
  fails to activate explains the "Ray CLI is not found" printed after it); a previous container instance
  explains what its restarted instance shows - unless it is the lesser finding (a warning of the earlier
  instance does not explain the errors the current instance shows; nothing about an older pod UID explains
  what its replacement shows);
  otherwise the earlier stage explains the later one (a PVC that never binds explains anything the pod's logs
  could say).
* **Head, then workers.** Every worker depends on the Head. A Head that failed before its Ray cluster could
  form (never scheduled, its volume unbound, its prepare script or Ray temp dir failing) explains what the
  workers show from the cluster-forming stage on ("Waiting for head to be reachable", worker exits). A Head
  whose run script failed after the cluster formed takes the cluster down with it, so it explains the
  failures of workers that had joined: when both lines are stamped, if the Head's came first; when they are
  not, if the Head's node check had passed (every worker had joined and was fine at that moment).
* **Workers, then the Head's wait.** The Head waiting for nodes, or its node check timing out, is what a
  worker that never joined looks like from the Head: any concrete worker failure explains it.
* **Time.** After the cluster formed, between any two pods whose lines are both stamped, the earlier failure
  explains the later one; and a cause stamped after its supposed consequence never explains it.

Only a concrete failure explains - an error line, an event or a container state, never a wait, a warning
("Warning: Ray cluster check failed" is a symptom) or an alert (which says how long something has been
wrong). A finding is explained when every one of its per-pod hits
is explained by a hit of another finding; it then ranks after its explanations even when it is the more
specific case, because a catch-all at the earlier stage with a concrete first error names the cause.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.diagnose.result import SEVERITY_ORDER, Finding
from bot.scope.hits import Hit
from bot.signals.stages import INDEX

FORMING = INDEX["ray-cluster-forming"]
READY = INDEX["ray-cluster-ready"]
RUN = INDEX["run-script"]
CAUSE_SEVERITIES = ("critical", "error")
SAME_POD_SEVERITIES = ("critical", "error", "warning")


@dataclass(frozen=True)
class Roles:
    """Which pod keys are a job's Head and which its workers (empty for pod and runner targets)."""

    heads: frozenset[str] = frozenset()
    workers: frozenset[str] = frozenset()
    formed: frozenset[str] = frozenset()  # Heads whose node check passed: every worker had joined by then


def _same_pod(a: Hit, b: Hit) -> bool:
    if a.at is not None and b.at is not None and a.at.container == b.at.container:
        if a.at.previous != b.at.previous:
            return a.at.previous  # the earlier instance came first
        return a.at.offset < b.at.offset
    # A container's state or an event has no place in the log: only an earlier stage orders it. (A container
    # that exited non-zero is how an instance ended, never an earlier failure than the lines it printed.)
    return a.stage is not None and b.stage is not None and a.stage < b.stage


def _stamped_before(a: Hit, b: Hit) -> bool | None:
    if a.when is None or b.when is None:
        return None
    return a.when < b.when


def _lesser_history(a: Hit, b: Hit, a_severity: str, b_severity: str | None) -> bool:
    """Whether `a` is about an earlier instance (a previous container, an older pod UID) that `b` is not, and is the
    less severe of the two: what an instance that is gone showed does not explain what the current one does worse."""
    return (b_severity is not None and a.earlier_instance and not b.earlier_instance
            and SEVERITY_ORDER.get(a_severity, 3) > SEVERITY_ORDER.get(b_severity, 3))


def _other_object(a: Hit, b: Hit) -> bool:
    """Whether `a` is about an earlier object instance of the same pod name (an older pod UID, whose events outlive
    it) than `b`: what happened to a pod that was replaced does not explain what its replacement does."""
    return (a.pod == b.pod and a.earlier_instance and not b.earlier_instance and bool(a.instance)
            and bool(b.instance) and a.instance != b.instance)


def hit_explains(a: Hit, b: Hit, *, a_severity: str, roles: Roles, b_severity: str | None = None) -> bool:
    """Whether hit `a` (of a finding with `a_severity`) is an earlier failure that explains hit `b` (of a finding
    with `b_severity`, when known)."""
    if not a.concrete or a.pod is None or b.pod is None or a is b:
        return False
    if _lesser_history(a, b, a_severity, b_severity) or _other_object(a, b):
        return False
    order = _stamped_before(a, b)
    if order is False and a.when != b.when:
        return False  # a cause never comes after its consequence
    if a.pod == b.pod:
        if not b.concrete and a.stage is not None and b.stage is not None and a.stage <= b.stage and not (
                a.at is not None and b.at is not None and a.at.container == b.at.container):
            return a_severity in SAME_POD_SEVERITIES  # a wait of the pod, explained by what keeps it there
        return a_severity in SAME_POD_SEVERITIES and _same_pod(a, b)
    if a_severity not in CAUSE_SEVERITIES or a.stage is None or b.stage is None:
        return False
    if a.pod in roles.heads and b.pod in roles.workers:
        if a.stage <= FORMING and b.stage >= max(a.stage, FORMING):
            return True  # the Head never got a cluster going: the workers had nothing to join
        if a.stage >= RUN and b.stage >= RUN and (order or (order is None and a.pod in roles.formed)):
            return True  # the Head failed after the workers joined: its end is theirs
    if a.pod in roles.workers and b.pod in roles.heads and FORMING <= b.stage <= READY and not b.concrete:
        return True  # the Head waiting for a worker that never joined
    both_joined = a.stage >= RUN and b.stage >= RUN
    return bool(order) and both_joined and (a.pod in roles.heads | roles.workers) and (
        b.pod in roles.heads | roles.workers)


def mark_explained(findings: list[Finding], roles: Roles) -> None:
    """Set `explained_by` on every finding all of whose per-pod hits an earlier failure explains."""
    for b in findings:
        b.explained_by = []
        if not b.hits or any(h.pod is None for h in b.hits):
            continue
        if b.case.safety or b.case.category == "risk":
            continue
        by: set[str] = set()
        for hb in b.hits:
            causes = {a.id for a in findings if a is not b and a.case.category not in ("risk", "alert")
                      and any(hit_explains(ha, hb, a_severity=a.severity, b_severity=b.severity, roles=roles)
                            for ha in a.hits)}
            if not causes:
                break
            by |= causes
        else:
            b.explained_by = sorted(by)
