"""Container log files of a bundle: kubectl's per-container sections (`==== START logs for container c of pod
ns/p ====`), read with bounds - at most the last `MAX_LOG_BYTES` of a file and `MAX_LINE_BYTES` of a line -
and what was cut said in words, never dropped silently.

A file is read once to find its sections; their text is not kept. Each section's text is read again (decoded
from the file's bytes) whenever it is asked for, so the memory a bundle needs does not grow with its logs.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from bot.bundle.bounds import MAX_LINE_BYTES, MAX_LOG_BYTES, after_cut, cut_long_lines, read_tail
from bot.bundle.errors import BundleError
from bot.models import LogExcerpt, LogSource

_START = re.compile(r"^==== START logs for container (?P<c>\S+) of pod (?P<ns>[^/\s]+)/(?P<pod>\S+) ====$", re.M)
_END = "==== END logs for container {c} of pod {ns}/{pod} ===="
_START_B = re.compile(_START.pattern.encode(), re.M)
_ANY_END_B = re.compile(rb"^==== END logs for container (?P<c>\S+) of pod [^/\s]+/\S+ ====$", re.M)
UNKNOWN_CONTAINER = "(unnamed)"


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


@dataclass(frozen=True)
class Section:
    container: str
    start: int  # byte offsets in the bounded bytes of the file
    end: int
    truncated: bool


@dataclass
class LogFile:
    """One log file as read: its sections (byte ranges), and notes on what the bounds cut off."""

    data: bytes = b""
    sections: list[Section] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    base: int | None = None  # file offset of data[0] when no line was cut (a section is then a range of the file)
    stamp: tuple[int, int] = (0, 0)  # size and mtime of the file when read

    def text(self, section: Section) -> str:
        return _decode(memoryview(self.data)[section.start:section.end])

    def excerpt(self, source: LogSource, index: int) -> LogExcerpt:
        """Section `index` as an excerpt read from these bytes (as long as they are held): the same text, and
        the same bytes with it, as a `LogFiles.loader` of the file gives."""
        section = self.sections[index]
        keep = self.base is not None

        def load() -> tuple[str, bytes | None]:
            text, data = _decode_keeping(self.data[section.start:section.end])
            return text, data if keep else None
        return LogExcerpt.lazy(source=source, load=load, size=section.end - section.start,
                               truncated=section.truncated)


class LogVisitor(Protocol):
    """What a diagnosis will ask of every log in its scope, asked while the bundle is read: the log files are
    then read once, and their visits share the helpers that find their sections (see `read_bundle`)."""

    @property
    def token(self) -> object:
        """Names this visitor: a result is given back only to the visitor that made it (`LogExcerpt.ahead`)."""

    def wants(self, source: LogSource) -> bool:
        """Whether this log is likely asked for (a wrong guess costs time, never changes an answer)."""

    def visit(self, excerpt: LogExcerpt) -> object:
        """What the visit found: small, and picklable (it may come from a helper process)."""


def _decode(data: bytes | memoryview) -> str:
    # Keep "\r" as it is (tqdm redraws): universal newlines would shift every line number after it.
    return str(data, "utf-8", errors="replace")


def _decode_keeping(data: bytes) -> tuple[str, bytes | None]:
    """The text, and `data` itself when it is valid UTF-8 (then it is exactly the text's encoding)."""
    try:
        return str(data, "utf-8"), data
    except UnicodeDecodeError:
        return _decode(data), None


def _stamp(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_size, st.st_mtime_ns


def _size(n: int) -> str:
    return f"{n / (1 << 20):.1f} MiB" if n >= 1 << 20 else f"{n / 1024:.0f} KiB"


_START_TEXT = b"==== START logs for container "


def _next_start(data: bytes, pos: int) -> re.Match[bytes] | None:
    """`_START_B.search(data, pos)`, found by its fixed text first (a regex anchored at line starts would
    be tried at every line of the file)."""
    while True:
        at = data.find(_START_TEXT, pos)
        if at < 0:
            return None
        if at == 0 or data[at - 1] == 0x0A:
            m = _START_B.match(data, at)
            if m is not None:
                return m
        pos = at + 1


def _sections(data: bytes, *, head_cut: bool, long_lines: bool) -> list[Section]:
    """kubectl's sections, as `split_sections` finds them, in byte offsets of `data`."""
    out: list[Section] = []
    pos = 0
    first = _next_start(data, 0)
    if head_cut:
        # The end of a section whose START line was not read, named by its END line.
        end = _ANY_END_B.search(data, 0, first.start() if first else len(data))
        if end is not None:
            out.append(Section(end["c"].decode("utf-8", "replace"), 0, end.start(), True))
            pos = end.end()
    m = _next_start(data, pos) if pos else first
    matched = False
    while m is not None:
        matched = True
        body = m.end() + 1 if data[m.end():m.end() + 1] == b"\n" else m.end()
        marker = b"==== END logs for container %s of pod %s/%s ====" % (m["c"], m["ns"], m["pod"])
        end_at = data.find(marker, body)
        container = m["c"].decode("utf-8", "replace")
        cut_here = head_cut and not out
        out.append(Section(container, body, len(data) if end_at < 0 else end_at, cut_here or long_lines))
        if end_at < 0:
            break
        m = _next_start(data, end_at + len(marker))
    if not matched and not out and data[pos:].decode("utf-8", errors="replace").strip():
        out.append(Section(UNKNOWN_CONTAINER, pos, len(data), head_cut or long_lines))
    return out


def read_log_file(path: Path, display: str, *, max_bytes: int = MAX_LOG_BYTES,
                  max_line: int = MAX_LINE_BYTES) -> LogFile:
    """Sections of one `logs.txt`/`previous-logs.txt`; raises BundleError (one line) when it cannot be read."""
    try:
        stamp = _stamp(path)
        data, size = read_tail(path, max_bytes)
    except OSError as exc:
        raise BundleError(f"{display}: cannot read: {exc}") from exc
    notes = []
    head_cut = size > len(data)
    base = size - len(data)
    if head_cut:
        cut = after_cut(data)
        base += len(data) - len(cut)
        data = cut
        notes.append(f"{display}: {_size(size)}, only its last {_size(max_bytes)} read")
    data, long_lines = cut_long_lines(data, max_line)
    if long_lines:
        notes.append(f"{display}: {long_lines} line(s) longer than {_size(max_line)} cut to their first "
                     f"{_size(max_line)}")
    return LogFile(data, _sections(data, head_cut=head_cut, long_lines=bool(long_lines)), notes,
                   base=None if long_lines else base, stamp=stamp)


class LogFiles:
    """Reads sections of log files again on demand: a section's own byte range of the file, or, in a file whose
    long lines were cut (or that changed since), the file bounded again - kept for the next section asked for
    (a pod's sections are asked for one after the other). Thread-safe: the bot diagnoses on several threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last: tuple[Path, LogFile] | None = None

    def _file(self, path: Path, display: str) -> LogFile:
        with self._lock:
            if self._last is not None and self._last[0] == path:
                return self._last[1]
        read = read_log_file(path, display)
        with self._lock:
            self._last = (path, read)
        return read

    def loader(self, path: Path, *, display: str, read: LogFile, index: int) -> Callable[[], tuple[str, bytes | None]]:
        """Reads the section's text again: the text, and the file's bytes of it when they are valid UTF-8."""
        section, base, stamp = read.sections[index], read.base, read.stamp

        def load() -> tuple[str, bytes | None]:
            try:
                if base is not None and _stamp(path) == stamp:
                    with path.open("rb") as fh:
                        fh.seek(base + section.start)
                        return _decode_keeping(fh.read(section.end - section.start))
            except OSError as exc:
                raise BundleError(f"{display}: cannot read: {exc}") from exc
            again = self._file(path, display)
            return (again.text(again.sections[index]) if index < len(again.sections) else ""), None
        return load

    def head_loader(self, path: Path, *, display: str, read: LogFile, index: int) -> Callable[[int], str]:
        """Reads the first characters of the section's text again: only as many bytes of the file as can hold
        them, when the section is a byte range of the unchanged file; else its whole text, as `loader` does."""
        section, base, stamp = read.sections[index], read.base, read.stamp

        def head(chars: int) -> str:
            try:
                if base is not None and _stamp(path) == stamp:
                    with path.open("rb") as fh:
                        fh.seek(base + section.start)
                        return _decode(fh.read(min(section.end - section.start, _head_bytes(chars))))[:chars]
            except OSError as exc:
                raise BundleError(f"{display}: cannot read: {exc}") from exc
            return self.loader(path, display=display, read=read, index=index)()[0][:chars]
        return head


def _head_bytes(chars: int) -> int:
    """Bytes enough for the first `chars` characters of a text, decoded with replacement: a character takes at
    most 4 bytes, and the decoding of every sequence that starts 4 bytes or more before a cut does not depend on
    what follows the cut (a cut character at the end becomes a replacement character, past `chars`)."""
    return 4 * chars + 4
