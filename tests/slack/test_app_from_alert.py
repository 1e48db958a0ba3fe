"""From an alert's root, over signed HTTP against the Slack stand-in: Diagnose into the alert's own thread (the
slash command's scope check, refusal and 60 s cooldown), the menu of objects, "I'm on it" acting once per click,
and the automatic diagnosis of a first sighting."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from alerts.helpers import at

from bot.alerts import storage
from bot.alerts.model import Record
from bot.alerts.notifier import Notifier
from bot.checks.alerts import Alert
from bot.models.refs import ObjectGroup, ObjectRef
from bot.process.root import alert_sink
from bot.runbook import Runbook
from bot.settings import ChannelBinding
from bot.store.memory import MemoryStore

from .apphost import CHANNEL, AppHost, bundle_of
from .model import Message
from .signing import block_action_payload, signed_headers, slash_command_payload
from .standin import SlackStandIn

POD = "gpu-a/rlark-system/Pod/ppo-franka-0412-rollout-0"
KEY = f"long-pending:{POD}"
ALERTING = {CHANNEL: ChannelBinding(domains="*", namespaces="*", clusters="*", alerts=True)}
FALLBACK = "C0FALLBACK"  # hears alerts no binding claims, and may diagnose nothing


def fire(host: AppHost, *, obj: str = POD) -> Notifier:
    notifier = Notifier(store=host.deps.store, sink=alert_sink(host.deps), settings=host.settings,
                        runbook=host.deps.service.runbook)
    notifier.tick([Alert(check="long-pending", case="pod.schedule.insufficient-resources", object=ObjectRef.parse(obj),
                         severity="warning", since=None, summary="Pending for 20 minutes")], now=at(time.time()))
    return notifier


def alert_root(slack: SlackStandIn, channel: str = CHANNEL) -> Message:
    roots = slack.wait_for(lambda: [m for m in slack.messages(channel) if m.event_type == "rlark_alert"], timeout=10)
    return roots[0]


def button(message: Message, action_id: str) -> dict[str, Any]:
    [found] = [b for b in message.buttons() if b["action_id"] == action_id]
    return found


def diagnoses(slack: SlackStandIn, root: Message, channel: str = CHANNEL) -> list[Message]:
    return [m for m in slack.thread(channel, root.ts) if m.event_type == "rlark_diagnosis"]


@pytest.fixture
def host(slack: SlackStandIn, runbook: Runbook) -> Iterator[AppHost]:
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                 channels=ALERTING) as running:
        yield running


def test_diagnose_on_an_alert_answers_in_its_thread_and_leaves_the_root_alone(host: AppHost,
                                                                              slack: SlackStandIn) -> None:
    fire(host)
    root = alert_root(slack)
    assert [b["action_id"] for b in root.buttons()] == ["rlark_diagnose", "rlark_ack", "rlark_mute"]
    assert button(root, "rlark_diagnose")["value"] == "pod/rlark-system/ppo-franka-0412-rollout-0"
    assert host.click(button(root, "rlark_diagnose"), root=root, message_ts=root.ts).status == 200
    [answer] = slack.wait_for(lambda: diagnoses(slack, root), timeout=30)
    host.idle(submitted=1)
    assert answer.thread_ts == root.ts
    assert answer.metadata is not None
    assert answer.metadata["event_payload"]["target"]["name"] == "ppo-franka-0412-rollout-0"
    after = slack.message(CHANNEL, root.ts)
    assert after.edits == 0 and after.event_type == "rlark_alert", "the alert's root is never edited"
    [progress] = [m for m in slack.thread(CHANNEL, root.ts) if m.ts != answer.ts]
    assert progress.edits >= 1 and "ppo-franka-0412-rollout-0" in progress.text, "progress, then the verdict"
    assert len(slack.messages(CHANNEL)) == 1, "no new thread in the channel"

    # the Ticket button of that reply goes into the alert's thread too (the diagnosis is known by the thread)
    host.click(button(answer, "rlark_ticket"), root=root, message_ts=answer.ts)
    slack.wait_for(lambda: [m for m in slack.thread(CHANNEL, root.ts) if m.event_type == "rlark_ticket"], timeout=30)
    # Re-run in an alert's thread: a new progress reply, the alert's root still untouched
    host.click(button(answer, "rlark_rerun"), root=root, message_ts=answer.ts)
    slack.wait_for(lambda: len(diagnoses(slack, root)) == 2, timeout=30)
    host.idle(submitted=3)
    assert slack.message(CHANNEL, root.ts).edits == 0


def test_the_cooldown_holds_across_the_alert_button_and_the_slash_command(host: AppHost,
                                                                          slack: SlackStandIn) -> None:
    fire(host)
    root = alert_root(slack)
    host.click(button(root, "rlark_diagnose"), root=root, message_ts=root.ts)
    slack.wait_for(lambda: diagnoses(slack, root), timeout=30)
    host.idle(submitted=1)
    host.click(button(root, "rlark_diagnose"), root=root, message_ts=root.ts, user="U0SECOND")
    host.command("diagnose pod/ppo-franka-0412-rollout-0 --namespace rlark-system", user="U0THIRD")
    host.idle(submitted=3)
    [told] = slack.wait_for(lambda: slack.ephemerals(user="U0SECOND"), timeout=10)
    assert "was just diagnosed in this channel" in told.text and slack.permalink(CHANNEL, root.ts) in told.text
    [said] = slack.wait_for(lambda: slack.responses(host.last_response_url), timeout=10)
    assert slack.permalink(CHANNEL, root.ts) in str(said["text"]), "the slash command is sent to the alert's thread"
    assert len(diagnoses(slack, root)) == 1 and len(slack.messages(CHANNEL)) == 1


def test_retries_and_double_deliveries_of_a_diagnose_click_diagnose_once(host: AppHost, slack: SlackStandIn) -> None:
    fire(host)
    root = alert_root(slack)
    payload = block_action_payload(action_id="rlark_diagnose", value=button(root, "rlark_diagnose")["value"],
                                   message_ts=root.ts, channel_id=CHANNEL)
    body = urlencode({"payload": json.dumps(payload)}).encode()
    assert host.send(body).status == 200
    assert host.send(body).status == 200  # the same delivery again
    retried = host.send(body, headers={"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"})
    assert retried.status == 200
    slack.wait_for(lambda: diagnoses(slack, root), timeout=30)
    host.idle(submitted=1)
    assert len(diagnoses(slack, root)) == 1
    assert len(slack.thread(CHANNEL, root.ts)) == 2, "one progress reply, one diagnosis"
    assert not slack.ephemerals(), "a duplicate delivery is dropped silently, not answered with the cooldown"


def test_outside_the_clicking_channels_scope_the_refusal_is_the_slash_commands(slack: SlackStandIn,
                                                                                runbook: Runbook) -> None:
    bindings = {"C0NARROW": ChannelBinding(domains=["other"], namespaces=["other"], clusters="*",
                                                       alerts=True)}
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                 channels=bindings, settings={"alerts_channel": FALLBACK}) as host:
        fire(host, obj="gpu-z/elsewhere/Pod/ppo-franka-0412-rollout-0")  # no binding hears it: the fallback does
        root = alert_root(slack, FALLBACK)
        host.click(button(root, "rlark_diagnose"), root=root, channel=FALLBACK, message_ts=root.ts)
        [refused] = slack.wait_for(lambda: slack.ephemerals(channel=FALLBACK), timeout=10)
        for channel in (FALLBACK, "C0NARROW"):
            host.command("diagnose pod/ppo-franka-0412-rollout-0", channel=channel)
            [said] = slack.wait_for(lambda: slack.responses(host.last_response_url), timeout=10)
            assert said["text"] == refused.text, "word for word the slash command's refusal"
        host.idle(submitted=3)
        assert not slack.thread(FALLBACK, root.ts) and len(slack.messages(FALLBACK)) == 1


def test_a_root_about_several_objects_offers_a_menu_that_diagnoses_the_one_picked(host: AppHost,
                                                                                  slack: SlackStandIn) -> None:
    notifier = Notifier(store=host.deps.store, sink=alert_sink(host.deps), settings=host.settings)
    pods = [f"gpu-a/rlark-system/Pod/ppo-franka-0412-rollout-{i}" for i in range(3)]
    notifier.tick([Alert(check="long-pending", case="pod.schedule.insufficient-resources", object=ObjectRef.parse(p),
                         severity="warning", since=None, summary="Pending", cause="pod.schedule.insufficient-resources",
                         group=ObjectGroup.parse("gpu-a/rlark-system/Task/ppo-franka-0412-rollout"))
                     for p in pods], now=at(time.time()))
    root = alert_root(slack)
    objects = (root.metadata or {})["event_payload"]["objects"]
    assert len(objects) == 3, "one root for the three pods of one cause"
    [menu] = [e for b in root.blocks or [] if b["type"] == "actions" for e in b["elements"]
              if e["action_id"] == "rlark_diagnose_pick"]
    assert len(menu["options"]) == len(objects)
    second = menu["options"][1]
    assert host.pick(menu, second, root=root).status == 200
    [answer] = slack.wait_for(lambda: diagnoses(slack, root), timeout=30)
    host.idle(submitted=1)
    picked = second["value"].rsplit("/", 1)[1]
    assert (answer.metadata or {})["event_payload"]["target"]["name"] == picked


def _record(host: AppHost) -> Record:
    versioned = host.deps.store.get_doc(storage.RECORD + KEY)
    assert versioned is not None
    return Record.from_doc(versioned.doc["record"])


def _ack_body(root: Message, *, user: str) -> bytes:
    payload = block_action_payload(action_id="rlark_ack", value=button(root, "rlark_ack")["value"],
                                   message_ts=root.ts, channel_id=CHANNEL, user_id=user)
    return urlencode({"payload": json.dumps(payload)}).encode()


def _updates(slack: SlackStandIn, root: Message) -> int:
    return len([c for c in slack.calls("chat.update") if c.params.get("ts") == root.ts])


def test_im_on_it_records_undoes_and_hands_over_one_update_per_click(host: AppHost, slack: SlackStandIn) -> None:
    fire(host)
    root = alert_root(slack)
    first = _ack_body(root, user="U0ANNA")
    double = _ack_body(root, user="U0ANNA")  # a second click on the root as it was (its own trigger_id)
    host.send(first)
    slack.wait_for(lambda: _updates(slack, root) == 1, timeout=10)
    host.send(first)  # the same delivery twice
    host.send(double)
    host.send(first, headers={"X-Slack-Retry-Num": "1"})
    host.idle(submitted=2)  # the first click and the double click; the repeated delivery and the retry never run
    assert _updates(slack, root) == 1 and _record(host).acked_by == "U0ANNA"
    shown = slack.message(CHANNEL, root.ts)
    assert "<@U0ANNA> is on it" in json.dumps(shown.blocks) and shown.event_type == "rlark_alert"
    listed = host.command("alerts").json()
    assert "<@U0ANNA> is on it" in json.dumps(listed)

    host.send(_ack_body(shown, user="U0BORIS"))  # another user takes it over
    slack.wait_for(lambda: _updates(slack, root) == 2, timeout=10)
    assert _record(host).acked_by == "U0BORIS"
    shown = slack.message(CHANNEL, root.ts)
    assert "<@U0BORIS> is on it" in json.dumps(shown.blocks) and "U0ANNA" not in json.dumps(shown.blocks)

    host.send(_ack_body(shown, user="U0BORIS"))  # the same user again: undone
    slack.wait_for(lambda: _updates(slack, root) == 3, timeout=10)
    host.idle(submitted=5)
    assert _record(host).acked_by == "" and "is on it" not in json.dumps(slack.message(CHANNEL, root.ts).blocks)
    assert _updates(slack, root) == 3 and len(slack.thread(CHANNEL, root.ts)) == 0, "no reply, only the edits"


def test_an_acked_root_keeps_who_took_it_when_it_resolves(host: AppHost, slack: SlackStandIn) -> None:
    notifier = fire(host)
    root = alert_root(slack)
    host.send(_ack_body(root, user="U0ANNA"))
    slack.wait_for(lambda: _updates(slack, root) == 1, timeout=10)
    host.idle(submitted=1)
    later = time.time()
    for i in range(1, 4):
        notifier.tick([], now=at(later + 60 * i))
    slack.wait_for(lambda: (slack.message(CHANNEL, root.ts).metadata or {}).get("event_payload", {}).get("state")
                   == "resolved", timeout=10)
    assert "<@U0ANNA> is on it" in json.dumps(slack.message(CHANNEL, root.ts).blocks)


class _ClickedWhilePosting:
    """The alert sink, with "I'm on it" clicked on a new root the moment Slack took it: before the notifier has
    written the root's ts back to the alert's record, so the click finds no root to edit."""

    def __init__(self, inner: Any, host: AppHost, slack: SlackStandIn, user: str) -> None:
        self.inner, self.host, self.slack, self.user = inner, host, slack, user
        self.clicked = False

    def post(self, **call: Any) -> str:
        ts: str = self.inner.post(**call)
        if call.get("thread_ts") is None and not self.clicked:
            self.clicked = True
            root = self.slack.message(CHANNEL, ts)
            self.host.send(_ack_body(root, user=self.user))
            self.host.idle(submitted=1)
            assert _record(self.host).acked_by == self.user and _updates(self.slack, root) == 0
        return ts

    def update(self, **call: Any) -> None:
        self.inner.update(**call)


def test_im_on_it_clicked_while_the_root_is_being_posted_still_shows_on_it(host: AppHost,
                                                                          slack: SlackStandIn) -> None:
    sink = _ClickedWhilePosting(alert_sink(host.deps), host, slack, "U0ANNA")
    notifier = Notifier(store=host.deps.store, sink=sink, settings=host.settings, runbook=host.deps.service.runbook)
    notifier.tick([Alert(check="long-pending", case="pod.schedule.insufficient-resources", object=ObjectRef.parse(POD),
                         severity="warning", since=None, summary="Pending for 20 minutes")], now=at(time.time()))
    root = alert_root(slack)
    assert sink.clicked and _record(host).acked_by == "U0ANNA" and _record(host).roots == {CHANNEL: root.ts}
    assert "<@U0ANNA> is on it" in json.dumps(slack.message(CHANNEL, root.ts).blocks)
    assert _updates(slack, root) == 1  # the notifier brought its new root up to date, once
    host.send(_ack_body(slack.message(CHANNEL, root.ts), user="U0ANNA"))  # the root's own button works on
    slack.wait_for(lambda: _updates(slack, root) == 2, timeout=10)
    assert "is on it" not in json.dumps(slack.message(CHANNEL, root.ts).blocks) and _record(host).acked_by == ""


def test_the_ticket_says_who_is_on_it(host: AppHost, slack: SlackStandIn) -> None:
    fire(host)
    root = alert_root(slack)
    host.send(_ack_body(root, user="U0ANNA"))
    slack.wait_for(lambda: _updates(slack, root) == 1, timeout=10)
    host.command("ticket pod/ppo-franka-0412-rollout-0 --namespace rlark-system")
    tickets = slack.wait_for(lambda: [m for c in slack.messages(CHANNEL) for m in slack.thread(CHANNEL, c.ts)
                                      if m.event_type == "rlark_ticket"], timeout=30)
    assert f"On it: Slack user U0ANNA (alert {KEY})" in json.dumps(tickets[0].blocks) + tickets[0].text


def test_auto_diagnosis_of_a_first_sighting_goes_into_its_thread_once(slack: SlackStandIn, runbook: Runbook) -> None:
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                 channels=ALERTING, settings={"alerts": {"auto_diagnose": True}}) as host:
        notifier = fire(host)
        root = alert_root(slack)
        slack.wait_for(lambda: diagnoses(slack, root), timeout=30)
        notifier.tick([Alert(check="long-pending", case="pod.schedule.insufficient-resources",
                             object=ObjectRef.parse(POD),
                             severity="warning", since=None, summary="Pending for 21 minutes")],
                      now=at(time.time() + 60))
        host.idle(submitted=1)
        assert len(diagnoses(slack, root)) == 1 and slack.message(CHANNEL, root.ts).edits == 0
        assert not slack.ephemerals()


def test_auto_diagnosis_is_off_by_default(host: AppHost, slack: SlackStandIn) -> None:
    fire(host)
    alert_root(slack)
    time.sleep(0.3)  # nothing to wait for: nothing may start
    assert host.pool.submitted == 0


def test_a_diagnose_button_with_a_forged_value_is_refused_as_unreadable(host: AppHost, slack: SlackStandIn) -> None:
    root = Message(channel=CHANNEL, ts="1700000000.000100", text="root")
    payload = slash_command_payload(text="help")
    assert payload["trigger_id"]
    host.click({"action_id": "rlark_diagnose", "value": "secret/../x"}, root=root)
    told = slack.wait_for(lambda: slack.responses(host.last_response_url) or None, timeout=10)
    assert "not readable" in str(told[0]["text"])
    assert signed_headers(b"", "x")  # the helpers are importable together
