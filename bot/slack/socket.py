"""Socket Mode: Slack's requests over a WebSocket the bot opens itself (no public URL). Nothing else here."""

from __future__ import annotations

from slack_bolt import App
from slack_bolt.adapter.socket_mode import SocketModeHandler
from slack_sdk import WebClient


class SocketMode:
    def __init__(self, app: App, *, app_token: str, client: WebClient) -> None:
        # apps.connections.open goes to the same SLACK_API_BASE_URL as every other call.
        web = WebClient(token=client.token, base_url=client.base_url, timeout=client.timeout,
                        retry_handlers=client.retry_handlers)
        self._handler = SocketModeHandler(app, app_token=app_token, web_client=web)

    def connect(self) -> None:
        """Open the connection in the background (the client reconnects by itself when it drops)."""
        self._handler.connect()  # type: ignore[no-untyped-call]

    def close(self) -> None:
        self._handler.close()  # type: ignore[no-untyped-call]
