"""How long a run took to get from one stage to the next, from object times and the wrapper's log markers.

Milestones: submitted (the Job's creation) → scheduled (the Head pod's PodScheduled condition) → containers
started (`main`'s first known start) → prepare script → Ray ready → run script (the Head's wrapper markers, when
the marker line, or a line just above it, carries a time; Ray's status block stamps the line after "ready").
Each duration is the seconds since the previous milestone that has a time; None when this one has none.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from bot.compare.runs import Run
from bot.models import Evidence, Pod
from bot.scope.logtime import line_time
from bot.scope.markers import PREPARE, READY, RUN

STAGES = ("scheduled", "containers-started", "prepare-script", "ray-cluster-ready", "run-script")
_MARKERS = {"prepare-script": PREPARE, "ray-cluster-ready": READY, "run-script": RUN}
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})")
AFTER_LINES = 2


def _scheduled(pod: Pod) -> datetime | None:
    cond = pod.condition("PodScheduled")
    return cond.last_transition_time if cond is not None and cond.status == "True" else None


def _started(evidence: Evidence, pod: Pod) -> datetime | None:
    """`main`'s first start: the kubelet's first "Started container main" event, else the earliest start the
    container statuses still show (a restarted container shows only its last two instances)."""
    times = [e.when for e in evidence.events
             if e.reason == "Started" and e.involved_object.name == pod.name and e.cluster == pod.cluster
             and e.message.endswith("container main") and e.when is not None]
    status = next((s for s in pod.status.container_statuses if s.name == "main"), None)
    if status is not None:
        times += [t for t in (status.state.running.started_at if status.state.running else None,
                              status.state.terminated.started_at if status.state.terminated else None,
                              status.last_state.terminated.started_at if status.last_state.terminated else None) if t]
    return min(times) if times else None


def _after(text: str, pos: int) -> datetime | None:
    """A stamp on one of the few lines after `pos` (Ray prints the status block's time below its header)."""
    start = text.find("\n", pos)
    for _ in range(AFTER_LINES):
        if start < 0:
            return None
        end = text.find("\n", start + 1)
        m = _ISO.search(text[start + 1: end if end >= 0 else len(text)])
        if m is not None:
            try:
                y, mo, d, h, mi, sec = (int(g) for g in m.groups())
                return datetime(y, mo, d, h, mi, sec, tzinfo=UTC)
            except ValueError:
                return None
        start = end
    return None


def _marker_times(evidence: Evidence, pod: Pod, *, year: int) -> dict[str, datetime]:
    """The earliest time each marker was printed, over the previous and the current `main` logs."""
    out: dict[str, datetime] = {}
    logs = [x for x in evidence.logs if x.source.pod == pod.name and x.source.container == "main"
            and x.source.cluster == pod.cluster and x.source.namespace == pod.namespace]
    for excerpt in sorted(logs, key=lambda x: not x.source.previous):
        text = excerpt.text
        for stage, marker in _MARKERS.items():
            pos = text.find(marker)
            if pos < 0 or stage in out:
                continue
            when = line_time(text, pos, year=year) or (_after(text, pos) if stage == "ray-cluster-ready" else None)
            if when is not None:
                out[stage] = when
    return out


def durations(evidence: Evidence, run: Run) -> dict[str, float | None]:
    head = run.head_pod()
    created = run.job.metadata.creation_timestamp
    times: dict[str, datetime | None] = dict.fromkeys(STAGES)
    if head is not None:
        times["scheduled"] = _scheduled(head)
        times["containers-started"] = _started(evidence, head)
        year = (created or evidence.captured_at or datetime.now(UTC)).year
        times.update(_marker_times(evidence, head, year=year))
    out: dict[str, float | None] = {}
    previous = created
    for stage in STAGES:
        at = times[stage]
        out[stage] = (at - previous).total_seconds() if at is not None and previous is not None else None
        previous = at or previous
    return out
