"""Where a secret's value starts and ends in a line, once its key (or its header) has been found: quoted
(with JSON-in-JSON escapes), unquoted up to a stop character, or anchored to the rest of the line."""

from __future__ import annotations

from bot.redact.later import later

_STOP_UNQUOTED = frozenset(" \t\"'`&<>|)}]")
# Where any value ends: a line break (real or JSON-escaped), colour, or CJK text and full-width
# punctuation right after an ASCII token ("token=abc，请检查" keeps the Chinese readable).
_HARD_STOP = later(r"[\n\r\x1b\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]|\\[nrt]")


def open_quote(line: str, pos: int) -> str | None:
    """The quote character enclosing ``pos`` (e.g. ``-H "Cookie: a=b; c=d"``), if any."""
    lo = max(0, pos - 4096)  # bounded: a megabyte-long JSON line must not go quadratic
    for q in ('"', "'"):
        if line.count(q, lo, pos) % 2 == 1:
            return q
    return None


def value_span(line: str, pos: int, *, anchored: bool, quote: str | None, cookie: bool) -> tuple[int, int] | None:
    n = len(line)
    while pos < n and line[pos] in " \t":
        pos += 1
    if pos >= n:
        return None
    if line.startswith(("('", '("'), pos):
        pos += 1  # a long string printed in parentheses, in pieces ("token = ('abc'\n 'def')"): its first piece
    # Quoted values, including JSON-in-JSON (\") and nested escapes (\\\").
    bs = 0
    while pos + bs < n and line[pos + bs] == "\\":
        bs += 1
    if pos + bs < n and line[pos + bs] in "\"'`":
        q = line[pos : pos + bs + 1]
        start = pos + bs + 1
        end = find_close(line, start, q)
        return (start, end) if end > start else None
    if cookie or anchored:
        stop = n if quote is None else line.find(quote, pos)
        if stop < 0:
            stop = n
        hard = _HARD_STOP.search(line, pos, stop)
        end = stop = stop if hard is None else hard.start()
        if anchored and not cookie:
            comment = line.find(" #", pos, stop)
            if comment >= 0:
                end = comment
        while end > pos and line[end - 1] in " \t\r,":
            end -= 1
        return (pos, end) if end > pos else None
    end = pos
    hard = _HARD_STOP.search(line, pos)
    n = n if hard is None else hard.start()
    while end < n:
        c = line[end]
        if c in _STOP_UNQUOTED or c == quote:
            break
        if c in ",;" and (end + 1 >= n or line[end + 1] in " \t\"'"):
            break
        end += 1
    return (pos, end) if end > pos else None


def find_close(line: str, start: int, q: str) -> int:
    """End of a quoted value: the next unescaped closing quote (or the line's end: fail closed)."""
    if len(q) > 1:  # \" style: the value ends at the same escaped quote
        i = line.find(q, start)
        return len(line) if i < 0 else i
    i = start
    while True:  # the next quote, unless a backslash before it escapes what follows the backslash
        close = line.find(q, i)
        if close < 0:
            return len(line)
        escape = line.find("\\", i, close)
        if escape < 0:
            return close
        i = escape + 2
