"""Text inside box-drawing borders: rich/textual tracebacks and locals panels, tables of settings.

``│ │ token = 'ghp_…' │ │`` holds its value between borders, ``│ password │ VALUE │`` in a table's second cell, and
a long value wraps onto the next bordered line. ``unboxed`` is a decoded view of such a line without its borders (a
cell border reads as ``: ``, so a key's cell and its value's cell read as an assignment); ``content_end`` and
``content_start`` are where a line's text ends before its right border and starts after its left one (for a value
cut at the border, wrap.py). A table drawn in ASCII (``| password | VALUE |``) reads the same way.
"""

from __future__ import annotations

import re

from bot.redact.decode import View
from bot.redact.later import later

BORDERS = "│┃║┆┇┊┋╎╏"
_ANY = later(f"[{BORDERS}]")
_LEFT = later(rf"[ \t]*(?:[{BORDERS}][ \t]*)+")
_RIGHT = later(rf"(?:[ \t]*[{BORDERS}])+[ \t]*\r?$")
_INNER = later(rf"[ \t]+[{BORDERS}][ \t]+")


def content_end(line: str) -> int:
    """Where the text of a line with a right border ends (the line's length when it has none)."""
    m = _RIGHT.search(line)
    return m.start() if m is not None else len(line)


def content_start(line: str, pos: int = 0) -> int:
    """Where the text of a line with a left border starts (``pos`` when it has none)."""
    m = _LEFT.match(line, pos)
    return m.end() if m is not None and _ANY.search(m.group()) else pos


_ASCII_ROW = later(r"""(?<![\w|])\|[ \t]+(?P<body>[A-Za-z_][\w.\-]*[ \t]+\|[ \t]+[^\s|][^|\n]*?)[ \t]+\|""")
_ASCII_INNER = later(r"[ \t]+\|[ \t]+")


def unboxed(line: str) -> View | None:
    if line.isascii() or _ANY.search(line) is None:
        return _ascii_row(line)
    return _cells(line, content_start(line), content_end(line), _INNER)


def _ascii_row(line: str) -> View | None:
    """A key's cell and its value's in a table drawn in ASCII (``| password | VALUE |``: tabulate, markdown,
    MySQL's client), anywhere on the line (behind a log prefix, inside a JSON log envelope)."""
    if " | " not in line:
        return None
    m = _ASCII_ROW.search(line)
    return None if m is None else _cells(line, m.start("body"), m.end("body"), _ASCII_INNER)


def _cells(line: str, start: int, end: int, inner: re.Pattern[str]) -> View:
    pieces: list[str] = []
    origin: list[int] = []
    pos = start
    for m in inner.finditer(line, start, end):
        pieces.append(line[pos : m.start()])
        origin.extend(range(pos, m.start()))
        pieces.append(": ")
        origin.extend((m.start(), m.start()))
        pos = m.end()
    pieces.append(line[pos:end])
    origin.extend(range(pos, end + 1))
    return View("".join(pieces), tuple(origin))
