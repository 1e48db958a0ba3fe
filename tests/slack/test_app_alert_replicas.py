"""Three replicas on one Redis: a first sighting's root and its automatic diagnosis happen once, and a click on
"I'm on it" delivered to every replica at once (or clicked twice) changes the alert once, with one edit."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest
from alerts.helpers import at
from redis_server import embedded_redis

from bot.alerts import storage
from bot.alerts.model import Record
from bot.alerts.notifier import Notifier
from bot.checks.alerts import Alert
from bot.models.refs import ObjectRef
from bot.process.root import alert_sink
from bot.runbook import Runbook
from bot.settings import ChannelBinding
from bot.store.factory import open_store

from .apphost import CHANNEL, AppHost, bundle_of
from .signing import block_action_payload
from .standin import SlackStandIn

POD = "gpu-a/rlark-system/Pod/ppo-franka-0412-rollout-0"
ALERT = Alert(check="long-pending", case="pod.schedule.insufficient-resources",
              object=ObjectRef.parse(POD), severity="warning",
              since=None, summary="Pending for 20 minutes")
ALERTING = {CHANNEL: ChannelBinding(domains="*", namespaces="*", clusters="*", alerts=True)}


@pytest.fixture
def replicas(slack: SlackStandIn, runbook: Runbook, tmp_path: Path) -> Iterator[list[AppHost]]:
    with embedded_redis(tmp_path) as url, contextlib.ExitStack() as stack:
        hosts = [stack.enter_context(AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"),
                                             store=open_store(url=url, data_dir=tmp_path), runbook=runbook,
                                             channels=ALERTING, settings={"alerts": {"auto_diagnose": True}}))
                 for _ in range(3)]
        yield hosts


def _at_once(calls: list[Callable[[], object]]) -> None:
    start = threading.Barrier(len(calls))

    def run(fn: Callable[[], object]) -> None:
        start.wait()
        fn()

    threads = [threading.Thread(target=run, args=(fn,)) for fn in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)


def test_a_first_sighting_and_its_diagnosis_once_and_one_ack_per_click(replicas: list[AppHost],
                                                                        slack: SlackStandIn) -> None:
    notifiers = [Notifier(store=h.deps.store, sink=alert_sink(h.deps), settings=h.settings) for h in replicas]
    now = time.time()
    _at_once([lambda n=n: n.tick([ALERT], now=at(now)) for n in notifiers])
    # a delivery queued while another replica held the outbox goes out at the next drain (the next tick)
    _at_once([n.drain for n in notifiers])
    roots = slack.wait_for(lambda: slack.messages(CHANNEL), timeout=10)
    slack.wait_for(lambda: [m for m in slack.thread(CHANNEL, roots[0].ts) if m.event_type == "rlark_diagnosis"],
                   timeout=60)
    _at_once([lambda n=n: n.tick([ALERT], now=at(now + 60)) for n in notifiers])
    for h in replicas:
        h.idle(submitted=0)
    assert len(slack.messages(CHANNEL)) == 1, "one root across three replicas"
    root = slack.messages(CHANNEL)[0]
    thread = slack.thread(CHANNEL, root.ts)
    assert len([m for m in thread if m.event_type == "rlark_diagnosis"]) == 1, "one automatic diagnosis"
    assert len(thread) == 2, "its progress reply and the diagnosis, nothing else"

    [ack] = [b for b in root.buttons() if b["action_id"] == "rlark_ack"]
    same = urlencode({"payload": json.dumps(block_action_payload(
        action_id="rlark_ack", value=ack["value"], message_ts=root.ts, channel_id=CHANNEL,
        user_id="U0ANNA"))}).encode()
    _at_once([lambda h=h: h.send(same) for h in replicas])  # one delivery reaching every replica
    slack.wait_for(lambda: len(slack.calls("chat.update")) >= 1, timeout=10)
    doubles = [urlencode({"payload": json.dumps(block_action_payload(
        action_id="rlark_ack", value=ack["value"], message_ts=root.ts, channel_id=CHANNEL,
        user_id="U0BORIS"))}).encode() for _ in replicas]  # clicks on the root as it was, one per replica
    _at_once([lambda h=h, body=body: h.send(body) for h, body in zip(replicas, doubles, strict=True)])
    for h in replicas:
        h.idle(submitted=0)
    root_updates = [c for c in slack.calls("chat.update") if c.params.get("ts") == root.ts]
    assert len(root_updates) == 1, "the one click acted once, the stale clicks not at all"
    versioned = replicas[0].deps.store.get_doc(storage.RECORD + ALERT.key)
    assert versioned is not None and Record.from_doc(versioned.doc["record"]).acked_by == "U0ANNA"
    assert "<@U0ANNA> is on it" in json.dumps(slack.message(CHANNEL, root.ts).blocks)
