"""Build a timeline from scoped evidence: pure, no I/O but reading the scope's logs.

One row per pod name (the Head first, then workers by role and ordinal), a segment per pod UID: the current
Pod, then the earlier instances its control-plane mirrors and the events about other UIDs show, with the
`rlark.worker.replaced` evidence as the row's notes. A Task without any pod gets a row that says so. On top,
the Job's and each Task's phase changes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime

from bot.diagnose.result import FirstError
from bot.models import Event, Job, LogSource, PodMirror, Task
from bot.redact import Scan
from bot.scope.target import PodCtx, Scope
from bot.settings import Thresholds
from bot.signals.base import SignalContext
from bot.signals.replaced import worker_replaced
from bot.timeline.errors import diagnosed, scanned
from bot.timeline.logs import Visit, adopt_visits, main_views, survey_stages
from bot.timeline.model import Mark, MarkKind, Row, Segment, Timeline, TopRow
from bot.timeline.pods import ENDINGS, earlier_segment, mirror_segment, pod_segment

_ORDINAL = re.compile(r"(\d+)$")


def _natural(name: str) -> tuple[str, int]:
    m = _ORDINAL.search(name)
    return (name[:m.start()], int(m.group(1))) if m else (name, -1)


def _role(task: Task | None, is_head: bool) -> str:
    """"head", else the worker's Task without the job-name prefix (`rollout-a`): two Tasks may share a
    `spec.role`, and their pods are told apart by Task."""
    if is_head:
        return "head"
    if task is None:
        return "pod"
    return (task.name.removeprefix(task.job_name + "-") if task.job_name else task.name) or "worker"


def _first_seen(events: Sequence[Event], mirror: PodMirror | None) -> datetime | None:
    times = [e.when for e in events if e.when is not None]
    if mirror is not None and mirror.metadata.creation_timestamp is not None:
        times.append(mirror.metadata.creation_timestamp)
    return min(times, default=None)


def _instances(ctx: PodCtx, mirrors: Sequence[PodMirror], *, end: datetime) -> list[Segment]:
    """Every instance of the pod name, oldest first: the current one last."""
    events = [e for e in ctx.events if e.involved_object.kind == "Pod" and e.involved_object.name == ctx.name]
    if ctx.pod is not None:
        current = pod_segment(ctx.pod, events, end=end)
    elif ctx.mirror is not None:
        current = mirror_segment(ctx.mirror, end=end)
    else:
        current = Segment(uid="")
    by_uid: dict[str, list[Event]] = {}
    created = current.start
    for e in events:
        uid = e.involved_object.uid
        if uid and uid != current.uid:
            by_uid.setdefault(uid, []).append(e)
        elif not uid and e.reason in ENDINGS and created is not None and e.when is not None and e.when < created:
            by_uid.setdefault("", []).append(e)  # an eviction before this pod existed ended an instance of no known UID
    mirror_of = {m.name: m for m in mirrors if m.name != current.uid}
    uids = list(dict.fromkeys([*mirror_of, *by_uid]))
    if not uids:
        return [current]
    firsts = {u: _first_seen(by_uid.get(u, []), mirror_of.get(u)) for u in uids}
    uids.sort(key=lambda u: (firsts[u] is None, firsts[u] or end))
    nexts = [firsts.get(u) for u in uids[1:]] + [current.start]
    earlier = [earlier_segment(u, mirror=mirror_of.get(u), events=by_uid.get(u, []), replaced_at=n, end=end)
               for u, n in zip(uids, nexts, strict=True)]
    return [*earlier, current]


def _add_stages(pairs: Sequence[tuple[Row, PodCtx | None]], *, year: int, processes: int,
                visits: Mapping[LogSource, Visit] | None = None) -> None:
    """Each pod's wrapper stages, on its current segment: from the visits of their logs when the reader made them,
    else its logs read once each (shared out when large)."""
    views = [(row.segments[-1], view) for row, ctx in pairs if ctx is not None for view in main_views(ctx)]
    found = adopt_visits([v for _, v in views], visits or {}, year=year)
    unread = [i for i, f in enumerate(found) if f is None]
    for i, stages in zip(unread, survey_stages([views[i][1] for i in unread], year=year, processes=processes),
                         strict=True):
        found[i] = stages
    for (seg, view), maybe in zip(views, found, strict=True):
        stages = maybe or []
        if view.excerpt.source.previous:
            seg.earlier_stages = [s.label for s in stages]
        else:
            seg.stages = [s.label for s in stages]
        seg.marks += [Mark(MarkKind.STAGE, s.at, s.label) for s in stages if s.at is not None]


def _rows(scope: Scope, *, end: datetime) -> list[tuple[Row, PodCtx | None]]:
    tasks = {t.name for t in scope.tasks}
    mirrors: dict[str, list[PodMirror]] = {}
    for m in scope.evidence.pod_mirrors:
        if m.task_name in tasks:
            mirrors.setdefault(m.local_name or m.name, []).append(m)
    out: list[tuple[Row, PodCtx | None]] = []
    for ctx in scope.pods:
        row = Row(name=ctx.name, role=_role(ctx.task, ctx.is_head), task=ctx.task.name if ctx.task else "")
        row.segments = _instances(ctx, mirrors.get(ctx.name, []), end=end)
        row.replaced = len(row.segments) > 1
        out.append((row, ctx))
    seen = {ctx.task.name for ctx in scope.pods if ctx.task is not None}
    for task in scope.tasks:
        if task.name not in seen:
            where = f"routed to {task.agent_id}" if task.agent_id else "not routed to any cluster (namespace default)"
            phase = task.status.phase or "(empty)"
            note = f"no pod: Task phase {phase}, {where}" + (f"; {task.status.message}" if task.status.message else "")
            out.append((Row(name=task.name, role=_role(task, task.is_head), task=task.name, notes=[note]), None))
    out.sort(key=lambda rc: (not rc[0].is_head, rc[0].role, rc[0].task, _natural(rc[0].name)))
    return out


def _replacement_notes(scope: Scope, rows: dict[str, Row], *, now: datetime, scan: Scan) -> None:
    hits = worker_replaced(SignalContext(scope=scope, now=now, thresholds=Thresholds(), scan=scan))
    for hit in hits:
        name = (hit.pod or "").rsplit("/", 1)[-1]
        row = rows.get(name)
        if row is not None:
            row.replaced = True
            row.notes += [item.text for item in hit.evidence if item.text not in row.notes]


def _job_row(job: Job) -> TopRow:
    marks: list[Mark] = []
    if job.metadata.creation_timestamp is not None:
        marks.append(Mark(MarkKind.PHASE, job.metadata.creation_timestamp, "submitted"))
    if job.status.start_time is not None:
        marks.append(Mark(MarkKind.PHASE, job.status.start_time, "started"))
    for c in job.status.conditions:
        if c.last_transition_time is not None:
            reason = f" {c.reason}" if c.reason else ""
            marks.append(Mark(MarkKind.PHASE, c.last_transition_time, f"{c.type}={c.status}{reason}"))
    if job.status.end_time is not None:
        marks.append(Mark(MarkKind.PHASE, job.status.end_time, f"ended {job.status.phase}".strip()))
    return TopRow(job.name, "Job", job.status.phase or "(no phase)", tuple(sorted(marks, key=lambda m: m.at)),
                  "stopped" if job.spec.stopped else "")


def _task_row(task: Task) -> TopRow:
    marks: list[Mark] = []
    if task.metadata.creation_timestamp is not None:
        marks.append(Mark(MarkKind.PHASE, task.metadata.creation_timestamp, "created"))
    if task.status.start_time is not None:
        marks.append(Mark(MarkKind.PHASE, task.status.start_time, "started"))
    where = task.agent_id or "unrouted"
    return TopRow(task.name, "Task", task.status.phase or "(no phase)", tuple(sorted(marks, key=lambda m: m.at)),
                  where)


def build_timeline(scope: Scope, *, now: datetime, scan: Scan, processes: int = 1,
                   first_error: FirstError | None = None, visits: Mapping[LogSource, Visit] | None = None) -> Timeline:
    """The timeline of a scoped target. `now`: the right edge (a bundle's capture time); `scan`: the redactor's
    credential scan (log lines are masked with it, as in a diagnosis); `processes`: how many may share reading
    large logs; `first_error`: a diagnosis's, when the caller has one (else failing pods' logs are scanned);
    `visits`: what the bundle reader found in each log as it read it (`visit_text`), so no log is read again."""
    pairs = _rows(scope, end=now)
    _add_stages(pairs, year=now.year, processes=processes, visits=visits)
    rows = [r for r, _ in pairs]
    if scope.tasks:
        _replacement_notes(scope, {r.name: r for r in rows if r.segments}, now=now, scan=scan)
    if first_error is not None:
        first, first_pod = diagnosed(pairs, first_error, year=now.year)
    else:
        first, first_pod = scanned(pairs, year=now.year)
    tasks = sorted(scope.tasks, key=lambda t: (not t.is_head, t.name))
    top = ([_job_row(scope.job)] if scope.job is not None else []) + [_task_row(t) for t in tasks]
    times = [s.start for r in rows for seg in r.segments for s in seg.spans]
    times += [m.at for t in top for m in t.marks] + [m.at for r in rows for seg in r.segments for m in seg.marks]
    start = min(times, default=now)
    end = max([now, *times])
    return Timeline(target=str(scope.target), start=start, end=end, top=top, rows=rows, first_error=first,
                    first_error_pod=first_pod, first_error_from="diagnosis" if first_error is not None else "log scan")
