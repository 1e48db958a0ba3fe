"""The per-slot run: once per slot across replicas, fencing, lock expiry, lag, failed collection."""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection
from datetime import datetime, timedelta

from alerts.fakes import RecordingSink
from alerts.helpers import T0, at, pool, settings

from bot.alerts.notifier import Notifier
from bot.checks.alerts import Alert
from bot.scheduler.background import Scheduler, default_groups
from bot.scheduler.runner import CheckGroup, TickRunner
from bot.store.memory import MemoryStore


class Clock:
    def __init__(self, t: float = T0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


class Collect:
    def __init__(self, alerts: list[Alert] | None = None) -> None:
        self.alerts = alerts if alerts is not None else [pool("a3")]
        self.unreadable: list[str] = []
        self.calls: list[datetime] = []
        self.fail = False

    def __call__(self, now: datetime) -> tuple[list[Alert], Collection[str]]:
        self.calls.append(now)
        if self.fail:
            raise RuntimeError("control plane unreachable\nwith a second line")
        return list(self.alerts), list(self.unreadable)


def runner(store: MemoryStore, collect: Collect, sink: RecordingSink | None = None,
           lags: list[tuple[str, float]] | None = None) -> TickRunner:
    s = settings()
    n = Notifier(store=store, sink=sink or RecordingSink(), settings=s)
    return TickRunner(store=store, notifier=n, collect=collect, groups=default_groups(60), lock_ttl_seconds=30,
                      on_lag=(lambda g, lag: lags.append((g, lag))) if lags is not None else None,
                      clock=store_clock(store))


def store_clock(store: MemoryStore) -> Callable[[], datetime]:
    """The test clock the store measures TTLs with, as the runner reads the time."""
    return lambda: at(store._now())


def test_two_replicas_run_each_slot_once() -> None:
    clock = Clock()
    store = MemoryStore(now=clock)
    c1, c2 = Collect(), Collect()
    sink = RecordingSink()
    a, b = runner(store, c1, sink), runner(store, c2, sink)
    results = []
    for slot in range(5):
        clock.t = T0 + slot * 60 + 3
        results += a.run_once(at(clock.t)) + b.run_once(at(clock.t + 1))
    ran = [r for r in results if r.ran]
    assert sorted(r.slot for r in ran) == [int((T0 + i * 60) // 60) for i in range(5)]
    assert len(c1.calls) + len(c2.calls) == 5
    assert len(sink.roots()) == 1


def test_lag_is_reported_from_the_slot_start() -> None:
    clock = Clock()
    store = MemoryStore(now=clock)
    lags: list[tuple[str, float]] = []
    r = runner(store, Collect(), lags=lags)
    r.run_once(at(T0 + 7.5))
    assert lags == [("checks", 7.5)]


def test_the_firing_count_is_reported_after_each_run_until_the_alert_clears() -> None:
    """`rlark_bot_alerts_firing` is set from this: one thread while the pool alerts, none once it cleared."""
    clock = Clock()
    store = MemoryStore(now=clock)
    collect = Collect()
    firing: list[int] = []
    r = runner(store, collect)
    r.on_firing = firing.append
    for slot in range(4):
        if slot == 1:
            collect.alerts = []
        clock.t = T0 + slot * 60 + 1
        r.run_once(at(clock.t))
    assert firing == [1, 1, 0, 0]  # resolved after `clear_after_ticks` (2) runs without it


def test_a_replica_that_died_mid_run_blocks_no_longer_than_the_lock_ttl() -> None:
    clock = Clock()
    store = MemoryStore(now=clock)
    group = CheckGroup(name="checks", interval_seconds=60)
    dead = store.acquire_lock(f"tick:checks:{group.slot(at(T0))}", ttl_seconds=30)
    assert dead is not None
    r = runner(store, Collect())
    assert not r.run_once(at(T0 + 1))[0].ran
    clock.t = T0 + 31  # its lease ran out; the same slot is free again, and the next slot never was blocked
    assert r.run_once(at(T0 + 31))[0].ran
    assert r.run_once(at(T0 + 61))[0].ran


def test_fencing_stops_deliveries_once_the_lock_is_lost() -> None:
    clock = Clock()
    store = MemoryStore(now=clock)
    sink = RecordingSink()
    r = runner(store, Collect([pool("a3"), pool("b1"), pool("c2")]), sink)
    real = store.holds
    seen = {"n": 0}

    def holds(lock: object) -> bool:
        seen["n"] += 1
        return seen["n"] <= 1 and real(lock)  # type: ignore[arg-type]

    store.holds = holds  # type: ignore[method-assign]
    [result] = r.run_once(at(T0))
    assert result.report is not None and result.report.delivered == 1 and result.report.undelivered == 2
    store.holds = real  # type: ignore[method-assign]
    r.run_once(at(T0 + 60))
    assert len(sink.roots()) == 3


def test_failed_collection_counts_nothing_as_gone() -> None:
    clock = Clock()
    store = MemoryStore(now=clock)
    sink = RecordingSink()
    collect = Collect()
    r = runner(store, collect, sink)
    r.run_once(at(T0))
    collect.fail = True
    for i in range(1, 5):
        assert r.run_once(at(T0 + 60 * i))[0].why == "collection failed"
    assert len(sink.sent) == 1


def test_unreadable_cluster_keeps_its_alerts_open() -> None:
    clock = Clock()
    store = MemoryStore(now=clock)
    sink = RecordingSink()
    collect = Collect()
    r = runner(store, collect, sink)
    r.run_once(at(T0))
    collect.alerts, collect.unreadable = [], ["ci"]
    for i in range(1, 5):
        r.run_once(at(T0 + 60 * i))
    assert len(sink.sent) == 1
    collect.unreadable = []
    r.run_once(at(T0 + 300))
    r.run_once(at(T0 + 360))
    assert [s.method for s in sink.sent] == ["post", "post", "update"]


def test_background_scheduler_runs_jobs_on_its_own_thread_and_shuts_down() -> None:
    store = MemoryStore()
    fired = threading.Event()
    runs: list[str] = []

    class Counting(Collect):
        def __call__(self, now: datetime) -> tuple[list[Alert], Collection[str]]:
            runs.append(threading.current_thread().name)
            if len(runs) >= 2:
                fired.set()
            return [], []

    n = Notifier(store=store, sink=RecordingSink(), settings=settings())
    r = TickRunner(store=store, notifier=n, collect=Counting(), groups=[CheckGroup("fast", 0.2)],
                   lock_ttl_seconds=5)
    sched = Scheduler(r)
    sched.start()
    try:
        assert sched.running
        assert fired.wait(5), "the scheduler did not run the job twice within 5 s"
    finally:
        sched.shutdown(wait=True)
    assert not sched.running
    assert all(name != threading.main_thread().name for name in runs)


def test_jobs_added_with_every_get_now_as_the_check_groups_do() -> None:
    """The watches and the other scheduled jobs are handed the runner's clock reading: an aware UTC datetime."""
    store = MemoryStore()
    given: list[datetime] = []
    fired = threading.Event()

    def job(now: datetime) -> None:
        given.append(now)
        fired.set()

    n = Notifier(store=store, sink=RecordingSink(), settings=settings())
    r = TickRunner(store=store, notifier=n, collect=Collect(), groups=[], lock_ttl_seconds=5,
                   clock=lambda: at(T0 + 5))
    sched = Scheduler(r)
    sched.every("probe", 0.2, job)
    sched.start()
    try:
        assert fired.wait(5), "the job did not run within 5 s"
    finally:
        sched.shutdown(wait=True)
    assert given[0] == at(T0 + 5) and given[0].utcoffset() == timedelta(0)


def test_wiring_runs_the_checks_of_a_bundle_and_reports_unreadable_clusters(tmp_path: object) -> None:
    from pathlib import Path

    from bot.scheduler.wiring import collect_tick
    from bot.settings import Thresholds
    from bot.sources import BundleSource

    bundle = Path(__file__).resolve().parents[1] / "scenarios" / "infra-karpenter-nodepool-unhealthy" / "bundle"
    alerts, unreadable = collect_tick(BundleSource(bundle), Thresholds())(datetime.now())
    assert {a.check for a in alerts} == {"long-pending", "nodepool-unhealthy"}
    assert list(unreadable) == []
