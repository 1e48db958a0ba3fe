"""Where the first error goes on the timeline, when its log line carries a time.

From a diagnosis, when the caller has one: its `first_error` (the line the ranked answer points at) is found in
the scope's log view it names. Without one: the first error-looking line of each failing pod (restarted, ended
badly, or its wrapper failed; the Head first, at most MAX_ERROR_PODS) since its wrapper's last step, the
earliest ringed; a log scan, not the diagnosis, and the picture says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.diagnose.result import FirstError
from bot.scope.logtime import line_time
from bot.scope.target import PodCtx
from bot.timeline.logs import first_error
from bot.timeline.model import Mark, MarkKind, Phase, Row

MAX_ERROR_PODS = 12
FAILED_STAGES = ("ray-cli-missing", "ray-check-failed")
Pairs = Sequence[tuple[Row, PodCtx | None]]


def failing(row: Row) -> bool:
    seg = row.segments[-1] if row.segments else None
    if seg is None:
        return False
    last = seg.spans[-1] if seg.spans else None
    ended_badly = (last is not None and last.phase in (Phase.TERMINATED, Phase.WAITING)
                   and last.note != "exit 0 Completed")
    stopped = any(s in FAILED_STAGES or (s.startswith("worker-exit") and s != "worker-exit 0")
                  for s in seg.stages + seg.earlier_stages)
    return seg.restarts > 0 or ended_badly or stopped


def scanned(pairs: Pairs, *, year: int) -> tuple[Mark | None, str]:
    """An error mark on each failing pod whose line carries a time; the earliest becomes the first."""
    found: list[tuple[datetime, Row, Mark]] = []
    for row, ctx in [(r, c) for r, c in pairs if c is not None and failing(r)][:MAX_ERROR_PODS]:
        assert ctx is not None
        err = first_error(ctx, year=year)
        if err is None or err.at is None:
            continue
        mark = Mark(MarkKind.ERROR, err.at, err.text)
        row.segments[-1].marks.append(mark)
        found.append((err.at, row, mark))
    if not found:
        return None, ""
    at, row, mark = min(found, key=lambda f: f[0])
    marks = row.segments[-1].marks
    first = Mark(MarkKind.ERROR, at, mark.label, first=True)
    marks[marks.index(mark)] = first
    return first, row.name


def diagnosed(pairs: Pairs, err: FirstError, *, year: int) -> tuple[Mark | None, str]:
    """The diagnosis's first error, on the pod whose log it quotes, when that line carries a time."""
    if err.line is None:
        return None, ""
    for row, ctx in pairs:
        view = next((v for v in (ctx.logs if ctx is not None else []) if v.excerpt.source.ref() == err.source), None)
        if view is None or not row.segments:
            continue
        text = view.text
        pos = 0
        for _ in range(err.line - 1):
            pos = text.find("\n", pos) + 1
            if pos == 0:
                return None, ""
        at = line_time(text, pos, year=year)
        view.release()
        if at is None:
            return None, ""
        mark = Mark(MarkKind.ERROR, at, err.text, first=True)
        row.segments[-1].marks.append(mark)
        return mark, row.name
    return None, ""
