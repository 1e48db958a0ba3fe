"""The audit line and the command counter, written once: one `Audit` per request, made by the listeners'
middleware (`handlers.middleware.audit`), ended once with the request's outcome.

A request answered before the ack ends when its listener returns; one handed to the pool (a diagnosis, a
button's work, an alerts command slower than the ack budget) ends when that work does. An audit that never got
an outcome (a request already taken, dropped) writes nothing.
"""

from __future__ import annotations

import logging
import threading
import time

from bot.obs.logs import new_id
from bot.obs.metrics import Metrics


class Audit:
    def __init__(self, *, log: logging.Logger, metrics: Metrics, user: str, channel: str, command: str,
                 target: str = "") -> None:
        self._log, self._metrics = log, metrics
        self.user, self.channel, self.command, self.target = user, channel, command, target
        self.request_id = new_id()
        self._started = time.monotonic()
        self._lock = threading.Lock()
        self._outcome: str | None = None
        self._later = False
        self._written = False

    def about(self, *, command: str | None = None, target: str | None = None) -> None:
        """What the request turned out to be, once parsed (`diagnose`, `job/x`)."""
        if command is not None:
            self.command = command
        if target is not None:
            self.target = target

    def fields(self) -> dict[str, str]:
        return {"user": self.user, "channel": self.channel, "command": self.command, "target": self.target,
                "request_id": self.request_id}

    def later(self) -> None:
        """The outcome will come from work handed off: the listener's return does not end this audit."""
        with self._lock:
            self._later = True
            known = self._outcome is not None
        if known:  # the work ended before the listener said it handed it off
            self._write()

    def outcome(self, outcome: str) -> None:
        """The request's outcome; written at once if the work was handed off, else when the listener returns."""
        with self._lock:
            self._outcome = outcome
            later = self._later
        if later:
            self._write()

    def listener_returned(self) -> None:
        with self._lock:
            later = self._later
        if not later:
            self._write()

    def _write(self) -> None:
        with self._lock:
            if self._written or self._outcome is None:
                return
            self._written = True
            outcome = self._outcome
        self._metrics.count_command(command=self.command, outcome=outcome)
        duration_ms = int((time.monotonic() - self._started) * 1000)
        self._log.info("command", extra={"user": self.user, "channel": self.channel, "command": self.command,
                                         "target": self.target, "outcome": outcome, "duration_ms": duration_ms,
                                         "request_id": self.request_id})
