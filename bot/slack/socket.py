"""Socket Mode: Slack's requests over a WebSocket the bot opens itself (no public URL). Nothing else here.

Opening it is retried with backoff while Slack cannot be reached or answers 5xx (the process serves its probes
meanwhile, `/readyz` failing); a refusal of the app token itself (`invalid_auth`, ...) is `SocketRefused`, which
no retry fixes.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from slack_bolt import App
from slack_bolt.adapter.socket_mode import SocketModeHandler
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

# Slack's answers to apps.connections.open that mean the app token itself is wrong.
REFUSALS = frozenset({"invalid_auth", "not_authed", "not_allowed_token_type", "account_inactive", "token_revoked",
                      "token_expired", "invalid_token", "missing_scope"})
FIRST_DELAY, MAX_DELAY = 1.0, 30.0
# The builtin client pings every `ping_interval` and drops a connection once no pong came for more than
# STALE_AFTER_PINGS intervals, then reconnects. With the SDK's 10 s that took 46 s (commands in that window
# fail at Slack); pinging every 2 s replaces a half-open connection in 11 s (bench/socket/RESULTS.md).
PING_INTERVAL_SECONDS = 2.0
STALE_AFTER_PINGS = 4  # slack_sdk's own rule (builtin Connection.check_state)
OnState = Callable[[str | None], None]  # None: connected; else why not yet


class SocketRefused(Exception):
    """Slack refused the app token: `error` is its word for it."""

    def __init__(self, error: str) -> None:
        super().__init__(f"Slack refused the app token (SLACK_APP_TOKEN): {error}")
        self.error = error


class _Reported(logging.Filter):
    """The SDK logs a failed apps.connections.open as a multi-line error; this module says it in one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Failed to retrieve WSS URL")


_sdk_log = logging.getLogger("rlark_bot.socket.sdk")
_sdk_log.addFilter(_Reported())
log = logging.getLogger("rlark_bot.socket")


class SocketMode:
    def __init__(self, app: App, *, app_token: str, client: WebClient) -> None:
        # apps.connections.open goes to the same SLACK_API_BASE_URL as every other call.
        web = WebClient(token=client.token, base_url=client.base_url, timeout=client.timeout,
                        retry_handlers=client.retry_handlers)
        self._handler = SocketModeHandler(app, app_token=app_token, web_client=web, logger=_sdk_log,
                                          ping_interval=PING_INTERVAL_SECONDS)

    def connect(self) -> None:
        """One attempt to open the connection (the client reconnects by itself when it drops later).
        Raises SocketRefused, or the error that kept Slack from answering."""
        client = self._handler.client
        try:
            self._handler.connect()  # type: ignore[no-untyped-call]
        except SlackApiError as exc:
            client.wss_uri = None  # a ticket is good for one connection: ask for a new one next time
            error = str(exc.response.get("error") or "")
            if error in REFUSALS:
                raise SocketRefused(error) from None
            raise
        except Exception:
            client.wss_uri = None
            raise

    def connect_until(self, *, stopping: threading.Event, on_state: OnState) -> bool:
        """Try until connected (True) or `stopping` is set (False), with backoff. Raises SocketRefused."""
        delay, attempt = FIRST_DELAY, 1
        while not stopping.is_set():
            try:
                self.connect()
            except SocketRefused:
                raise
            except Exception as exc:  # unreachable, 5xx, a WebSocket that would not open: try again
                reason = _reason(exc)
                on_state(f"Socket Mode not connected (attempt {attempt}: {reason}); retrying in {delay:g} s")
                log.warning("Socket Mode not connected; retrying", extra={"attempt": attempt, "reason": reason,
                                                                           "retry_in_seconds": delay})
                stopping.wait(delay)
                delay, attempt = min(delay * 2, MAX_DELAY), attempt + 1
                continue
            on_state(None)
            return True
        return False

    def close(self) -> None:
        self._handler.close()  # type: ignore[no-untyped-call]


def _reason(exc: Exception) -> str:
    if isinstance(exc, SlackApiError):
        status = getattr(exc.response, "status_code", 0)
        return f"Slack answered {exc.response.get('error') or status}"
    return type(exc).__name__
