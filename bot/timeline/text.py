"""The timeline as text for a terminal or a ticket: a bar per row (one character per slice of time) and a
line of details under it. At most ROW_LIMIT pods get a row; the rest fold into one row per role and phase."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.redact import Redactor, SafeText
from bot.scope.hits import clip
from bot.timeline import clock
from bot.timeline.fold import Shown, select
from bot.timeline.model import Folded, MarkKind, Phase, Row, Segment, Span, Timeline, TopRow

ROW_LIMIT = 50
WIDTH = 60
NAME_MAX = 48
ROLE_W = 12
GLYPH = {Phase.PENDING: "P", Phase.CREATING: "c", Phase.RUNNING: "R", Phase.WAITING: "w", Phase.TERMINATED: "x",
         Phase.SEEN: "?"}
LEGEND = ("* phase change  P pending  c creating  R running  w waiting to restart  x terminated  "
          "? earlier instance (phase unknown)  ! restart  E first error  . nothing")


class _Axis:
    def __init__(self, tl: Timeline, redactor: Redactor) -> None:
        self.redactor = redactor
        self.start, self.end = tl.start, tl.end
        self.step = max((tl.end - tl.start).total_seconds(), 1.0) / WIDTH
        self.days = clock.span_days(tl.start, tl.end)

    def col(self, t: datetime) -> int:
        return min(WIDTH - 1, max(0, int((t - self.start).total_seconds() / self.step)))

    def bar(self, spans: list[Span], marks: list[tuple[datetime, str]]) -> str:
        cells = ["."] * WIDTH
        for span in spans:
            for c in range(self.col(span.start), self.col(span.end) + 1):
                cells[c] = GLYPH[span.phase]
        for t, glyph in marks:
            cells[self.col(t)] = glyph
        return "".join(cells)

    def t(self, t: datetime) -> str:
        return clock.at(t, days=self.days)

    def fit(self, name: str, limit: int) -> str:
        """A name cut to its column: redacted first (a cut secret would no longer be recognised), then cut."""
        safe = str(self.redactor.redact(name).text)
        return safe if len(safe) <= limit else safe[:limit - 1] + "…"


def _segment_marks(seg: Segment) -> list[tuple[datetime, str]]:
    out = [(m.at, "!") for m in seg.marks if m.kind is MarkKind.RESTART]
    return out + [(m.at, "E") for m in seg.marks if m.kind is MarkKind.ERROR and m.first]


def _segment_text(seg: Segment, ax: _Axis) -> str:
    phases = ", ".join(f"{s.phase.value} {ax.t(s.start)}" + (f" ({s.note})" if s.note else "") for s in seg.spans)
    where = f" on {seg.node}" if seg.node else ""
    uid = f"uid {seg.uid[:8]}" if seg.uid else "uid unknown"
    return f"{uid}{where}: {phases or 'no times'}"


def _row_lines(row: Row, ax: _Axis, *, name_w: int) -> list[str]:
    name = ax.fit(row.name, NAME_MAX)
    if not row.segments:
        note = row.notes[0] if row.notes else "no pod"
        return [f"{ax.fit(row.role, ROLE_W):<{ROLE_W}} {name:<{name_w}}  {'.' * WIDTH}  {note}"]
    spans = [s for seg in row.segments for s in seg.spans]
    marks = [m for seg in row.segments for m in _segment_marks(seg)]
    current = row.segments[-1]
    head = f"{row.phase}" + (f", {clock.counted(row.restarts, 'restart')}" if row.restarts else "") + (
        f", {len(row.segments)} instances" if len(row.segments) > 1 else "")
    lines = [f"{ax.fit(row.role, ROLE_W):<{ROLE_W}} {name:<{name_w}}  {ax.bar(spans, marks)}  {head}"]
    pad = " " * (ROLE_W + 3)
    for seg in row.segments:
        lines.append(pad + _segment_text(seg, ax))
    timed = {m.label: m.at for m in current.marks if m.kind is MarkKind.STAGE}
    if current.earlier_stages:
        lines.append(pad + "stages of the previous container: " + ", ".join(current.earlier_stages))
    if current.stages:
        lines.append(pad + "stages: " + ", ".join(f"{s} {ax.t(timed[s])}" if s in timed else s
                                                  for s in current.stages))
    for seg in row.segments:
        for m in seg.marks:
            if m.kind in (MarkKind.RESTART, MarkKind.EVENT) or (m.kind is MarkKind.ERROR and not m.first):
                what = "error" if m.kind is MarkKind.ERROR else m.kind.value
                lines.append(pad + f"{what} {ax.t(m.at)}: {clip(m.label, 160)}")
    lines += [pad + "replaced: " + clip(note, 200) for note in row.notes[:3]]
    return lines


def _top_lines(top: TopRow, ax: _Axis, *, name_w: int) -> list[str]:
    marks = "; ".join(f"{ax.t(m.at)} {m.label}" for m in top.marks) or "no times"
    detail = f" [{top.detail}]" if top.detail else ""
    cells = ["."] * WIDTH
    if top.marks:
        for c in range(ax.col(top.marks[0].at), WIDTH):
            cells[c] = "-"
        for m in top.marks:
            cells[ax.col(m.at)] = "*"
    name = ax.fit(top.name, NAME_MAX)
    return [f"{top.kind:<{ROLE_W}} {name:<{name_w}}  {''.join(cells)}  {top.phase}{detail}: {marks}"]


def _folded_lines(shown: Shown, ax: _Axis, *, name_w: int, total: int) -> list[str]:
    if not shown.folded:
        return []
    rows = clock.counted(len(shown.folded), "row")
    lines = [f"{shown.folded_pods} of {total} pods folded into {rows} by role and phase (at most {ROW_LIMIT} pods "
             "get a row of their own; times are each group's median):"]
    for f in sorted(shown.folded, key=lambda f: (f.role, f.phase)):
        lines.append(_folded_line(f, ax, name_w=name_w))
    return lines


def _folded_line(f: Folded, ax: _Axis, *, name_w: int) -> str:
    began = ", ".join(f"{s.phase.value} {ax.t(s.start)}" for s in f.spans)
    restarts = f"; {clock.counted(f.restarts, 'restart')}" if f.restarts else ""
    label = f"{f.phase} x{f.count}"
    bar = ax.bar(list(f.spans), [])
    return f"{ax.fit(f.role, ROLE_W):<{ROLE_W}} {label:<{name_w}}  {bar}  {began or 'no times'}{restarts}"


def render_text(tl: Timeline, *, redactor: Redactor) -> SafeText:
    ax = _Axis(tl, redactor)
    shown = select(tl.rows, limit=ROW_LIMIT, end=tl.end)
    name_w = min(NAME_MAX, max([len(r.name) for r in shown.rows] + [len(t.name) for t in tl.top] + [12]))
    span = clock.duration(tl.end - tl.start)
    lines = [f"Timeline of {tl.target}: {tl.start:%Y-%m-%d %H:%M:%S}Z to {ax.t(tl.end)}Z ({span}); "
             f"{clock.counted(tl.pods, 'pod')}, {tl.replaced} replaced, {tl.restarted} restarted",
             f"One column = {clock.duration(timedelta(seconds=ax.step))}. {LEGEND}", ""]
    ticks = clock.ticks(tl.start, tl.end, count=5)
    axis = [" "] * (WIDTH + 10)
    for t in ticks:
        label = clock.tick(t, days=ax.days)
        c = ax.col(t)
        axis[c:c + len(label)] = label
    lines.append(" " * (ROLE_W + 1 + name_w + 2) + "".join(axis).rstrip())
    for top in tl.top:
        lines += _top_lines(top, ax, name_w=name_w)
    for row in shown.rows:
        lines += _row_lines(row, ax, name_w=name_w)
    lines += _folded_lines(shown, ax, name_w=name_w, total=len(tl.rows))
    if tl.first_error is not None:
        lines.append(f"{tl.first_error_title} {ax.t(tl.first_error.at)}Z on {tl.first_error_pod} "
                     f"({tl.first_error_from}): {clip(tl.first_error.label, 300)}")
    else:
        lines.append(f"{tl.first_error_title}: none whose line carries a time ({tl.first_error_from}).")
    if tl.first_error_from != "diagnosis":
        lines.append("`rlark-bot diagnose` (or `timeline --diagnose`) names the first error of the cause.")
    return redactor.redact("\n".join(line.rstrip() for line in lines) + "\n").text
