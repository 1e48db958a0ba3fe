"""Alert threads end to end: real checks over built evidence, a real Redis, the real slack_sdk WebClient against
the Slack stand-in, and time under the test's control."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from slack.standin import SlackStandIn

from alerts.helpers import at
from alerts.slack_sink import WebClientSink
from alerts.world import START, World, nodepool, pods
from bot.alerts import storage
from bot.alerts.mutes import mute
from bot.alerts.notifier import Notifier
from bot.scheduler.background import default_groups
from bot.scheduler.runner import TickRunner
from bot.settings import ChannelBinding, Settings
from bot.store.base import Store
from bot.store.factory import open_store

CHANNEL = "C-CI"
T0 = START.timestamp()
POOL_KEY = "nodepool-unhealthy:ci//NodePool/a3"
PENDING_KEY = "long-pending:ci//NodePool/a3"


def bot_settings() -> Settings:
    return Settings(_env_file=None, channels={CHANNEL: ChannelBinding(clusters=["ci"], namespaces="*",  # type: ignore[call-arg]
                                                                       domains="*", alerts=True)},
                    checks={"interval_seconds": 60, "clear_after_ticks": 2, "update_every_seconds": 600,
                            "hold_down_seconds": 300, "lock_ttl_seconds": 30})


@pytest.fixture
def slack() -> Iterator[SlackStandIn]:
    with SlackStandIn() as standin:
        yield standin


class Bot:
    """One bot process's alert side: its own store connection, notifier and runner."""

    def __init__(self, *, url: str, prefix: str, tmp: Path, slack: SlackStandIn, world: World) -> None:
        self.store: Store = open_store(url=url, data_dir=tmp, prefix=prefix, socket_timeout=0.5)
        sink = WebClientSink(base_url=slack.base_url, token=slack.token, timeout=1)
        self.notifier = Notifier(store=self.store, sink=sink, settings=bot_settings())
        self.runner = TickRunner(store=self.store, notifier=self.notifier, collect=world.collect,
                                 groups=default_groups(60), lock_ttl_seconds=30)

    def tick(self, t: float) -> None:
        self.runner.run_once(at(t))

    def close(self) -> None:
        self.store.close()


def roots(slack: SlackStandIn) -> dict[str, str]:
    return {m.metadata["event_payload"]["key"]: m.ts for m in slack.messages(CHANNEL) if m.metadata}


def states(slack: SlackStandIn, ts: str) -> list[str]:
    return [m.metadata["event_payload"]["state"] for m in slack.thread(CHANNEL, ts) if m.metadata]


def test_fire_persist_change_restart_resolve_reopen_flap(redis_url: str, store_prefix: str, tmp_path: Path,
                                                         slack: SlackStandIn) -> None:
    world = World()
    world.set(pools=[nodepool("a3", "Failed to launch node: InsufficientCapacity")], pods=pods(40))
    bot = Bot(url=redis_url, prefix=store_prefix, tmp=tmp_path, slack=slack, world=world)
    bot.tick(T0)
    bot.tick(T0 + 60)
    threads = roots(slack)
    assert set(threads) == {POOL_KEY, PENDING_KEY}, "40 Pending pods of one cause make one root"
    pending_root = slack.message(CHANNEL, threads[PENDING_KEY])
    assert len(pending_root.metadata["event_payload"]["objects"]) == 40
    assert len(slack.calls("chat.postMessage")) == 2

    world.set(pools=[nodepool("a3", "Failed to launch node: quota exceeded")], pods=pods(40))
    bot.tick(T0 + 700)
    assert [m.text.split(" — ")[0] for m in slack.thread(CHANNEL, threads[POOL_KEY])] == ["Changed"]

    bot.close()  # a restart between ticks: new store connection, new notifier, same Redis
    bot = Bot(url=redis_url, prefix=store_prefix, tmp=tmp_path, slack=slack, world=world)
    bot.tick(T0 + 760)
    assert len(slack.calls("chat.postMessage")) == 3 and roots(slack) == threads

    world.set(pools=[nodepool("a3", None)], pods=pods(40))  # the pool is healthy again
    bot.tick(T0 + 820)
    bot.tick(T0 + 880)
    assert states(slack, threads[POOL_KEY]) == ["firing", "resolved"]
    root = slack.message(CHANNEL, threads[POOL_KEY])
    assert root.metadata["event_payload"]["state"] == "resolved" and root.edits == 1

    world.set(pools=[nodepool("a3", "Failed to launch node: quota exceeded")], pods=pods(40))
    bot.tick(T0 + 2000)
    assert states(slack, threads[POOL_KEY]) == ["firing", "resolved", "firing"]
    assert slack.message(CHANNEL, threads[POOL_KEY]).metadata["event_payload"]["state"] == "firing"

    healthy, sick = [nodepool("a3", None)], [nodepool("a3", "Failed to launch node: quota exceeded")]
    for i, pools in enumerate([healthy, healthy, sick, healthy, sick, healthy]):  # flapping every tick
        world.set(pools=pools, pods=pods(40))
        bot.tick(T0 + 2060 + 60 * i)
    assert states(slack, threads[POOL_KEY]) == ["firing", "resolved", "firing", "resolved"], "no storm"
    world.set(pools=sick, pods=pods(40))
    for i in range(6):  # persists: re-opens once a hold-down (300 s) after it came back
        bot.tick(T0 + 2420 + 60 * i)
    assert states(slack, threads[POOL_KEY]) == ["firing", "resolved", "firing", "resolved", "firing"]
    assert roots(slack) == threads
    bot.close()


