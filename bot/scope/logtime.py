"""When a log line was printed, as far as the line (or the lines just above it) says.

Ranking needs "which failed first" across pods, and most runtimes stamp their lines: Python logging and Ray
(`2026-11-20 07:41:12,345`), ISO 8601 (`2026-11-20T07:41:12Z`), glog and c10 (`I1120 07:41:12.123456`).
A traceback line carries no stamp of its own, so the nearest stamped line above it (within a few lines)
stands for it. Times are read as UTC, like every other time in the evidence; a line without any stamp
nearby has no time, and callers then fall back to stage order.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

ISO = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})[ T_](\d{2}):(\d{2}):(\d{2})")
GLOG = re.compile(r"(?:^|[\[\s(])[IWEF](\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})\.\d+")
# GLOG's stamp without its leading context: found fast, the context then checked where it is found.
_GLOG_CORE = re.compile(r"[IWEF]\d{4} \d\d:\d\d:\d\d\.\d")
LOOK_BACK_LINES = 8
LOOK_BACK_CHARS = 4096


def _stamp(line: str, year: int) -> datetime | None:
    try:
        m = ISO.search(line)
        if m is not None:
            y, mo, d, h, mi, s = (int(g) for g in m.groups())
            return datetime(y, mo, d, h, mi, s, tzinfo=UTC)
        g = GLOG.search(line)
        if g is not None:
            mo, d, h, mi, s = (int(x) for x in g.groups())
            return datetime(year, mo, d, h, mi, s, tzinfo=UTC)
    except ValueError:  # 2026-13-45: not a date after all
        return None
    return None


def line_time(text: str, pos: int, *, year: int) -> datetime | None:
    """Time of the line holding `pos`, or of the nearest stamped line above it; None when none is near."""
    end = text.find("\n", pos)
    end = len(text) if end < 0 else end
    start = text.rfind("\n", 0, pos) + 1
    floor = max(0, start - LOOK_BACK_CHARS)
    for _ in range(LOOK_BACK_LINES + 1):
        found = _stamp(text[start:end], year)
        if found is not None:
            return found
        if start <= floor:
            return None
        end = start - 1
        start = text.rfind("\n", floor, end) + 1
    return None


def own_time(line: str, *, year: int) -> datetime | None:
    """The time stamped on `line` itself (not on a line above it); None when it carries none."""
    return _stamp(line, year)


def first_stamp(text: str) -> int | None:
    """Offset of the first time stamp in `text` (ISO 8601 or glog, where `line_time` reads them), None for none.
    The glog form is looked for only before the first ISO stamp, by its core, so a text without stamps is read
    twice at regex speed, not once per position of GLOG's alternation."""
    iso = ISO.search(text)
    end = iso.start() if iso is not None else len(text)
    for m in _GLOG_CORE.finditer(text, 0, end):
        start = m.start()
        if (start == 0 or text[start - 1] in "[ \t\n\r(") and GLOG.match(text, max(0, start - 1)):
            return start
    return None if iso is None else iso.start()
