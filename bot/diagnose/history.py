"""What ended an earlier instance of a pod, once its replacement has proven itself, is history.

An event belongs to one object instance and one moment. An event about a pod's name with another UID is about
the instance the current one replaced (evicted and recreated): while the replacement is new, that event is the
reason the job is where it is and it is kept. Once the replacement has run with every container Ready and no
restart since after that event, for longer than `Thresholds.settled_seconds`, the old instance's end explains
nothing about the present: an error-level case that only that event supports is dropped (the replacement itself
is still reported by the cases that say a worker was replaced, at warning level). Safety cases are never dropped.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.runbook.schema import Runbook
from bot.scope.hits import Hit
from bot.scope.target import PodCtx, Scope


def running_since(ctx: PodCtx) -> datetime | None:
    """When the current instance's last container started, if every container is running and Ready and none
    restarted; else None (the replacement has not proven anything)."""
    pod = ctx.pod
    if pod is None or pod.status.phase != "Running" or not pod.status.container_statuses:
        return None
    starts: list[datetime] = []
    for cs in pod.status.container_statuses:
        run = cs.state.running
        if run is None or run.started_at is None or not cs.ready or cs.restart_count:
            return None
        starts.append(run.started_at)
    return max(starts)


def _settled(h: Hit, since: datetime | None, uid: str, *, now: datetime, settle: timedelta) -> bool:
    if since is None or not h.instance or h.instance == uid or h.at is not None or h.when is None:
        return False
    return h.when <= since and now - since >= settle


def drop_settled_history(matched: dict[str, list[Hit]], scope: Scope, runbook: Runbook, *, now: datetime,
                         settle_seconds: int) -> None:
    """Remove, in place, error-level hits about an earlier instance whose replacement has settled."""
    ctxs = {c.key: c for c in scope.pods}
    since = {k: running_since(c) for k, c in ctxs.items()}
    uids = {k: (c.pod.metadata.uid if c.pod is not None else "") for k, c in ctxs.items()}
    settle = timedelta(seconds=settle_seconds)
    for case_id, hits in list(matched.items()):
        case = runbook.cases[case_id]
        if case.safety or case.severity not in ("error", "critical"):
            continue
        kept = [h for h in hits if h.pod not in ctxs
                or not _settled(h, since[h.pod], uids[h.pod], now=now, settle=settle)]
        if kept:
            matched[case_id] = kept
        else:
            del matched[case_id]
