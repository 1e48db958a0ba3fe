"""The timeline as an SVG picture, built as plain strings (no template: a thousand rows are a few hundred
thousand characters, joined once). Every label passes the redactor on its own, before it is cut to fit and
escaped, and the whole document passes it again on its way out.

Layout: a title and legend, a time axis, the Job and Task rows, one row per pod (a rect per phase, a dark
stroke where a new instance begins, ticks for restarts, dots for timed wrapper stages, a red circle for an
error, ringed for the first), the folded rows, and a footer saying what was folded and the first error.
"""

from __future__ import annotations

from datetime import datetime
from html import escape  # also what XML needs (&, <, >, quotes); xml.sax.saxutils would pull in urllib

from bot.redact import Redactor, SafeText
from bot.timeline import clock
from bot.timeline.fold import Shown, select
from bot.timeline.model import Folded, Mark, MarkKind, Phase, Row, Segment, Span, Timeline, TopRow

WIDTH = 1400
MAX_HEIGHT = 4000
LABEL_W = 330
RIGHT = 20
HEADER = 92
ROW_H = 16
TOP_H = 18
FOOTER = 56
PICTURE_ROWS = 100
FONT = "DejaVu Sans, Noto Sans CJK SC, WenQuanYi Micro Hei, sans-serif"
COLORS = {Phase.PENDING: "#f2c94c", Phase.CREATING: "#9ecae1", Phase.RUNNING: "#41ab5d", Phase.WAITING: "#fd8d3c",
          Phase.TERMINATED: "#8c8c8c", Phase.SEEN: "#d0d0d0"}
LEGEND = ((Phase.PENDING, "Pending"), (Phase.CREATING, "creating"), (Phase.RUNNING, "Running"),
          (Phase.WAITING, "waiting to restart"), (Phase.TERMINATED, "Terminated"),
          (Phase.SEEN, "earlier instance, phase unknown"))


class _Canvas:
    def __init__(self, tl: Timeline, redactor: Redactor) -> None:
        self.tl, self.redactor = tl, redactor
        self.x0, self.x1 = float(LABEL_W), float(WIDTH - RIGHT)
        self.total = max((tl.end - tl.start).total_seconds(), 1.0)
        self.days = clock.span_days(tl.start, tl.end)
        self.out: list[str] = []

    def x(self, t: datetime) -> float:
        frac = (t - self.tl.start).total_seconds() / self.total
        return self.x0 + (self.x1 - self.x0) * min(1.0, max(0.0, frac))

    def label(self, text: str, limit: int) -> str:
        """Redacted first (a secret cut in half would no longer be recognised), then cut, then escaped."""
        safe = str(self.redactor.redact(text).text)
        return escape(safe if len(safe) <= limit else safe[:limit - 1] + "…")

    def text(self, at: tuple[float, float], body: str, *, size: int = 11, anchor: str = "start",
             fill: str = "#222", weight: str = "normal") -> None:
        x, y = at
        self.out.append(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" fill="{fill}"'
                        + (f' font-weight="{weight}"' if weight != "normal" else "") + f">{body}</text>")

    def spans(self, spans: tuple[Span, ...] | list[Span], y: float, *, h: float = 10, opacity: str = "") -> None:
        for s in spans:
            x, w = self.x(s.start), max(self.x(s.end) - self.x(s.start), 1.0)
            op = f' fill-opacity="{opacity}"' if opacity else ""
            note = f" ({s.note})" if s.note else ""
            tip = self.label(f"{s.phase.value} from {clock.at(s.start, days=self.days)}{note}", 120)
            self.out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h}" fill="{COLORS[s.phase]}"'
                            f"{op}><title>{tip}</title></rect>")

    def mark(self, m: Mark, y: float, *, x: float | None = None) -> None:
        x = self.x(m.at) if x is None else x
        tip = self.label(f"{clock.at(m.at, days=self.days)} {m.kind.value}: {m.label}", 200)
        if m.kind is MarkKind.RESTART:
            self.out.append(f'<path d="M{x:.1f} {y - 2:.1f}v14" stroke="#d62728" stroke-width="2">'
                            f"<title>{tip}</title></path>")
        elif m.kind is MarkKind.ERROR:
            r, ring = (4.5, ' stroke="#000" stroke-width="1.5"') if m.first else (3.5, "")
            self.out.append(f'<circle cx="{x:.1f}" cy="{y + 5:.1f}" r="{r}" fill="#d62728"{ring}>'
                            f"<title>{tip}</title></circle>")
        elif m.kind is MarkKind.STAGE:
            self.out.append(f'<circle cx="{x:.1f}" cy="{y + 5:.1f}" r="2.5" fill="#08519c"><title>{tip}</title>'
                            "</circle>")
        else:
            self.out.append(f'<path d="M{x - 4:.1f} {y - 2:.1f}l8 14m0 -14l-8 14" stroke="#000" stroke-width="1.2">'
                            f"<title>{tip}</title></path>")


