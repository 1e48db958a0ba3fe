"""The whole Slack app in-process for tests: `wiring.build` with a real store, a `Service` over an evidence
bundle, the real WebClient pointed at the Slack stand-in, and the waitress server on a free port in a thread.

    with AppHost(slack=slack, bundle=EXAMPLES / "ray-workers-never-join", store=MemoryStore(),
                 runbook=runbook) as host:
        reply = host.command("diagnose job/ppo-franka-0412")
        root = host.wait_answered()

Requests go over real HTTP, signed as Slack signs them (`command`, `click`), or straight into a second bolt
app built on the same deps (`dispatch`). `wait_answered` and `idle` wait on the stand-in and the worker pool,
never on a fixed sleep.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from slack_bolt import App, BoltRequest, BoltResponse

from bot.conversations.deps import AlertOps, Deps
from bot.obs.metrics import Metrics
from bot.process.lifecycle import BotProcess
from bot.process.root import build, make_app
from bot.redact import Redactor
from bot.runbook import Runbook
from bot.service import Service
from bot.settings import ChannelBinding, Settings
from bot.sources import BundleSource
from bot.store.base import Store
from bot.workers.api import Engine

from .model import Message
from .signing import block_action_payload, post, signed_headers, slash_command_payload
from .standin import SlackStandIn

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SCENARIOS = ROOT / "tests" / "scenarios"
SECRET = "standin-signing-secret-7c1e9a2b4d6f"
CHANNEL = "C0DIAG"  # bound to "*" everywhere unless a test binds it otherwise
USER = "U0ASKER"
EVERYWHERE = ChannelBinding(domains="*", namespaces="*", clusters="*")


def bundle_of(name: str) -> Path:
    """An example's directory or a test scenario's bundle directory."""
    example = EXAMPLES / name
    return example if example.is_dir() else SCENARIOS / name / "bundle"


def make_settings(*, channels: Mapping[str, ChannelBinding], admin_channel: str | None = None,
                  admin_usergroup: str | None = None, extra_patterns: list[str] | None = None,
                  base_url: str, bot_token: str, app_token: str | None = None,
                  extra: Mapping[str, Any] | None = None) -> Settings:
    """Settings built directly (no environment, no .env), with the channels bound as given; `extra`: more
    settings by field name (`ui_url`, `doc_urls`, `alerts`, ...)."""
    fields: dict[str, Any] = {
        "SLACK_BOT_TOKEN": bot_token, "SLACK_SIGNING_SECRET": SECRET, "SLACK_API_BASE_URL": base_url,
        "channels": dict(channels), "admin_channel": admin_channel, "admin_usergroup": admin_usergroup,
        "redaction": {"extra_patterns": extra_patterns or []},
    }
    if app_token is not None:
        fields["SLACK_APP_TOKEN"] = app_token
    fields.update(extra or {})
    return Settings(_env_file=None, **fields)  # type: ignore[call-arg]


@dataclass(frozen=True)
class Reply:
    """What the bot answered on the HTTP request itself, and how long that took."""

    status: int
    body: bytes
    seconds: float

    def json(self) -> dict[str, Any]:
        return dict(json.loads(self.body)) if self.body.strip() else {}

    @property
    def text(self) -> str:
        return str(self.json().get("text", "")) if self.body.strip().startswith(b"{") else ""


class AppHost:
    """One bot, served over HTTP on 127.0.0.1, talking to `slack`."""

    def __init__(self, *, slack: SlackStandIn, bundle: Path, store: Store, runbook: Runbook,
                 channels: Mapping[str, ChannelBinding] | None = None, admin_channel: str | None = None,
                 admin_usergroup: str | None = None, extra_patterns: list[str] | None = None,
                 socket_mode: bool = False, alerts: AlertOps | None = None, workers: int = 4,
                 engine: Callable[[Settings, Path], Engine] | None = None,
                 settings: Mapping[str, Any] | None = None) -> None:
        """`engine(settings, bundle)`: where diagnoses run (worker processes, say); by default in the pool's threads."""
        self.slack = slack
        self.settings = make_settings(channels={CHANNEL: EVERYWHERE} if channels is None else channels,
                                      admin_channel=admin_channel, admin_usergroup=admin_usergroup,
                                      extra_patterns=extra_patterns, base_url=slack.base_url, bot_token=slack.token,
                                      app_token=slack.app_token if socket_mode else None, extra=settings)
        self.redactor = Redactor(self.settings.redaction_with_own_secrets())
        service = Service(settings=self.settings, redactor=self.redactor, runbook=runbook)
        self.pool = CountingPool(workers)
        self.process: BotProcess = build(settings=self.settings, redactor=self.redactor, service=service,
                                         source=BundleSource(bundle), store=store, metrics=Metrics(process=False),
                                         pool=self.pool, socket_mode=socket_mode, host="127.0.0.1", port=0,
                                         grace=10.0, engine=engine(self.settings, bundle) if engine else None)
        self.deps: Deps = self.process.deps
        if alerts is not None:
            self.deps.alerts = alerts
        self.app: App = make_app(self.deps, client=self.deps.sink.client, socket_mode=False)
        self._thread = threading.Thread(target=self.process.server.serve_forever, name="bot-http", daemon=True)
        self._started = False
        self.last_response_url = ""

    # ---- lifecycle

    def start(self, *, ready: bool = True) -> AppHost:
        self._thread.start()
        self._started = True
        if ready:
            self.process.check_ready()
            assert self.deps.readiness.ready, self.deps.readiness.reason()
        if self.process.socket is not None:
            self.process.socket.connect()
        return self

    def close(self) -> None:
        if self._started:
            self.process.stop()  # the server thread ends on its own within waitress's 1 s loop timeout

    def __enter__(self) -> AppHost:
        return self if self._started else self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.process.server.port}/slack/events"

    # ---- requests as Slack sends them

    def command_body(self, text: str, *, channel: str = CHANNEL, user: str = USER) -> bytes:
        response_url = self.slack.new_response_url(channel=channel, user=user)
        self.last_response_url = response_url
        fields = slash_command_payload(text=text, channel_id=channel, user_id=user, response_url=response_url)
        return urlencode(fields).encode("utf-8")

    def send(self, body: bytes, *, headers: Mapping[str, str] | None = None, secret: str = SECRET,
             timestamp: int | None = None, sign: bool = True) -> Reply:
        sent = dict(signed_headers(body, secret, timestamp=timestamp)) if sign else {
            "Content-Type": "application/x-www-form-urlencoded"}
        sent.update(headers or {})
        started = time.monotonic()
        status, _, answer = post(self.url, body, sent)
        return Reply(status, answer, time.monotonic() - started)

    def command(self, text: str, *, channel: str = CHANNEL, user: str = USER) -> Reply:
        """`/rlark <text>` typed by `user` in `channel`, posted to the bot over HTTP, signed."""
        return self.send(self.command_body(text, channel=channel, user=user))

    def click(self, button: dict[str, Any], *, root: Message, channel: str = CHANNEL, user: str = USER,
              message_ts: str | None = None) -> Reply:
        """A click on `button` (an element of a thread reply in the thread of `root`)."""
        self.last_response_url = self.slack.new_response_url(channel=channel, user=user, message_ts=message_ts)
        payload = block_action_payload(
            action_id=str(button["action_id"]), value=str(button.get("value", "")), channel_id=channel,
            message_ts=message_ts or root.ts, thread_ts=root.ts, user_id=user, response_url=self.last_response_url)
        return self.send(urlencode({"payload": json.dumps(payload)}).encode("utf-8"))

    def event(self, payload: dict[str, Any], *, retry_num: int | None = None) -> Reply:
        """An Events API delivery (`signing.event_payload`), posted as JSON over HTTP, signed."""
        body = json.dumps(payload).encode("utf-8")
        headers = signed_headers(body, SECRET, content_type="application/json", retry_num=retry_num)
        started = time.monotonic()
        status, _, answer = post(self.url, body, headers)
        return Reply(status, answer, time.monotonic() - started)

    def pick(self, menu: dict[str, Any], option: dict[str, Any], *, root: Message, channel: str = CHANNEL,
             user: str = USER) -> Reply:
        """A choice in the static select `menu` of message `root` (a root: no thread yet)."""
        self.last_response_url = self.slack.new_response_url(channel=channel, user=user, message_ts=root.ts)
        payload = block_action_payload(action_id=str(menu["action_id"]), value="", channel_id=channel,
                                       message_ts=root.ts, user_id=user, response_url=self.last_response_url)
        payload["actions"][0] = {"type": "static_select", "action_id": menu["action_id"], "block_id": "actions",
                                 "selected_option": option, "action_ts": f"{time.time():.6f}"}
        return self.send(urlencode({"payload": json.dumps(payload)}).encode("utf-8"))

    def dispatch(self, text: str, *, channel: str = CHANNEL, user: str = USER) -> BoltResponse:
        """The same slash command handed to bolt's `App.dispatch` directly (signed: verification still runs)."""
        body = self.command_body(text, channel=channel, user=user)
        headers = {k.lower(): [v] for k, v in signed_headers(body, SECRET).items()}
        return self.app.dispatch(BoltRequest(body=body.decode("utf-8"), headers=headers))

    # ---- waiting for what the channel shows

    def answered(self, channel: str = CHANNEL) -> list[Message]:
        """Roots whose thread holds a diagnosis reply and that were updated to the verdict since."""
        return [root for root in self.slack.messages(channel) if root.edits > 0
                and any(m.event_type == "rlark_diagnosis" for m in self.slack.thread(channel, root.ts))]

    def wait_answered(self, channel: str = CHANNEL, *, count: int = 1, timeout: float = 20.0) -> list[Message]:
        roots: list[Message] = self.slack.wait_for(
            lambda: (found if len(found := self.answered(channel)) >= count else None), timeout=timeout)
        return roots

    def reply_of(self, root: Message, channel: str = CHANNEL) -> Message:
        """The (last) diagnosis reply in `root`'s thread."""
        return [m for m in self.slack.thread(channel, root.ts) if m.event_type == "rlark_diagnosis"][-1]

    def idle(self, *, submitted: int = 0, timeout: float = 20.0) -> None:
        """Wait until at least `submitted` pieces of work were handed to the worker pool and all of them ended."""
        self.pool.wait_idle(submitted=submitted, timeout=timeout)


class CountingPool(ThreadPoolExecutor):
    """The diagnosis pool, counting work handed in and finished, so tests can wait for it to settle."""

    def __init__(self, max_workers: int) -> None:
        super().__init__(max_workers=max_workers, thread_name_prefix="diagnose-test")
        self._cond = threading.Condition()
        self.submitted = 0
        self.finished = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        with self._cond:
            self.submitted += 1
            self._cond.notify_all()
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(self._done)
        return future

    def _done(self, _: Future[Any]) -> None:  # also wakes `wait_submitted` callers
        with self._cond:
            self.finished += 1
            self._cond.notify_all()

    def wait_submitted(self, count: int, *, timeout: float) -> bool:
        """Wait until `count` pieces of work were handed in; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: self.submitted >= count, timeout)

    def wait_idle(self, *, submitted: int, timeout: float) -> None:
        with self._cond:
            if not self._cond.wait_for(lambda: self.submitted >= submitted and self.finished == self.submitted,
                                       timeout):
                raise AssertionError(f"work still running: {self.finished} of {self.submitted} done")
