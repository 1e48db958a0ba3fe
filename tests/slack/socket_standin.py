"""A Socket Mode stand-in: a local WebSocket server speaking Slack's Socket Mode protocol to the real clients.

Slack's side of the protocol (https://docs.slack.dev/apis/events-api/using-socket-mode/): the app calls
`apps.connections.open` and connects to the `wss://.../link/?ticket=...` URL it gets; Slack sends
`{"type": "hello", ...}`, then envelopes `{"envelope_id", "type", "payload", "accepts_response_payload"}` of type
`slash_commands`, `interactive` or `events_api`; the app acks each with `{"envelope_id": ..., "payload": ...}`.
`{"type": "disconnect", "reason": "refresh_requested"}` asks the app to reconnect through a new URL.

Here the URL is `ws://127.0.0.1:<port>/link/?ticket=<one-time>&app_id=<id>` (slack_sdk's builtin client connects
without TLS to any port but 443). Attach it to a `SlackStandIn` (`slack.attach(socket)`) so `apps.connections.open`
returns `new_url()`. The server runs in its own threads (websockets' threaded server); close the app's client before
the stand-in, or the client will try to reconnect while the stand-in shuts down.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlsplit

from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.sync.server import Server, ServerConnection, serve

from .model import APP_ID, Obj

T = TypeVar("T")
RESPONSE_PAYLOAD_INTERACTIONS = frozenset({"view_submission", "block_suggestion"})


@dataclass(frozen=True)
class Ack:
    """An acknowledgement the app sent: the envelope it acks and the response payload, if any."""

    envelope_id: str
    payload: Obj | None
    at: float


class SocketModeStandIn:
    """Slack's Socket Mode endpoint on 127.0.0.1, sending envelopes to the newest connection and recording acks."""

    def __init__(self, *, app_id: str = APP_ID, ping_interval: float | None = 0.2, close_timeout: float = 1.0,
                 ping_timeout: float | None = None, spread: bool = False) -> None:
        """`ping_interval`: how often the server pings each connection. slack_sdk's builtin client holds a lock
        while it waits (up to 3 s) for data, which delays its `close()` and its switch to a new connection; a
        frequent ping wakes it, so tests do not wait on that timeout. None: no pings. `ping_timeout`: a
        connection whose pong is that late is closed (None: never). `spread`: each envelope goes to the next
        open connection in turn, as Slack spreads an app's requests over its connections (else to the newest)."""
        self.app_id = app_id
        self.ping_interval = ping_interval
        self.ping_timeout = ping_timeout
        self.spread = spread
        self._turn = 0
        self.close_timeout = close_timeout
        self.cond = threading.Condition(threading.RLock())
        self._tickets: set[str] = set()
        self._open: list[ServerConnection] = []
        self._ever = 0
        self._acks: list[Ack] = []
        self._received: list[Any] = []
        self._sent: list[Obj] = []
        self._server: Server | None = None
        self._thread: threading.Thread | None = None

    # ---- lifecycle

    def start(self) -> SocketModeStandIn:
        self._server = serve(self._serve, "127.0.0.1", 0, compression=None, process_request=self._check_ticket,
                             ping_interval=self.ping_interval, ping_timeout=self.ping_timeout,
                             close_timeout=self.close_timeout)
        self._thread = threading.Thread(target=self._server.serve_forever, name="socket-mode-standin", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server = None
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def __enter__(self) -> SocketModeStandIn:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("the Socket Mode stand-in is not started")
        return int(self._server.socket.getsockname()[1])

    def new_url(self) -> str:
        """A fresh one-time connection URL, as `apps.connections.open` returns it."""
        ticket = uuid.uuid4().hex
        with self.cond:
            self._tickets.add(ticket)
        return f"ws://127.0.0.1:{self.port}/link/?ticket={ticket}&app_id={self.app_id}"

    # ---- the server side

    def _check_ticket(self, connection: ServerConnection, request: Request) -> Response | None:
        url = urlsplit(request.path)
        ticket = parse_qs(url.query).get("ticket", [""])[0]
        with self.cond:
            if url.path.rstrip("/") != "/link" or ticket not in self._tickets:
                return connection.respond(401, "invalid or used ticket\n")
            self._tickets.discard(ticket)
        return None

    def _serve(self, connection: ServerConnection) -> None:
        with self.cond:
            self._open.append(connection)
            self._ever += 1
            hello = {"type": "hello", "num_connections": len(self._open),
                     "debug_info": {"host": "applink-standin", "build_number": 1,
                                    "approximate_connection_time": 18060},
                     "connection_info": {"app_id": self.app_id}}
        try:
            connection.send(json.dumps(hello))
            with self.cond:
                self.cond.notify_all()
            for frame in connection:
                self._receive(frame)
        except ConnectionClosed:
            pass
        finally:
            with self.cond:
                self._open.remove(connection)
                self.cond.notify_all()

    def _receive(self, frame: str | bytes) -> None:
        text = frame.decode("utf-8", errors="replace") if isinstance(frame, bytes) else frame
        try:
            message: Any = json.loads(text)
        except json.JSONDecodeError:
            message = text
        with self.cond:
            self._received.append(message)
            if isinstance(message, dict) and isinstance(message.get("envelope_id"), str):
                self._acks.append(Ack(message["envelope_id"], message.get("payload"), time.monotonic()))
            self.cond.notify_all()

    # ---- what tests do

    @property
    def connections(self) -> int:
        """How many connections are open now."""
        with self.cond:
            return len(self._open)

    @property
    def connections_ever(self) -> int:
        """How many connections were accepted since the start (a reconnect counts again)."""
        with self.cond:
            return self._ever

    def wait_for_connection(self, timeout: float = 5.0, *, count: int = 1) -> None:
        """Wait until `count` connections have been accepted since the start and one is open."""
        self.wait_for(lambda: self._ever >= count and bool(self._open), timeout, what="no client connected")

    def wait_for(self, predicate: Callable[[], T], timeout: float = 5.0, *, what: str = "condition not met") -> T:
        """Wait until `predicate()` (run under the stand-in's lock) is truthy; its value, or AssertionError."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while not (value := predicate()):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"{what} within {timeout}s")
                self.cond.wait(remaining)
            return value

    def send(self, message: Obj, *, timeout: float = 5.0) -> None:
        """Send any message to the newest open connection, waiting up to `timeout` for one."""
        connection = self.wait_for(self._next_connection, timeout, what="no client connected")
        assert connection is not None  # wait_for returns only a truthy value
        with self.cond:
            self._sent.append(message)
        connection.send(json.dumps(message))

    def _next_connection(self) -> ServerConnection | None:
        if not self._open:
            return None
        if not self.spread:
            return self._open[-1]
        self._turn += 1
        return self._open[self._turn % len(self._open)]

    def _envelope(self, kind: str, payload: Obj, *, accepts: bool, timeout: float, **extra: Any) -> str:
        envelope_id = str(uuid.uuid4())
        self.send({"envelope_id": envelope_id, "type": kind, "payload": payload,
                   "accepts_response_payload": accepts, **extra}, timeout=timeout)
        return envelope_id

    def send_slash_command(self, payload: Obj, *, timeout: float = 5.0) -> str:
        """Deliver a slash command (the fields Slack would form-post); returns the envelope id to ack."""
        return self._envelope("slash_commands", payload, accepts=True, timeout=timeout)

    def send_interactive(self, payload: Obj, *, timeout: float = 5.0) -> str:
        """Deliver an interaction (`block_actions`, `view_submission`, ...); returns the envelope id."""
        accepts = payload.get("type") in RESPONSE_PAYLOAD_INTERACTIONS
        return self._envelope("interactive", payload, accepts=accepts, timeout=timeout)

    def send_events_api(self, payload: Obj, *, retry_attempt: int = 0, retry_reason: str = "",
                        timeout: float = 5.0) -> str:
        """Deliver an Events API callback (`{"type": "event_callback", "event": {...}}`); returns the envelope id."""
        return self._envelope("events_api", payload, accepts=False, timeout=timeout,
                              retry_attempt=retry_attempt, retry_reason=retry_reason)

    def send_disconnect(self, reason: str = "refresh_requested", *, timeout: float = 5.0) -> None:
        """Ask the client to reconnect through a new `apps.connections.open` URL, as Slack does periodically."""
        self.send({"type": "disconnect", "reason": reason, "debug_info": {"host": "applink-standin"}},
                  timeout=timeout)

    def drop_connections(self) -> None:
        """Close every open connection from the server side (code 1001), as when Slack's host goes away."""
        with self.cond:
            open_now = list(self._open)
        for connection in open_now:
            connection.close(1001, "going away")

    def acks(self) -> list[Ack]:
        with self.cond:
            return list(self._acks)

    def received(self) -> list[Any]:
        """Every message the app sent, JSON-decoded when it was JSON, in order."""
        with self.cond:
            return list(self._received)

    def sent(self) -> list[Obj]:
        with self.cond:
            return list(self._sent)

    def wait_for_ack(self, envelope_id: str, timeout: float = 5.0) -> Ack:
        """The app's ack of `envelope_id`; AssertionError if none arrives within `timeout` seconds."""
        ack = self.wait_for(lambda: next((a for a in self._acks if a.envelope_id == envelope_id), None),
                            timeout, what=f"no ack of envelope {envelope_id}")
        assert ack is not None  # wait_for returns only a truthy value
        return ack