def _header(c: _Canvas, *, bottom: float) -> None:
    tl = c.tl
    title = c.label(f"Timeline of {tl.target}", 90)
    c.text((12, 22), title, size=15, weight="bold")
    summary = (f"{tl.start:%Y-%m-%d %H:%M:%S}Z to {clock.at(tl.end, days=c.days)}Z "
               f"({clock.duration(tl.end - tl.start)}); {clock.counted(tl.pods, 'pod')}, {tl.replaced} replaced, "
               f"{tl.restarted} restarted")
    c.text((12, 40), escape(summary), size=11, fill="#444")
    x = 12.0
    for phase, name in LEGEND:
        c.out.append(f'<rect x="{x:.1f}" y="50" width="12" height="10" fill="{COLORS[phase]}"/>')
        c.text((x + 16, 59), escape(name), size=10)
        x += 22 + 6.2 * len(name)
    for glyph, name in (("restart", "restart"), ("stage", "wrapper stage"), ("error", "error (ringed: the first)"),
                        ("event", "eviction, kill, deletion")):
        c.mark(Mark(MarkKind(glyph), tl.start, name), 50, x=x + 4)
        c.text((x + 12, 59), escape(name), size=10)
        x += 22 + 6.2 * len(name)
    y = HEADER - 8
    for t in clock.ticks(tl.start, tl.end, count=8):
        c.text((c.x(t), y), clock.tick(t, days=c.days), size=10, anchor="middle", fill="#555")
    c.out.append('<g stroke="#e4e4e4">' + "".join(
        f'<path d="M{c.x(t):.1f} {HEADER - 4}V{bottom:.1f}"/>' for t in clock.ticks(tl.start, tl.end, count=8))
        + "</g>")


def _top_row(c: _Canvas, top: TopRow, *, y: float) -> None:
    c.text((8, y + 10), c.label(f"{top.kind} {top.name}", 48), size=11, weight="bold")
    c.text((LABEL_W - 8, y + 10), c.label(top.phase + (f" [{top.detail}]" if top.detail else ""), 22), size=10,
           anchor="end", fill="#444")
    if top.marks:
        c.out.append(f'<path d="M{c.x(top.marks[0].at):.1f} {y + 6:.1f}H{c.x1:.1f}" stroke="#6a51a3" '
                     'stroke-width="2"/>')
    for m in top.marks:
        x = c.x(m.at)
        tip = c.label(f"{clock.at(m.at, days=c.days)} {m.label}", 120)
        c.out.append(f'<path d="M{x:.1f} {y + 1:.1f}l4 5l-4 5l-4 -5z" fill="#6a51a3"><title>{tip}</title></path>')


def _segment(c: _Canvas, seg: Segment, *, y: float, replaced: bool) -> None:
    c.spans(seg.spans, y)
    if replaced and seg.current and seg.start is not None:
        c.out.append(f'<path d="M{c.x(seg.start):.1f} {y - 2:.1f}v14" stroke="#000" stroke-width="2"/>')
    for m in seg.marks:
        c.mark(m, y)


