"""Runner pods whose Docker daemon is gone (ci.runner.dind-not-running).

In ARC's dind mode the runner talks to a docker-in-docker sidecar (a container named `dind` or `docker`) through a
shared socket. A runner pod that is still Running while that sidecar terminated with an error or is crash-looping
has no Docker daemon: every docker step of its job fails with "Cannot connect to the Docker daemon".
"""

from __future__ import annotations

from datetime import datetime

from bot.checks.alerts import Alert, object_ref
from bot.models import Evidence, Pod
from bot.settings import Thresholds

DIND_NAMES = ("dind", "docker")
BAD_WAITING = ("CrashLoopBackOff", "Error", "CreateContainerError", "RunContainerError")


def dind_down(pod: Pod) -> tuple[str, datetime | None] | None:
    """(what is wrong, since when) for a Running pod whose dind sidecar is down; None otherwise."""
    if pod.status.phase != "Running":
        return None
    for status, _init in pod.all_statuses():
        if status.name not in DIND_NAMES:
            continue
        term = status.state.terminated
        if term is not None and term.exit_code != 0:
            return f"its {status.name} container exited {term.exit_code} ({term.reason or 'Error'})", term.finished_at
        waiting = status.state.waiting
        if waiting is not None and waiting.reason in BAD_WAITING:
            last = status.last_state.terminated
            return (f"its {status.name} container is {waiting.reason} after {status.restart_count} restarts",
                    last.finished_at if last is not None else None)
    return None


def dind_not_running(ev: Evidence, /, *, now: datetime, thresholds: Thresholds) -> list[Alert]:
    alerts = []
    for pod in ev.pods:
        found = dind_down(pod)
        if found is None:
            continue
        what, since = found
        alerts.append(Alert(check="dind-not-running", case="ci.runner.dind-not-running", object=object_ref(pod, "Pod"),
                            severity="error", since=since, summary=f"Running, but {what}: no Docker daemon"))
    return alerts
