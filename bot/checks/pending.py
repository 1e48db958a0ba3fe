"""Pods Pending longer than the threshold (infra.pending.long)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from bot.checks.alerts import Alert, object_ref
from bot.models import Pod
from bot.settings import Thresholds


def _why(pod: Pod) -> str:
    for status, _ in pod.all_statuses():
        if status.state.waiting is not None and status.state.waiting.reason:
            return f"container {status.name}: {status.state.waiting.reason}"
    cond = pod.condition("PodScheduled")
    if cond is not None and cond.status == "False":
        return f"not scheduled: {cond.reason or ''} {cond.message or ''}".strip()
    return pod.status.reason or "no reason reported"


def long_pending(pods: Iterable[Pod], now: datetime, thresholds: Thresholds) -> list[Alert]:
    alerts: list[Alert] = []
    for pod in pods:
        created = pod.metadata.creation_timestamp
        if pod.status.phase != "Pending" or created is None or pod.metadata.deletion_timestamp is not None:
            continue
        age = (now - created).total_seconds()
        if age <= thresholds.pending_seconds:
            continue
        minutes = int(age // 60)
        alerts.append(Alert(check="long-pending", case="infra.pending.long", object=object_ref(pod, "Pod"),
                            severity="warning", since=created,
                            summary=f"Pending for {minutes} min ({_why(pod)})"))
    return alerts
