"""Wiring for `serve`: the scheduled checks over an evidence source, feeding the alert notifier.

`collect_tick(source, thresholds)` is the plain callable the runner takes; `build(...)` assembles the runner and
the APScheduler driver from settings, so the composition root only passes its store, Slack sink and source.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import datetime

from bot.alerts.notifier import Notifier
from bot.alerts.ports import AlertSink
from bot.checks.alerts import Alert
from bot.checks.run import tick_checks
from bot.runbook import Runbook
from bot.scheduler.background import Scheduler, default_groups
from bot.scheduler.runner import CollectTick, FiringHook, LagHook, TickRunner
from bot.service import Ticked
from bot.settings import Settings, Thresholds
from bot.sources import EvidenceSource
from bot.store.base import Store


def collect_tick(source: EvidenceSource, thresholds: Thresholds) -> CollectTick:
    """Read what the checks need from `source` and run them all; clusters that could not be read come back
    with the alerts so their other alerts are not counted as gone. A source error propagates (the runner logs it
    and counts nothing as gone for that tick)."""

    def collect(now: datetime) -> tuple[list[Alert], Collection[str]]:
        return tick_checks(source.for_checks().evidence, now=now, thresholds=thresholds)

    return collect


def ticked_by(tick: Callable[[datetime], Ticked]) -> CollectTick:
    """The runner's collect over a service tick run elsewhere (`serve`: in a diagnosis worker process)."""

    def collect(now: datetime) -> tuple[list[Alert], Collection[str]]:
        done = tick(now)
        return list(done.alerts), list(done.unreadable)

    return collect


def build(*, settings: Settings, store: Store, sink: AlertSink, source: EvidenceSource,
          runbook: Runbook | None = None, on_lag: LagHook | None = None, on_firing: FiringHook | None = None,
          collect: CollectTick | None = None) -> Scheduler:
    """The scheduler `serve` starts: every check in one group on `checks.interval_seconds`. Alert roots quote the
    runbook's next step and what not to do, so the runbook is loaded here when the caller has none. `collect`:
    how a tick reads and checks (default: over `source` in the scheduler's own thread)."""
    if runbook is None:
        from bot.runbook import load_runbook
        from bot.signals.names import SIGNALS

        runbook = load_runbook(known_signals=SIGNALS)
    notifier = Notifier(store=store, sink=sink, settings=settings, runbook=runbook)
    runner = TickRunner(store=store, notifier=notifier, collect=collect or collect_tick(source, settings.thresholds),
                        groups=default_groups(settings.checks.interval_seconds),
                        lock_ttl_seconds=settings.checks.lock_ttl_seconds, on_lag=on_lag, on_firing=on_firing)
    return Scheduler(runner)
