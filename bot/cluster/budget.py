"""Shared bounds of one collection run: the overall deadline, the concurrency cap and the counters."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.settings import CollectionBudget


@dataclass(frozen=True)
class Clock:
    """Where a collection run reads the time and waits (retry pauses): the real ones unless a caller gives others."""

    monotonic: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep


REAL_CLOCK = Clock()


class Deadline:
    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._end = clock() + seconds
        self.seconds = seconds

    def remaining(self) -> float:
        return self._end - self._clock()


@dataclass
class Stats:
    """What a run cost; read by progress display and the benchmark."""

    requests: int = 0
    log_requests: int = 0
    bytes_read: int = 0
    retries: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def sent(self, *, log: bool) -> None:
        with self._lock:
            self.requests += 1
            if log:
                self.log_requests += 1

    def received(self, nbytes: int) -> None:
        with self._lock:
            self.bytes_read += nbytes

    def retried(self) -> None:
        with self._lock:
            self.retries += 1


@dataclass(frozen=True)
class Pacing:
    """What every reader of one run shares: its budget, deadline, counters and concurrency cap."""

    budget: CollectionBudget
    deadline: Deadline
    stats: Stats
    limiter: threading.Semaphore
    sleep: Callable[[float], None] = time.sleep
    on_request: Callable[[str], None] | None = None
    on_result: Callable[[str, str, str], None] | None = None  # (verb, resource, status) of every attempt
