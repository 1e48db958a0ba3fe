"""The App Home over Socket Mode and HTTP: published when the tab opens, with the firing alerts of the bound
channels the user is in (Slack's `users.conversations`, cached), their diagnoses and watches; opening it again
within the TTL publishes nothing; nothing secret in the view; a mention over Socket Mode delivered twice acts
once."""

from __future__ import annotations

import json
import time

from alerts.helpers import at

from bot.alerts.notifier import Notifier
from bot.checks.alerts import Alert
from bot.conversations.alert_delivery import SlackAlertSink
from bot.models.refs import ObjectRef
from bot.runbook import Runbook
from bot.settings import ChannelBinding
from bot.store.memory import MemoryStore

from .apphost import CHANNEL, SECRET, USER, AppHost, bundle_of
from .payloads import event_callback, home_opened, mention
from .socket_standin import SocketModeStandIn
from .standin import SlackStandIn
from .test_app_entry import JOB, diagnoses_in, people_say, send_event

ALERTING = {CHANNEL: ChannelBinding(domains="*", namespaces="*", clusters="*", alerts=True),
            "C0QUIET": ChannelBinding(domains="*", namespaces="*", clusters="*", alerts=True)}
LEAK = "hunter2-do-not-show-9f8e7d"


def _fire(host: AppHost, summary: str) -> None:
    notifier = Notifier(store=host.deps.store, sink=SlackAlertSink(host.deps.sink, host.redactor),
                        settings=host.settings)
    alert = Alert(check="long-pending", case="pod.schedule.insufficient-resources",
                  object=ObjectRef.parse("gpu-a/rlark-system/Pod/ppo-franka-0412-rollout-0"),
                  severity="warning", since=None,
                  summary=summary)
    notifier.tick([alert], now=at(time.time()))


def test_app_home_shows_the_users_channels_alerts_diagnoses_and_watches(slack: SlackStandIn,
                                                                          runbook: Runbook) -> None:
    slack.set_member(USER, ["C0ELSEWHERE", CHANNEL, "C0UNBOUND"])
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                 channels=ALERTING, extra_patterns=[r"hunter2-[a-z0-9-]+"]) as host:
        _fire(host, f"Pending for 20 minutes: 0/4 nodes are available (token {LEAK})")
        host.command(f"diagnose {JOB}")
        host.wait_answered(timeout=20)
        host.command(f"watch pod/{JOB}-actor-0")
        host.idle(submitted=2)
        assert send_event(host, event_callback(home_opened())["event"], event_id="Ev0HOME1").status == 200
        host.idle(submitted=3)
        [published] = slack.wait_for(lambda: slack.views("views.publish", user=USER) or None)
        text = json.dumps(published["view"])
        assert "long-pending:gpu-a/rlark-system/Pod/ppo-franka-0412-rollout-0" in text, "the alert, by its key"
        assert "<#C0DIAG>" in text and f"job/{JOB}" in text and "rlark.ray.head-unreachable" in text
        assert f"pod/{JOB}-actor-0" in text, "the user's watch"
        assert all(secret not in text for secret in (LEAK, slack.token, SECRET))
        send_event(host, event_callback(home_opened())["event"], event_id="Ev0HOME2")  # opened again
        send_event(host, event_callback(home_opened())["event"], event_id="Ev0HOME2")  # and delivered twice
        host.idle(submitted=5)
        assert len(slack.views("views.publish")) == 1, "the same view within the TTL is not published again"
        assert len(slack.calls("users.conversations")) == 2, "two pages once: the user's channels are cached"


def test_a_user_in_no_bound_channel_sees_no_alert(slack: SlackStandIn, runbook: Runbook) -> None:
    slack.set_member(USER, ["C0ELSEWHERE"])
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                 channels=ALERTING) as host:
        _fire(host, "Pending for 20 minutes")
        send_event(host, event_callback(home_opened())["event"])
        host.idle(submitted=1)
        [published] = slack.wait_for(lambda: slack.views("views.publish") or None)
        assert "long-pending:" not in json.dumps(published["view"])


def test_a_mention_over_socket_mode_delivered_twice_is_answered_once(
        slack: SlackStandIn, socket_mode: SocketModeStandIn, runbook: Runbook) -> None:
    host = AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                   socket_mode=True)
    with host:
        socket_mode.wait_for_connection(timeout=10)
        from slack_sdk import WebClient

        ts = people_say(WebClient(base_url=slack.base_url, token=slack.token), "is it stuck?")
        payload = event_callback(mention(f"diagnose {JOB}", ts=ts), event_id="Ev0SOCKET1")
        first = socket_mode.send_events_api(payload)
        again = socket_mode.send_events_api(payload, retry_attempt=1, retry_reason="timeout")
        twice = socket_mode.send_events_api(payload)  # the same event delivered again on a first attempt
        for envelope in (first, again, twice):
            assert socket_mode.wait_for_ack(envelope, timeout=5).envelope_id == envelope
        host.idle(submitted=1)  # the retry is dropped before any work; a second first delivery is deduplicated
        slack.wait_for(lambda: diagnoses_in(slack, CHANNEL, ts) or None, timeout=20)
        assert len(diagnoses_in(slack, CHANNEL, ts)) == 1
