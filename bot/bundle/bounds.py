"""The bounds a log file is read within: its last MAX_LOG_BYTES, and every line cut to MAX_LINE_BYTES (a binary blob
or a dump on one line), never in the middle of a UTF-8 character."""

from __future__ import annotations

from pathlib import Path

MAX_LOG_BYTES = 64 << 20  # per file: a longer one is read from its end (the newest lines), like `kubectl --tail`
MAX_LINE_BYTES = 256 << 10  # per line: a longer one (a binary blob, a dump on one line) keeps its first bytes


def cut_at_char(data: bytes, pos: int) -> int:
    """`pos` moved back to the start of a UTF-8 character, so a cut never splits one."""
    back = 0
    while back < 3 and 0 < pos < len(data) and (data[pos] & 0xC0) == 0x80:
        pos -= 1
        back += 1
    return pos


def cut_long_lines(data: bytes, limit: int = MAX_LINE_BYTES) -> tuple[bytes, int]:
    """`data` with every line longer than `limit` bytes cut to its first `limit` bytes; and how many were cut.

    A line longer than `limit` contains a whole aligned block of `limit // 2` bytes without a newline, so only
    those blocks are looked at closely: one `find` per block, which stops at the block's first newline."""
    half = max(limit // 2, 1)
    parts: list[bytes] = []
    kept = 0  # data[kept:] is not yet copied to parts
    cut = 0
    block = 0
    while block < len(data):
        stop = min(block + half, len(data))
        if data.find(b"\n", block, stop) >= 0:
            block = stop
            continue
        start = data.rfind(b"\n", 0, block) + 1
        end = data.find(b"\n", stop)
        end = len(data) if end < 0 else end
        if end - start > limit:
            parts.append(data[kept:cut_at_char(data, start + limit)])
            kept = end
            cut += 1
        block = max(end, stop)
    if not cut:
        return data, 0
    parts.append(data[kept:])
    return b"".join(parts), cut


def read_tail(path: Path, limit: int) -> tuple[bytes, int]:
    with path.open("rb") as fh:
        size = fh.seek(0, 2)
        start = max(size - limit, 0)
        fh.seek(start)
        return fh.read(size - start), size  # the exact size: read(limit) would allocate `limit` bytes first


def after_cut(data: bytes) -> bytes:
    """A file read from its middle: drop the partial first line (or, one endless line, a partial character)."""
    first_line = data.find(b"\n")
    if first_line >= 0:
        return data[first_line + 1:]
    skip = 0
    while skip < min(3, len(data)) and (data[skip] & 0xC0) == 0x80:
        skip += 1
    return data[skip:]
