"""What live collection is reading, shown on stderr for people at a terminal and nowhere else."""

from __future__ import annotations

import sys
import threading
from typing import Protocol, TextIO

from bot.redact import Redactor
from bot.sinks import stderr_stream


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
    """A single live status line on stderr (rich), replaced by a one-line summary at the end."""

    def __init__(self, redactor: Redactor, stream: TextIO | None = None) -> None:
        from rich.console import Console  # only interactive runs pay for importing rich

        self._console = Console(file=stream or stderr_stream(redactor))
        self._status = self._console.status("connecting...", spinner="dots")
        self._status.start()
        self._lock = threading.Lock()

    def reading(self, what: str, *, requests: int, nbytes: int) -> None:
        with self._lock:
            self._status.update(f"[dim]{requests} requests, {nbytes / 1024:.0f} KiB[/] reading {what}")

    def close(self, summary: str | None = None) -> None:
        self._status.stop()
        if summary:
            self._console.print(f"[dim]{summary}[/]", highlight=False)


def for_terminal(*, enabled: bool, redactor: Redactor, stream: TextIO | None = None) -> Progress:
    """Rich progress only when asked for and stderr is an interactive terminal."""
    out = stream or sys.stderr
    if enabled and out.isatty():
        return RichProgress(redactor, stream)
    return NullProgress()
