"""Buttons whose value the bot cannot read get one ephemeral line; bolt is built without a token conflict."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from bot.process.root import make_app
from bot.runbook import Runbook
from bot.store.memory import MemoryStore

from .apphost import CHANNEL, AppHost, bundle_of
from .model import Message
from .signing import block_action_payload, slash_command_payload
from .standin import SlackStandIn

JOB = "ppo-franka-0412"


@pytest.fixture
def host(slack: SlackStandIn, runbook: Runbook) -> Iterator[AppHost]:
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(),
                 runbook=runbook) as running:
        yield running


@pytest.mark.parametrize("action_id", ["rlark_ticket", "rlark_rerun", "rlark_evidence", "rlark_mute"])
@pytest.mark.parametrize("value", ["", "job/", "nonsense-kind/x/y/z", "\x00\x01", "pod/" + "x" * 400])
def test_a_button_with_an_unreadable_value_gets_one_ephemeral_line(host: AppHost, slack: SlackStandIn,
                                                                   action_id: str, value: str) -> None:
    root = Message(channel=CHANNEL, ts="1700000000.000100", text="root")  # a thread long gone: no matter
    reply = host.click({"action_id": action_id, "value": value}, root=root)
    assert reply.status == 200
    told = slack.wait_for(lambda: slack.responses(host.last_response_url) or None, timeout=10)
    assert len(told) == 1
    text = str(told[0].get("text"))
    assert "\n" not in text.strip() and "not readable" in text and told[0].get("response_type") == "ephemeral"
    assert not slack.calls("chat.postMessage") and not slack.files(), "nothing was posted in the channel"


def test_bolt_hears_no_token_conflict(host: AppHost, caplog: pytest.LogCaptureFixture) -> None:
    """The token comes from `authorize` on each request: bolt's own client has none, so bolt never warns
    that a token is unused or ignored."""
    with caplog.at_level(logging.WARNING, logger="rlark_bot.bolt"):
        make_app(host.deps, client=host.deps.sink.client, socket_mode=False)
    assert not [r for r in caplog.records if r.name.startswith("rlark_bot.bolt")]


def test_every_request_built_by_the_signing_helpers_has_its_own_trigger_id() -> None:
    ids = {slash_command_payload(text="help")["trigger_id"] for _ in range(50)}
    ids |= {block_action_payload(action_id="rlark_rerun", value=f"job/{JOB}", message_ts="1.2")["trigger_id"]
            for _ in range(50)}
    assert len(ids) == 100
