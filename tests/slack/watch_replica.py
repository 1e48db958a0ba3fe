"""One replica in a child process of its own (importable by a spawned interpreter): the bot's composition root
over a real Redis and the real WebClient against the parent's Slack stand-in, with a scripted Job. The parent
sends ("tick", at, stage, phase) and hears ("ticked", ran, replies, redelivered), or sends ("fire", alert object)
for a scheduled check's alert (its root, and the automatic diagnosis when the settings ask for it). A replica told
to `hang` "before" (or "after") its first thread reply whose metadata is `hang_on` blocks before (after) that post
reaches Slack and says ("hanging",), so that the parent can kill it there."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from multiprocessing.queues import Queue
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bot.alerts.notifier import Notifier
from bot.checks.alerts import Alert
from bot.conversations.ports import Sealed
from bot.conversations.watching import WatchTicker
from bot.models.refs import ObjectRef
from bot.models.times import from_seconds
from bot.process.root import alert_sink
from bot.runbook import load_runbook
from bot.signals.names import SIGNALS
from bot.store.factory import open_store

from .apphost import AppHost
from .scripted import ScriptedEngine


class Hanging:
    """The replica's ChatSink, blocking for good around its first watch reply."""

    def __init__(self, inner: Any, *, hang: str, hang_on: str, events: Queue[tuple[Any, ...]]) -> None:
        self.inner, self.hang, self.hang_on, self.events = inner, hang, hang_on, events
        self._never = threading.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def post(self, *, channel: str, message: Sealed, thread_ts: str | None = None, key: str | None = None,
             maybe_sent: bool = False) -> str:
        meta = message.metadata.value if message.metadata is not None else {}
        if self.hang and thread_ts and isinstance(meta, dict) and meta.get("event_type") == self.hang_on:
            if self.hang == "after":
                self.inner.post(channel=channel, message=message, thread_ts=thread_ts, key=key, maybe_sent=maybe_sent)
            self.events.put(("hanging",))
            self._never.wait()
        ts: str = self.inner.post(channel=channel, message=message, thread_ts=thread_ts, key=key,
                                  maybe_sent=maybe_sent)
        return ts


def replica(*, base_url: str, token: str, redis_url: str, prefix: str, bundle: str, channels: dict[str, Any],
            hang: str, commands: Queue[tuple[Any, ...]], events: Queue[tuple[Any, ...]], hang_on: str = "rlark_watch",
            settings: dict[str, Any] | None = None) -> None:
    runbook = load_runbook(known_signals=SIGNALS)
    store = open_store(url=redis_url, data_dir=Path("."), prefix=prefix, socket_timeout=2.0)
    engines: list[ScriptedEngine] = []

    def make(settings: Any, path: Path) -> ScriptedEngine:
        engines.append(ScriptedEngine.over(settings, path, runbook=runbook))
        return engines[-1]

    slack = SimpleNamespace(base_url=base_url, token=token, app_token=None)
    host = AppHost(slack=slack, bundle=Path(bundle), store=store, runbook=runbook,  # type: ignore[arg-type]
                   channels=channels, engine=make, settings=settings)
    host.deps.sink = Hanging(host.deps.sink, hang=hang, hang_on=hang_on, events=events)
    ticker = WatchTicker(host.deps)
    events.put(("ready",))
    while True:
        command = commands.get()
        if command[0] == "fire":
            notifier = Notifier(store=host.deps.store, sink=alert_sink(host.deps), settings=host.settings,
                                runbook=host.deps.service.runbook)
            fired = Alert(check="long-pending", case="pod.schedule.insufficient-resources",
                          object=ObjectRef.parse(command[1]), severity="warning", since=None,
                          summary="Pending for 20 minutes")
            notifier.tick([fired], now=datetime.now(UTC))
            events.put(("fired",))
            continue
        if command[0] != "tick":
            break
        _, at, stage, phase = command
        engines[0].move(stage=stage, phase=phase)
        report = ticker.run(from_seconds(at))
        events.put(("ticked", report.ran, report.replies, report.redelivered))
    store.close()
