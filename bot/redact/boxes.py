"""Text inside box-drawing borders: rich/textual tracebacks and locals panels, tables of settings.

``│ │ token = 'ghp_…' │ │`` holds its value between borders, ``│ password │ VALUE │`` in a table's second cell, and
a long value wraps onto the next bordered line. ``unboxed`` is a decoded view of such a line without its borders (a
cell border reads as ``: ``, so a key's cell and its value's cell read as an assignment); ``content_end`` and
``content_start`` are where a line's text ends before its right border and starts after its left one (for a value
cut at the border, wrap.py).
"""

from __future__ import annotations

import re

from bot.redact.decode import View

BORDERS = "│┃║┆┇┊┋╎╏"
_ANY = re.compile(f"[{BORDERS}]")
_LEFT = re.compile(rf"[ \t]*(?:[{BORDERS}][ \t]*)+")
_RIGHT = re.compile(rf"(?:[ \t]*[{BORDERS}])+[ \t]*\r?$")
_INNER = re.compile(rf"[ \t]+[{BORDERS}][ \t]+")


def content_end(line: str) -> int:
    """Where the text of a line with a right border ends (the line's length when it has none)."""
    m = _RIGHT.search(line)
    return m.start() if m is not None else len(line)


def content_start(line: str, pos: int = 0) -> int:
    """Where the text of a line with a left border starts (``pos`` when it has none)."""
    m = _LEFT.match(line, pos)
    return m.end() if m is not None and _ANY.search(m.group()) else pos


def unboxed(line: str) -> View | None:
    if line.isascii() or _ANY.search(line) is None:
        return None
    start = content_start(line)
    end = content_end(line)
    pieces: list[str] = []
    origin: list[int] = []
    pos = start
    for m in _INNER.finditer(line, start, end):
        pieces.append(line[pos : m.start()])
        origin.extend(range(pos, m.start()))
        pieces.append(": ")
        origin.extend((m.start(), m.start()))
        pos = m.end()
    pieces.append(line[pos:end])
    origin.extend(range(pos, end + 1))
    return View("".join(pieces), tuple(origin))
