"""A token or value cut at a line's end by ``fold`` or a log shipper: the tail on the next line goes too.

The tail is taken when the cut line's span ran to its end and the tail looks like the rest of a token
(letters with digits, a long mixed-case run, a run alone on its line after a token family, a wrap
width), when it makes up a fixed-length family's exact length, or when only head and tail together
have a family's shape.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from bot.redact import boxes
from bot.redact.allow import REDACTED_PREFIX
from bot.redact.blocks import MORE, _lines_after, _shape, log_prefix
from bot.redact.later import later
from bot.redact.spans import PRIO_CONT, PRIO_TOKEN, Span

MIN_WRAPPED_LINE = 16  # shorter lines are not wrapped at a width
_RUN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-.~"  # of a token's run
_RUN_START = later(r"[A-Za-z0-9+/=_\-.~]+")
WRAP_WIDTHS = frozenset({32, 40, 48, 60, 64, 72, 76, 80, 100, 120, 128, 160, 200, 256, 512})


def wrapped(
    text: str, start: int, end: int, spans: list[Span], find: Callable[[str], list[Span]], *, final: bool
) -> list[Span] | int:
    """The tail of a token or value cut at the end of this line and continued on the next."""
    raw = text[start:end].rstrip("\r")
    line = raw[: boxes.content_end(raw)] if raw[-1:] in boxes.BORDERS else raw  # a box's border is no text
    if len(line) < 4 or line[-1].isspace():
        return []
    line_end = start + len(line)
    at_end = [  # a value cut at a box's border may have run on over it (an unclosed quote)
        s for s in spans
        if line_end <= s.end <= start + len(raw) and s.start < line_end
        and not text.startswith(REDACTED_PREFIX, s.start)
    ]
    head_start = len(line.rstrip(_RUN_CHARS))
    head = line[head_start:]
    pieces = _pieces(line, line_end, spans)
    if not at_end and len(head) < 4 and not pieces:
        return []  # nothing cut here, whatever the next line holds: it need not be read (nor awaited)
    nxt = _lines_after(text, end + 1, 1, final=final)
    if nxt is None or (not nxt and not final):
        return MORE
    if not nxt:
        return []
    a, b = nxt[0]
    value_line = text[a:b].rstrip("\r")
    skip = _tail_start(line, value_line, boxed=line is not raw)
    if pieces:  # ('head'\n 'tail'): a long string printed in pieces (Python's implicit concatenation)
        qm = _QUOTED_PIECE.match(value_line, skip)
        rest = value_line[qm.end() : boxes.content_end(value_line)] if qm is not None else "x"
        if qm is not None and qm.group("q") == line[-1] and not rest.strip():
            return [Span(a + qm.start("v"), a + qm.end("v"), pieces[-1].kind, PRIO_CONT)]
    tm = _RUN_START.match(value_line, skip)
    if tm is None or (tm.end() < len(value_line) and value_line[tm.end()] not in _TAIL_END):
        return []
    tail = tm.group()
    if at_end and head and _completes(head, tail):
        return [Span(a + tm.start(), a + tm.end(), at_end[-1].kind, PRIO_CONT)]  # exactly its family's length
    if at_end and len(tail) < 4:
        return []
    if at_end and len(line) >= MIN_WRAPPED_LINE:
        rest = value_line[tm.end() :].strip()
        alone = not rest or (rest[0] in "\"'" and _open_quote(line) == rest[0])  # or closing the head's quote
        token_head = any(s.prio == PRIO_TOKEN for s in at_end)
        if _tokenish(tail) or (alone and (token_head or _tail_alone(tail, len(line)))):
            return [Span(a + tm.start(), a + tm.end(), at_end[-1].kind, PRIO_CONT)]
        return []
    # the head alone is no token: one only when joined with the tail (the family's shape crosses the cut)
    if len(head) < 4 or len(tail) < 2:
        return []
    if not (_tokenish(tail) or _tail_alone(tail, len(line)) or (len(head) >= 12 and _tokenish(head))):
        return []  # neither half looks like part of a token: not worth the joined check
    joined = head + tail
    cut = len(head)
    out: list[Span] = []
    for s in find(joined):
        if s.start < cut < s.end:
            out.append(Span(start + head_start + s.start, line_end, s.kind, PRIO_TOKEN))
            out.append(Span(a + tm.start(), a + tm.start() + s.end - cut, s.kind, PRIO_CONT))
    return out


def _pieces(line: str, line_end: int, spans: list[Span]) -> list[Span]:
    """Spans of a quoted value closing a line that opened it in parentheses: ``token = ('head'``."""
    if line[-1] not in "\"'" or "(" + line[-1] not in line:
        return []
    return [s for s in spans if s.end in (line_end, line_end - 1) and s.start < line_end - 1]


def _tail_start(line: str, value_line: str, *, boxed: bool) -> int:
    """Where the next line's text starts: after the log prefix the cut line has too, and a box's border."""
    logp = log_prefix(line)
    skip = 0
    if logp:
        pm = _shape(logp).match(value_line)
        skip = pm.end() if pm is not None else 0
    return boxes.content_start(value_line, skip) if boxed else skip


# Token families of one fixed length: a shorter match at a line's end is a cut token, and the next line's
# first run that makes up the length is its tail, whatever it looks like ("ghp_" + 36, "hf_" + 34 ...).
_FIXED_LENGTHS = (
    *((p, 40) for p in ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "npm_")),
    ("hf_", 37),
    ("glpat-", 26),
    ("AIza", 39),
    *((p, 20) for p in ("AKIA", "ASIA")),
)
_QUOTED_PIECE = later(r"""[ \t]*(?P<q>["'])(?P<v>[A-Za-z0-9+/=_\-.~]{2,})(?P=q)[ \t]*\)?[ \t]*,?""")
_TAIL_END = frozenset(" \t\r\"'`,;)]}" + boxes.BORDERS)


def _completes(head: str, tail: str) -> bool:
    for prefix, length in _FIXED_LENGTHS:
        pos = head.rfind(prefix)
        if pos >= 0 and (pos == 0 or not head[pos - 1].isalnum()):
            have = len(head) - pos
            return have < length == have + len(tail)
    return False


def _open_quote(line: str) -> str | None:
    for q in "\"'":
        if line.count(q) % 2 == 1:
            return q
    return None


def _tail_alone(run: str, width: int) -> bool:
    """A run alone on its line after a cut token: long, mixed case (not a capitalised word), or any
    letters when the cut line has a wrap width (``fold -w 40``, 64, 76, 80 ...)."""
    if not run.isalnum():
        return False
    if len(run) >= 16 or any(a.islower() and b.isupper() for a, b in pairwise(run)):
        return True
    if any(c.isupper() for c in run[1:]) and any(c.islower() for c in run):
        return True
    return width in WRAP_WIDTHS or width >= 1000


def _tokenish(run: str) -> bool:
    """Could this run be the tail of a token: letters with digits, or mixed case inside a long run."""
    if "=" in run.rstrip("=") or run.startswith("-"):
        return False
    letters = any(c.isalpha() for c in run)
    if letters and any(c.isdigit() for c in run):
        return True
    return len(run) >= 12 and any(c.isupper() for c in run[1:]) and any(c.islower() for c in run)
