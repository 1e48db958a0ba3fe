"""A minimal AlertSink over the real slack_sdk WebClient, for end-to-end tests against the Slack stand-in."""

from __future__ import annotations

from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from bot.alerts.ports import DeliveryFailed


class WebClientSink:
    def __init__(self, *, base_url: str, token: str, timeout: int = 2) -> None:
        # No client-side retries: a refused call is DeliveryFailed at once and the outbox retries on the next tick.
        self.client = WebClient(base_url=base_url, token=token, timeout=timeout, retry_handlers=[])

    def post(self, *, channel: str, text: str, blocks: list[dict[str, Any]], metadata: dict[str, Any],
             thread_ts: str | None = None, key: str | None = None, maybe_sent: bool = False) -> str:
        try:
            resp = self.client.chat_postMessage(channel=channel, text=text, blocks=blocks, metadata=metadata,
                                                thread_ts=thread_ts)
        except (SlackApiError, SlackClientError, OSError) as exc:
            raise DeliveryFailed(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from exc
        return str(resp["ts"])

    def update(self, *, channel: str, ts: str, text: str, blocks: list[dict[str, Any]],
               metadata: dict[str, Any]) -> None:
        try:
            self.client.chat_update(channel=channel, ts=ts, text=text, blocks=blocks, metadata=metadata)
        except (SlackApiError, SlackClientError, OSError) as exc:
            raise DeliveryFailed(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from exc
