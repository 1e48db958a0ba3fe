"""Watches on one real Redis: three replicas ticking the same slots at the same moment post each change once,
and a watch outlives the replica that made it (a new process picks it up in the same thread)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.runbook import Runbook
from bot.store.base import Store
from bot.store.factory import open_store

from .apphost import CHANNEL
from .standin import SlackStandIn
from .test_app_watch import JOB, Host


def _redis(redis_url: str, prefix: str) -> Store:
    return open_store(url=redis_url, data_dir=Path("."), prefix=prefix, socket_timeout=2.0)


def _stages(slack: SlackStandIn, ts: str) -> list[str]:
    return [str(m.metadata["event_payload"]["stage"]) for m in slack.thread(CHANNEL, ts)
            if m.metadata and m.event_type == "rlark_watch"]


def test_three_replicas_post_each_watch_change_exactly_once(slack: SlackStandIn, runbook: Runbook, redis_url: str,
                                                            store_prefix: str) -> None:
    hosts = [Host(slack, runbook, _redis(redis_url, store_prefix)) for _ in range(3)]
    for h in hosts:
        h.app.start()
    try:
        hosts[0].app.command(f"watch {JOB}")
        hosts[0].app.idle(submitted=1)
        [root] = slack.wait_for(lambda: slack.messages(CHANNEL))
        plan = ["rank-assigned", "ray-cluster-forming", "ray-cluster-ready", "ray-cluster-ready", "run-script"]
        t0, interval = datetime.now(UTC), timedelta(seconds=hosts[0].app.settings.watch_interval_seconds)
        ran = []
        for i, stage in enumerate(plan):
            for h in hosts:
                h.engine.move(stage=stage)
            gate = threading.Barrier(3)

            def tick(h: Host, at: datetime = t0 + i * interval, gate: threading.Barrier = gate) -> None:
                gate.wait()
                ran.append(h.ticker.run(at).ran)

            threads = [threading.Thread(target=tick, args=(h,)) for h in hosts]
            for th in threads:
                th.start()
            for th in threads:
                th.join(timeout=30)
        assert ran.count(True) == len(plan), "each slot ran on one replica"
        assert _stages(slack, root.ts) == ["rank-assigned", "ray-cluster-forming", "ray-cluster-ready",
                                           "run-script"], "each change once, none twice, none lost"
    finally:
        for h in hosts:
            h.app.close()


def test_a_watch_survives_a_restart(slack: SlackStandIn, runbook: Runbook, redis_url: str,
                                    store_prefix: str) -> None:
    first = Host(slack, runbook, _redis(redis_url, store_prefix))
    with first.app:
        first.app.command(f"watch {JOB}")
        first.app.idle(submitted=1)
        [root] = slack.wait_for(lambda: slack.messages(CHANNEL))
    again = Host(slack, runbook, _redis(redis_url, store_prefix))
    with again.app:
        again.engine.move(stage="run-script")
        assert again.ticker.run(datetime.now(UTC)).replies == 1
        assert _stages(slack, root.ts) == ["run-script"]
        assert len(slack.messages(CHANNEL)) == 1, "the same thread, no new root"
