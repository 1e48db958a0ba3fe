"""What the Slack handlers and the diagnosis flow are given: built once in `serve`'s composition root."""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Protocol

from bot.checks.alerts import Alert
from bot.conversations.ports import ChatSink
from bot.diagnose import Diagnosis
from bot.obs.metrics import Metrics
from bot.redact import Redactor
from bot.service import Service
from bot.settings import Settings
from bot.sources import EvidenceSource
from bot.store.base import Store
from bot.workers.api import Engine


class AlertOps(Protocol):
    """What `/rlark alerts`, `mute` and `unmute` need from the alert side."""

    def firing_for(self, channel: str) -> tuple[list[Alert], dict[str, str]]:
        """Alerts firing in this channel's scope, and which of them are muted (key -> until, RFC3339)."""
        ...

    def mute(self, key: str, *, seconds: int, by: str) -> str:
        """Mute `key`; returns until when (RFC3339)."""
        ...

    def unmute(self, key: str, *, by: str) -> None: ...


class Readiness:
    """`/readyz`: ready once Slack auth, the store and the evidence source were usable; draining turns it off."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._missing: dict[str, str] = {"slack": "Slack auth not checked yet", "store": "store not checked yet",
                                         "source": "evidence source not checked yet",
                                         "workers": "diagnosis workers not checked yet"}
        self.draining = False
        self.started = False  # everything answered at least once: commands are taken from then on

    def mark(self, part: str, problem: str | None) -> None:
        with self._lock:
            if problem is None:
                self._missing.pop(part, None)
            else:
                self._missing[part] = problem
            if not ({"slack", "source"} & set(self._missing)):
                # Slack and the evidence answered: commands are taken from now on. The store is not required:
                # without it dedupe and the cooldown are off (said in the log), but users still get answers.
                self.started = True

    @property
    def taking_commands(self) -> bool:
        """Once started, commands are answered even while a dependency is down (Redis: dedupe off)."""
        return self.started and not self.draining

    @property
    def ready(self) -> bool:
        return not self._missing and not self.draining

    def reason(self) -> str:
        with self._lock:
            if self.draining:
                return "draining: shutting down"
            return "; ".join(self._missing.values()) or "ready"


class RecentDiagnoses:
    """The last diagnoses by thread, so the Ticket and Evidence buttons need no second collection."""

    def __init__(self, size: int = 64) -> None:
        self._items: OrderedDict[tuple[str, str], Diagnosis] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def put(self, channel: str, ts: str, *, diag: Diagnosis) -> None:
        with self._lock:
            self._items[(channel, ts)] = diag
            self._items.move_to_end((channel, ts))
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def get(self, channel: str, ts: str) -> Diagnosis | None:
        with self._lock:
            return self._items.get((channel, ts))


class AdminCache:
    """Members of the admin user group, cached for a few minutes (`usergroups.users.list`)."""

    def __init__(self, fetch: Callable[[str], list[str]], *, ttl: float = 300.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._fetch, self._ttl, self._clock = fetch, ttl, clock
        self._cache: dict[str, tuple[float, frozenset[str]]] = {}

    def members(self, usergroup: str) -> frozenset[str]:
        hit = self._cache.get(usergroup)
        if hit and self._clock() - hit[0] < self._ttl:
            return hit[1]
        users = frozenset(self._fetch(usergroup))
        self._cache[usergroup] = (self._clock(), users)
        return users


@dataclass
class Deps:
    settings: Settings
    redactor: Redactor
    service: Service
    source: EvidenceSource
    store: Store
    sink: ChatSink
    metrics: Metrics
    pool: ThreadPoolExecutor
    engine: Engine
    readiness: Readiness = field(default_factory=Readiness)
    recent: RecentDiagnoses = field(default_factory=RecentDiagnoses)
    admins: AdminCache | None = None
    alerts: AlertOps | None = None
    log: logging.Logger = field(default_factory=lambda: logging.getLogger("rlark_bot.slack"))
    inflight: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(32))
    identity: dict[str, str] = field(default_factory=dict)  # auth.test's team_id, user_id, bot_id once it passed
