"""Fixtures: the Slack Web API stand-in, the Socket Mode stand-in attached to it, a real WebClient on them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from slack_sdk import WebClient

from .socket_standin import SocketModeStandIn
from .standin import SlackStandIn

CHANNEL = "C0DIAG"


@pytest.fixture
def slack() -> Iterator[SlackStandIn]:
    with SlackStandIn() as standin:
        standin.add_channel(CHANNEL, name="diag")
        yield standin


@pytest.fixture
def socket_mode(slack: SlackStandIn) -> Iterator[SocketModeStandIn]:
    with SocketModeStandIn() as server:
        slack.attach(server)
        yield server


@pytest.fixture
def web(slack: SlackStandIn) -> WebClient:
    """A WebClient with no retry handlers, so each call is exactly one request."""
    return WebClient(base_url=slack.base_url, token=slack.token, retry_handlers=[])
