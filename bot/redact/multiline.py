"""Constructs that a candidate line opens and that continue past it: a Kubernetes Secret's data, a secret's
value on the line after its key, a PEM key, a Kubernetes env entry's ``value:`` after its ``name:`` (or before
it, printed in the other order), and a YAML block scalar under a secret's key.

Each adds its spans and says how far it reaches, so the lines it covers are not read again.
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.redact import blocks, pem, structure
from bot.redact.allow import REDACTED_PREFIX
from bot.redact.blocks import MORE
from bot.redact.catalog import G_KSECRET, G_NAME, G_PEM, G_STRUCT
from bot.redact.later import later
from bot.redact.spans import PRIO_STRUCT, Span

GROUPS = frozenset({G_PEM, G_STRUCT, G_NAME, G_KSECRET})  # prefilter groups of a line that may open one
LOOKAHEAD_LINES = 3  # a Kubernetes env "name:" line's "value:" follows within this many lines
MAX_BLOCK_LINES = 2000
_BLANKS = later(r"[ \t]*")
MAX_ENV_BLOCK_LINES = 20  # an env value written as a block scalar is a token or a short key, not a document
_VALUE_BLOCK = later(r"""[ \t]*(?:-[ \t]+)?(?P<key>["']?value)["']?[ \t]*:[ \t]*[|>][-+]?[0-9]?[ \t]*\r?$""")
_VALUE_ENTRY = later(r"""[ \t]*-[ \t]+["']?value["']?[ \t]*:[ \t]*[^\s|>]""")
_DASH = later(r"-[ \t]+")

_BLOCK_KEY = later(r"""^([ \t]*)(?:-[ \t]+)?["']?([A-Za-z0-9_.\-]+)["']?[ \t]*:[ \t]*[|>][-+]?[0-9]?[ \t]*$""")
# Log prefixes before a Kubernetes env entry: those of blocks.log_prefix (klog's ``I1201 10:00:00.1 1 f.go:1]``
# too), colour codes around them, a container's name before a bar (``worker-1 |``, as compose and stern print
# it), a bare bar or box border.
_ENV_PREFIX = later(
    r"""(?:\d{4}-\d\d-\d\d(?:[T ][\d:.,]+(?:Z|[+-]\d\d:?\d\d)?)?[ \t]*(?:stdout|stderr)?[ \t]*(?:[FP][ \t])?"""
    r"""|\[[^\]\n]{1,80}\][ \t]*|\([^)\n]{1,80}\)[ \t]*|(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE)[ \t:]+"""
    r"""|[A-Z]\d{4}[ \t][\d:.]+[ \t]+\d+[ \t][\w.]+:\d+\][ \t]*|\x1b\[[0-9;]*[A-Za-z][ \t]*"""
    r"""|[\w.\-/@]{1,64}[ \t]*[|│][ \t]?|[|│┃║][ \t]?)*"""
)
_SECRET_STEPS = (
    (blocks.secret_after_kind, (G_KSECRET,)),
    (blocks.secret_data, (G_KSECRET,)),
    (blocks.pending_value, (G_STRUCT,)),
)


def cover(
    text: str,
    start: int,
    end: int,
    line: str,
    spans: list[Span],
    *,
    ids: frozenset[int] | None,
    final: bool,
) -> int:
    """Mask the constructs that continue past the line ``text[start:end]`` (which is ``line``) into ``spans``;
    return the offset they cover to, or ``MORE`` when the construct may continue beyond the text and more
    input is needed (streaming), or ``pem.OPEN`` when a PEM body runs to the end of the text without its
    END marker."""
    _value_before(text, start, line, spans)
    found = _secret(text, start, end, spans, ids=ids, final=final)
    if found is None:
        found = pem.block(text, start, line, spans, final=final)
    if found is None:
        found = _env_value(text, end, line, spans, final=final)
    if found is None:
        found = _block_scalar(text, end, line, spans, final=final)
    return end if found is None else found


def _secret(
    text: str, start: int, end: int, spans: list[Span], *, ids: frozenset[int] | None, final: bool
) -> int | None:
    """A Kubernetes Secret's data block, or a secret's value alone on the line after its key."""
    for step, groups in _SECRET_STEPS:
        if ids is None or any(g in ids for g in groups):
            found = step(text, start, end, final=final)
            if found == MORE:
                return MORE
            if isinstance(found, tuple):
                spans.extend(found[0])
                # the lines between "kind: Secret" and its data are still read one by one
                return end if step is blocks.secret_after_kind else max(found[1], end)
    return None


def _env_value(text: str, end: int, line: str, spans: list[Span], *, final: bool) -> int | None:
    """The ``value:`` of a Kubernetes env entry whose ``name:`` names a secret, within a few lines after it; each
    line may come behind a log prefix of its own (a timestamp, ``[pod/x]``, ``worker-1 |``)."""
    cls = structure.pending_name(line[_prefix_end(line):])
    if cls is None:
        return None
    covered = end
    for at in _following_lines(text, end + 1, LOOKAHEAD_LINES, final=final):
        if at is None:
            return MORE
        pos, nxt_end = at
        nxt = text[pos:nxt_end]
        skip = _prefix_end(nxt)
        span = structure.value_line(nxt[skip:], cls)
        if span is not None:
            spans.append(span._replace(start=span.start + pos + skip, end=span.end + pos + skip))
            covered = nxt_end
            break
        block = _VALUE_BLOCK.match(nxt, skip)
        if block is not None:  # "value: >-", the value on the lines below, deeper than "value:"
            return _env_block(text, nxt_end, _indent(nxt, skip), cls.kind, spans, final=final)
        if structure.is_name_line(nxt[skip:]):
            break
    return covered


def _value_before(text: str, start: int, line: str, spans: list[Span]) -> None:
    """The ``value:`` of a Kubernetes env entry printed before its ``name:`` (``- value: V`` then ``  name: K``),
    within a few lines above it and at the same key column; a stream holds such a line back (``held_back``)."""
    if "name" not in line or start == 0:
        return
    skip = _prefix_end(line)
    body = line[skip:]
    cls = structure.pending_name(body)
    if cls is None or body.lstrip(" \t").startswith("-"):
        return  # an entry that starts with its name: a value above belongs to the entry before
    column = _key_column(line, skip)
    pos = start
    for _ in range(LOOKAHEAD_LINES):
        if pos == 0:
            return
        a = text.rfind("\n", 0, pos - 1) + 1
        prev = text[a : pos - 1]
        pskip = _prefix_end(prev)
        if _key_column(prev, pskip) != column or structure.is_name_line(prev[pskip:]):
            return
        if _VALUE_ENTRY.match(prev, pskip):  # the entry opens with its value: its name comes after it
            span = structure.value_line(prev[pskip:], cls)
            if span is not None:
                spans.append(span._replace(start=span.start + a + pskip, end=span.end + a + pskip))
            return
        if prev[pskip:].lstrip(" \t").startswith("-"):
            return  # the entry's first line, and no value in it
        pos = a


def held_back(text: str, safe_end: int) -> int:
    """Where a stream's redacted text may end, at or before ``safe_end`` (a line start): a Kubernetes env
    ``value:`` line among the last few lines before it waits for the ``name:`` that may follow it
    (``_value_before`` then sees both)."""
    pos = safe_end - 1 if safe_end and text[safe_end - 1] == "\n" else safe_end
    held = safe_end
    for _ in range(LOOKAHEAD_LINES):
        if pos <= 0:
            break
        a = text.rfind("\n", 0, pos) + 1
        prev = text[a:pos]
        pskip = _prefix_end(prev)
        if structure.is_name_line(prev[pskip:]):
            break
        if _VALUE_ENTRY.match(prev, pskip):
            held = a
        pos = a - 1
    return held


def _key_column(line: str, skip: int) -> int:
    """The column where a YAML entry's key starts, past the log prefix, the indentation and a list's dash."""
    at = _BLANKS.match(line, skip).end()  # type: ignore[union-attr]  # it matches the empty string
    m = _DASH.match(line, at)
    return _indent(line, skip) + (m.end() - at if m is not None else 0)


def _env_block(text: str, end: int, indent: int, kind: str, spans: list[Span], *, final: bool) -> int:
    """The lines of a block-scalar env value after ``value: |`` (each behind its own log prefix): masked from their
    first character to their end while indented deeper than ``value:``."""
    covered = end
    for at in _following_lines(text, end + 1, MAX_ENV_BLOCK_LINES, final=final):
        if at is None:
            return MORE
        pos, nxt_end = at
        nxt = text[pos:nxt_end]
        skip = _prefix_end(nxt)
        body = nxt[skip:].rstrip("\r")
        if not body.strip() or _indent(nxt, skip) <= indent:
            break
        first = pos + skip + len(body) - len(body.lstrip())
        if not text.startswith(REDACTED_PREFIX, first):
            spans.append(Span(first, pos + skip + len(body), kind, PRIO_STRUCT))
        covered = nxt_end
    return covered


def _indent(line: str, skip: int) -> int:
    """The blanks before a line's content, counted back from where its log prefix (which eats them) ends."""
    pos = skip
    while pos > 0 and line[pos - 1] in " \t":
        pos -= 1
    m = _BLANKS.match(line, skip)
    return skip - pos + (m.end() - skip if m is not None else 0)


def _prefix_end(line: str) -> int:
    """Where a line's content starts after the log prefixes repeated on every line."""
    return _ENV_PREFIX.match(line).end()  # type: ignore[union-attr]  # it matches the empty string


def _block_scalar(text: str, end: int, line: str, spans: list[Span], *, final: bool) -> int | None:
    """The body of a YAML block scalar (``key: |``) under a key that names a secret for sure: the lines
    indented deeper than the key."""
    bm = _BLOCK_KEY.match(line)
    if bm is None:
        return None
    cls = structure.classify(bm.group(2))
    if cls is None or not cls.strong:
        return None
    indent = len(bm.group(1).expandtabs())
    body_start = end + 1
    body_end = end
    for at in _following_lines(text, body_start, MAX_BLOCK_LINES, final=final):
        if at is None:
            return MORE
        nxt = text[at[0]:at[1]]
        if nxt.strip() and len(nxt) - len(nxt.lstrip()) <= indent:
            break
        body_end = at[1]
    while body_start < body_end and text[body_start] in " \t\r\n":
        body_start += 1  # keep the indentation: the block stays a valid YAML shape
    if body_end > body_start and not text.startswith(REDACTED_PREFIX, body_start):
        spans.append(Span(body_start, body_end, cls.kind, PRIO_STRUCT))
        return body_end
    return None


def _following_lines(text: str, pos: int, limit: int, *, final: bool) -> Iterator[tuple[int, int] | None]:
    """Up to ``limit`` lines from ``pos``, as (start, end); None, and nothing after it, when the text ends inside
    one and more of it may come (a stream's next piece)."""
    for _ in range(limit):
        if pos > len(text):
            return
        end = blocks.line_end(text, pos, final=final)
        if end is None:
            yield None
            return
        yield pos, end
        pos = end + 1
