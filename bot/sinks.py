"""The only places text leaves the bot: standard output, standard error and files.

Each takes `SafeText`, which only the redactor makes, so mypy rejects a raw `str` at every call site and
a runtime check catches what a cast would smuggle past it. An architecture test keeps every other module
from writing outward on its own.
"""

from __future__ import annotations

import io
import sys
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


def write_stderr(text: SafeText) -> None:
    sys.stderr.write(_checked(text))
    sys.stderr.flush()


def write_file(path: Path, text: SafeText) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_checked(text), encoding="utf-8")


class _RedactingStderr(io.TextIOBase):
    """A text stream for libraries that want one (rich's live status). Writes are held until the writer
    flushes (rich does after every refresh) and redacted as one piece, so a value split over two writes is
    still seen whole."""

    def __init__(self, redactor: Redactor) -> None:
        super().__init__()
        self._redactor = redactor
        self._pending: list[str] = []

    def write(self, s: str) -> int:
        self._pending.append(s)
        return len(s)

    def flush(self) -> None:
        if self._pending:
            text, self._pending = "".join(self._pending), []
            write_stderr(self._redactor.redact(text).text)

    def isatty(self) -> bool:
        return sys.stderr.isatty()

    def fileno(self) -> int:
        return sys.stderr.fileno()


def stderr_stream(redactor: Redactor) -> TextIO:
    return cast(TextIO, _RedactingStderr(redactor))


def stdout_bytes() -> BinaryIO:
    """For `redact_stream` only: the redactor writes its own output there, chunk by chunk."""
    return sys.stdout.buffer
