"""The one visit per log that every later question is answered from, shared out over processes when the logs
are large.

A visit reads a log, runs the runbook's prefilter and confirms its candidates, locates the wrapper's markers and
scans for credentials; what it keeps is small (`Surveyed`). On a large bundle the visits are most of a diagnosis,
and they are independent: with `processes` > 1 they are shared out (`bot.forked.Shared`, largest logs first) and
each view adopts what was found in whichever process visited it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from bot.diagnose.logscan import LogMatcher
from bot.forked import MIN_SHARED_BYTES, Shared
from bot.scope.logview import LogView, Surveyed
from bot.signals.hang import step_of
from bot.signals.stages import has_training_signal

_Found = dict[str, int]
WORKLOAD = ("main", "(unnamed)")


def visit(matcher: LogMatcher, view: LogView) -> _Found:
    """One log's visit: the prefilter's candidates (returned), and everything the view keeps from its text. A log
    that can be read again is then dropped from memory."""
    found, present = matcher.survey(view)
    view.survey(present)
    if view.markers.run is not None:
        has_training_signal(view, view.markers.run)  # asked by the stage and run-script signals
    elif not view.markers.any and view.excerpt.source.container in WORKLOAD:
        has_training_signal(view, 0)  # a workload log without the wrapper's lines: asked by the stage
    step_of(view)  # where the log stopped: asked by the hang signals
    view.release()
    return found


def _visit_elsewhere(matcher: LogMatcher, view: LogView) -> tuple[_Found, Surveyed]:
    """A visit whose answers may have to travel to the view's own process (see `LogView.adopt`)."""
    return visit(matcher, view), view.surveyed()


def survey_logs(matcher: LogMatcher, views: Sequence[LogView], *, processes: int = 1) -> dict[int, _Found]:
    """Visit every log once; `id(view)` -> the runbook prefilter's candidates in it. `processes` > 1 shares the
    visits out when the logs hold at least MIN_SHARED_BYTES."""
    sizes = [v.excerpt.size for v in views]
    if processes < 2 or sum(sizes) < MIN_SHARED_BYTES:
        return {id(view): visit(matcher, view) for view in views}
    order = sorted(range(len(views)), key=lambda i: -sizes[i])  # largest first: the tail evens out
    with Shared(views, partial(_visit_elsewhere, matcher), processes=processes, order=order) as shared:
        results = shared.results()
    out: dict[int, _Found] = {}
    for view, (found, done) in zip(views, results, strict=True):
        view.adopt(done)
        out[id(view)] = found
    return out
