"""A job's or pod's pods over time: built from the evidence (pure), drawn as text, SVG or PNG."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from bot.diagnose.result import FirstError
from bot.errors import NotFound
from bot.models import Evidence, LogSource, Target
from bot.redact import Redactor
from bot.scope.target import scope_evidence
from bot.timeline.build import build_timeline
from bot.timeline.logs import StageVisitor, Visit, visit_text, visits_of
from bot.timeline.model import Timeline
from bot.timeline.raster import rasterise
from bot.timeline.svg import render_svg
from bot.timeline.text import render_text


def timeline_of(evidence: Evidence, target: Target, *, now: datetime, redactor: Redactor,
                processes: int = 1, first_error: FirstError | None = None,
                visits: Mapping[LogSource, Visit] | None = None) -> Timeline:
    """The timeline of `target` in `evidence`; NotFound (saying where it looked) when it is not there.
    `processes`: how many may share reading large logs; `first_error`: a diagnosis's (the Slack reply has one);
    `visits`: the logs' `visit_text`, made by the bundle reader as it read them (`TIMELINE_KINDS`)."""
    scope = scope_evidence(evidence, target, scan=redactor.scan)
    if not scope.found:
        raise NotFound(f"{target} not found: {scope.where}")
    return build_timeline(scope, now=now, scan=redactor.scan, processes=processes, first_error=first_error,
                          visits=visits)


def png_of(tl: Timeline, *, redactor: Redactor) -> bytes:
    """The PNG for an upload (Slack's files_upload_v2): drawn from the redacted SVG, as `bot.sinks.write_png` does."""
    return rasterise(render_svg(tl, redactor=redactor))


# The kinds (file stems, `bot.models.kinds`) a timeline is drawn from: the Job, its Tasks and their pods' mirrors,
# the pods and the events about them, and the runners a runner target names. Not Nodes, claims, leases or pools.
TIMELINE_KINDS = frozenset({"jobs.rlinf.io", "tasks.rlinf.io", "pods.rlinf.io", "pods", "events",
                            "ephemeralrunners.actions.github.com"})

__all__ = ["TIMELINE_KINDS", "StageVisitor", "Timeline", "Visit", "build_timeline", "png_of", "render_svg",
           "render_text", "timeline_of", "visit_text", "visits_of"]
