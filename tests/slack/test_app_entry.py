"""The entry points beyond the slash command, over signed HTTP against the Slack stand-in: a mention answered in
its thread, a DM inside and outside `RLARK_BOT_DM_SCOPE`, the message shortcut (one target; several, then the
menu), the global shortcut's modal and its submission. Refusals read exactly as the slash command's; retried
and doubled deliveries act once; the cooldown per (channel, target) holds across entry points."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from slack_sdk import WebClient

from bot.runbook import Runbook
from bot.settings import ChannelBinding
from bot.store.memory import MemoryStore

from .apphost import CHANNEL, EVERYWHERE, SECRET, USER, AppHost, Reply, bundle_of
from .payloads import (
    direct_message,
    event_callback,
    form_body,
    global_shortcut,
    json_body,
    mention,
    message_shortcut,
    view_submission,
)
from .signing import block_action_payload, post, signed_headers
from .standin import SlackStandIn

JOB = "ppo-franka-0412"
CHANNELS = {CHANNEL: EVERYWHERE, "C0OTHERLAB": ChannelBinding(domains=["other-lab"], clusters="*", namespaces="*")}
DM = "D0ASKER"
UI = "https://rlark.example"


def send_event(host: AppHost, event: dict[str, Any], *, event_id: str | None = None,
               retry: int | None = None) -> Reply:
    body = json_body(event_callback(event, event_id=event_id))
    headers = signed_headers(body, SECRET, content_type="application/json", retry_num=retry)
    status, _, answer = post(host.url, body, headers)
    return Reply(status, answer, 0.0)


def send_interaction(host: AppHost, payload: dict[str, Any]) -> Reply:
    return host.send(form_body(payload))


@pytest.fixture
def host(slack: SlackStandIn, runbook: Runbook) -> Iterator[AppHost]:
    slack.add_channel("C0OTHERLAB", name="other-lab")
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                 channels=CHANNELS) as running:
        running.settings.ui_url = UI
        yield running


def people_say(web: WebClient, text: str, channel: str = CHANNEL, thread_ts: str | None = None) -> str:
    """A message in the channel to mention in or to run a shortcut on (posted as the bot: the stand-in only
    needs it to exist)."""
    return str(web.chat_postMessage(channel=channel, text=text, thread_ts=thread_ts)["ts"])


def slash_refusal(host: AppHost, slack: SlackStandIn, text: str, channel: str) -> str:
    host.command(text, channel=channel)
    host.idle(submitted=host.pool.submitted)
    return str(slack.wait_for(lambda: slack.responses(host.last_response_url))[0]["text"])


def diagnoses_in(slack: SlackStandIn, channel: str, ts: str) -> list[Any]:
    return [m for m in slack.thread(channel, ts) if m.event_type == "rlark_diagnosis"]


def test_a_mention_is_answered_in_its_thread_once_whatever_slack_redelivers(
        host: AppHost, slack: SlackStandIn, web: WebClient) -> None:
    ts = people_say(web, "the franka job is stuck, anyone?")
    event = mention(f"diagnose job/{JOB}", ts=ts)
    assert send_event(host, event, event_id="Ev0MENTION1").status == 200
    assert send_event(host, event, event_id="Ev0MENTION1").status == 200  # delivered twice
    assert send_event(host, event, event_id="Ev0MENTION1", retry=1).status == 200  # and retried
    host.idle(submitted=2)
    [reply] = slack.wait_for(lambda: diagnoses_in(slack, CHANNEL, ts) or None, timeout=20)
    assert reply.metadata is not None and reply.metadata["event_payload"]["target"]["name"] == JOB
    assert len(slack.messages(CHANNEL)) == 1, "no root of its own in the channel: all in the people's thread"
    assert len(diagnoses_in(slack, CHANNEL, ts)) == 1


def test_a_mention_in_a_thread_answers_there(host: AppHost, slack: SlackStandIn, web: WebClient) -> None:
    root = people_say(web, "training run thread")
    inner = people_say(web, "what is wrong?", thread_ts=root)
    send_event(host, mention(f"diagnose {JOB}", ts=inner, thread_ts=root))
    host.idle(submitted=1)
    slack.wait_for(lambda: diagnoses_in(slack, CHANNEL, root) or None, timeout=20)


def test_refusals_of_mentions_dms_and_shortcuts_read_as_the_slash_commands(
        host: AppHost, slack: SlackStandIn, web: WebClient) -> None:
    expected = slash_refusal(host, slack, f"diagnose {JOB}", "C0OTHERLAB")
    assert slash_refusal(host, slack, f"diagnose {JOB}", "C0UNBOUND") == expected
    ts = people_say(web, "hm", channel="C0OTHERLAB")
    send_event(host, mention(f"diagnose {JOB}", channel="C0OTHERLAB", ts=ts))
    send_event(host, mention(f"diagnose {JOB}", channel="C0UNBOUND", ts=ts))
    send_event(host, direct_message(f"diagnose {JOB}"))
    hook = slack.new_response_url(channel="C0OTHERLAB", user=USER)
    send_interaction(host, message_shortcut(f"look at job/{JOB}", channel="C0OTHERLAB", ts=ts, response_url=hook))
    host.idle(submitted=host.pool.submitted)
    ephemerals = slack.wait_for(lambda: e if len(e := slack.ephemerals(user=USER)) >= 2 else None)
    assert {e.text for e in ephemerals} == {expected}
    assert [m.text for m in slack.messages(DM)] == [expected], "a DM outside the DM scope: the refusal, as a DM"
    assert [r["text"] for r in slack.responses(hook)] == [expected]
    assert slack.messages("C0UNBOUND") == [] and len(slack.messages("C0OTHERLAB")) == 1  # only the people's one
    assert slack.thread("C0OTHERLAB", ts) == []


def test_a_dm_inside_the_dm_scope_works_like_the_slash_command(host: AppHost, slack: SlackStandIn) -> None:
    host.settings.dm_scope = CHANNEL  # that channel's binding applies to DMs
    send_event(host, direct_message(f"diagnose {JOB}"))
    send_event(host, direct_message("mute long-pending:gpu-a/ns/Pod/x 2h", ts="1795161600.000900"))
    host.idle(submitted=2)
    [root] = host.wait_answered(DM, timeout=20)
    assert host.reply_of(root, DM).event_type == "rlark_diagnosis"
    usage = [m.text for m in slack.messages(DM) if m.ts != root.ts]
    assert len(usage) == 1 and "slash command" in usage[0]


def test_the_cooldown_holds_across_entry_points(host: AppHost, slack: SlackStandIn, web: WebClient) -> None:
    host.command(f"diagnose {JOB}")
    host.wait_answered(timeout=20)
    ts = people_say(web, f"again job/{JOB}?")
    send_event(host, mention(f"diagnose job/{JOB}", ts=ts))
    host.idle(submitted=2)
    [told] = slack.wait_for(lambda: slack.ephemerals(user=USER) or None)
    assert "was just diagnosed" in told.text
    assert diagnoses_in(slack, CHANNEL, ts) == []


def test_the_message_shortcut_diagnoses_what_the_message_names(
        host: AppHost, slack: SlackStandIn, web: WebClient) -> None:
    ts = people_say(web, f"see {UI}/jobs/{JOB} for the run")
    assert send_interaction(host, message_shortcut("", ts=ts) | {
        "message": {"type": "message", "text": f"see <{UI}/jobs/{JOB}|the run>", "ts": ts}}).status == 200
    host.idle(submitted=1)
    [reply] = slack.wait_for(lambda: diagnoses_in(slack, CHANNEL, ts) or None, timeout=20)
    assert reply.metadata is not None and reply.metadata["event_payload"]["target"]["name"] == JOB


def test_several_named_targets_give_a_menu_and_the_pick_is_diagnosed_once(
        host: AppHost, slack: SlackStandIn, web: WebClient) -> None:
    ts = people_say(web, "two things")
    hook = slack.new_response_url(channel=CHANNEL, user=USER)
    send_interaction(host, message_shortcut(f"job/{JOB} and pod/{JOB}-actor-0 both odd", ts=ts, response_url=hook))
    host.idle(submitted=1)
    [menu] = slack.wait_for(lambda: slack.responses(hook) or None)
    select = menu["blocks"][0]["accessory"]
    assert select["action_id"] == "rlark_target_pick"
    assert [o["text"]["text"] for o in select["options"]] == [f"job/{JOB}", f"pod/{JOB}-actor-0"]
    pick = block_action_payload(action_id="rlark_target_pick", value="", message_ts=ts, response_url=hook)
    pick["actions"][0] |= {"type": "static_select", "selected_option": select["options"][0]}
    for _ in range(2):  # a double delivery of the same pick
        send_interaction(host, pick)
    host.idle(submitted=3)
    slack.wait_for(lambda: diagnoses_in(slack, CHANNEL, ts) or None, timeout=20)
    assert len(diagnoses_in(slack, CHANNEL, ts)) == 1
    none = slack.new_response_url(channel=CHANNEL, user=USER)
    send_interaction(host, message_shortcut("nothing named here", ts=ts, response_url=none))
    host.idle(submitted=4)
    assert "names no job/NAME" in slack.wait_for(lambda: slack.responses(none) or None)[0]["text"]


def test_the_global_shortcut_opens_the_modal_and_its_submission_diagnoses(host: AppHost, slack: SlackStandIn) -> None:
    assert send_interaction(host, global_shortcut()).status == 200
    [opened] = slack.views("views.open")
    view = opened["view"]
    assert view["callback_id"] == "rlark_diagnose_submit"
    assert [b["block_id"] for b in view["blocks"]] == ["channel", "target", "namespace", "lang"]
    values = {"channel": {"channel": {"type": "conversations_select", "selected_conversation": CHANNEL}},
              "target": {"target": {"type": "plain_text_input", "value": "job/Not_A_Name"}},
              "namespace": {"namespace": {"type": "plain_text_input", "value": None}},
              "lang": {"lang": {"type": "static_select", "selected_option": {"value": "zh"}}}}
    bad = send_interaction(host, view_submission(view=view, values=values))
    assert bad.json()["response_action"] == "errors" and "target" in bad.json()["errors"]
    values["target"]["target"]["value"] = JOB
    assert send_interaction(host, view_submission(view=view, values=values)).status == 200
    host.idle(submitted=1)
    [root] = host.wait_answered(timeout=20)
    assert host.reply_of(root).metadata["event_payload"]["target"]["name"] == JOB  # type: ignore[index]
    values["channel"]["channel"]["selected_conversation"] = "C0OTHERLAB"
    values["lang"]["lang"]["selected_option"] = {"value": "en"}
    send_interaction(host, view_submission(view=view, values=values))
    host.idle(submitted=2)
    [refused] = slack.wait_for(lambda: slack.ephemerals(channel="C0OTHERLAB") or None)
    assert refused.text == slash_refusal(host, slack, f"diagnose {JOB}", "C0OTHERLAB")
    assert secrets_absent(slack, host)


def secrets_absent(slack: SlackStandIn, host: AppHost) -> bool:
    everything = json.dumps([v["view"] for v in slack.views()])
    return all(s not in everything for s in (slack.token, SECRET, slack.app_token))
