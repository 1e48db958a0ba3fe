"""What a pod's `main` log adds to its row: the Ray wrapper's stages, at the time their line carries, and the
first error line of a pod that failed, where that line carries a time.

Logs are read through the scope's `LogView`s, one at a time and dropped again. Which wrapper lines a log holds
is found in one Hyperscan pass over its bytes (the literals `Markers.scan` looks for), so a literal a log does
not hold is never searched for; wrapper lines print no time of their own, so a stage is placed only when a
stamped line sits just above it (`line_time`).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from bot.forked import MIN_SHARED_BYTES, Shared
from bot.models import LogExcerpt, LogSource
from bot.redact import Detection
from bot.scope.logtime import LOOK_BACK_CHARS, LOOK_BACK_LINES, line_time
from bot.scope.logview import VIEW_LITERALS, LogView
from bot.scope.markers import Markers
from bot.scope.target import PodCtx

hyperscan: Any
try:  # optional like the engine's prefilter: without it every literal is searched for, with the same answers
    import hyperscan
except ImportError:  # pragma: no cover - exercised when the wheel is unavailable
    hyperscan = None

# (Markers field, label): the wrapper's lines in the order it prints them (CONTRACT §1).
STAGES = (("rank", "rank-assigned"), ("prepare", "prepare-script"), ("cli_missing", "ray-cli-missing"),
          ("waiting", "waiting-for-nodes"), ("connecting", "connecting-to-head"), ("reachable", "head-reachable"),
          ("check_failed", "ray-check-failed"), ("ready", "ray-cluster-ready"), ("run", "run-script"),
          ("worker_exit", "worker-exit"))
_LOCAL = threading.local()


@dataclass(frozen=True)
class Stage:
    label: str
    at: datetime | None


@dataclass(frozen=True)
class Visit:
    """What one read of a log found for the timeline, wherever it was read (the bundle reader's helpers read each
    log once, before the objects): its markers, which of VIEW_LITERALS it holds, and each stage with the text
    of its line and of those just above it (`line_time` reads no further back), its time read with the year of
    the picture's right edge once that is known."""

    markers: Markers
    present: frozenset[str] | None
    stages: tuple[tuple[str, str, int], ...]  # (label, the text above and of the stage's line, its offset there)

    def stages_at(self, *, year: int) -> list[Stage]:
        return [Stage(label, line_time(window, pos, year=year)) for label, window, pos in self.stages]


def _no_scan(text: str, /, *, utf8: bytes | None = None) -> list[Detection]:
    return []  # a visit finds markers and times only; credentials are scanned where lines are shown


def visit_text(source: LogSource, text: str, utf8: bytes | None) -> Visit:
    """The timeline's `Visit` of a log's text (`utf8`: its bytes when at hand): for the bundle reader to run on
    each log section while it holds it (`read_bundle(visitor=StageVisitor())`)."""
    excerpt = LogExcerpt.lazy(source=source, load=lambda: (text, utf8), size=len(text))
    view = LogView(excerpt, _no_scan)
    present = present_literals(view)
    markers = Markers.scan(view, present)
    windows = []
    for pos, label in _positions(markers):
        low, end = _window(text, pos)
        windows.append((label, text[low:end], pos - low))
    view.release()
    return Visit(markers, present, tuple(windows))


class StageVisitor:
    """The timeline's `visit_text` of every log, as a bundle reader's visitor (`read_bundle(visitor=...)`): made
    while the reader holds each log's bytes; `visits_of` then collects them from the excerpts."""

    token = "timeline-stages"

    def wants(self, source: LogSource) -> bool:
        return True  # a pod's workload container is known only once the pods are scoped; the others are small

    def visit(self, excerpt: LogExcerpt) -> Visit:
        text, utf8 = excerpt.read()
        return visit_text(excerpt.source, text, utf8)


def visits_of(logs: Sequence[LogExcerpt]) -> dict[LogSource, Visit]:
    """What `StageVisitor` found in each log while it was read (none for a log it did not visit)."""
    out: dict[LogSource, Visit] = {}
    for excerpt in logs:
        found = excerpt.ahead(StageVisitor.token)
        if isinstance(found, Visit):
            out[excerpt.source] = found
    return out


def _window(text: str, pos: int) -> tuple[int, int]:
    """The span of text `line_time(text, pos)` reads: the line holding `pos` and at most LOOK_BACK_LINES lines
    above it, none starting more than LOOK_BACK_CHARS before it."""
    end = text.find("\n", pos)
    start = text.rfind("\n", 0, pos) + 1
    floor = max(0, start - LOOK_BACK_CHARS)
    low = start
    for _ in range(LOOK_BACK_LINES):
        if low <= floor:
            break
        low = text.rfind("\n", floor, low - 1) + 1
    return max(low, floor), len(text) if end < 0 else end


def adopt_visits(views: Sequence[LogView], visits: Mapping[LogSource, Visit], *, year: int
                 ) -> list[list[Stage] | None]:
    """Each view's stages from the visit of its log, which the view keeps as if it had read it; None for a view
    whose log was not visited (it is read)."""
    out: list[list[Stage] | None] = []
    for view in views:
        visit = visits.get(view.excerpt.source)
        if visit is not None:
            _keep(view, visit.markers, visit.present)
        out.append(None if visit is None else visit.stages_at(year=year))
    return out


