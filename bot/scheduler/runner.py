"""One scheduled run of a check group, once per interval slot across every replica.

A run takes the store lock `tick:<group>:<slot>` (slot = the interval slot of the scheduled time), so two
replicas firing the same slot run it once; a finished run leaves a `tick-done` marker for a few intervals, so a
replica that fires late still finds the slot run. The notifier checks `holds(lock)` before each delivery (fencing). A
replica that dies mid-run holds its slot (and at most the outbox) no longer than the lock TTL; the next slot
has its own lock. When the store is unavailable the run goes ahead unlocked: alerts still go out, marked as
possibly repeated by the notifier. No APScheduler here: `bot.scheduler.background` drives this on a clock,
tests call `run_once(now)` with time under their control.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.alerts.notifier import Notifier, TickReport
from bot.checks.alerts import Alert
from bot.store.base import Lock, Store, StoreUnavailable

log = logging.getLogger("bot.scheduler")

CollectTick = Callable[[datetime], tuple[list[Alert], Collection[str]]]
"""Run the checks at `now`: (alerts, clusters that could NOT be read in this tick)."""
LagHook = Callable[[str, float], None]
"""(group name, seconds between the slot's scheduled time and the run's start)."""
FiringHook = Callable[[int], None]
"""How many alert threads fire after a run (for `rlark_bot_alerts_firing`)."""


@dataclass(frozen=True)
class CheckGroup:
    """Checks that run together on one interval; `checks` None means every check."""

    name: str
    interval_seconds: float
    checks: tuple[str, ...] | None = None

    def slot(self, at: datetime) -> int:
        return int(at.timestamp() // self.interval_seconds)

    def scheduled(self, at: datetime) -> datetime:
        """The start of the slot `at` falls in."""
        return datetime.fromtimestamp(self.slot(at) * self.interval_seconds, UTC)


@dataclass
class RunResult:
    group: str
    slot: int
    ran: bool
    why: str = ""
    lag: float = 0.0
    report: TickReport | None = None
    unreadable: list[str] = field(default_factory=list)


class TickRunner:
    def __init__(self, *, store: Store, notifier: Notifier, collect: CollectTick, groups: Sequence[CheckGroup],
                 lock_ttl_seconds: float, on_lag: LagHook | None = None, on_firing: FiringHook | None = None,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.store = store
        self.notifier = notifier
        self.collect = collect
        self.groups = list(groups)
        self.lock_ttl = lock_ttl_seconds
        self.on_lag = on_lag
        self.on_firing = on_firing
        self.clock = clock

    def run_once(self, now: datetime | None = None) -> list[RunResult]:
        """Run every group for the slot `now` falls in (tests pass `now`; the scheduler passes nothing)."""
        at = self.clock() if now is None else now
        return [self.run_group(g, now=at) for g in self.groups]

    def run_group(self, group: CheckGroup, *, now: datetime) -> RunResult:
        scheduled = group.scheduled(now)
        result = RunResult(group=group.name, slot=group.slot(now), ran=False,
                           lag=max(0.0, (now - scheduled).total_seconds()))
        if self.on_lag is not None:
            self.on_lag(group.name, result.lag)
        lock: Lock | None = None
        try:
            if self.store.get(self._done_key(group, result.slot)) is not None:
                result.why = "slot already run"
                return result
            lock = self.store.acquire_lock(f"tick:{group.name}:{result.slot}", ttl_seconds=self.lock_ttl)
            if lock is None:
                result.why = "slot already taken by another run"
                return result
        except StoreUnavailable as exc:
            log.warning("scheduler: store unavailable (%s): running %s unlocked", exc, group.name)
        try:
            alerts, unreadable = self.collect(now)
        except Exception as exc:  # one bad collection must not stop the schedule
            log.warning("scheduler: %s could not collect (%s); this tick counts no alert as gone",
                        group.name, str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
            result.why = "collection failed"
            return result
        fence = self._fence(lock)
        result.report = self.notifier.tick(alerts, now=now, unreadable=unreadable, checks=group.checks, fence=fence)
        result.ran, result.unreadable = True, sorted(unreadable)
        if self.on_firing is not None:
            self.on_firing(result.report.firing)
        if lock is not None:
            with contextlib.suppress(StoreUnavailable):  # a late replica still finds this slot run
                self.store.claim(self._done_key(group, result.slot),
                                 ttl_seconds=max(self.lock_ttl, 3 * group.interval_seconds))
        return result

    @staticmethod
    def _done_key(group: CheckGroup, slot: int) -> str:
        return f"tick-done:{group.name}:{slot}"

    def _fence(self, lock: Lock | None) -> Callable[[], bool] | None:
        if lock is None:
            return None
        held = lock

        def fence() -> bool:
            return self.store.holds(held)

        return fence
