"""Slack answering after the client's timeout although it took the post: the retry finds the message it already
posted (by the idempotency key in its metadata) instead of posting it again. Exactly one root, one reply."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from alerts.helpers import at

from bot.alerts.notifier import Notifier
from bot.checks.alerts import Alert
from bot.conversations.alert_delivery import SlackAlertSink
from bot.models.refs import ObjectRef
from bot.runbook import Runbook
from bot.settings import ChannelBinding
from bot.slack.posting import REPEATED_MARK
from bot.slack.sink import SlackSink
from bot.store.memory import MemoryStore

from .apphost import CHANNEL, AppHost, bundle_of
from .standin import SlackStandIn

JOB = "ppo-franka-0412"
TIMEOUT = 1.0  # the client's timeout in these tests; Slack answers later than that
LATE = 2.5
ALERTING = {CHANNEL: ChannelBinding(domains="*", namespaces="*", clusters="*", alerts=True)}


@pytest.fixture
def host(slack: SlackStandIn, runbook: Runbook) -> Iterator[AppHost]:
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                 channels=ALERTING, slack_timeout=TIMEOUT) as running:
        yield running


def test_a_root_post_answered_after_the_timeout_is_one_root(host: AppHost, slack: SlackStandIn) -> None:
    slack.delay("chat.postMessage", LATE, times=1, taken=True)
    assert host.command(f"diagnose {JOB}").status == 200
    [root] = host.wait_answered(timeout=40)
    host.idle(submitted=1, timeout=40)
    assert len(slack.messages(CHANNEL)) == 1, [m.text for m in slack.messages(CHANNEL)]
    replies = [m for m in slack.thread(CHANNEL, root.ts) if m.event_type == "rlark_diagnosis"]
    assert len(replies) == 1
    assert len(slack.calls("chat.postMessage")) == 2, "the root and the reply, neither posted again"


def test_every_post_answered_late_is_still_one_root_and_one_reply(host: AppHost, slack: SlackStandIn) -> None:
    slack.delay("chat.postMessage", LATE, times=2, taken=True)
    assert host.command(f"diagnose {JOB}").status == 200
    [root] = host.wait_answered(timeout=60)
    host.idle(submitted=1, timeout=60)
    assert len(slack.messages(CHANNEL)) == 1
    assert len([m for m in slack.thread(CHANNEL, root.ts) if m.event_type == "rlark_diagnosis"]) == 1


def _alert(n: int) -> Alert:
    return Alert(check="long-pending", case="pod.schedule.insufficient-resources",
                 object=ObjectRef("gpu-a", "rlark-system", "Pod", f"ppo-franka-0412-rollout-{n}"), severity="warning",
                 since=None,
                 summary="Pending for 20 minutes: 0/4 nodes are available: 4 Insufficient nvidia.com/gpu")


def test_alert_roots_answered_late_are_posted_once(host: AppHost, slack: SlackStandIn) -> None:
    slack.delay("chat.postMessage", LATE, times=3, taken=True)
    alerts = [_alert(n) for n in range(3)]
    now = time.time()
    for tick in range(4):  # the first ticks meet the slow Slack; later ones retry what stayed queued
        # a fresh notifier and Slack client each tick, as a restarted replica has: only the store remembers
        sink = SlackAlertSink(SlackSink(host.deps.sink.client), host.redactor)
        notifier = Notifier(store=host.deps.store, sink=sink, settings=host.settings)
        notifier.tick(alerts, now=at(now + tick))
    roots = slack.messages(CHANNEL)
    assert len(roots) == 3, [m.text[:60] for m in roots]
    assert len({m.text for m in roots}) == 3


def test_an_unsure_alert_root_is_looked_up_by_a_restarted_process(host: AppHost, slack: SlackStandIn) -> None:
    """The root is taken but answered late, and the history cannot be read either: the delivery stays queued.
    A new process (nothing in memory) finds the root by the key the store kept, and posts nothing again."""
    slack.delay("chat.postMessage", LATE, times=None, taken=True)
    slack.fail("conversations.history", status=500, times=None)
    now = time.time()
    first = Notifier(store=host.deps.store, sink=SlackAlertSink(SlackSink(host.deps.sink.client), host.redactor),
                     settings=host.settings)
    report = first.tick([_alert(0)], now=at(now))
    assert report.delivered == 0 and len(slack.messages(CHANNEL)) == 1, "taken by Slack, not known to the bot"
    slack.clear_faults()  # and the delays
    again = Notifier(store=host.deps.store, sink=SlackAlertSink(SlackSink(host.deps.sink.client), host.redactor),
                     settings=host.settings)
    report = again.tick([_alert(0)], now=at(now + 60))
    assert report.delivered == 1
    assert len(slack.messages(CHANNEL)) == 1


def test_a_late_post_that_cannot_be_looked_up_is_sent_again_marked_as_a_possible_repeat(
        host: AppHost, slack: SlackStandIn) -> None:
    slack.delay("chat.postMessage", LATE, times=1, taken=True)
    slack.fail("conversations.history", error="missing_scope", times=None)
    assert host.command(f"diagnose {JOB}").status == 200
    host.wait_answered(timeout=40)
    host.idle(submitted=1, timeout=40)
    first, second = slack.messages(CHANNEL)
    assert REPEATED_MARK not in first.text, "the first attempt is the message as it was asked for"
    assert second.text.endswith(REPEATED_MARK), "the one sent again says it may be a repeat"
    assert any(REPEATED_MARK in str(b) for b in second.blocks or [])
    assert second.edits, "the verdict edited it in place, still marked"
    replies = [m for m in slack.thread(CHANNEL, second.ts) if m.event_type == "rlark_diagnosis"]
    assert len(replies) == 1 and REPEATED_MARK not in replies[0].text, "a reply that went through is not marked"
