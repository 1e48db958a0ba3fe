"""A replica killed mid-watch (SIGKILL, for real) loses nothing and doubles nothing: three replicas in processes
of their own on one Redis; the one that saw a change is killed before (then after) its reply reached Slack, and
the next tick, on one of the other two, delivers that reply exactly once from the watch's outbox."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Mapping
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

import pytest

from bot.runbook import Runbook
from bot.settings import ChannelBinding
from bot.store.factory import open_store

from .apphost import CHANNEL
from .standin import SlackStandIn
from .test_app_watch import BUNDLE, CHANNELS, JOB, Host
from .watch_replica import replica

CTX = multiprocessing.get_context("spawn")
pytestmark = pytest.mark.xdist_group("watch-kill")


class Replica:
    def __init__(self, slack: SlackStandIn, redis_url: str, prefix: str, *, hang: str = "",
                 hang_on: str = "rlark_watch", channels: Mapping[str, ChannelBinding] = CHANNELS,
                 settings: dict[str, Any] | None = None) -> None:
        self.commands: Any = CTX.Queue()
        self.events: Any = CTX.Queue()
        self.process: BaseProcess = CTX.Process(target=replica, kwargs={
            "base_url": slack.base_url, "token": slack.token, "redis_url": redis_url, "prefix": prefix,
            "bundle": str(BUNDLE), "channels": dict(channels), "hang": hang, "hang_on": hang_on,
            "settings": settings, "commands": self.commands, "events": self.events}, daemon=True)
        self.process.start()

    def expect(self, kind: str, timeout: float = 90.0) -> tuple[Any, ...]:
        event: tuple[Any, ...] = self.events.get(timeout=timeout)
        assert event[0] == kind, event
        return event

    def tick(self, at: float, stage: str, phase: str = "Running") -> None:
        self.commands.put(("tick", at, stage, phase))

    def kill(self) -> None:
        assert self.process.pid is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.join(timeout=30)
        assert self.process.exitcode == -signal.SIGKILL

    def end(self) -> None:
        if self.process.is_alive():
            self.commands.put(("end",))
            self.process.join(timeout=30)
        if self.process.is_alive():
            self.process.kill()


def _stages(slack: SlackStandIn, ts: str) -> list[str]:
    return [str(m.metadata["event_payload"]["stage"]) for m in slack.thread(CHANNEL, ts)
            if m.metadata and m.event_type == "rlark_watch"]


def _tick_both(replicas: list[Replica], at: float, stage: str) -> list[tuple[Any, ...]]:
    for r in replicas:
        r.tick(at, stage)
    return [r.expect("ticked") for r in replicas]


def test_a_replica_killed_mid_watch_loses_nothing_and_doubles_nothing(
        slack: SlackStandIn, runbook: Runbook, redis_url: str, store_prefix: str) -> None:
    maker = Host(slack, runbook, open_store(url=redis_url, data_dir=Path("."), prefix=store_prefix))
    with maker.app:
        maker.app.command(f"watch {JOB}")
        maker.app.idle(submitted=1)
        [root] = slack.wait_for(lambda: slack.messages(CHANNEL))
        interval = maker.app.settings.watch_interval_seconds
    t0 = (time.time() // interval + 1) * interval
    doomed = Replica(slack, redis_url, store_prefix, hang="before")
    later = Replica(slack, redis_url, store_prefix, hang="after")
    others = [Replica(slack, redis_url, store_prefix) for _ in range(2)]
    everyone = [doomed, later, *others]
    try:
        for r in everyone:
            r.expect("ready")
        doomed.tick(t0, "run-script")
        doomed.expect("hanging")
        doomed.kill()
        assert _stages(slack, root.ts) == [], "killed before its reply reached Slack"
        ran = _tick_both(others, t0 + interval, "run-script")
        assert sorted(e[1] for e in ran) == [False, True], "the next slot ran on one replica"
        assert sum(e[3] for e in ran) == 1, "it delivered the dead replica's reply"
        assert _stages(slack, root.ts) == ["run-script"]
        assert "run-script" in slack.message(CHANNEL, root.ts).text, "and edited the root"

        later.tick(t0 + 2 * interval, "training-signal")
        later.expect("hanging")
        later.kill()
        assert _stages(slack, root.ts) == ["run-script", "training-signal"], "killed after its reply reached Slack"
        ran = _tick_both(others, t0 + 3 * interval, "training-signal")
        assert sum(e[3] for e in ran) == 1, "the outbox item was delivered again: looked up, found, not posted"
        assert _stages(slack, root.ts) == ["run-script", "training-signal"], "nothing twice"
        ran = _tick_both(others, t0 + 4 * interval, "training-signal")
        assert sum(e[2] + e[3] for e in ran) == 0, "nothing left pending, nothing moved"
        assert len(slack.messages(CHANNEL)) == 1, "one root throughout"
    finally:
        for r in everyone:
            r.end()
