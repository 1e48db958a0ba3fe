"""The buttons of the alerts in the App Home tab, over signed HTTP against the Slack stand-in: the Home tab lists
each firing alert with its root's "I'm on it" and Diagnose buttons; a click there (no channel in its payload) acts
on the alert's root in its own channel, once per click, scope-checked for that channel; after "I'm on it" the
Home tab is published again showing who is on it."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from alerts.helpers import at

from bot.alerts.notifier import Notifier
from bot.checks.alerts import Alert
from bot.models.refs import ObjectRef
from bot.process.root import alert_sink
from bot.runbook import Runbook
from bot.store.memory import MemoryStore

from .apphost import CHANNEL, SECRET, USER, AppHost, bundle_of
from .payloads import event_callback, home_opened
from .signing import block_action_payload
from .standin import SlackStandIn
from .test_app_entry import send_event
from .test_app_from_alert import ALERTING, KEY, POD, _record, alert_root, diagnoses

LEAK = "hunter2-do-not-show-9f8e7d"


@pytest.fixture
def host(slack: SlackStandIn, runbook: Runbook) -> Iterator[AppHost]:
    slack.set_member(USER, ["C0ELSEWHERE", CHANNEL])
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                 channels=ALERTING, extra_patterns=[r"hunter2-[a-z0-9-]+"]) as running:
        yield running


def fire(host: AppHost, *, summary: str = "Pending for 20 minutes") -> None:
    notifier = Notifier(store=host.deps.store, sink=alert_sink(host.deps), settings=host.settings,
                        runbook=host.deps.service.runbook)
    notifier.tick([Alert(check="long-pending", case="pod.schedule.insufficient-resources", object=ObjectRef.parse(POD),
                         severity="warning", since=None, summary=summary)], now=at(time.time()))


def _home(host: AppHost, slack: SlackStandIn, *, event_id: str, shown: int) -> dict[str, Any]:
    assert send_event(host, event_callback(home_opened())["event"], event_id=event_id).status == 200
    views = slack.wait_for(lambda: slack.views("views.publish", user=USER)[shown - 1:] or None, timeout=10)
    return dict(views[0]["view"])


def _home_buttons(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {e["action_id"]: e for b in view["blocks"] if b["type"] == "actions" for e in b["elements"]}


def _home_click(button: dict[str, Any], *, user: str = USER, trigger_id: str | None = None) -> bytes:
    """A click in the Home tab as Slack sends it: a `view` container, no channel, no message."""
    payload = block_action_payload(action_id=str(button["action_id"]), value=str(button["value"]), message_ts="0",
                                   user_id=user, trigger_id=trigger_id)
    for absent in ("channel", "message", "response_url"):
        payload.pop(absent)
    payload["container"] = {"type": "view", "view_id": "V0HOME"}
    payload["view"] = {"id": "V0HOME", "type": "home", "blocks": [], "state": {"values": {}}}
    return urlencode({"payload": json.dumps(payload)}).encode()


def _updates(slack: SlackStandIn, ts: str) -> int:
    return len([c for c in slack.calls("chat.update") if c.params.get("ts") == ts])


def test_home_lists_each_alert_with_its_roots_buttons_and_nothing_secret(host: AppHost,
                                                                         slack: SlackStandIn) -> None:
    fire(host, summary=f"Pending for 20 minutes (token {LEAK})")
    root = alert_root(slack)
    view = _home(host, slack, event_id="Ev0HB1", shown=1)
    buttons = _home_buttons(view)
    assert sorted(buttons) == ["rlark_ack", "rlark_diagnose"]
    root_ack = next(b for b in root.buttons() if b["action_id"] == "rlark_ack")
    assert buttons["rlark_ack"]["value"] == f"home|{CHANNEL}|{root.ts}|{root_ack['value']}"
    assert buttons["rlark_diagnose"]["value"] == f"home|{CHANNEL}|{root.ts}|pod/rlark-system/ppo-franka-0412-rollout-0"
    text = json.dumps(view)
    assert KEY in text
    assert all(secret not in text for secret in (LEAK, slack.token, SECRET))


def test_im_on_it_from_home_updates_the_root_once_and_shows_who_is_on_it(host: AppHost,
                                                                          slack: SlackStandIn) -> None:
    fire(host)
    root = alert_root(slack)
    ack = _home_buttons(_home(host, slack, event_id="Ev0HB2", shown=1))["rlark_ack"]
    first = _home_click(ack)
    assert host.send(first).status == 200
    slack.wait_for(lambda: _updates(slack, root.ts) == 1, timeout=10)
    host.send(first)  # the same delivery twice
    host.send(_home_click(ack))  # a double click on the Home tab as it was
    host.idle(submitted=3)
    assert _updates(slack, root.ts) == 1 and _record(host).acked_by == USER
    assert f"<@{USER}> is on it" in json.dumps(slack.message(CHANNEL, root.ts).blocks)
    published = slack.wait_for(lambda: slack.views("views.publish", user=USER)[1:] or None, timeout=10)
    assert len(published) == 1, "the Home tab published again once, after the click that acted"
    again = published[0]["view"]
    assert f"<@{USER}> is on it" in json.dumps(again)
    assert _home_buttons(again)["rlark_ack"]["value"] != ack["value"], "the next click acts on the new state"


def test_diagnose_from_home_answers_in_the_alerts_thread(host: AppHost, slack: SlackStandIn) -> None:
    fire(host)
    root = alert_root(slack)
    diagnose = _home_buttons(_home(host, slack, event_id="Ev0HB3", shown=1))["rlark_diagnose"]
    assert host.send(_home_click(diagnose)).status == 200
    [answer] = slack.wait_for(lambda: diagnoses(slack, root), timeout=30)
    host.idle(submitted=2)
    assert answer.thread_ts == root.ts
    assert (answer.metadata or {})["event_payload"]["target"]["name"] == "ppo-franka-0412-rollout-0"
    assert slack.message(CHANNEL, root.ts).edits == 0 and len(slack.messages(CHANNEL)) == 1


def test_a_home_click_by_a_user_not_in_the_alerts_channel_acts_on_nothing(host: AppHost,
                                                                           slack: SlackStandIn) -> None:
    fire(host)
    root = alert_root(slack)
    ack = _home_buttons(_home(host, slack, event_id="Ev0HB4", shown=1))["rlark_ack"]
    diagnose = _home_buttons(_home(host, slack, event_id="Ev0HB5", shown=1))["rlark_diagnose"]
    slack.set_member("U0OUTSIDER", ["C0ELSEWHERE"])
    assert host.send(_home_click(ack, user="U0OUTSIDER")).status == 200
    assert host.send(_home_click(diagnose, user="U0OUTSIDER")).status == 200
    host.idle(submitted=2)
    assert _updates(slack, root.ts) == 0 and _record(host).acked_by == ""
    assert diagnoses(slack, root) == []
