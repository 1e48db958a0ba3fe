"""The same entry points over Socket Mode envelopes: Diagnose and I'm on it on an alert's root, and a pasted
job link previewed (`link_shared`), each acting once when delivered twice."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from alerts.helpers import at

from bot.alerts.notifier import Notifier
from bot.checks.alerts import Alert
from bot.models.refs import ObjectRef
from bot.process.root import alert_sink
from bot.runbook import Runbook
from bot.settings import ChannelBinding
from bot.store.memory import MemoryStore

from .apphost import CHANNEL, AppHost, bundle_of
from .signing import block_action_payload, event_payload, link_shared_event
from .socket_standin import SocketModeStandIn
from .standin import SlackStandIn

POD = "gpu-a/rlark-system/Pod/ppo-franka-0412-rollout-0"
UI = "https://rlark.example.com"


@pytest.fixture
def host(slack: SlackStandIn, socket_mode: SocketModeStandIn, runbook: Runbook) -> Iterator[AppHost]:
    channels = {CHANNEL: ChannelBinding(domains="*", namespaces="*", clusters="*", alerts=True)}
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                 channels=channels, socket_mode=True, settings={"ui_url": UI}) as running:
        socket_mode.wait_for_connection(timeout=10)
        yield running


def test_alert_buttons_over_socket_mode(host: AppHost, slack: SlackStandIn, socket_mode: SocketModeStandIn) -> None:
    Notifier(store=host.deps.store, sink=alert_sink(host.deps), settings=host.settings).tick(
        [Alert(check="long-pending", case="pod.schedule.insufficient-resources",
               object=ObjectRef.parse(POD), severity="warning",
               since=None, summary="Pending for 20 minutes")], now=at(time.time()))
    [root] = slack.wait_for(lambda: slack.messages(CHANNEL), timeout=10)
    values = {b["action_id"]: b["value"] for b in root.buttons()}
    click = block_action_payload(action_id="rlark_diagnose", value=values["rlark_diagnose"], message_ts=root.ts,
                                 channel_id=CHANNEL)
    for _ in range(2):  # the same interaction delivered twice
        socket_mode.wait_for_ack(socket_mode.send_interactive(click), timeout=5)
    slack.wait_for(lambda: [m for m in slack.thread(CHANNEL, root.ts) if m.event_type == "rlark_diagnosis"],
                   timeout=30)
    ack = block_action_payload(action_id="rlark_ack", value=values["rlark_ack"], message_ts=root.ts,
                               channel_id=CHANNEL, user_id="U0ANNA")
    for _ in range(2):
        socket_mode.wait_for_ack(socket_mode.send_interactive(ack), timeout=5)
    slack.wait_for(lambda: "is on it" in json.dumps(slack.message(CHANNEL, root.ts).blocks), timeout=10)
    host.idle(submitted=2)
    assert len([m for m in slack.thread(CHANNEL, root.ts) if m.event_type == "rlark_diagnosis"]) == 1
    assert len([c for c in slack.calls("chat.update") if c.params.get("ts") == root.ts]) == 1


def test_a_pasted_job_link_over_socket_mode(host: AppHost, slack: SlackStandIn,
                                            socket_mode: SocketModeStandIn) -> None:
    url = f"{UI}/jobs/ppo-franka-0412"
    message = slack.user_posts(CHANNEL, user="U0ANNA", text=f"<{url}>")
    payload = event_payload(link_shared_event(channel=CHANNEL, user="U0ANNA", message_ts=message.ts, urls=[url]))
    for _ in range(2):
        socket_mode.wait_for_ack(socket_mode.send_events_api(payload), timeout=5)
    slack.wait_for(lambda: slack.message(CHANNEL, message.ts).unfurls, timeout=30)
    # a redelivery Slack marks as a retry (attempt 1) is dropped; the first delivery is attempt 0
    other = slack.user_posts(CHANNEL, user="U0ANNA", text=f"<{url}>")
    retried = event_payload(link_shared_event(channel=CHANNEL, user="U0ANNA", message_ts=other.ts, urls=[url]))
    socket_mode.wait_for_ack(socket_mode.send_events_api(retried, retry_attempt=1, retry_reason="timeout"), timeout=5)
    host.idle(submitted=1)
    assert len(slack.calls("chat.unfurl")) == 1 and not slack.message(CHANNEL, other.ts).unfurls
    assert "ppo-franka-0412" in json.dumps(slack.message(CHANNEL, message.ts).unfurls[url])
