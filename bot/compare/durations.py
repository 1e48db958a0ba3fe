"""How long a run took to get from one stage to the next, from object times and the wrapper's log markers.

Milestones: submitted (the Job's creation) → scheduled (the Head pod's PodScheduled condition, else the
scheduler's Scheduled event) → containers started (`main`'s first known start) → prepare script → Ray ready →
run script (the Head's wrapper markers, when the marker line, or a line just above it, carries a time; Ray's
status block stamps the line after "ready"). Each duration is the seconds since the previous milestone that has a
time; None when this one has none.

Where the run reached a stage (as the diagnosis says) but the Head's log gives its marker no time (rotated, or
lines without stamps), object times stand in: the prepare script by the Head's `main` start (the wrapper runs it
first), Ray ready by the last `main` start of the run's pods (no Ray node joins before its container runs: the
earliest the cluster could be whole), never before the milestone ahead of it. A stage not reached gets no time,
and nothing stands in for the run script. `SOURCES` names, per milestone, where
its time came from, so a reader knows which durations are measured and which are bounds.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from bot.compare.runs import Run
from bot.models import Evidence, Pod
from bot.runbook.schema import STAGES as WALK
from bot.scope.logtime import line_time
from bot.scope.markers import PREPARE, READY, RUN

STAGES = ("scheduled", "containers-started", "prepare-script", "ray-cluster-ready", "run-script")
# Where a milestone's time came from (the JSON's `duration_sources`); FALLBACKS are object times standing in for a
# marker the Head's log did not give with a time.
SOURCES = {"condition": "the Head pod's PodScheduled condition", "event": "the scheduler's Scheduled event",
           "container": "`main`'s first start (events and container statuses)",
           "marker": "the time of the wrapper's line in the Head's log",
           "head-started": "the Head's `main` start (the wrapper runs the prepare script first)",
           "pods-started": "the last `main` start of the run's pods (the earliest Ray could be ready)"}
FALLBACKS = frozenset({"head-started", "pods-started"})
_MARKERS = {"prepare-script": PREPARE, "ray-cluster-ready": READY, "run-script": RUN}
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})")
AFTER_LINES = 2


def _scheduled(evidence: Evidence, pod: Pod) -> tuple[datetime | None, str | None]:
    cond = pod.condition("PodScheduled")
    if cond is not None and cond.status == "True" and cond.last_transition_time is not None:
        return cond.last_transition_time, "condition"
    times = [e.when for e in evidence.events
             if e.reason == "Scheduled" and e.involved_object.kind in ("Pod", "") and e.involved_object.name == pod.name
             and e.cluster == pod.cluster and e.involved_object.uid in ("", pod.metadata.uid) and e.when is not None]
    return (max(times), "event") if times else (None, None)


def _main_starts(evidence: Evidence) -> dict[tuple[str, str], list[datetime]]:
    """The kubelet's "Started container main" times, by (cluster, pod name)."""
    out: dict[tuple[str, str], list[datetime]] = {}
    for e in evidence.events:
        if e.reason == "Started" and e.message.endswith("container main") and e.when is not None:
            out.setdefault((e.cluster, e.involved_object.name), []).append(e.when)
    return out


def _started(starts: dict[tuple[str, str], list[datetime]], pod: Pod) -> datetime | None:
    """`main`'s first start: the kubelet's first "Started container main" event, else the earliest start the
    container statuses still show (a restarted container shows only its last two instances)."""
    times = list(starts.get((pod.cluster, pod.name), []))
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


def _reached(stage: str, last_stage: str | None) -> bool:
    return last_stage in WALK and WALK.index(last_stage) >= WALK.index(stage)


def _milestones(evidence: Evidence, run: Run, last_stage: str | None) -> dict[str, tuple[datetime, str]]:
    """Each milestone's time and where it came from (a key of SOURCES); a milestone without a time is absent."""
    head = run.head_pod()
    out: dict[str, tuple[datetime, str]] = {}
    if head is None:
        return out
    created = run.job.metadata.creation_timestamp
    scheduled, how = _scheduled(evidence, head)
    if scheduled is not None and how is not None:
        out["scheduled"] = (scheduled, how)
    main_starts = _main_starts(evidence)
    started = _started(main_starts, head)
    if started is not None:
        out["containers-started"] = (started, "container")
    year = (created or evidence.captured_at or datetime.now(UTC)).year
    out.update((stage, (at, "marker")) for stage, at in _marker_times(evidence, head, year=year).items())
    if started is None:
        return out
    floor = max((at for stage, (at, _) in out.items() if stage in ("scheduled", "containers-started")))
    if "prepare-script" not in out and _reached("prepare-script", last_stage):
        out["prepare-script"] = (max(started, floor), "head-started")
    if "ray-cluster-ready" not in out and _reached("ray-cluster-ready", last_stage):
        floor = max(at for stage, (at, _) in out.items() if stage != "run-script")
        starts = [t for pods in run.pods.values() for pod in pods if (t := _started(main_starts, pod)) is not None]
        out["ray-cluster-ready"] = (max([*starts, floor]), "pods-started")
    return out


def timed(evidence: Evidence, run: Run, *, last_stage: str | None = None
          ) -> tuple[dict[str, float | None], dict[str, str | None]]:
    """(seconds per stage since the milestone before it that has a time, where each stage's time came from).
    `last_stage`: how far the diagnosis says the run got (object times stand in only for stages it reached)."""
    times = _milestones(evidence, run, last_stage)
    out: dict[str, float | None] = {}
    previous = run.job.metadata.creation_timestamp
    for stage in STAGES:
        at = times[stage][0] if stage in times else None
        out[stage] = (at - previous).total_seconds() if at is not None and previous is not None else None
        previous = at or previous
    return out, {stage: times[stage][1] if stage in times else None for stage in STAGES}
