"""Hyperscan's side of log matching: scanning a log's bytes for the lines a pattern database matches.

Scratch space per thread and database, the next matching line after an offset (ASCII bytes are characters one to
one; other text is mapped back from UTF-8 offsets), every match end of a database up to MAX_CANDIDATES, and the
first matching line of each pattern. `bot.diagnose.logscan.LogMatcher` decides what to scan; `re` confirms.
"""

from __future__ import annotations

import bisect
import threading
from typing import Any

hyperscan: Any
try:  # the C extension is optional: the pure-Python path gives the same answers, only slower
    import hyperscan
except ImportError:  # pragma: no cover - exercised when the wheel is unavailable
    hyperscan = None

# Matches of the runbook's patterns one scan keeps; past it, the scan stops and the log is scanned again for the
# first match of each pattern (a log where a pattern matches line after line).
MAX_CANDIDATES = 20_000


_SCRATCH = threading.local()


def scratch(db: Any) -> Any:
    """This thread's scratch space for `db`: a scratch serves one scan at a time, and the Slack bot diagnoses on
    several threads with the one shared matcher (a shared scratch raises ScratchInUseError)."""
    mine: dict[int, tuple[Any, Any]] | None = getattr(_SCRATCH, "by_db", None)
    if mine is None:
        mine = _SCRATCH.by_db = {}
    entry = mine.get(id(db))
    if entry is None:  # the database is kept with its scratch, so its id is never reused while it is here
        entry = mine[id(db)] = (db, hyperscan.Scratch(db))
    return entry[1]


def next_line_ascii(db: Any, data: bytes, start: int) -> int | None:
    """Offset of the start of the line holding the first match of one-pattern `db` in `data[start:]` (ASCII, so
    bytes are characters), or None; the rest of the log is scanned where it lies, not copied."""
    ends: list[int] = []

    def on_match(_pid: int, _start: int, end: int, _flags: int, _ctx: object) -> bool:
        ends.append(end)
        return False

    db.scan(memoryview(data)[start:], match_event_handler=on_match, scratch=scratch(db))
    if not ends:
        return None
    newline = data.rfind(b"\n", start, start + max(ends[0] - 1, 0))
    return newline + 1 if newline >= 0 else start


def next_line_utf8(db: Any, text: str, data: bytes, start: int) -> int | None:
    """`next_line_ascii` of a text that is not ASCII, from `data`, its UTF-8 encoding: the offsets of `start`
    and of the line found are converted (the text before `start` encoded, the bytes up to the line decoded)."""
    at = len(text[:start].encode("utf-8", "surrogatepass"))
    line = next_line_ascii(db, data, at)
    return None if line is None else start + len(data[at:line].decode("utf-8", "surrogatepass"))


class _TooMany(Exception):
    pass


def every_end(db: Any, data: bytes, once: frozenset[int]) -> dict[int, list[int]] | None:
    """Pattern id -> the end offsets of its matches in `data`, in order (the ids in `once` match at most once:
    single-match patterns); None when the patterns match more than MAX_CANDIDATES times."""
    ends: dict[int, list[int]] = {}
    count = [0]

    def on_match(pid: int, _start: int, end: int, _flags: int, _ctx: object) -> bool:
        got = ends.get(pid)
        if got is None:
            ends[pid] = [end]
        else:
            got.append(end)
        if pid not in once:
            count[0] += 1
            if count[0] > MAX_CANDIDATES:
                raise _TooMany
        return False

    try:
        db.scan(data, match_event_handler=on_match, scratch=scratch(db))
    except _TooMany:  # raised by the callback, passed on by the binding as it is
        return None
    for got in ends.values():
        if len(got) > 1:
            got.sort()
    return ends


def lines_of(ends: dict[int, list[int]], data: bytes) -> dict[int, int]:
    """`first_lines` of an ASCII text from every match's end: the start of the line of each pattern's first."""
    out: dict[int, int] = {}
    for pid, got in ends.items():
        end = got[0]
        out[pid] = data.rfind(b"\n", 0, max(end - 1, 0)) + 1 if end else 0
    return out


def next_line_known(ends: list[int], data: bytes, start: int) -> int | None:
    """`next_line_ascii` from the ends of every match already found: the line of the first match that ends at or
    after `start`. A match that began before `start` may add a candidate line (one `re` then rejects if the line
    alone does not match), never hide one."""
    i = bisect.bisect_left(ends, start)
    if i == len(ends):
        return None
    newline = data.rfind(b"\n", start, max(ends[i] - 1, start))
    return newline + 1 if newline >= 0 else start


def first_lines(db: Any, text: str, data: bytes | None = None, *, ascii_only: bool = False) -> dict[int, int]:
    """Pattern id -> character offset of the start of the line holding its first match. `data`: the text
    already encoded; `ascii_only`: byte offsets are character offsets (then `text` is not needed)."""
    if data is None:
        data = text.encode("utf-8", "surrogatepass")
    found: dict[int, int] = {}

    def on_match(pid: int, _start: int, end: int, _flags: int, _ctx: object) -> bool:
        found.setdefault(pid, end)
        return False

    db.scan(data, match_event_handler=on_match, scratch=scratch(db))
    ascii_only = ascii_only or len(data) == len(text)
    out: dict[int, int] = {}
    for pid, end in found.items():
        line_start = data.rfind(b"\n", 0, max(end - 1, 0)) + 1 if end else 0
        out[pid] = line_start if ascii_only else len(data[:line_start].decode("utf-8", "replace"))
    return out
