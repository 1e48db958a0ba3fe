"""Signed requests checked by slack_sdk's verifier and by a Bolt app in HTTP mode; the text view of a channel."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qs

from slack_bolt import Ack, App
from slack_bolt.request import BoltRequest
from slack_sdk import WebClient
from slack_sdk.signature import Clock, SignatureVerifier

from .conftest import CHANNEL
from .signing import block_action_body, post, signed_headers, slash_command_body
from .standin import SlackStandIn
from .view import render_thread

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
NOW = 1_700_000_000


class FixedClock(Clock):
    def now(self) -> float:
        return float(NOW)


def test_signed_headers_pass_slack_sdk_verification_and_tampering_fails() -> None:
    body = slash_command_body(text="diagnose ppo-big")
    headers = signed_headers(body, SECRET, timestamp=NOW)
    verifier = SignatureVerifier(SECRET, clock=FixedClock())
    assert verifier.is_valid_request(body, headers)
    assert not verifier.is_valid_request(body + b"&x=1", headers)
    assert not SignatureVerifier("another-secret", clock=FixedClock()).is_valid_request(body, headers)
    stale = signed_headers(body, SECRET, timestamp=NOW - 6 * 60)
    assert not verifier.is_valid_request(body, stale)
    assert SignatureVerifier(SECRET).is_valid_request(body, signed_headers(body, SECRET))  # now by default
    retried = signed_headers(body, SECRET, timestamp=NOW, retry_num=1)
    assert (retried["X-Slack-Retry-Num"], retried["X-Slack-Retry-Reason"]) == ("1", "http_timeout")
    assert verifier.is_valid_request(body, retried) and "X-Slack-Retry-Num" not in headers


def test_bodies_are_encoded_as_slack_sends_them() -> None:
    command = {k: v[0] for k, v in parse_qs(slash_command_body(text="mute a/b 2h", user_id="U7").decode()).items()}
    assert {k: command[k] for k in ("command", "text", "user_id", "channel_id")} == {
        "command": "/rlark", "text": "mute a/b 2h", "user_id": "U7", "channel_id": "C0DIAG"}
    assert {"token", "team_id", "response_url", "trigger_id"} <= set(command)
    form = parse_qs(block_action_body(action_id="rlark_ticket", value="job/x", message_ts="1.000200",
                                      thread_ts="1.000100").decode())
    payload = json.loads(form["payload"][0])
    assert payload["type"] == "block_actions" and payload["channel"]["id"] == "C0DIAG"
    assert (payload["actions"][0]["action_id"], payload["actions"][0]["value"]) == ("rlark_ticket", "job/x")
    assert payload["container"] == {"type": "message", "message_ts": "1.000200", "channel_id": "C0DIAG",
                                    "is_ephemeral": False, "thread_ts": "1.000100"}


def test_a_bolt_app_in_http_mode_accepts_signed_requests_only(slack: SlackStandIn) -> None:
    app = App(client=WebClient(base_url=slack.base_url, token=slack.token), signing_secret=SECRET)
    clicks: list[Any] = []

    @app.command("/rlark")
    def rlark(ack: Ack) -> None:
        ack("working on it")

    @app.action("rlark_ticket")
    def ticket(ack: Ack, body: dict[str, Any]) -> None:
        ack()
        clicks.append((body["actions"][0]["value"], body["container"]["thread_ts"]))

    def dispatch(body: bytes, headers: dict[str, str]) -> int:
        as_bolt: dict[str, str | Sequence[str]] = dict(headers)
        return app.dispatch(BoltRequest(body=body.decode(), headers=as_bolt)).status

    command = slash_command_body(text="help")
    click = block_action_body(action_id="rlark_ticket", value="job/x", message_ts="1.2", thread_ts="1.1")
    assert dispatch(command, signed_headers(command, SECRET)) == 200
    assert dispatch(click, signed_headers(click, SECRET)) == 200 and clicks == [("job/x", "1.1")]
    assert dispatch(command, signed_headers(command, "wrong-secret")) == 401
    assert dispatch(command, signed_headers(command, SECRET, timestamp=NOW)) == 401  # years stale


def test_post_returns_error_answers_instead_of_raising(slack: SlackStandIn) -> None:
    hook = slack.new_response_url(channel=CHANNEL, user="U1")
    status, _, body = post(hook, b'{"text": "hi"}', {"Content-Type": "application/json"})
    assert (status, body) == (200, b"ok") and slack.responses(hook) == [{"text": "hi"}]
    status, headers, body = post(hook.rsplit("/", 2)[0] + "/nowhere", b"", {})
    assert (status, body) == (404, b"not_found") and headers["Content-Type"].startswith("text/plain")


def _button(label: str, action_id: str) -> dict[str, Any]:
    return {"type": "button", "action_id": action_id, "value": "job/ppo-big",
            "text": {"type": "plain_text", "text": label}}


def test_render_thread_reads_like_the_channel(slack: SlackStandIn) -> None:
    web = WebClient(base_url=slack.base_url, token=slack.token)
    root = web.chat_postMessage(channel=CHANNEL, text="Diagnosing job/ppo-big: listing pods")
    web.chat_update(channel=CHANNEL, ts=root["ts"], text="Diagnosing job/ppo-big: reading logs of 15 pods")
    web.chat_update(channel=CHANNEL, ts=root["ts"], text="job/ppo-big: rlark.run.nccl (error)")
    web.chat_postMessage(
        channel=CHANNEL, thread_ts=root["ts"], text="rlark.run.nccl NCCL timeout between nodes",
        metadata={"event_type": "rlark_diagnosis", "event_payload": {"case": "rlark.run.nccl"}},
        blocks=[{"type": "header", "text": {"type": "plain_text", "text": "NCCL timeout between nodes"}},
                {"type": "section", "text": {"type": "mrkdwn", "text": "worker-3 lost its peer\nnext: check NICs"}},
                {"type": "context", "elements": [{"type": "mrkdwn", "text": "rlark.run.nccl"},
                                                 {"type": "mrkdwn", "text": "error"}]},
                {"type": "actions", "elements": [_button("Ticket", "rlark_ticket"), _button("Re-run", "rlark_rerun"),
                                                 _button("Evidence", "rlark_evidence")]}])
    web.files_upload_v2(channel=CHANNEL, thread_ts=root["ts"], filename="evidence.txt", content="x" * 4000)
    web.chat_postEphemeral(channel=CHANNEL, user="U0ASKER", text="Already diagnosed: see the thread")

    assert render_thread(slack, CHANNEL) == (
        "#diag\n"
        "rlark-bot: job/ppo-big: rlark.run.nccl (error)  "
        "(edited 2 times: first 'Diagnosing job/ppo-big: listing pods', "
        "then 'Diagnosing job/ppo-big: reading logs of 15 pods')\n"
        "    ↳ rlark-bot: NCCL timeout between nodes\n"
        "        worker-3 lost its peer\n"
        "        next: check NICs\n"
        "        rlark.run.nccl · error\n"
        "        [Ticket] [Re-run] [Evidence]\n"
        "        · rlark_diagnosis\n"
        "    ↳ rlark-bot:\n"
        "        📎 evidence.txt (4000 bytes)\n"
        "(only you) [U0ASKER] Already diagnosed: see the thread\n"
    )
