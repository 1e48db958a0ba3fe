"""Past a row limit, rows fold into one per role and phase, so a thousand pods stay readable.

The rows kept whole are the Head's and the eventful ones (replaced, restarted, failed, not running, with an
error), up to the limit; every other row is counted in its (role, phase) group, drawn with the median time each
phase began: a thousand healthy workers are one row, the few that are not each keep theirs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from statistics import median_low

from bot.timeline.model import Folded, Phase, Row, Span

PHASE_ORDER = tuple(Phase)


@dataclass(frozen=True)
class Shown:
    rows: list[Row]
    folded: list[Folded]

    @property
    def folded_pods(self) -> int:
        return sum(f.count for f in self.folded)


def select(rows: Sequence[Row], *, limit: int, end: datetime) -> Shown:
    """At most `limit` rows whole (all of them when they fit), the rest folded."""
    if len(rows) <= limit:
        return Shown(list(rows), [])
    order = [i for i, row in enumerate(rows) if row.is_head or row.eventful]
    keep = sorted(sorted(order, key=lambda i: (not rows[i].is_head, i))[:limit])
    kept = set(keep)
    groups: dict[tuple[str, str], list[Row]] = {}
    for i, row in enumerate(rows):
        if i not in kept:
            groups.setdefault((row.role, row.phase), []).append(row)
    folded = [_fold(key, members, end=end) for key, members in groups.items()]
    return Shown([rows[i] for i in keep], folded)


def _fold(key: tuple[str, str], members: Sequence[Row], *, end: datetime) -> Folded:
    """The group's row: the median time each phase first began, up to the median start of the phase the rows
    are in now, which runs to the end (a restart's second Running is not lost behind its first)."""
    role, phase = key
    starts: dict[Phase, list[datetime]] = {}
    lasts: list[tuple[datetime, Phase]] = []
    for row in members:
        spans = row.segments[-1].spans if row.segments else []
        if not spans:
            continue
        first: dict[Phase, datetime] = {}
        for span in spans:
            first.setdefault(span.phase, span.start)  # a phase met twice (a restart) counts its first start
        for p, at in first.items():
            starts.setdefault(p, []).append(at)
        lasts.append((spans[-1].start, spans[-1].phase))
    if not lasts:
        return Folded(role=role, phase=phase, count=len(members), spans=(), restarts=sum(r.restarts for r in members))
    now_at, now_phase = sorted(lasts)[(len(lasts) - 1) // 2]  # median_low of when the current phase began
    begun = sorted(((median_low(sorted(times)), p) for p, times in starts.items()),
                   key=lambda tp: (tp[0], PHASE_ORDER.index(tp[1])))
    begun = [(at, p) for at, p in begun if at < now_at] + [(now_at, now_phase)]
    spans_out = tuple(Span(p, at, begun[i + 1][0] if i + 1 < len(begun) else max(end, at), "median")
                      for i, (at, p) in enumerate(begun))
    return Folded(role=role, phase=phase, count=len(members), spans=spans_out,
                  restarts=sum(r.restarts for r in members))
