"""Live collection's progress as the root message, edited in place (the chat form of a progress bar).

Edits are throttled (Slack allows about one `chat.update` a second per channel) and never block collection:
a failed edit is dropped, the next one carries the newer numbers anyway.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class SlackProgress:
    """Implements the collector's `Progress` protocol: `reading(what, requests=, nbytes=)`, `close()`."""

    def __init__(self, edit: Callable[[dict[str, int | str]], None], *, every: float = 1.5,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._edit = edit
        self._every = every
        self._clock = clock
        self._lock = threading.Lock()
        self._last = clock()
        self._clusters: set[str] = set()
        self._pods = 0
        self._logs = 0
        self._requests = 0
        self._step = ""

    def reading(self, what: str, *, requests: int, nbytes: int) -> None:
        cluster, _, action = what.partition(": ")
        with self._lock:
            if action:
                self._clusters.add(cluster)
            lowered = what.lower()
            if " log" in lowered or lowered.startswith("log"):
                self._logs += 1
            elif "pods" in lowered:
                self._pods += 1
            self._requests = max(self._requests, requests)
            self._step = what
            now = self._clock()
            if now - self._last < self._every:
                return
            self._last = now
            state = self.state()
        try:
            self._edit(state)
        except Exception:  # an edit is cosmetic: never let it break collection
            return

    def state(self) -> dict[str, int | str]:
        return {"step": self._step, "clusters": len(self._clusters), "pods": self._pods, "logs": self._logs,
                "requests": self._requests}

    def close(self, summary: str | None = None) -> None:
        if summary:
            with self._lock:
                self._step = summary
