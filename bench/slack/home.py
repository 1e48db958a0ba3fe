"""Benchmark: App Home publish latency with 500 firing alerts. The bot's composition root (tests/slack/apphost:
`bot.process.root.build`, the real WebClient against the Slack Web API stand-in), the store on the local Redis when
127.0.0.1:6379 answers (else in memory). 500 alerts fire (one scheduled-check tick through the notifier: 500 alert
roots in 5 bound channels), then 20 users, each a member of every bound channel, open the tab:

- end to end: a signed `app_home_opened` event over HTTP to the bot, until the stand-in holds that user's
  `views.publish` (the bot acks first, builds and publishes on its pool);
- in process: `Home.opened(user)` alone, with the store calls it makes (the user's channels are asked of Slack
  once per user: the first open of each user includes `users.conversations`).

    .venv/bin/python bench/slack/home.py        (writes bench/slack/HOME.md)
"""

from __future__ import annotations

import json
import os
import platform
import socket
import statistics
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.models.refs import ObjectRef

REPO = Path(__file__).resolve().parents[2]
for p in (REPO, REPO / "tests"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from slack.apphost import AppHost, bundle_of  # noqa: E402
from slack.payloads import event_callback, home_opened  # noqa: E402
from slack.standin import SlackStandIn  # noqa: E402

from bot.alerts.notifier import Notifier  # noqa: E402
from bot.checks.alerts import Alert  # noqa: E402
from bot.conversations.alert_delivery import SlackAlertSink  # noqa: E402
from bot.conversations.home import Home  # noqa: E402
from bot.runbook import load_runbook  # noqa: E402
from bot.settings import ChannelBinding  # noqa: E402
from bot.signals.names import SIGNALS  # noqa: E402
from bot.store.base import Store  # noqa: E402
from bot.store.factory import open_store  # noqa: E402
from bot.store.memory import MemoryStore  # noqa: E402

ALERTS = int(os.environ.get("HOME_BENCH_ALERTS", "500"))
USERS = 20
CHANNELS = [f"C0HOME{i:02d}" for i in range(5)]
SEVERITIES = ("critical", "warning", "warning", "info")


class Counting:
    """The store, counting the calls made through it."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if not callable(attr):
            return attr

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return attr(*args, **kwargs)

        return counted


def store() -> tuple[Store, str]:
    with socket.socket() as s:
        s.settimeout(0.3)
        if s.connect_ex(("127.0.0.1", 6379)) == 0:
            return open_store(url="redis://127.0.0.1:6379/0", data_dir=Path("."),
                              prefix=f"rlark-bench-home:{os.getpid()}:"), "the local Redis (redis://127.0.0.1:6379/0)"
    return MemoryStore(), "in memory (no Redis on 127.0.0.1:6379)"


def alerts() -> list[Alert]:
    return [Alert(check="long-pending", case="pod.schedule.insufficient-resources",
                  object=ObjectRef.parse(f"gpu-a/team-{i % len(CHANNELS)}/Pod/trainer-{i:03d}"),
                  severity=SEVERITIES[i % 4], since=None,
                  summary=f"Pending for {20 + i % 40} minutes: 0/8 nodes are available")
            for i in range(ALERTS)]


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f} ms median, {max(values) * 1000:.0f} ms max"


def main() -> int:
    kv, where = store()
    counting = Counting(kv)
    channels = {c: ChannelBinding(domains="*", namespaces=[f"team-{i}"], clusters="*", alerts=True)
                for i, c in enumerate(CHANNELS)}
    rows: list[str] = []
    with SlackStandIn() as slack:
        users = [f"U0HOME{i:03d}" for i in range(2 * USERS)]
        for u in users:
            slack.set_member(u, CHANNELS)
        with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=counting,  # type: ignore[arg-type]
                     runbook=load_runbook(known_signals=SIGNALS), channels=channels) as host:
            started = time.perf_counter()
            notifier = Notifier(store=kv, sink=SlackAlertSink(host.deps.sink, host.redactor), settings=host.settings)
            report = notifier.tick(alerts(), now=datetime.now(UTC))
            rows.append(f"| {ALERTS} alerts fire (setup) | {time.perf_counter() - started:.1f} s | "
                        f"{report.delivered} roots posted | |")
            # end to end, over HTTP: the event, the ack, the view built and published
            e2e: list[float] = []
            for u in users[:USERS]:
                before = len(slack.views("views.publish", user=u))
                sent = time.perf_counter()
                assert host.event(event_callback(home_opened(user=u))).status == 200
                slack.wait_for(lambda u=u, before=before: len(slack.views("views.publish", user=u)) > before or None,
                               timeout=30)
                e2e.append(time.perf_counter() - sent)
            view = slack.views("views.publish", user=users[0])[-1]["view"]
            blocks = len(view["blocks"])
            more = next((json.dumps(b) for b in view["blocks"] if "more not shown" in json.dumps(b)), "")
            rows.append(f"| `app_home_opened` over HTTP → `views.publish` ({USERS} users, first open each) | "
                        f"{ms(e2e)} | {blocks} blocks | |")
            # in process: the view built and published, store calls counted
            home = Home(host.deps)
            for label, group in (("first open (users.conversations asked)", users[USERS:]),
                                 ("opened again after the view TTL (channels cached)", users[USERS:])):
                took: list[float] = []
                counting.calls.clear()
                slack_before = len(slack.calls())
                for u in group:
                    home._shown.pop(u, None)  # past the view's TTL: built and published again
                    t = time.perf_counter()
                    assert home.opened(u)
                    took.append(time.perf_counter() - t)
                per = {k: round(v / len(group), 1) for k, v in sorted(counting.calls.items())}
                slack_calls = Counter(c.method for c in slack.calls()[slack_before:])
                rows.append(f"| `Home.opened`, {label} | {ms(took)} | store calls per open: {per} | "
                            + ", ".join(f"{m} {n / len(group):g}" for m, n in sorted(slack_calls.items()))
                            + " per open |")
    kv.close()
    header = "| step | time | view / store | Slack calls |\n|---|---|---|---|"
    out = (f"# App Home benchmark\n\nMachine: {platform.machine()}, {os.cpu_count()} cores, Python "
           f"{platform.python_version()}, load average {os.getloadavg()[0]:.1f} at the end (the machine is shared). "
           f"Store: {where}. Run `.venv/bin/python bench/slack/home.py`.\n\n"
           f"Method: {ALERTS} firing alerts in {len(CHANNELS)} bound channels (one scheduled tick through the "
           f"notifier), {USERS} users each in every one of them; the Slack Web API stand-in refuses a view over 100 "
           f"blocks as Slack does.\n\n{header}\n" + "\n".join(rows) + "\n\n"
           f"The summary line under the top alerts: `{json.loads(more)['elements'][0]['text'] if more else ''}`\n")
    (REPO / "bench" / "slack" / "HOME.md").write_text(out, encoding="utf-8")
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
