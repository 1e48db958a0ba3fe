"""APScheduler wiring: one job per check group on its interval, one run at a time, late runs coalesced.

Jobs start on the group's interval grid (multiples of the interval since the epoch), so every replica's
schedule names the same slots and the store lock picks one runner per slot.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.interval import IntervalTrigger

from bot.scheduler.runner import CheckGroup, TickRunner


class Scheduler:
    def __init__(self, runner: TickRunner, *, misfire_grace_seconds: float | None = None) -> None:
        self.runner = runner
        self.misfire_grace = misfire_grace_seconds
        self._scheduler: BackgroundScheduler | None = None
        self._extra: list[tuple[str, float, Callable[[datetime], object]]] = []

    def every(self, name: str, seconds: float, run: Callable[[datetime], object]) -> None:
        """One more job on its own interval grid (`run(now)`, `now` from the runner's clock as the check groups
        get it; the job itself takes care of once-per-slot), added before `start`."""
        self._extra.append((name, seconds, run))

    def start(self) -> None:
        """Start the background thread; each group first runs at its next slot boundary."""
        if self._scheduler is not None:
            return
        scheduler = BackgroundScheduler(timezone=UTC)
        for group in self.runner.groups:
            grace = self.misfire_grace if self.misfire_grace is not None else max(1.0, group.interval_seconds / 2)
            scheduler.add_job(self._fire, trigger=IntervalTrigger(seconds=group.interval_seconds,
                                                                  start_date=datetime.fromtimestamp(0, UTC),
                                                                  timezone=UTC),
                              args=[group], id=f"checks:{group.name}", name=f"checks {group.name}",
                              max_instances=1, coalesce=True, misfire_grace_time=int(grace))
        for name, seconds, run in self._extra:
            scheduler.add_job(self._call, trigger=IntervalTrigger(seconds=seconds,
                                                                  start_date=datetime.fromtimestamp(0, UTC),
                                                                  timezone=UTC),
                              args=[run], id=name, name=name, max_instances=1, coalesce=True,
                              misfire_grace_time=int(max(1.0, seconds / 2)))
        scheduler.start()
        self._scheduler = scheduler

    def _call(self, run: Callable[[datetime], object]) -> None:
        try:
            run(self.runner.clock())
        except Exception:  # one bad run must not stop the schedule
            import logging

            logging.getLogger("bot.scheduler").exception("scheduled job failed")

    def _fire(self, group: CheckGroup) -> None:
        self.runner.run_group(group, now=self.runner.clock())

    def shutdown(self, wait: bool = True) -> None:
        if self._scheduler is not None:
            self._scheduler.shutdown(wait=wait)
            self._scheduler = None

    @property
    def running(self) -> bool:
        return self._scheduler is not None and self._scheduler.running


def default_groups(interval_seconds: float) -> list[CheckGroup]:
    """Every check in one group: one collection per tick serves them all."""
    return [CheckGroup(name="checks", interval_seconds=interval_seconds)]