def test_slack_down_then_back_delivers_in_order_once(redis_url: str, store_prefix: str, tmp_path: Path,
                                                     slack: SlackStandIn) -> None:
    world = World()
    world.set(pools=[nodepool("a3", "InsufficientCapacity")])
    bot = Bot(url=redis_url, prefix=store_prefix, tmp=tmp_path, slack=slack, world=world)
    slack.down()
    bot.tick(T0)
    world.set()
    bot.tick(T0 + 60)
    bot.tick(T0 + 120)
    assert bot.store.peek(storage.OUTBOX, 10) != []
    slack.up()
    bot.tick(T0 + 180)
    [ts] = roots(slack).values()
    assert states(slack, ts) == ["resolved"]
    assert [c.method for c in slack.calls() if c.method.startswith("chat.")] == [
        "chat.postMessage", "chat.postMessage", "chat.update"]
    assert bot.store.peek(storage.OUTBOX, 10) == []
    bot.close()


def test_mute_then_expiry_adds_one_reply(redis_url: str, store_prefix: str, tmp_path: Path,
                                         slack: SlackStandIn) -> None:
    world = World()
    world.set(pools=[nodepool("a3", "InsufficientCapacity")])
    bot = Bot(url=redis_url, prefix=store_prefix, tmp=tmp_path, slack=slack, world=world)
    bot.tick(T0)
    mute(bot.store, key=POOL_KEY, until=START.replace(microsecond=500_000), by="U1", now=START)
    world.set(pools=[nodepool("a3", "quota exceeded")])
    bot.tick(T0 + 700)  # muted (Redis still holds the 0.5 s mute): the change is not posted
    [ts] = roots(slack).values()
    assert slack.thread(CHANNEL, ts) == []
    deadline = time.monotonic() + 5
    while bot.store.get(storage.MUTE + POOL_KEY) is not None:  # Redis decides when the mute ends
        assert time.monotonic() < deadline, "the mute did not expire"
        time.sleep(0.05)
    bot.tick(T0 + 760)
    [reply] = slack.thread(CHANNEL, ts)
    assert reply.text.startswith("Mute ended")
    assert "quota exceeded" in reply.blocks[0]["text"]["text"]
    bot.close()


def test_unreadable_cluster_resolves_nothing(redis_url: str, store_prefix: str, tmp_path: Path,
                                             slack: SlackStandIn) -> None:
    world = World()
    world.set(pools=[nodepool("a3", "InsufficientCapacity")])
    bot = Bot(url=redis_url, prefix=store_prefix, tmp=tmp_path, slack=slack, world=world)
    bot.tick(T0)
    world.set()
    world.evidence.problems.append("ci: unreachable, nothing more was read from it (connection refused)")
    world.unreadable = ["ci"]
    for i in range(1, 5):
        bot.tick(T0 + 60 * i)
    threads = roots(slack)
    assert set(threads) == {POOL_KEY, "check-failed:ci//Cluster/ci"}
    assert states(slack, threads[POOL_KEY]) == []
    bot.close()


def test_redis_stopped_and_restarted_mid_run(tmp_path: Path, slack: SlackStandIn) -> None:
    from redis_server import redis_process

    world = World()
    sick = nodepool("a3", "InsufficientCapacity")
    with redis_process(tmp_path) as server:
        bot = Bot(url=server.url, prefix="rlark-bot-e2e:", tmp=tmp_path, slack=slack, world=world)
        world.set(pools=[sick])
        bot.tick(T0)
        server.stop()
        world.set(pools=[sick, nodepool("b1", "NoCapacity")])
        bot.tick(T0 + 60)  # the store is down: checks still run, the new alert still goes out, marked
        bot.tick(T0 + 120)
        threads = roots(slack)
        assert set(threads) == {POOL_KEY, "nodepool-unhealthy:ci//NodePool/b1"}
        b1 = slack.message(CHANNEL, threads["nodepool-unhealthy:ci//NodePool/b1"])
        assert "(may be repeated: state store unavailable)" in b1.text
        posts = len(slack.calls("chat.postMessage"))
        assert posts == 2
        server.start()
        bot.tick(T0 + 180)  # reconnected: nothing replayed
        assert len(slack.calls("chat.postMessage")) == posts
        world.set(pools=[sick, nodepool("b1", None)])
        bot.tick(T0 + 240)
        bot.tick(T0 + 300)
        assert states(slack, b1.ts) == ["resolved"], "the root posted while degraded was written back"
        assert roots(slack) == threads
        bot.close()
