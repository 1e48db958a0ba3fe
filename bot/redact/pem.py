"""Private keys in PEM form: the key material between the BEGIN and END markers goes, the markers stay.

A key may take lines of its own, sit inside one line (JSON-escaped with ``\\n``, a kubectl one-liner),
carry a log prefix or a JSON log envelope on every line, or end before its END marker (a truncated key
is still a key). Offsets are absolute in the text given.
"""

from __future__ import annotations

import re

from bot.redact.allow import REDACTED_PREFIX
from bot.redact.blocks import MORE, _shape
from bot.redact.later import later
from bot.redact.spans import PRIO_CONT, PRIO_TOKEN, Span

MAX_PEM = 64 * 1024  # larger than any private key; bounds how far a BEGIN looks for its END
OPEN = -2  # a key's body runs to the end of the text without its END marker

BEGIN = later(r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----")
_END = later(r"-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----")
_BODY = later(
    r"[ \t\"',]*(?:[A-Za-z0-9+/=]{1,80}|Proc-Type:.*|DEK-Info:.*|Comment:.*|Version:.*)?"
    r"[ \t\"',\\n]*\r?"
)
_KEY_RUN = later(r"[A-Za-z0-9+/=]{16,}")


def in_line(line: str) -> list[Span]:
    """A PEM key inside one line (JSON-escaped with \\n, or a kubectl one-liner)."""
    spans = []
    for m in BEGIN.finditer(line):
        end_m = _END.search(line, m.end())
        if end_m is not None:
            spans.extend(_body(line, m.end(), end_m.start()))
            continue
        runs = list(_KEY_RUN.finditer(line, m.end()))  # no END here: key material only if it shows
        if runs:
            spans.extend(_body(line, runs[0].start(), runs[-1].end()))
    return spans


def block(text: str, start: int, line: str, spans: list[Span], *, final: bool) -> int | None:
    """A key opened on ``line`` (which starts at ``text[start]``) and not closed on it: add its body's spans
    to ``spans`` and return the offset just past its END marker; ``MORE`` when the END may still come
    (streaming), ``OPEN`` when the body runs to the end of the text. None when the line opens no key."""
    m = BEGIN.search(line)
    if m is None or _END.search(line, m.end()) is not None:
        return None
    body_start = start + m.end()
    end_m = _END.search(text, body_start, body_start + MAX_PEM)
    if end_m is not None:
        prefix, suffix = line[: m.start()], line[m.end() :]
        if prefix.strip() or suffix.strip():
            spans.extend(_lines(text, body_start, end_m.start(), prefix=prefix, suffix=suffix))
        else:
            spans.extend(_body(text, body_start, end_m.start()))
        return end_m.end()
    if not final and len(text) - body_start < MAX_PEM:
        return MORE
    tail_end = tail(text, body_start, spans)
    return OPEN if tail_end is None else tail_end


def tail(text: str, pos: int, spans: list[Span]) -> int | None:
    """Mask PEM body lines from ``pos`` (no END in sight: a truncated key is still a key).

    Returns the offset just past the END marker, or ``None`` when the body runs to the end of text."""
    end_m = _END.search(text, pos, pos + MAX_PEM)
    if end_m is not None:
        spans.extend(_body(text, pos, end_m.start()))
        return end_m.end()
    cur = pos
    while cur < len(text):
        nl = text.find("\n", cur)
        stop = len(text) if nl < 0 else nl
        if cur > pos and _BODY.fullmatch(text, cur, stop) is None:
            break
        cur = stop + 1
    cur = min(cur, len(text))
    spans.extend(_body(text, pos, cur))
    return None if cur >= len(text) else cur


def _body(text: str, start: int, end: int) -> list[Span]:
    """The key material between the markers, without the surrounding line breaks (literal or
    JSON-escaped), so the mask keeps the block's shape and a second pass finds nothing new."""
    while start < end:
        if text[start] in " \t\r\n\"',":
            start += 1
        elif text.startswith(("\\n", "\\r"), start):
            start += 2
        else:
            break
    while end > start:
        if text[end - 1] in " \t\r\n\"',":
            end -= 1
        elif text[end - 2 : end] in ("\\n", "\\r"):
            end -= 2
        else:
            break
    if end <= start or (text.startswith(REDACTED_PREFIX, start) and text.find("]", start) == end - 1):
        return []
    return [Span(start, end, "private-key", PRIO_TOKEN)]


def _lines(text: str, body_start: int, body_end: int, *, prefix: str, suffix: str) -> list[Span]:
    """PEM body lines between the markers; each keeps what it shares with the BEGIN line around the
    marker (a timestamp before it, a JSON log envelope after it)."""
    pre = _shape(prefix) if prefix.strip() else None
    suf = re.compile(_shape(suffix.strip()).pattern.removesuffix(r"[ \t]*") + r"[ \t]*\r?$") if suffix.strip() else None
    spans: list[Span] = []
    pos = body_start
    first = True
    while pos < body_end:
        nl = text.find("\n", pos, body_end)
        stop = body_end if nl < 0 else nl
        a, b = pos, stop
        if not first and pre is not None:
            pm = pre.match(text, a, b)
            if pm is not None:
                a = pm.end()
        if suf is not None:
            sm = suf.search(text, a, b)
            if sm is not None:
                b = sm.start()
        if first and not _KEY_RUN.search(text, a, b):
            a = b  # the rest of the BEGIN line: an envelope, not key material
        while a < b and text[a] in " \t\r\"',":
            a += 1
        while b > a and text[b - 1] in " \t\r\"',":
            b -= 1
        if b > a and not text.startswith(REDACTED_PREFIX, a):
            spans.append(Span(a, b, "private-key", PRIO_CONT if spans else PRIO_TOKEN))
        first = False
        pos = stop + 1
    return spans
