"""Socket Mode: Slack's requests over a WebSocket the bot opens itself (no public URL). Nothing else here.

Opening it is retried with backoff while Slack cannot be reached or answers 5xx (the process serves its probes
meanwhile, `/readyz` failing); a refusal of the app token itself (`invalid_auth`, ...) is `SocketRefused`, which
no retry fixes.

Two connections are kept open (Slack allows an app several, and spreads its requests over them): when one goes
half-open (nothing passes, nothing is closed: a NAT or load balancer lost the flow), the other one still carries
what Slack sends it, so the requests that reach the dead one are those of a few seconds only. A connection is
dropped, and opened again, once no pong came for STALE_SECONDS, well before slack_sdk's own rule (four ping
intervals) would; with a standby beside it, dropping a slow but healthy one costs nothing.
"""

from __future__ import annotations

import contextlib
import logging
import socket as stdlib_socket
import threading
import time
from collections.abc import Callable
from typing import Any

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
PING_INTERVAL_SECONDS = 1.0
STALE_AFTER_PINGS = 4  # slack_sdk's own rule (builtin Connection.check_state)
STALE_SECONDS = 3.0  # this module's rule: no pong for this long (pings every second) and the connection is dropped
CONNECTIONS = 2  # one serving, one standby; Slack spreads requests over both
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
    def __init__(self, app: App, *, app_token: str, client: WebClient, connections: int = CONNECTIONS) -> None:
        # apps.connections.open goes to the same SLACK_API_BASE_URL as every other call.
        web = WebClient(token=client.token, base_url=client.base_url, timeout=client.timeout,
                        retry_handlers=client.retry_handlers)
        self._handlers = [SocketModeHandler(app, app_token=app_token, web_client=web, logger=_sdk_log,
                                            ping_interval=PING_INTERVAL_SECONDS) for _ in range(max(1, connections))]
        self._closed = threading.Event()
        self._dropping: set[int] = set()
        self._mutex = threading.Lock()
        self.dropped = 0  # connections this module dropped as stale
        self._started = False

    def connect(self) -> None:
        """One attempt to open the first connection (the client reconnects by itself when it drops later), then
        the standby ones in the background. Raises SocketRefused, or the error that kept Slack from answering."""
        _connect(self._handlers[0])
        self._start_standby(self._closed)

    def connect_until(self, *, stopping: threading.Event, on_state: OnState) -> bool:
        """Try until connected (True) or `stopping` is set (False), with backoff. Raises SocketRefused. Once the
        first connection is open, the standby ones are opened in the background and the staleness watch starts."""
        if not _retrying(lambda: _connect(self._handlers[0]), stopping=stopping, on_state=on_state):
            return False
        self._start_standby(stopping)
        return True

    def _start_standby(self, stopping: threading.Event) -> None:
        with self._mutex:
            if self._started:
                return
            self._started = True
        for index, handler in enumerate(self._handlers[1:], start=1):
            threading.Thread(target=self._standby, args=(handler, stopping), name=f"socket-standby-{index}",
                             daemon=True).start()
        threading.Thread(target=self._watch, name="socket-watch", daemon=True).start()

    def _standby(self, handler: SocketModeHandler, stopping: threading.Event) -> None:
        def quiet(problem: str | None) -> None:
            if problem is not None:
                log.info("Socket Mode standby connection not open yet", extra={"reason": problem})

        def attempt() -> None:
            if not self._closed.is_set():
                _connect(handler)

        with contextlib.suppress(SocketRefused):  # the first connection was accepted with the same token
            _retrying(attempt, stopping=stopping, on_state=quiet)

    def _watch(self) -> None:
        """Drop a connection whose pongs stopped for STALE_SECONDS; slack_sdk then opens a new one."""
        while not self._closed.wait(WATCH_EVERY):
            now = time.time()
            for index, handler in enumerate(self._handlers):
                session = getattr(handler.client, "current_session", None)
                last = getattr(session, "last_ping_pong_time", None)
                if session is None or not session.is_active() or last is None or now - last <= STALE_SECONDS:
                    continue
                with self._mutex:
                    if index in self._dropping:
                        continue
                    self._dropping.add(index)
                log.warning("Socket Mode connection silent; replacing it",
                            extra={"connection": index, "silent_seconds": round(now - last, 1)})
                threading.Thread(target=self._drop, args=(index, session), name="socket-drop", daemon=True).start()

    def _drop(self, index: int, session: Any) -> None:
        try:
            with contextlib.suppress(OSError, AttributeError):
                session.sock.shutdown(stdlib_socket.SHUT_RDWR)  # wakes the reader now, not after its 3 s poll
            session.disconnect()  # the client then reconnects
            self.dropped += 1
        except Exception as exc:  # the SDK's own check will drop it later
            log.info("dropping a silent connection failed", extra={"reason": type(exc).__name__})
        finally:
            with self._mutex:
                self._dropping.discard(index)

    def close(self) -> None:
        self._closed.set()
        for handler in self._handlers:
            with contextlib.suppress(Exception):
                handler.close()  # type: ignore[no-untyped-call]


WATCH_EVERY = 0.25  # seconds between two looks at the connections' last pongs


def _connect(handler: SocketModeHandler) -> None:
    client = handler.client
    try:
        handler.connect()  # type: ignore[no-untyped-call]
    except SlackApiError as exc:
        client.wss_uri = None  # a ticket is good for one connection: ask for a new one next time
        error = str(exc.response.get("error") or "")
        if error in REFUSALS:
            raise SocketRefused(error) from None
        raise
    except Exception:
        client.wss_uri = None
        raise


def _retrying(attempt: Callable[[], None], *, stopping: threading.Event, on_state: OnState) -> bool:
    delay, count = FIRST_DELAY, 1
    while not stopping.is_set():
        try:
            attempt()
        except SocketRefused:
            raise
        except Exception as exc:  # unreachable, 5xx, a WebSocket that would not open: try again
            reason = _reason(exc)
            on_state(f"Socket Mode not connected (attempt {count}: {reason}); retrying in {delay:g} s")
            log.warning("Socket Mode not connected; retrying", extra={"attempt": count, "reason": reason,
                                                                       "retry_in_seconds": delay})
            stopping.wait(delay)
            delay, count = min(delay * 2, MAX_DELAY), count + 1
            continue
        on_state(None)
        return True
    return False


def _reason(exc: Exception) -> str:
    if isinstance(exc, SlackApiError):
        status = getattr(exc.response, "status_code", 0)
        return f"Slack answered {exc.response.get('error') or status}"
    return type(exc).__name__
