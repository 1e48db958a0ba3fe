"""Container log files of a bundle: kubectl's per-container sections (`==== START logs for container c of pod
ns/p ====`), read with bounds - at most the last `MAX_LOG_BYTES` of a file and `MAX_LINE_BYTES` of a line -
and what was cut said in words, never dropped silently."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bot.bundle.errors import BundleError

_START = re.compile(r"^==== START logs for container (?P<c>\S+) of pod (?P<ns>[^/\s]+)/(?P<pod>\S+) ====$", re.M)
_END = "==== END logs for container {c} of pod {ns}/{pod} ===="
_ANY_END = re.compile(r"^==== END logs for container (?P<c>\S+) of pod [^/\s]+/\S+ ====$", re.M)
UNKNOWN_CONTAINER = "(unnamed)"
MAX_LOG_BYTES = 64 << 20  # per file: a longer one is read from its end (the newest lines), like `kubectl --tail`
MAX_LINE_BYTES = 256 << 10  # per line: a longer one (a binary blob, a dump on one line) keeps its first bytes


def split_sections(text: str) -> Iterator[tuple[str, str]]:
    """Yield (container, log text). Text outside any section belongs to no named container."""
    pos = 0
    matched = False
    while True:
        m = _START.search(text, pos)
        if m is None:
            break
        matched = True
        body_start = m.end() + 1 if text[m.end():m.end() + 1] == "\n" else m.end()
        end_marker = _END.format(c=m["c"], ns=m["ns"], pod=m["pod"])
        end = text.find(end_marker, body_start)
        if end < 0:
            # A dump cut short: keep what is there rather than dropping the container.
            yield m["c"], text[body_start:]
            return
        yield m["c"], text[body_start:end]
        pos = end + len(end_marker)
    if not matched and text.strip():
        yield UNKNOWN_CONTAINER, text


@dataclass
class LogFile:
    """One log file as read: its sections, and notes on what the bounds cut off."""

    sections: list[tuple[str, str, bool]] = field(default_factory=list)  # container, text, truncated
    notes: list[str] = field(default_factory=list)


def _size(n: int) -> str:
    return f"{n / (1 << 20):.1f} MiB" if n >= 1 << 20 else f"{n / 1024:.0f} KiB"


def _cut_at_char(data: bytes, pos: int) -> int:
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
            parts.append(data[kept:_cut_at_char(data, start + limit)])
            kept = end
            cut += 1
        block = max(end, stop)
    if not cut:
        return data, 0
    parts.append(data[kept:])
    return b"".join(parts), cut


def _read_tail(path: Path, limit: int) -> tuple[bytes, int]:
    with path.open("rb") as fh:
        size = fh.seek(0, 2)
        fh.seek(max(size - limit, 0))
        return fh.read(limit), size


def _leading_fragment(text: str) -> tuple[str, str, int] | None:
    """In a file read from the middle: the end of a section whose START line was not read, named by its END line."""
    first = _START.search(text)
    end = _ANY_END.search(text, 0, first.start() if first else len(text))
    if end is None:
        return None
    return end["c"], text[:end.start()], end.end()


def read_log_file(path: Path, display: str, *, max_bytes: int = MAX_LOG_BYTES,
                  max_line: int = MAX_LINE_BYTES) -> LogFile:
    """Sections of one `logs.txt`/`previous-logs.txt`; raises BundleError (one line) when it cannot be read."""
    try:
        data, size = _read_tail(path, max_bytes)
    except OSError as exc:
        raise BundleError(f"{display}: cannot read: {exc}") from exc
    out = LogFile()
    head_cut = size > len(data)
    if head_cut:
        first_line = data.find(b"\n")
        skip = 0
        while first_line < 0 and skip < min(3, len(data)) and (data[skip] & 0xC0) == 0x80:
            skip += 1  # one line longer than the bound: start at a whole character
        data = data[skip:] if first_line < 0 else data[first_line + 1:]
        out.notes.append(f"{display}: {_size(size)}, only its last {_size(max_bytes)} read")
    data, long_lines = cut_long_lines(data, max_line)
    if long_lines:
        out.notes.append(f"{display}: {long_lines} line(s) longer than {_size(max_line)} cut to their first "
                         f"{_size(max_line)}")
    # Keep "\r" as it is (tqdm redraws): universal newlines would shift every line number after it.
    text = data.decode("utf-8", errors="replace")
    rest = text
    if head_cut:
        lead = _leading_fragment(text)
        if lead is not None:
            out.sections.append((lead[0], lead[1], True))
            rest = text[lead[2]:]
    for container, body in split_sections(rest):
        cut_here = head_cut and not out.sections  # no END line named the cut section: it is the first one
        out.sections.append((container, body, cut_here or bool(long_lines)))
    return out
