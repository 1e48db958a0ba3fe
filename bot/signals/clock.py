"""A node's clock, judged by comparing times that come from different sources.

The API server stamps a pod's creation and the scheduler its placement with the control plane's clock; the
kubelet stamps container starts and finishes with the node's; the workload stamps its log lines with the node's
too. On one pod these must agree in order: nothing starts before it was created, no line is printed before its
container started or after the moment of the capture. When they disagree by more than SKEW_SECONDS, the node's
clock is off - and an unsynchronised clock breaks authentication (certificates "not yet valid", tokens expired)
whatever words the failing tool prints. Only a pod that failed is judged, or, for a pod or runner target, one whose
log ends on an error or a retry (a runner that keeps failing to connect while its pod runs): a healthy pod on a
skewed node is not a failure of this job. And a skew is claimed as the cause only where time can break what failed:
when the pod's log shows an authentication, certificate or token failure, or there is no log to say what failed
(seed ci-runner § 节点 DNS 解析异常 / 时钟偏移: 时钟偏移导致鉴权失败). A worker whose log fails on NCCL on a node a
few minutes behind failed on NCCL.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING

from bot.scope.hits import EvidenceItem, Hit, age_text
from bot.scope.lineclass import Kind, classify
from bot.scope.logtime import first_stamp, line_time
from bot.signals.base import SignalContext, failed, signal
from bot.signals.stages import INDEX

if TYPE_CHECKING:
    from bot.scope.target import PodCtx

SKEW_SECONDS = 120
MAX_LOG_PODS = 32  # failing pods whose logs' first lines are read
FIRST_LINES = 4096  # characters of a log's head searched for its first stamped line


def _set(when: datetime | None) -> bool:
    """A time actually recorded: a container that never ran (StartError) reports the zero time, 1970-01-01."""
    return when is not None and when.year >= 2000


def _kubelet_starts(ctx: PodCtx) -> list[tuple[str, datetime]]:
    pod = ctx.pod
    if pod is None:
        return []
    out = []
    for status, _ in pod.all_statuses():
        for state in (status.state, status.last_state):
            for started in (state.running.started_at if state.running is not None else None,
                            state.terminated.started_at if state.terminated is not None else None):
                if started is not None and _set(started):
                    out.append((f"{ctx.key}:{status.name}", started))
    return out


def _first_log_times(ctx: PodCtx, year: int) -> list[tuple[str, datetime]]:
    """The time of the first stamped line of the workload's current log (its head only): one log per pod."""
    view = ctx.main_log
    if view is None:
        return []
    head = view.head[:FIRST_LINES]
    pos = first_stamp(head)
    when = line_time(head, pos, year=year) if pos is not None else None
    return [(view.excerpt.source.ref(), when)] if when is not None and _set(when) else []


def _skew(ctx: PodCtx, now: datetime, *, logs: bool) -> list[EvidenceItem]:
    pod = ctx.pod
    if pod is None or not pod.spec.node_name:
        return []
    created = pod.metadata.creation_timestamp
    items = []
    if created is not None:
        for source, started in _kubelet_starts(ctx):
            ahead = (created - started).total_seconds()
            if ahead > SKEW_SECONDS:
                items.append(EvidenceItem(source, f"the kubelet on {pod.spec.node_name} says the container started at "
                                                  f"{started:%Y-%m-%dT%H:%M:%SZ}, {age_text(ahead)} before the API "
                                                  f"server created the pod ({created:%H:%M:%SZ}): the node's clock is "
                                                  "behind"))
                break
    for source, stamped in _first_log_times(ctx, now.year) if logs else []:
        if (stamped - now).total_seconds() > SKEW_SECONDS:
            items.append(EvidenceItem(source, f"first log line stamped {stamped:%Y-%m-%dT%H:%M:%SZ}, "
                                              f"{age_text((stamped - now).total_seconds())} after the capture: the "
                                              "node's clock is ahead"))
        elif created is not None and (created - stamped).total_seconds() > SKEW_SECONDS:
            items.append(EvidenceItem(source, f"first log line stamped {stamped:%Y-%m-%dT%H:%M:%SZ}, "
                                              f"{age_text((created - stamped).total_seconds())} before the pod was "
                                              "created: the node's clock is behind"))
    return items


@signal("node.clock-skew")
def clock_skew(sc: SignalContext) -> list[Hit]:
    hits = []
    read = 0
    single = sc.scope.job is None  # a pod or runner target: its running pods are read too, not a Job's many
    for ctx in sc.scope.pods:
        bad = failed(ctx)
        if not bad and (single is False or read >= MAX_LOG_PODS or not _ends_complaining(ctx)):
            continue
        items = _skew(ctx, sc.now, logs=read < MAX_LOG_PODS)  # the objects of every failing pod, a few logs
        read += 1
        if items and (bad or _complains(ctx)) and _time_can_explain(ctx):
            hits.append(Hit(items[:2], pod=ctx.key, stage=INDEX["containers-started"]))
    return hits


# What an unsynchronised clock breaks: certificates (not yet valid, expired), signed requests and tokens.
TIME_SENSITIVE = re.compile(
    r"(?i)certificate|\bx509\b|\bSSL\b|\bTLS\b|NotTimeValid|not yet valid|has expired|\bskew|authenticat|"
    r"unauthori[sz]ed|\b401\b|token[^\n]{0,40}(expired|invalid|not valid)|signature[^\n]{0,40}(expired|invalid)")


def _time_can_explain(ctx: PodCtx) -> bool:
    """No current log to say what failed, or one that shows something time can break."""
    view = ctx.main_log
    return view is None or TIME_SENSITIVE.search(view.text) is not None


def _ends_complaining(ctx: PodCtx) -> bool:
    """A running pod whose workload's log ends on an error or a retry (known from the visit, without reading)."""
    view = ctx.main_log
    tail = view.tail() if view is not None else None
    return tail is not None and classify(tail[1]) in (Kind.ERROR, Kind.RETRY)


def _complains(ctx: PodCtx) -> bool:
    """A pod still running whose workload's current log shows an error line."""
    view = ctx.main_log
    return view is not None and view.first_error() is not None
