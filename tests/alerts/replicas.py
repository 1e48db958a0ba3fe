"""Bot replicas as separate processes on one Redis, driven tick by tick by the test (multiprocessing, spawn)."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from alerts.helpers import at
from bot.models import Evidence

T0 = 1_795_161_600.0  # 2026-11-20T08:00:00Z, the world's START
CHANNEL = "C-CI"


@dataclass(frozen=True)
class Config:
    redis_url: str
    prefix: str
    base_url: str
    token: str
    kill_at: int  # the tick during which the replica about to post first stops and waits to be killed
    lock_ttl: float
    sys_path: tuple[str, ...]


def world_at(i: int) -> Evidence:
    """Tick i's cluster: pools fall sick and recover on a fixed plan; Pending pods come and go."""
    from alerts.world import nodepool, pods

    plan = {"a3": range(0, 6), "b1": range(3, 10), "c2": range(6, 30), "d4": range(8, 9)}
    pools = [nodepool(name, "NoCapacity" if i in ticks else None) for name, ticks in plan.items()]
    waiting = pods(10 + 5 * (i % 3), pool="c2") if i >= 12 else []
    return Evidence(clusters=["ci"], nodepools=pools, pods=waiting)


def settings() -> Any:
    from bot.settings import ChannelBinding, Settings

    return Settings(_env_file=None, channels={CHANNEL: ChannelBinding(clusters=["ci"], namespaces="*", alerts=True)},
                    checks={"interval_seconds": 60, "clear_after_ticks": 2, "update_every_seconds": 600,
                            "hold_down_seconds": 300, "lock_ttl_seconds": 30})


def _collect(i_ref: list[int]) -> Any:
    from bot.checks import run_checks
    from bot.settings import Thresholds

    def collect(now: Any) -> Any:
        return run_checks(world_at(i_ref[0]), now=now, thresholds=Thresholds()), []

    return collect


def replica(name: str, cfg: Config, conn: Connection) -> None:
    """One replica; it talks to the test over its own pipe, so killing it breaks nothing shared."""
    sys.path[:0] = [p for p in cfg.sys_path if p not in sys.path]
    from alerts.slack_sink import WebClientSink
    from bot.alerts.notifier import Notifier
    from bot.scheduler.background import default_groups
    from bot.scheduler.runner import TickRunner
    from bot.store.factory import open_store

    tick = [-1]

    class Sink(WebClientSink):
        def post(self, **kw: Any) -> str:
            if tick[0] == cfg.kill_at:
                conn.send(("posting", name, tick[0]))
                time.sleep(60)  # the test kills this process here, mid-delivery
            return super().post(**kw)

    store = open_store(url=cfg.redis_url, data_dir=Path("."), prefix=cfg.prefix, socket_timeout=1.0)
    notifier = Notifier(store=store, sink=Sink(base_url=cfg.base_url, token=cfg.token), settings=settings(),
                        lock_ttl_seconds=cfg.lock_ttl)
    runner = TickRunner(store=store, notifier=notifier, collect=_collect(tick), groups=default_groups(60),
                        lock_ttl_seconds=cfg.lock_ttl)
    try:
        _serve(name, conn, notifier, runner, tick)
    except BaseException:
        import traceback
        conn.send(("error", name, traceback.format_exc()))
        raise
    finally:
        store.close()


def _serve(name: str, conn: Connection, notifier: Any, runner: Any, tick: list[int]) -> None:
    while True:
        msg = conn.recv()
        if msg[0] == "stop":
            break
        if msg[0] == "drain":
            report = notifier.drain()
            conn.send(("drained", name, report.delivered))
            continue
        _, i = msg
        tick[0] = i
        [result] = runner.run_once(at(T0 + 60 * i + 1))
        conn.send(("done", name, i, result.ran))