def _pod_row(c: _Canvas, row: Row, *, y: float) -> None:
    role = c.label(row.role, 12)
    c.text((8, y + 9), role, size=10, fill="#666")
    c.text((84, y + 9), c.label(row.name, 38), size=11, weight="bold" if row.is_head else "normal")
    extra = (f"×{len(row.segments)} " if len(row.segments) > 1 else "") + (f"↻{row.restarts}" if row.restarts else "")
    if extra:
        c.text((LABEL_W - 8, y + 9), escape(extra.strip()), size=10, anchor="end", fill="#d62728")
    if not row.segments:
        c.text((c.x0 + 4, y + 9), c.label(row.notes[0] if row.notes else "no pod", 140), size=10, fill="#d62728")
    for seg in row.segments:
        _segment(c, seg, y=y, replaced=len(row.segments) > 1)


def _folded_row(c: _Canvas, f: Folded, *, y: float) -> None:
    c.text((8, y + 9), c.label(f.role, 12), size=10, fill="#666")
    c.text((84, y + 9), c.label(f"{f.phase} ×{f.count} (median times)", 40), size=11, fill="#444")
    if f.restarts:
        c.text((LABEL_W - 8, y + 9), f"↻{f.restarts}", size=10, anchor="end", fill="#d62728")
    c.spans(f.spans, y, opacity="0.55")


def _footer(c: _Canvas, shown: Shown, *, y: float) -> None:
    tl = c.tl
    if shown.folded:
        rows = clock.counted(len(shown.folded), "row")
        said = (f"{shown.folded_pods} of {len(tl.rows)} pods folded into {rows} by role and phase "
                f"({len(shown.rows)} drawn one row per pod)")
        c.text((12, y + 14), escape(said), size=11, fill="#444")
    if tl.first_error is not None:
        body = c.label(f"{tl.first_error_title} {clock.at(tl.first_error.at, days=c.days)}Z on "
                       f"{tl.first_error_pod} ({tl.first_error_from}): {tl.first_error.label}", 190)
        c.text((12, y + 32), body, size=11, fill="#d62728")


def picture_rows(tl: Timeline) -> Shown:
    """The rows drawn: at most PICTURE_ROWS pods, and no more than fit in MAX_HEIGHT with the folded ones."""
    shown = select(tl.rows, limit=PICTURE_ROWS, end=tl.end)
    while _height(tl, shown) > MAX_HEIGHT and len(shown.rows) > 1:
        shown = select(tl.rows, limit=max(1, len(shown.rows) - (_height(tl, shown) - MAX_HEIGHT) // ROW_H - 1),
                       end=tl.end)
    return shown


def _height(tl: Timeline, shown: Shown) -> int:
    return HEADER + TOP_H * len(tl.top) + 6 + ROW_H * (len(shown.rows) + len(shown.folded)) + FOOTER


def render_svg(tl: Timeline, *, redactor: Redactor) -> SafeText:
    shown = picture_rows(tl)
    height = min(_height(tl, shown), MAX_HEIGHT)
    c = _Canvas(tl, redactor)
    _header(c, bottom=float(_height(tl, shown) - FOOTER))
    y = float(HEADER)
    for top in tl.top:
        _top_row(c, top, y=y)
        y += TOP_H
    y += 6
    for i, row in enumerate(shown.rows):
        if i % 2:
            c.out.append(f'<rect x="0" y="{y - 3:.1f}" width="{WIDTH}" height="{ROW_H}" fill="#f6f6f6"/>')
        _pod_row(c, row, y=y)
        y += ROW_H
    for f in sorted(shown.folded, key=lambda f: (f.role, f.phase)):
        _folded_row(c, f, y=y)
        y += ROW_H
    _footer(c, shown, y=y)
    body = "\n".join(c.out)
    doc = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
           f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}">\n'
           f'<rect width="{WIDTH}" height="{height}" fill="#fff"/>\n{body}\n</svg>\n')
    return redactor.redact(doc).text
