"""A Slack Web API stand-in: a real HTTP server on 127.0.0.1 for the real `slack_sdk.WebClient` to talk to.

It answers the methods the bot calls (see `workspace.METHODS`), the upload URLs `files.getUploadURLExternal` hands
out (so `files_upload_v2` works end to end) and response URLs (`new_response_url()`). It checks the bearer token,
records every request as a `Call`, keeps the workspace those calls changed (`model`), and can be told to fail:
`fail()` (HTTP status with Retry-After, `ok: false` errors, dropped connections), `delay()`, `down()` / `up()`.

    with SlackStandIn() as slack:
        client = WebClient(base_url=slack.base_url, token=slack.token)
        ...
        slack.wait_for(lambda: slack.messages("C1"))

`wait_for` sleeps on a condition variable that every call and every change notifies; its predicate runs under the
stand-in's lock, so it must only read the stand-in (never call Slack through a client).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol, TypeVar

from .model import Call, Channel, Ephemeral, File, Message, Obj, ResponseUrl
from .serving import Delay, Fault, serve_request
from .workspace import Workspace

T = TypeVar("T")


class SocketEndpoint(Protocol):
    """What the Web API stand-in needs of a Socket Mode server: a fresh ws:// URL per `apps.connections.open`."""

    def new_url(self) -> str: ...


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # the default backlog of 5 drops SYNs under parallel clients: a 1 s retransmit each
    standin: SlackStandIn

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away mid-answer (a timeout or a cut connection, as fault tests make) is not the
        stand-in's error: only anything else is printed, as the server would."""
        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            return
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_POST(self) -> None:
        self.server.standin._handle(self)

    do_GET = do_POST

    def log_message(self, format: str, *args: Any) -> None:  # the stand-in records calls itself
        return