@dataclass(frozen=True)
class ErrorLine:
    at: datetime | None
    text: str
    source: str
    line: int


def _database() -> Any:
    db = getattr(_LOCAL, "db", None)
    if db is None and hyperscan is not None:
        db = hyperscan.Database()
        db.compile(expressions=[re.escape(lit).encode("utf-8") for lit in VIEW_LITERALS],
                   ids=list(range(len(VIEW_LITERALS))), elements=len(VIEW_LITERALS),
                   flags=[hyperscan.HS_FLAG_SINGLEMATCH] * len(VIEW_LITERALS))
        _LOCAL.db, _LOCAL.scratch = db, hyperscan.Scratch(db)
    return db


def present_literals(view: LogView) -> frozenset[str] | None:
    """Which of VIEW_LITERALS the log holds, in one pass over its bytes; None without Hyperscan."""
    db = _database()
    if db is None:
        return None
    found: set[int] = set()

    def on_match(pid: int, _start: int, _end: int, _flags: int, _ctx: object) -> bool:
        found.add(pid)
        return False

    db.scan(view.take_utf8(), match_event_handler=on_match, scratch=_LOCAL.scratch)
    return frozenset(VIEW_LITERALS[i] for i in found)


def stages_of(view: LogView, *, year: int) -> list[Stage]:
    """The wrapper's stages in `view`, in log order, each with the time of its line when one is near it."""
    stages, markers, present = _visit(view, year=year)
    _keep(view, markers, present)
    return stages


def _visit(view: LogView, *, year: int) -> tuple[list[Stage], Markers, frozenset[str] | None]:
    """One read of the log: its stages, its markers and which of VIEW_LITERALS it holds; then it is dropped."""
    markers = view.__dict__.get("markers")  # a diagnosis may have surveyed this view already
    present = None
    if not isinstance(markers, Markers):
        present = present_literals(view)
        markers = Markers.scan(view, present)
    stages = _stages(view, markers, year=year)
    view.release()
    return stages, markers, present


def _keep(view: LogView, markers: Markers, present: frozenset[str] | None) -> None:
    """What a visit found, kept with the view wherever it ran: later questions need not read the text again
    (the replacement signal asks the Head's logs whether Ray marked a node dead)."""
    view.__dict__["markers"] = markers  # the cached_property's own slot, as `LogView.survey` fills it
    if present is not None:
        view.learn_literals(present)


def survey_stages(views: Sequence[LogView], *, year: int, processes: int = 1) -> list[list[Stage]]:
    """`stages_of` every view, each read once and dropped again; with `processes` > 1 and large logs, shared out
    with forked helpers (largest first), each view then keeping what was found for it wherever it was read."""
    sizes = [v.excerpt.size for v in views]
    if processes < 2 or sum(sizes) < MIN_SHARED_BYTES:
        return [stages_of(v, year=year) for v in views]
    order = sorted(range(len(views)), key=lambda i: -sizes[i])
    with Shared(views, partial(_visit, year=year), processes=processes, order=order) as shared:
        results = shared.results()
    for view, (_, markers, present) in zip(views, results, strict=True):
        _keep(view, markers, present)
    return [stages for stages, _, _ in results]


def _positions(markers: Markers) -> list[tuple[int, str]]:
    """(position, label) of each stage the markers found, in log order."""
    found: list[tuple[int, str]] = []
    for field_name, label in STAGES:
        pos = getattr(markers, field_name)
        if pos is None:
            continue
        if field_name == "worker_exit":
            label = f"worker-exit {markers.worker_exit_code}"
        found.append((pos, label))
    found.sort()
    return found


def _stages(view: LogView, markers: Markers, *, year: int) -> list[Stage]:
    return [Stage(label, line_time(view.text, pos, year=year)) for pos, label in _positions(markers)]


def main_views(ctx: PodCtx) -> list[LogView]:
    """The workload container's logs, the previous instance first."""
    container = ctx.main_log.excerpt.source.container if ctx.main_log is not None else "main"
    views = [v for v in ctx.logs if v.excerpt.source.container == container]
    return sorted(views, key=lambda v: not v.excerpt.source.previous)


def first_error(ctx: PodCtx, *, year: int) -> ErrorLine | None:
    """The first error-looking line of the pod's workload logs (its previous instance first) since the last
    wrapper step it printed (what stopped it, not the noise of the steps that went well), with its time."""
    for view in main_views(ctx):
        m = view.markers
        steps = [p for p in (m.rank, m.prepare, m.connecting, m.reachable, m.waiting, m.ready, m.run) if p is not None]
        pos = view.first_error(max(steps, default=0))
        if pos is not None:
            line = view.line_at(pos)
            found = ErrorLine(line_time(view.text, pos, year=year), line.text, view.excerpt.source.ref(),
                              line.number)
            view.release()
            return found
        view.release()
    return None
