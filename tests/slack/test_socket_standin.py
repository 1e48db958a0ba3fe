"""The Socket Mode stand-in driven by slack_sdk's builtin SocketModeClient and by slack-bolt's SocketModeHandler."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from slack_bolt import Ack, App, Respond, Say
from slack_bolt.adapter.socket_mode import SocketModeHandler
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.socket_mode.builtin import SocketModeClient
from slack_sdk.socket_mode.client import BaseSocketModeClient
from slack_sdk.socket_mode.request import SocketModeRequest
from slack_sdk.socket_mode.response import SocketModeResponse
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from .conftest import CHANNEL
from .signing import block_action_payload, slash_command_payload
from .socket_standin import SocketModeStandIn
from .standin import SlackStandIn


@pytest.fixture
def client(slack: SlackStandIn, socket_mode: SocketModeStandIn) -> Iterator[tuple[SocketModeClient, list[Any]]]:
    """A connected builtin client that acks every envelope with `{"seen": <type>}`; and what it received."""
    seen: list[Any] = []
    sdk = SocketModeClient(app_token=slack.app_token, web_client=WebClient(base_url=slack.base_url, token=slack.token))

    def on_request(c: BaseSocketModeClient, req: SocketModeRequest) -> None:
        c.send_socket_mode_response(SocketModeResponse(envelope_id=req.envelope_id, payload={"seen": req.type}))

    sdk.message_listeners.append(lambda c, message, raw: seen.append(message))
    sdk.socket_mode_request_listeners.append(on_request)
    sdk.connect()
    socket_mode.wait_for_connection()
    yield sdk, seen
    sdk.close()


def test_envelopes_reach_the_builtin_client_acks_are_recorded_and_refresh_reconnects(
        slack: SlackStandIn, socket_mode: SocketModeStandIn, client: tuple[SocketModeClient, list[Any]]) -> None:
    _, seen = client
    command = slash_command_payload(text="diagnose ppo-big", response_url="http://127.0.0.1:1/response/R1")
    command_id = socket_mode.send_slash_command(command)
    click_id = socket_mode.send_interactive(block_action_payload(action_id="rlark_rerun", value="job/ppo-big",
                                                                 message_ts="1700000000.000100"))
    event_id = socket_mode.send_events_api({"type": "event_callback", "event": {"type": "app_mention"}},
                                           retry_attempt=1, retry_reason="timeout")

    assert socket_mode.wait_for_ack(command_id).payload == {"seen": "slash_commands"}
    assert socket_mode.wait_for_ack(click_id).payload == {"seen": "interactive"}
    assert socket_mode.wait_for_ack(event_id).payload == {"seen": "events_api"}
    [hello] = [m for m in seen if m.get("type") == "hello"]
    assert hello["connection_info"]["app_id"] and hello["num_connections"] == 1
    by_id = {m.get("envelope_id"): m for m in seen}
    assert by_id[command_id]["payload"] == command and by_id[command_id]["accepts_response_payload"] is True
    assert by_id[click_id]["accepts_response_payload"] is False
    assert (by_id[event_id]["retry_attempt"], by_id[event_id]["retry_reason"]) == (1, "timeout")
    # the client handles envelopes on a thread pool, so acks may come in any order
    assert sorted(a.envelope_id for a in socket_mode.acks()) == sorted([command_id, click_id, event_id])

    socket_mode.send_disconnect()  # Slack's periodic refresh: the client reconnects through a new URL
    socket_mode.wait_for_connection(count=2)
    envelope = socket_mode.send_slash_command(slash_command_payload(text="help"))
    assert socket_mode.wait_for_ack(envelope).payload == {"seen": "slash_commands"}
    assert len(slack.calls("apps.connections.open")) == 2 and socket_mode.connections_ever == 2
    socket_mode.wait_for(lambda: socket_mode.connections == 1)  # the client closed the old one


def test_tickets_are_one_time_and_required(slack: SlackStandIn, socket_mode: SocketModeStandIn) -> None:
    url = WebClient(base_url=slack.base_url).apps_connections_open(app_token=slack.app_token)["url"]
    with connect(url) as ws:
        assert '"type": "hello"' in str(ws.recv(timeout=5))
    for bad in (url, url.split("?")[0] + "?ticket=made-up"):
        with pytest.raises(InvalidStatus, match="401"):
            connect(bad)


def test_connections_open_without_a_socket_stand_in_is_an_error(slack: SlackStandIn) -> None:
    with pytest.raises(SlackApiError, match="socket_mode_standin_not_attached"):
        WebClient(base_url=slack.base_url).apps_connections_open(app_token=slack.app_token)


def test_a_bolt_app_in_socket_mode_acks_says_and_responds(slack: SlackStandIn, socket_mode: SocketModeStandIn) -> None:
    app = App(client=WebClient(base_url=slack.base_url, token=slack.token), signing_secret="unused-in-socket-mode")

    @app.command("/rlark")
    def rlark(ack: Ack, say: Say, respond: Respond, command: dict[str, str]) -> None:
        ack()
        say(f"diagnosing {command['text']}")
        respond("only the asker sees this")

    handler = SocketModeHandler(app, app_token=slack.app_token)
    handler.connect()  # type: ignore[no-untyped-call]
    try:
        hook = slack.new_response_url(channel=CHANNEL, user="U0ASKER")
        envelope = socket_mode.send_slash_command(slash_command_payload(text="ppo-big", response_url=hook))
        assert socket_mode.wait_for_ack(envelope).payload is None
        slack.wait_for(lambda: slack.messages(CHANNEL) and slack.ephemerals(user="U0ASKER"))
    finally:
        handler.close()  # type: ignore[no-untyped-call]
    assert [m.text for m in slack.messages(CHANNEL)] == ["diagnosing ppo-big"]
    assert [e.text for e in slack.ephemerals(user="U0ASKER")] == ["only the asker sees this"]
    assert slack.calls()[0].method == "auth.test"  # Bolt checks its token first
