"""`/rlark watch` and `unwatch` over signed HTTP against the Slack stand-in: the root shows the stage, one reply
per tick that saw a change, the diagnosis when the Job fails, the same refusal as `diagnose`, doubled requests
acting once, the bounds per channel and in time, and `unwatch` acting in its own channel only."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.conversations.watching import WatchTicker
from bot.runbook import Runbook
from bot.settings import ChannelBinding, Settings
from bot.store.base import Store
from bot.store.memory import MemoryStore

from .apphost import CHANNEL, EVERYWHERE, AppHost, bundle_of
from .model import Message, unkeyed
from .scripted import ScriptedEngine
from .standin import SlackStandIn

JOB = "ppo-franka-0412"  # stage ray-cluster-forming, cases head-unreachable and waiting-for-nodes
BUNDLE = bundle_of("ray-workers-never-join")
CHANNELS = {CHANNEL: EVERYWHERE, "C0OTHER": EVERYWHERE,
            "C0OTHERLAB": ChannelBinding(domains=["other-lab"], clusters="*", namespaces="*")}


class Host:
    def __init__(self, slack: SlackStandIn, runbook: Runbook, store: Store) -> None:
        self.engines: list[ScriptedEngine] = []

        def make(settings: Settings, bundle: Path) -> ScriptedEngine:
            engine = ScriptedEngine.over(settings, bundle, runbook=runbook)
            self.engines.append(engine)
            return engine

        self.app = AppHost(slack=slack, bundle=BUNDLE, store=store, runbook=runbook, channels=CHANNELS, engine=make)
        self.ticker = WatchTicker(self.app.deps)

    @property
    def engine(self) -> ScriptedEngine:
        return self.engines[0]


@pytest.fixture
def host(slack: SlackStandIn, runbook: Runbook) -> Iterator[Host]:
    h = Host(slack, runbook, MemoryStore())
    with h.app:
        yield h


def _watch(h: Host, slack: SlackStandIn, text: str = f"watch job/{JOB}", channel: str = CHANNEL) -> Message:
    reply = h.app.command(text, channel=channel)
    assert reply.status == 200 and reply.seconds < 3.0
    h.app.idle(submitted=1)
    [root] = slack.wait_for(lambda: slack.messages(channel))
    return root


def _payloads(slack: SlackStandIn, root: Message, channel: str = CHANNEL) -> list[dict[str, object]]:
    return [unkeyed(m.metadata)["event_payload"] for m in slack.thread(channel, root.ts)
            if m.metadata and m.event_type == "rlark_watch"]


def test_a_watch_replies_once_per_tick_that_saw_a_change_and_ends_with_the_diagnosis(
        host: Host, slack: SlackStandIn) -> None:
    root = _watch(host, slack)
    assert root.metadata is not None and root.event_type == "rlark_watch"
    assert unkeyed(root.metadata)["event_payload"] == {  # type: ignore[index]
        "target": {"kind": "Job", "name": JOB, "namespace": "", "cluster": root.metadata["event_payload"]["target"][
            "cluster"]}, "stage": "ray-cluster-forming", "case": "rlark.ray.head-unreachable", "state": "watching"}
    t = datetime.now(UTC)
    interval = timedelta(seconds=host.app.settings.watch_interval_seconds)
    assert host.ticker.run(t).ran
    assert slack.thread(CHANNEL, root.ts) == [], "nothing changed: nothing said"
    host.engine.move(stage="run-script")
    report = host.ticker.run(t + interval)
    assert report.replies == 1 and report.looks == 1
    assert host.ticker.run(t + interval).why == "slot already run"
    [moved] = _payloads(slack, root)
    assert moved == {**moved, "stage": "run-script", "state": "watching"}
    assert "run-script" in slack.message(CHANNEL, root.ts).text, "the root shows the current stage"
    host.engine.move(stage="training-signal", phase="Failed", findings=True)
    host.ticker.run(t + 2 * interval)
    thread = slack.thread(CHANNEL, root.ts)
    watch_replies = [m for m in thread if m.event_type == "rlark_watch"]
    assert len(watch_replies) == 2, "stage and end seen in one tick: one reply"
    assert watch_replies[-1].metadata is not None
    assert watch_replies[-1].metadata["event_payload"]["state"] == "ended"
    assert "Failed" in watch_replies[-1].text
    assert [m.event_type for m in thread][-1] == "rlark_diagnosis", "a failed Job gets its diagnosis"
    assert host.app.deps.store.scan_docs("watch:") == [], "an ended watch is forgotten"
    host.ticker.run(t + 3 * interval)
    assert len(slack.thread(CHANNEL, root.ts)) == len(thread)


def test_a_case_clearing_and_a_success_are_said_once_each(host: Host, slack: SlackStandIn) -> None:
    root = _watch(host, slack)
    t, interval = datetime.now(UTC), timedelta(seconds=host.app.settings.watch_interval_seconds)
    host.engine.move(findings=False)
    host.ticker.run(t)
    host.engine.move(stage="training-signal", phase="Succeeded")
    host.ticker.run(t + interval)
    texts = [m.text for m in slack.thread(CHANNEL, root.ts)]
    assert len(texts) == 2 and "cleared" in texts[0] and "succeeded" in texts[1]
    assert all(m.event_type != "rlark_diagnosis" for m in slack.thread(CHANNEL, root.ts))


def test_watch_is_refused_as_diagnose_is(host: Host, slack: SlackStandIn) -> None:
    refusals = []
    for verb in ("watch", "diagnose"):
        for channel, target in (("C0UNBOUND", JOB), ("C0OTHERLAB", JOB), ("C0OTHERLAB", "no-such-job")):
            host.app.command(f"{verb} {target}", channel=channel)
            host.app.idle(submitted=len(refusals) + 1)
            [said] = slack.responses(host.app.last_response_url)
            refusals.append(said["text"])
    assert len(set(refusals)) == 1 and "cannot diagnose" in refusals[0]
    assert slack.messages("C0UNBOUND") == [] and slack.messages("C0OTHERLAB") == []
    assert host.app.deps.store.scan_docs("watch:") == []


def test_a_doubled_or_retried_watch_makes_one_root(host: Host, slack: SlackStandIn) -> None:
    body = host.app.command_body(f"watch {JOB}")
    assert host.app.send(body).status == 200
    assert host.app.send(body, headers={"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"}).status == 200
    host.app.command(f"watch job/{JOB}")  # a second ask, spelled otherwise
    host.app.idle(submitted=2)
    assert len(slack.messages(CHANNEL)) == 1
    said = [r["text"] for r in slack.responses()]  # the two asks ran side by side: either one may be second
    assert len(said) == 1 and "already watches" in said[0]
    assert len(host.app.deps.store.scan_docs("watch:")) == 1


def test_unwatch_acts_in_its_own_channel(host: Host, slack: SlackStandIn) -> None:
    root = _watch(host, slack)
    host.app.command(f"unwatch {JOB}", channel="C0OTHER")
    host.app.idle(submitted=2)
    assert "does not watch" in slack.responses(host.app.last_response_url)[0]["text"]
    assert slack.thread(CHANNEL, root.ts) == []
    host.app.command(f"unwatch job/{JOB}")
    host.app.idle(submitted=3)
    [stopped] = slack.thread(CHANNEL, root.ts)
    assert stopped.metadata is not None and stopped.metadata["event_payload"]["state"] == "stopped"
    assert slack.message(CHANNEL, root.ts).metadata["event_payload"]["state"] == "stopped"  # type: ignore[index]
    assert host.app.deps.store.scan_docs("watch:") == []
    host.ticker.run(datetime.now(UTC))
    assert len(slack.thread(CHANNEL, root.ts)) == 1


def test_watches_are_bounded_per_channel_and_in_time(slack: SlackStandIn, runbook: Runbook) -> None:
    h = Host(slack, runbook, MemoryStore())
    h.app.settings.watch.max_per_channel = 1
    h.app.settings.watch.max_hours = 1
    with h.app:
        root = _watch(h, slack)
        h.app.command("watch pod/ppo-franka-0412-actor-0")
        h.app.idle(submitted=2)
        assert "the limit" in slack.responses(h.app.last_response_url)[0]["text"]
        assert len(slack.messages(CHANNEL)) == 1
        h.ticker.run(datetime.now(UTC) + timedelta(seconds=3601))
        [stopped] = slack.thread(CHANNEL, root.ts)
        assert stopped.metadata is not None and stopped.metadata["event_payload"]["state"] == "stopped"
        assert "1 h" in stopped.text
        assert h.app.deps.store.scan_docs("watch:") == []


def test_watches_of_one_job_in_two_channels_share_one_read(host: Host, slack: SlackStandIn) -> None:
    _watch(host, slack)
    host.app.command(f"watch {JOB}", channel="C0OTHER")
    host.app.idle(submitted=2)
    host.engine.reads.clear()
    host.engine.move(stage="run-script")
    report = host.ticker.run(datetime.now(UTC))
    assert report.watches == 2 and report.looks == 1 and report.replies == 2
    assert host.engine.reads == {f"job/{JOB}": 1}


def test_a_reply_slack_did_not_take_waits_in_the_outbox_for_the_next_tick(host: Host, slack: SlackStandIn) -> None:
    root = _watch(host, slack)
    slack.down()
    assert host.app.command(f"unwatch {JOB}").status == 200
    host.app.idle(submitted=2)
    [(_, pending)] = host.app.deps.store.scan_docs("watch:")
    assert pending.doc["state"] == "stopped" and len(pending.doc["pending"]) == 1, "decided, kept, not lost"
    slack.up()
    report = host.ticker.run(datetime.now(UTC) + timedelta(seconds=host.app.settings.watch_interval_seconds))
    assert report.redelivered == 1
    [stopped] = slack.thread(CHANNEL, root.ts)
    assert stopped.metadata is not None and stopped.metadata["event_payload"]["state"] == "stopped"
    assert host.app.deps.store.scan_docs("watch:") == [], "delivered, then forgotten"


def test_a_failed_jobs_ending_and_diagnosis_wait_in_the_outbox_while_slack_is_down(host: Host,
                                                                                  slack: SlackStandIn) -> None:
    root = _watch(host, slack)
    t, interval = datetime.now(UTC), timedelta(seconds=host.app.settings.watch_interval_seconds)
    host.engine.move(stage="training-signal", phase="Failed")
    slack.down()
    report = host.ticker.run(t)
    slack.up()
    assert report.replies == 1 and slack.thread(CHANNEL, root.ts) == [], "decided, not delivered"
    [(_, pending)] = host.app.deps.store.scan_docs("watch:")
    assert pending.doc["state"] == "ended" and pending.doc["pending"][0]["diagnose"] is True
    report = host.ticker.run(t + interval)
    assert report.redelivered == 1 and report.looks == 0, "the ended watch is not looked at again"
    thread = slack.thread(CHANNEL, root.ts)
    assert [m.event_type for m in thread] == ["rlark_watch", "rlark_diagnosis"], "the ending, then the diagnosis"
    assert host.app.deps.store.scan_docs("watch:") == []
    host.ticker.run(t + 2 * interval)
    assert len(slack.thread(CHANNEL, root.ts)) == 2, "nothing twice"
