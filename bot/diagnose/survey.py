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
from bot.models import LogExcerpt, LogSource, Target, TargetKind
from bot.redact import Scan
from bot.scope.logview import LogView, Surveyed
from bot.signals.base import WORKLOAD
from bot.signals.cadence import training_tail
from bot.signals.hang import step_of
from bot.signals.stages import has_training_signal

_Found = dict[str, int]


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
    training_tail(view)  # the end of a training log: asked by the quiet-training signal
    view.release()
    return found


def _visit_elsewhere(matcher: LogMatcher, view: LogView) -> tuple[_Found, Surveyed]:
    """A visit whose answers may have to travel to the view's own process (see `LogView.adopt`)."""
    return visit(matcher, view), view.surveyed()


class VisitAhead:
    """The visits of a target's logs, done while its bundle is read (`bot.bundle.logs.LogVisitor`): the bundle's
    log files are read once, and the visits start while the List files are still being read. `survey_logs` takes
    each log's visit from its excerpt instead of visiting it again; a log not visited ahead is visited there."""

    def __init__(self, matcher: LogMatcher, scan: Scan, target: Target) -> None:
        self._matcher, self._scan, self._target = matcher, scan, target

    @property
    def token(self) -> object:
        return _token(self._matcher, self._scan)

    def wants(self, source: LogSource) -> bool:
        """The logs the target's scope will likely hold, from names alone (the scope itself needs the objects):
        a job's pods are named after it, a pod's or runner's workflow pods after the pod."""
        t = self._target
        if t.namespace and source.namespace != t.namespace:
            return False
        if t.kind is TargetKind.JOB:
            return source.pod.startswith(f"{t.name}-")
        return source.pod == t.name or source.pod.startswith(f"{t.name}-workflow")

    def visit(self, excerpt: LogExcerpt) -> tuple[_Found, Surveyed]:
        return _visit_elsewhere(self._matcher, LogView(excerpt, self._scan))


def _token(matcher: LogMatcher, scan: Scan) -> object:
    """What a visit depends on besides the text: the runbook's matcher and the redactor's scan."""
    return (matcher, scan)


def survey_logs(matcher: LogMatcher, views: Sequence[LogView], *, processes: int = 1) -> dict[int, _Found]:
    """Visit every log once; `id(view)` -> the runbook prefilter's candidates in it. A log visited while its
    bundle was read (`VisitAhead`) is not visited again. `processes` > 1 shares the visits out when the logs hold
    at least MIN_SHARED_BYTES."""
    out: dict[int, _Found] = {}
    rest: list[LogView] = []
    for view in views:
        done = view.excerpt.ahead(_token(matcher, view.scan))
        if isinstance(done, tuple):
            found, surveyed = done
            view.adopt(surveyed)
            out[id(view)] = found
        else:
            rest.append(view)
    out.update(_survey(matcher, rest, processes=processes))
    return out


def _survey(matcher: LogMatcher, views: Sequence[LogView], *, processes: int) -> dict[int, _Found]:
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
