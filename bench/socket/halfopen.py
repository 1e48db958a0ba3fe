"""Measurement: how long a half-open Socket Mode connection goes unnoticed.

The bot's real Socket Mode adapter (`bot.slack.socket.SocketMode`, slack_sdk's builtin client under bolt) connects
to the Socket Mode stand-in through a TCP proxy; the proxy then freezes the connection (both sides stay open,
nothing passes, as when a NAT or load balancer loses the flow). The gap is the time from the freeze to the bot's
new connection at the stand-in. Measured for the bot's ping interval and for slack_sdk's default (10 s).
Writes bench/socket/RESULTS.md.

Run from the repository root:  .venv/bin/python bench/socket/halfopen.py [--runs 3]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from bot.runbook import load_runbook  # noqa: E402
from bot.signals.names import SIGNALS  # noqa: E402
from bot.slack import socket as socket_adapter  # noqa: E402
from bot.store.memory import MemoryStore  # noqa: E402
from tests.slack.apphost import AppHost, bundle_of  # noqa: E402
from tests.slack.halfopen import FreezingProxy, ThroughProxy  # noqa: E402
from tests.slack.socket_standin import SocketModeStandIn  # noqa: E402
from tests.slack.standin import SlackStandIn  # noqa: E402


def one_gap(ping_interval: float) -> float:
    socket_adapter.PING_INTERVAL_SECONDS = ping_interval
    with SlackStandIn() as slack, SocketModeStandIn(ping_interval=None) as sm:
        slack.add_channel("C0DIAG", name="diag")
        proxy = FreezingProxy(sm.port)
        slack.attach(ThroughProxy(sm, proxy))  # type: ignore[arg-type]
        try:
            with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(),
                         runbook=load_runbook(known_signals=SIGNALS), socket_mode=True):
                sm.wait_for_connection(timeout=10)
                time.sleep(ping_interval * 1.5)  # a pong or two went through first, as in steady state
                proxy.freeze()
                frozen = time.monotonic()
                sm.wait_for(lambda: sm.connections_ever >= 2, timeout=ping_interval * 8 + 20)
                return time.monotonic() - frozen
        finally:
            proxy.close()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    ours = socket_adapter.PING_INTERVAL_SECONDS
    rows = []
    for label, interval in ((f"the bot (ping every {ours:g} s)", ours), ("slack_sdk default (10 s)", 10.0)):
        gaps = [one_gap(interval) for _ in range(args.runs)]
        rows.append((label, gaps))
        print(f"{label}: " + ", ".join(f"{g:.1f} s" for g in gaps), flush=True)
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"# Half-open Socket Mode connection: time to notice and reconnect ({now})", "",
             f"{platform.python_implementation()} {platform.python_version()}, {args.runs} runs each; "
             "bench/socket/halfopen.py.", "", "| client | median | max | runs |", "|---|---|---|---|"]
    for label, gaps in rows:
        lines.append(f"| {label} | {statistics.median(gaps):.1f} s | {max(gaps):.1f} s | "
                     + ", ".join(f"{g:.1f}" for g in gaps) + " |")
    (Path(__file__).parent / "RESULTS.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
