"""The phases of one pod instance, from the objects' own times.

The current instance comes from its Pod: `creationTimestamp`, the PodScheduled condition's
`lastTransitionTime`, the workload container's `startedAt`/`finishedAt` and `lastState` (and the first
"Started" event, whose `firstTimestamp` survives restarts). An earlier instance (a replaced worker) is known
only from its control-plane mirror and the events that name its UID: when it was first seen, scheduled,
started, and what ended it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.models import ContainerStatus, Event, Pod, PodMirror
from bot.timeline.model import Mark, MarkKind, Phase, Segment, Span

# What ends an instance, the most telling first: at the same time, "Evicted" says more than "Killing".
ENDINGS = ("Evicted", "Preempted", "Preempting", "TaintManagerEviction", "NodeNotReady", "NodeShutdown", "OOMKilling",
           "Deleted", "Killing")
MIRROR_PHASES = {"Pending": Phase.PENDING, "Running": Phase.RUNNING, "Succeeded": Phase.TERMINATED,
                 "Failed": Phase.TERMINATED}


def workload_status(pod: Pod) -> ContainerStatus | None:
    """The `main` container's status, else the first app container's."""
    return pod.container_status("main") or next(iter(pod.status.container_statuses), None)


def _spans(bounds: Sequence[tuple[Phase, datetime | None, str]], end: datetime) -> list[Span]:
    """Consecutive phases from their start times (None: not known, skipped); a time earlier than the one
    before it (clocks and conditions disagree by seconds) is taken as that one."""
    known: list[tuple[Phase, datetime, str]] = []
    for phase, at, note in bounds:
        if at is None:
            continue
        if known and at < known[-1][1]:
            at = known[-1][1]
        known.append((phase, at, note))
    out: list[Span] = []
    for i, (phase, at, note) in enumerate(known):
        stop = known[i + 1][1] if i + 1 < len(known) else max(end, at)
        out.append(Span(phase, at, stop, note))
    return [s for i, s in enumerate(out) if s.end > s.start or i == len(out) - 1]


def _started_event(events: Sequence[Event], container: str) -> datetime | None:
    times = [e.when for e in events if e.reason == "Started" and e.message.endswith(f"container {container}")
             and e.when is not None]
    return min(times, default=None)


def _first_start(status: ContainerStatus | None, events: Sequence[Event]) -> datetime | None:
    if status is None:
        return None
    candidates = [status.last_state.terminated.started_at if status.last_state.terminated else None,
                  status.state.running.started_at if status.state.running else None,
                  status.state.terminated.started_at if status.state.terminated else None,
                  _started_event(events, status.name)]
    return min((c for c in candidates if c is not None), default=None)


def pod_segment(pod: Pod, events: Sequence[Event], *, end: datetime) -> Segment:
    """The current instance. `events`: those about this pod (any UID: the ones of other UIDs are ignored)."""
    uid = pod.metadata.uid
    mine = [e for e in events if e.involved_object.kind == "Pod" and (not e.involved_object.uid
                                                                       or not uid or e.involved_object.uid == uid)]
    created = pod.metadata.creation_timestamp
    cond = pod.condition("PodScheduled")
    scheduled = cond.last_transition_time if cond is not None and cond.status == "True" else None
    unschedulable = cond.reason if cond is not None and cond.status == "False" else ""
    status = workload_status(pod)
    started = _first_start(status, mine)
    if scheduled is None and started is not None:
        scheduled = created  # running pods were scheduled; the condition was not collected
    waiting = status.state.waiting.reason if status is not None and status.state.waiting else ""
    bounds: list[tuple[Phase, datetime | None, str]] = [
        (Phase.PENDING, created or scheduled or started, unschedulable),
        (Phase.CREATING, scheduled, "" if started else waiting),
        (Phase.RUNNING, started, ""),
    ]
    seg = Segment(uid=uid, node=pod.spec.node_name, restarts=status.restart_count if status else 0)
    last = status.last_state.terminated if status is not None else None
    if last is not None and last.finished_at is not None and seg.restarts:
        times = "" if seg.restarts == 1 else f" ({seg.restarts} in all; the last one shown)"
        seg.marks.append(Mark(MarkKind.RESTART, last.finished_at, f"exit {last.exit_code}"
                              + (f" {last.reason}" if last.reason else "") + times))
        bounds.append((Phase.WAITING, last.finished_at, waiting or "restarting"))
        if status is not None and status.state.running is not None:
            bounds.append((Phase.RUNNING, status.state.running.started_at, ""))
    term = status.state.terminated if status is not None else None
    if term is not None:
        bounds.append((Phase.TERMINATED, term.finished_at, f"exit {term.exit_code}" + (f" {term.reason}"
                                                                                       if term.reason else "")))
    elif pod.status.phase in ("Failed", "Succeeded"):
        ended = max((c.last_transition_time for c in pod.status.conditions if c.last_transition_time), default=None)
        bounds.append((Phase.TERMINATED, ended, pod.status.reason or pod.status.phase))
    seg.spans = _spans(bounds, end)
    if pod.metadata.deletion_timestamp is not None:
        seg.marks.append(Mark(MarkKind.EVENT, pod.metadata.deletion_timestamp, "deletion requested"))
    return seg


def mirror_segment(mirror: PodMirror, *, end: datetime) -> Segment:
    """An instance known only from its control-plane mirror (the member cluster's Pod was not read)."""
    phase = MIRROR_PHASES.get(mirror.status.phase, Phase.SEEN)
    created = mirror.metadata.creation_timestamp
    seg = Segment(uid=mirror.name, node=mirror.status.node)
    if created is not None:
        seg.spans = [Span(phase, created, max(end, created), "as the Pod mirror shows it")]
    return seg


def earlier_segment(uid: str, *, mirror: PodMirror | None, events: Sequence[Event],
                    replaced_at: datetime | None, end: datetime) -> Segment:
    """A replaced instance, from its mirror and the events about its UID. `replaced_at`: when the next instance
    of the same name was created (this one was gone by then)."""
    times = [e.when for e in events if e.when is not None]
    if mirror is not None and mirror.metadata.creation_timestamp is not None:
        times.append(mirror.metadata.creation_timestamp)
    seg = Segment(uid=uid, current=False,
                  node=(mirror.status.node if mirror is not None else "")
                  or next((e.source.host for e in events if e.source.host), ""))
    if not times:
        return seg
    ordered = sorted((e for e in events if e.when is not None), key=lambda e: e.when or min(times))
    scheduled = next((e.when for e in ordered if e.reason == "Scheduled"), None)
    started = _started_event(ordered, "main") or next((e.when for e in ordered if e.reason == "Started"), None)
    endings = [e for e in ordered if e.reason in ENDINGS]
    ending = min(endings, key=lambda e: (e.when, ENDINGS.index(e.reason))) if endings else None
    stop = ending.when if ending is not None else replaced_at
    first = min(times)
    bounds: list[tuple[Phase, datetime | None, str]] = [(Phase.SEEN if scheduled is None and started is None
                                                         else Phase.PENDING, first, "")]
    bounds += [(Phase.CREATING, scheduled, ""), (Phase.RUNNING, started, "")]
    why = ending.reason if ending is not None else (mirror.status.phase if mirror is not None else "")
    bounds.append((Phase.TERMINATED, stop, why))
    seg.spans = _spans(bounds, replaced_at or stop or max(times))
    if ending is not None and ending.when is not None:
        seg.marks.append(Mark(MarkKind.EVENT, ending.when, ending.reason))
    return seg
