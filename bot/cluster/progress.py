"""What live collection is reading, shown on stderr for people at a terminal and nowhere else."""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING, Protocol, TextIO

from bot.redact import Redactor
from bot.sinks import stderr_stream

if TYPE_CHECKING:
    from rich.status import Status


class Progress(Protocol):
    def reading(self, what: str, *, requests: int, nbytes: int) -> None: ...

    def close(self, summary: str | None = None) -> None: ...


class NullProgress:
    """Piped output, `--format json`, tests: say nothing."""

    def reading(self, what: str, *, requests: int, nbytes: int) -> None:
        pass

    def close(self, summary: str | None = None) -> None:
        pass


class RichProgress:
    """A single live status line on stderr (rich), replaced by a one-line summary at the end. It appears with the
    first read: reading a bundle shows nothing."""

    def __init__(self, redactor: Redactor, stream: TextIO | None = None) -> None:
        from rich.console import Console  # only interactive runs pay for importing rich

        self._console = Console(file=stream or stderr_stream(redactor))
        self._status: Status | None = None
        self._lock = threading.Lock()

    def reading(self, what: str, *, requests: int, nbytes: int) -> None:
        line = f"[dim]{requests} requests, {nbytes / 1024:.0f} KiB[/] reading {what}"
        with self._lock:
            if self._status is None:
                self._status = self._console.status(line, spinner="dots")
                self._status.start()
            else:
                self._status.update(line)

    def close(self, summary: str | None = None) -> None:
        with self._lock:
            status, self._status = self._status, None
        if status is not None:
            status.stop()
        if summary:
            self._console.print(f"[dim]{summary}[/]", highlight=False)


def for_terminal(*, enabled: bool, redactor: Redactor, stream: TextIO | None = None) -> Progress:
    """Rich progress only when asked for and stderr is an interactive terminal."""
    out = stream or sys.stderr
    if enabled and out.isatty():
        return RichProgress(redactor, stream)
    return NullProgress()
