"""A clock for collection tests: `sleep` records the wait and moves the time on, nothing really waits."""

from __future__ import annotations

import threading

from bot.cluster.budget import Clock


class FakeClock:
    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self.slept: list[float] = []
        self._lock = threading.Lock()

    def monotonic(self) -> float:
        with self._lock:
            return self.now

    def sleep(self, seconds: float) -> None:
        with self._lock:
            self.slept.append(seconds)
            self.now += seconds

    @property
    def clock(self) -> Clock:
        return Clock(monotonic=self.monotonic, sleep=self.sleep)
