"""Three bot processes on one real Redis over many ticks, one killed mid-delivery: every scheduled run executes
once, and Slack sees exactly what one bot alone would have posted."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Iterator
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

import pytest
from slack.standin import SlackStandIn

from alerts.fakes import RecordingSink
from alerts.helpers import at
from alerts.replicas import CHANNEL, T0, Config, replica, settings, world_at
from bot.alerts import storage
from bot.alerts.notifier import Notifier
from bot.checks import run_checks
from bot.settings import Thresholds
from bot.store.factory import open_store
from bot.store.memory import MemoryStore

TICKS = 24
KILL_AT = 6  # a3 goes missing and c2 fires in this tick: there is something to post


def reference() -> dict[str, list[str]]:
    """key -> [root's final state, reply states...] from one bot alone, in memory."""
    sink = RecordingSink()
    n = Notifier(store=MemoryStore(now=lambda: T0), sink=sink, settings=settings())
    for i in range(TICKS):
        now = T0 + 60 * i + 1
        n.tick(run_checks(world_at(i), now=at(now), thresholds=Thresholds()), now=at(now))
    return {r.metadata["event_payload"]["key"]: [(sink.updates(r.ts) or [r])[-1].state]
            + [x.state for x in sink.replies(r.ts)] for r in sink.roots()}


@pytest.fixture
def slack() -> Iterator[SlackStandIn]:
    with SlackStandIn() as standin:
        yield standin


def _recv(conns: dict[str, Connection], names: set[str]) -> tuple[Any, ...]:
    ready = wait([conns[n] for n in names], timeout=30)
    assert ready, f"no answer from {sorted(names)} within 30 s"
    conn = ready[0]
    assert isinstance(conn, Connection)
    msg: tuple[Any, ...] = conn.recv()
    assert msg[0] != "error", f"replica {msg[1]} failed:\n{msg[2]}"
    return msg


def test_three_replicas_one_killed_post_everything_exactly_once(redis_url: str, store_prefix: str,
                                                               slack: SlackStandIn) -> None:
    ctx = multiprocessing.get_context("spawn")
    cfg = Config(redis_url=redis_url, prefix=store_prefix, base_url=slack.base_url, token=slack.token,
                 kill_at=KILL_AT, lock_ttl=1.0, sys_path=tuple(sys.path))
    conns: dict[str, Connection] = {}
    procs = {}
    for k in range(3):
        ours, theirs = ctx.Pipe()
        conns[f"r{k}"] = ours
        procs[f"r{k}"] = ctx.Process(target=replica, args=(f"r{k}", cfg, theirs), daemon=True)
    for p in procs.values():
        p.start()
    ran: dict[int, list[str]] = {}
    killed: list[str] = []
    try:
        for i in range(TICKS):
            alive = {n for n in procs if n not in killed}
            for name in alive:
                conns[name].send(("tick", i))
            while alive:
                msg = _recv(conns, alive)
                alive.discard(msg[1])
                if msg[0] == "posting":  # killed mid-tick: after its store writes, before Slack heard anything
                    os.kill(procs[msg[1]].pid or 0, signal.SIGKILL)
                    procs[msg[1]].join(5)
                    killed.append(msg[1])
                    ran.setdefault(i, []).append(msg[1])
                elif msg[3]:
                    ran.setdefault(msg[2], []).append(msg[1])
        assert len(killed) == 1
        survivor = next(n for n in procs if n not in killed)
        deadline = time.monotonic() + 10
        while not _outbox_empty(redis_url, store_prefix):  # the dead replica's outbox lease ends after 1 s
            assert time.monotonic() < deadline, "the outbox was not drained"
            conns[survivor].send(("drain",))
            _recv(conns, {survivor})
            time.sleep(0.2)
    finally:
        for name, p in procs.items():
            if p.is_alive():
                conns[name].send(("stop",))
                p.join(5)
    assert {i: len(names) for i, names in ran.items()} == {i: 1 for i in range(TICKS)}, ran
    got = {m.metadata["event_payload"]["key"]: [m.metadata["event_payload"]["state"]]
           + [r.metadata["event_payload"]["state"] for r in slack.thread(CHANNEL, m.ts)]
           for m in slack.messages(CHANNEL)}
    assert got == reference()
    assert len(slack.messages(CHANNEL)) == len(got), "one root per alert key, never two"


def _outbox_empty(url: str, prefix: str) -> bool:
    store = open_store(url=url, data_dir=Path("."), prefix=prefix)
    try:
        return store.peek(storage.OUTBOX, 1) == []
    finally:
        store.close()
