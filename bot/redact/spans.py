"""A span of a line to be replaced, and the merge that turns overlapping finds into one mask."""

from __future__ import annotations

from typing import NamedTuple

from bot.redact.masks import mask

# Higher wins when spans overlap: a recognised token family names the value better than its key does.
PRIO_KEY = 1
PRIO_STRUCT = 2
PRIO_TOKEN = 3
# The further pieces of one secret split over lines (a prefixed PEM body, a wrapped token's tail):
# masked like the rest, counted once with their first piece.
PRIO_CONT = 0


class Span(NamedTuple):
    start: int
    end: int
    kind: str
    prio: int


def merge(spans: list[Span]) -> list[Span]:
    """Union of overlapping spans; the merged span takes the kind of its highest-priority member."""
    if len(spans) < 2:
        return spans
    spans = sorted(spans)
    out: list[Span] = [spans[0]]
    for span in spans[1:]:
        last = out[-1]
        if span.start < last.end:
            best = last if last.prio >= span.prio else span
            out[-1] = Span(last.start, max(last.end, span.end), best.kind, best.prio)
        else:
            out.append(span)
    return out


def apply(text: str, spans: list[Span]) -> str:
    pieces: list[str] = []
    pos = 0
    for span in spans:
        pieces.append(text[pos : span.start])
        pieces.append(mask(span.kind))
        pos = span.end
    pieces.append(text[pos:])
    return "".join(pieces)
