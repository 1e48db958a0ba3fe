"""Text inside box-drawing borders: rich/textual tracebacks and locals panels, tables of settings.

``│ │ token = 'ghp_…' │ │`` holds its value between borders, ``│ password │ VALUE │`` (or ``| token | VALUE |``) in
a table's second cell, and a long value wraps onto the next bordered line. ``unboxed`` is a decoded view of such a
line without its borders (a cell border reads as ``: ``, so a key's cell and its value's cell read as an assignment);
``content_end``/``content_start`` are where a line's text ends before its right border and starts after its left one
(for a value cut at the border, wrap.py).
"""

from __future__ import annotations

import re

from bot.redact.decode import View

BORDERS = "│┃║┆┇┊┋╎╏"
_LEFT = re.compile(rf"[ \t]*(?:[{BORDERS}][ \t]*)+")
_RIGHT = re.compile(rf"(?:[ \t]*[{BORDERS}])+[ \t]*\r?$")
_TABLE = re.compile(r"^[ \t]*\|.*\|[ \t]*\r?$")
_INNER = re.compile(rf"[ \t]+[{BORDERS}|][ \t]+")


def boxed(line: str) -> bool:
    return any(c in line for c in BORDERS) or ("|" in line and _TABLE.match(line) is not None)


def content_end(line: str) -> int:
    """Where the text of a line with a right border ends (the line's length when it has none)."""
    m = _RIGHT.search(line) if any(c in line for c in BORDERS) else None
    return m.start() if m is not None else len(line)


def content_start(line: str, pos: int = 0) -> int:
    """Where the text of a line with a left border starts (``pos`` when it has none)."""
    m = _LEFT.match(line, pos)
    return m.end() if m is not None and any(c in m.group() for c in BORDERS) else pos


def unboxed(line: str) -> View | None:
    if not boxed(line):
        return None
    table = _TABLE.match(line) is not None
    left = _LEFT.match(line)
    start = left.end() if left is not None and any(c in left.group() for c in BORDERS) else 0
    end = content_end(line)
    if table:  # "| key | value |": the outer bars are borders too
        start = line.index("|") + 1
        end = line.rstrip(" \t\r").rindex("|")
    pieces: list[str] = []
    origin: list[int] = []
    pos = start
    for m in _INNER.finditer(line, start, end):
        if m.group().strip() == "|" and not table:
            continue  # a shell pipe, not a cell border
        pieces.append(line[pos : m.start()])
        origin.extend(range(pos, m.start()))
        pieces.append(": ")
        origin.extend((m.start(), m.start()))
        pos = m.end()
    pieces.append(line[pos:end])
    origin.extend(range(pos, end + 1))
    return View("".join(pieces), tuple(origin))
