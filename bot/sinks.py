"""The only places text leaves the bot: standard output, standard error and files.

Each takes `SafeText`, which only the redactor makes, so mypy rejects a raw `str` at every call site and
a runtime check catches what a cast would smuggle past it. An architecture test keeps every other module
from writing outward on its own.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, TextIO, cast

from bot.redact import Redactor, SafeText


def _checked(text: SafeText) -> SafeText:
    if not isinstance(text, SafeText):
        raise TypeError(f"a sink got {type(text).__name__}, not SafeText: redact it first")
    return text


def write_stdout(text: SafeText) -> None:
    sys.stdout.write(_checked(text))
    sys.stdout.flush()


def flush_standard_streams() -> bool:
    """Push out whatever standard output and error still hold (a process about to end without the interpreter's
    own exit); False when they could not take it (a closed pipe, a full disk)."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        return False
    return True


def write_stderr(text: SafeText) -> None:
    _write(sys.stderr, text)


def _write(stream: TextIO, text: SafeText) -> None:
    stream.write(_checked(text))
    stream.flush()


def write_file(path: Path, text: SafeText) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_checked(text), encoding="utf-8")


def write_png(path: Path, text: SafeText, *, rasterise: Callable[[str], bytes]) -> None:
    """A picture drawn from redacted SVG text: its bytes are made here, from SafeText, and from nothing else."""
    data = rasterise(_checked(text))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


class _RedactingStderr(io.TextIOBase):
    """A text stream for libraries that want one (rich's live status). Writes are held until the writer
    flushes (rich does after every refresh) and redacted as one piece, so a value split over two writes is
    still seen whole. It writes to the standard error it was made on: while rich's live display runs it
    stands in for `sys.stderr` itself (so that other output appears above the display), and writing through
    `sys.stderr` would come straight back here."""

    def __init__(self, redactor: Redactor) -> None:
        super().__init__()
        self._redactor = redactor
        self._pending: list[str] = []
        self._out: TextIO = sys.stderr

    def write(self, s: str) -> int:
        self._pending.append(s)
        return len(s)

    def flush(self) -> None:
        if self._pending:
            text, self._pending = "".join(self._pending), []
            _write(self._out, self._redactor.redact(text).text)

    def isatty(self) -> bool:
        return self._out.isatty()

    def fileno(self) -> int:
        return self._out.fileno()


def stderr_stream(redactor: Redactor) -> TextIO:
    return cast(TextIO, _RedactingStderr(redactor))


def stdout_bytes() -> BinaryIO:
    """For `redact_stream` only: the redactor writes its own output there, chunk by chunk."""
    return sys.stdout.buffer
