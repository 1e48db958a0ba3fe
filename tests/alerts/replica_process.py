"""A replica's alert loop, run in a child process of the outage test: its own store client, Slack client and
notifier, ticking the alerts a control file names until a stop file appears."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from pathlib import Path

from slack_sdk import WebClient

from alerts.helpers import pool, settings
from bot.alerts.notifier import Notifier
from bot.conversations.alert_delivery import SlackAlertSink
from bot.redact import Redactor
from bot.slack.sink import SlackSink
from bot.store.factory import open_store

TICK_EVERY = 0.25


def run_replica(url: str, prefix: str, base_url: str, token: str, channel: str, control: str) -> None:
    store = open_store(url=url, data_dir=Path("."), prefix=prefix, socket_timeout=0.3)
    sink = SlackAlertSink(SlackSink(WebClient(token=token, base_url=base_url, timeout=5)), Redactor())
    notifier = Notifier(store=store, sink=sink, settings=settings(fallback=channel))
    path = Path(control)
    try:
        while not (path.parent / "stop").exists():
            names = json.loads(path.read_text(encoding="utf-8"))
            notifier.tick([pool(name) for name in names], now=datetime.now(UTC))
            time.sleep(TICK_EVERY)
    finally:
        store.close()
