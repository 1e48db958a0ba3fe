"""Streaming redaction in bounded memory.

Input is cut only at line ends, and the engine itself says how far it is done: a PEM block, a
Kubernetes ``name:``/``value:`` pair or a YAML block still open at the end of a chunk is carried
into the next one, so nothing is cut in half. A single line longer than ``max_line`` is cut at the
last whitespace (tokens do not contain any) so memory stays bounded.
"""

from __future__ import annotations

import os
import stat
from collections import Counter
from collections.abc import Mapping
from typing import BinaryIO

from bot.redact.pem import MAX_PEM
from bot.redact.redactor import Redactor

_SEPS = b" \t,;"
CHUNK = 1 << 20


class StreamState:
    """What a stream carries from one chunk to the next: the bytes not yet redacted (a line, an open block)
    and whether a PEM block is open; and what it has masked so far. Fed the same chunks, two states give the
    same output: the output depends on nothing else."""

    def __init__(self, redactor: Redactor, chunk_size: int = CHUNK) -> None:
        self.redactor = redactor
        self.chunk_size = chunk_size
        self.max_carry = max(4 * chunk_size, 2 * MAX_PEM)
        self.carry = b""
        self.pem_open = False
        self.counts: Counter[str] = Counter()

    @property
    def clean(self) -> bool:
        """Nothing open: what comes next is redacted as if the input began with it (after `carry`)."""
        return not self.pem_open

    def feed(self, chunk: bytes) -> bytes:
        """The redacted output that `chunk` (not the end of the input) completes."""
        buf = self.carry + chunk
        cut = buf.rfind(b"\n") + 1
        if cut == 0:
            if len(buf) < self.max_carry:
                self.carry = buf
                return b""
            cut = _soft_cut(buf)
        forced = len(buf) >= self.max_carry
        return self._redact(buf[:cut], buf[cut:], final=forced)

    def finish(self) -> bytes:
        """The rest of the output, at the end of the input."""
        buf, self.carry = self.carry, b""
        return self._redact(buf, b"", final=True) if buf else b""

    def _redact(self, head: bytes, carry: bytes, *, final: bool) -> bytes:
        text = head.decode("utf-8", "surrogateescape")
        out, found, done, self.pem_open = self.redactor.redact_prefix(text, final=final, pem_open=self.pem_open)
        self.counts.update(found)
        self.carry = carry if done >= len(text) else text[done:].encode("utf-8", "surrogateescape") + carry
        return out.encode("utf-8", "surrogateescape")


def is_regular_file(src: BinaryIO) -> bool:
    """Whether `src` is a file on disk (or in memory): all of it is there to read. A pipe or a terminal (`kubectl
    logs -f ... | rlark-bot redact`) is not: its text arrives while it is being redacted."""
    try:
        return stat.S_ISREG(os.fstat(src.fileno()).st_mode)
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError: an in-memory stream
        return True


def redact_stream(src: BinaryIO, dst: BinaryIO, redactor: Redactor, chunk_size: int = CHUNK) -> Mapping[str, int]:
    """Redact `src` to `dst` in chunks of `chunk_size`. From a pipe or a terminal, each line is written as soon
    as it has arrived and is complete (what has arrived is taken, not `chunk_size` waited for), and flushed."""
    state = StreamState(redactor, chunk_size)
    live = not is_regular_file(src)
    read = getattr(src, "read1", src.read) if live else src.read
    while chunk := read(chunk_size):
        dst.write(state.feed(chunk))
        if live:
            dst.flush()
    dst.write(state.finish())
    dst.flush()
    return dict(state.counts)


def _soft_cut(buf: bytes) -> int:
    """Cut an overlong line after its last separator, never inside a token (nor a UTF-8 sequence)."""
    window = buf[-65536:]
    best = max(window.rfind(bytes([c])) for c in _SEPS)
    if best >= 0:
        return len(buf) - len(window) + best + 1
    cut = len(buf)
    while cut > 0 and (buf[cut - 1] & 0xC0) == 0x80:
        cut -= 1
    return max(cut - 1, 1) if cut < len(buf) else cut