class SlackStandIn:
    """The Slack Web API on 127.0.0.1 (`base_url`), with a workspace model and scriptable faults."""

    def __init__(self, *, token: str = "xoxb-standin-bot", app_token: str = "xapp-standin-app",
                 clock: Callable[[], float] = time.time, socket: SocketEndpoint | None = None) -> None:
        self.token = token
        self.app_token = app_token
        self.model = Workspace(clock=clock)
        self.model.socket_url = lambda: None if self._socket is None else self._socket.new_url()
        self._socket = socket
        self.cond = threading.Condition(threading.RLock())  # guards model, log, faults, delays; notified on change
        self.log: list[Call] = []
        self.faults: list[Fault] = []
        self.delays: list[Delay] = []
        self.stopping = threading.Event()  # set on close: cuts delays short
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._port = 0
        self._hooks = 0

    # ---- lifecycle

    def start(self) -> SlackStandIn:
        self.stopping.clear()
        self.up()
        return self

    def close(self) -> None:
        with self.cond:
            self.stopping.set()
            self.cond.notify_all()  # wakes the calls a delay holds
        self.down()

    def __enter__(self) -> SlackStandIn:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def base_url(self) -> str:
        """The Web API base URL for `WebClient(base_url=...)`, ending in `/`."""
        if not self._port:
            raise RuntimeError("the Slack stand-in is not started")
        return f"http://127.0.0.1:{self._port}/api/"

    def down(self) -> None:
        """Close the listening socket: connections are refused until `up()`. Call it from the test, not a handler."""
        server, thread = self._server, self._thread
        self._server = self._thread = None
        if server is not None:
            server.shutdown()
            server.server_close()
        if thread is not None:
            thread.join()

    def up(self) -> None:
        """Listen again, on the same port as before (a fresh port the first time)."""
        if self._server is not None:
            return
        server = _Server(("127.0.0.1", self._port), _Handler)
        server.standin = self
        self._port = server.server_address[1]
        self.model.base_url = self.base_url
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.005},
                                        name=f"slack-standin-{self._port}", daemon=True)
        self._thread.start()

    def attach(self, socket: SocketEndpoint | None) -> None:
        """Make `apps.connections.open` hand out `socket`'s URLs (None: answer it with an error)."""
        self._socket = socket

    # ---- configuration

    def set_usergroup(self, usergroup: str, users: list[str]) -> None:
        with self.cond:
            self.model.usergroups[usergroup] = list(users)

    def add_channel(self, channel: str, *, name: str, is_private: bool = False, is_member: bool = True) -> None:
        """Make `conversations.info` know `channel` (any channel may be posted to; unknown ones are not found)."""
        with self.cond:
            self.model.channels[channel] = Channel(channel, name, is_private=is_private, is_member=is_member)

    def set_member(self, user: str, channels: list[str]) -> None:
        """The channels `users.conversations` lists for `user`."""
        with self.cond:
            self.model.members[user] = list(channels)

    def views(self, method: str | None = None, *, user: str | None = None) -> list[Obj]:
        """Views opened (`views.open`) and published (`views.publish`), in order: {method, user|trigger_id, view}."""
        with self.cond:
            return [v for v in self.model.views if method in (None, v["method"]) and user in (None, v.get("user"))]

    def new_response_url(self, *, channel: str, user: str, message_ts: str | None = None) -> str:
        """A response URL for a command or action by `user` in `channel` (`message_ts`: the clicked message)."""
        with self.cond:
            self._hooks += 1
            hook = ResponseUrl(id=f"R{self._hooks:06d}", channel=channel, user=user, message_ts=message_ts)
            self.model.responses[hook.id] = hook
        return f"http://127.0.0.1:{self._port}/response/{hook.id}"

    def fail(self, method: str, *, status: int | None = None, error: str | None = None,
             retry_after: int | None = None, drop: bool = False, times: int | None = 1) -> None:
        """Make the next `times` calls of `method` (`*`: any; `upload`, `response_url` too) fail.

        `status=429, retry_after=1`: HTTP 429 with `Retry-After: 1`; `status=500`: HTTP 500; `error="ratelimited"`:
        HTTP 200 with `ok: false`; `drop=True`: the connection is closed without an answer. `times=None`: always.
        """
        if status is None and error is None and not drop:
            raise ValueError("fail() needs a status, an error or drop=True")
        if status == 429 and retry_after is None:
            retry_after = 1
        with self.cond:
            self.faults.append(Fault(method, status, error, retry_after, drop, times))

    def delay(self, method: str, seconds: float, *, times: int | None = None, taken: bool = False) -> Delay:
        """Answer calls of `method` (`*`: any) only after `seconds` (cut short when the stand-in closes, or by
        `release`: a test that needs a call held until it has done something holds it that long, no longer).
        `taken=True`: the call takes effect at once (a post is in the channel) and only the answer is late."""
        held = Delay(method, seconds, times, taken=taken)
        with self.cond:
            self.delays.append(held)
        return held

    def release(self, held: Delay) -> None:
        """Answer the calls `held` holds now; later calls it matches are not held."""
        with self.cond:
            held.released = True
            self.cond.notify_all()

    def clear_faults(self) -> None:
        with self.cond:
            self.faults.clear()
            self.delays.clear()

    def reset(self) -> None:
        """Forget calls, messages, ephemerals, files, response URLs, faults and delays; keep tokens,
        channels, user groups and the attached Socket Mode stand-in."""
        with self.cond:
            self.log.clear()
            self.model.clear()
            self.clear_faults()
            self.cond.notify_all()

    def user_posts(self, channel: str, *, user: str, text: str) -> Message:
        """A person's message in `channel` (the bot is not the author): what a pasted link arrives in."""
        with self.cond:
            message = self.model.add_message(channel, {"text": text}, user=user)
            self.cond.notify_all()
        return message

    # ---- reading

    def calls(self, method: str | None = None) -> list[Call]:
        with self.cond:
            return [c for c in self.log if method is None or c.method == method]

    def messages(self, channel: str) -> list[Message]:
        """The channel's root messages (not thread replies), oldest first, each in its latest version."""
        with self.cond:
            return self.model.roots(channel)

    def thread(self, channel: str, ts: str) -> list[Message]:
        """The replies in the thread of root `ts` (the root itself not included), oldest first."""
        with self.cond:
            return self.model.replies(channel, ts)

    def message(self, channel: str, ts: str) -> Message:
        with self.cond:
            found = self.model.find(channel, ts)
        if found is None:
            raise KeyError(f"no message {ts} in {channel}")
        return found

    def ephemerals(self, *, channel: str | None = None, user: str | None = None) -> list[Ephemeral]:
        with self.cond:
            return [e for e in self.model.ephemerals
                    if channel in (None, e.channel) and user in (None, e.user)]

    def files(self, *, channel: str | None = None) -> list[File]:
        """Files whose upload was completed (shared to `channel` when given), in upload order."""
        with self.cond:
            return [f for f in self.model.files.values() if f.completed and channel in (None, f.channel)]

    def responses(self, url: str | None = None) -> list[Obj]:
        """Bodies posted to the response URL `url` (every response URL when None), in order."""
        with self.cond:
            hooks = self.model.responses.values() if url is None else [self.model.responses[url.rsplit("/", 1)[1]]]
            return [post for hook in hooks for post in hook.posts]

    def permalink(self, channel: str, ts: str) -> str:
        with self.cond:
            return self.model.permalink(channel, ts)

    def wait_for(self, predicate: Callable[[], T], timeout: float = 5.0) -> T:
        """Wait until `predicate()` is truthy and return its value; AssertionError after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                value = predicate()
                if value:
                    return value
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    seen = ", ".join(f"{c.method}:{c.error or c.status}" for c in self.log[-10:]) or "none"
                    raise AssertionError(f"condition not met within {timeout}s; last calls: {seen}")
                self.cond.wait(remaining)

    # ---- serving

    def _handle(self, req: BaseHTTPRequestHandler) -> None:
        serve_request(self, req)
