"""Measurement: a half-open Socket Mode connection, how long until it is replaced and how many commands are lost.

The bot's real Socket Mode adapter (`bot.slack.socket.SocketMode`, slack_sdk's builtin client under bolt) connects
to the Socket Mode stand-in through a TCP proxy; the proxy then freezes the serving connection (both sides stay
open, nothing passes, as when a NAT or load balancer loses the flow). Measured from the freeze:

- the gap: until the bot's next new connection reaches the stand-in;
- commands lost: a slash command is sent every 0.5 s for 20 s; one not acked within Slack's 3 s is lost.

Slack's side is modelled both ways it may route: to the newest connection, or spread over the open ones in turn;
either way it gives up on a connection whose pings go unanswered for 10 s (pings every 5 s, 5 s to answer).
Three clients: the bot as it is (a standby connection, pings every second, a connection silent for 3 s
replaced), the bot before (one connection, pings every 2 s, slack_sdk's rule of four missed intervals), and
slack_sdk's defaults (one connection, pings every 10 s). Writes bench/socket/RESULTS.md.

Run from the repository root:  .venv/bin/python bench/socket/halfopen.py [--runs 1]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from websockets.exceptions import ConnectionClosed

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from bot.runbook import load_runbook  # noqa: E402
from bot.signals.names import SIGNALS  # noqa: E402
from bot.slack import socket as socket_adapter  # noqa: E402
from bot.store.memory import MemoryStore  # noqa: E402
from tests.slack.apphost import AppHost, bundle_of  # noqa: E402
from tests.slack.halfopen import FreezingProxy, ThroughProxy  # noqa: E402
from tests.slack.signing import slash_command_payload  # noqa: E402
from tests.slack.socket_standin import SocketModeStandIn  # noqa: E402
from tests.slack.standin import SlackStandIn  # noqa: E402

SEND_EVERY, SEND_FOR, ACK_WITHIN = 0.5, 20.0, 3.0


@dataclass(frozen=True)
class Client:
    label: str
    connections: int
    ping: float
    stale: float  # this module's own rule; inf: only slack_sdk's


CLIENTS = (
    Client("the bot: standby connection, ping 1 s, silent 3 s replaced", socket_adapter.CONNECTIONS,
           socket_adapter.PING_INTERVAL_SECONDS, socket_adapter.STALE_SECONDS),
    Client("the bot before: one connection, ping 2 s", 1, 2.0, float("inf")),
    Client("slack_sdk defaults: one connection, ping 10 s", 1, 10.0, float("inf")),
)


def one_run(client: Client, *, spread: bool) -> tuple[float, int, int]:
    socket_adapter.CONNECTIONS = client.connections
    socket_adapter.PING_INTERVAL_SECONDS = client.ping
    socket_adapter.STALE_SECONDS = client.stale
    with SlackStandIn() as slack, SocketModeStandIn(ping_interval=5.0, ping_timeout=5.0, spread=spread) as sm:
        slack.add_channel("C0DIAG", name="diag")
        proxy = FreezingProxy(sm.port)
        slack.attach(ThroughProxy(sm, proxy))  # type: ignore[arg-type]
        try:
            with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(),
                         runbook=load_runbook(known_signals=SIGNALS), socket_mode=True):
                sm.wait_for(lambda: sm.connections >= client.connections, timeout=20, what="connections")
                time.sleep(client.ping * 1.5)  # a pong or two went through first, as in steady state
                before = sm.connections_ever
                proxy.freeze(0 if spread else -1)  # one that Slack sends to
                frozen = time.monotonic()
                gap = 0.0
                sent: list[str] = []
                n = 0
                while time.monotonic() - frozen < SEND_FOR or not gap:
                    if not gap and sm.connections_ever > before:
                        gap = time.monotonic() - frozen
                    if time.monotonic() - frozen < SEND_FOR:
                        n += 1
                        try:
                            sent.append(sm.send_slash_command(slash_command_payload(text="help",
                                                                                    trigger_id=f"1.{n}")))
                        except ConnectionClosed:  # Slack sent it as its side of the connection closed: failed
                            sent.append(f"failed-{n}")
                    if time.monotonic() - frozen > 120:
                        break
                    time.sleep(SEND_EVERY)
                time.sleep(ACK_WITHIN)
                acked = {a.envelope_id for a in sm.acks()}
                lost = sum(1 for e in sent if e not in acked)
                return gap, len(sent), lost
        finally:
            proxy.close()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    rows = []
    for client in CLIENTS:
        for spread in (False, True):
            results = [one_run(client, spread=spread) for _ in range(args.runs)]
            rows.append((client.label, "spread over connections" if spread else "newest connection", results))
            print(rows[-1], flush=True)
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"# Half-open Socket Mode connection: replacement time and commands lost ({now})", "",
             f"{platform.python_implementation()} {platform.python_version()}, {args.runs} run(s) each; "
             "bench/socket/halfopen.py. A command every 0.5 s for 20 s from the freeze; lost = not acked within "
             "3 s. Slack's side gives up on a silent connection after 10 s.", "",
             "| client | Slack sends to | new connection after | commands lost |", "|---|---|---|---|"]
    for label, route, results in rows:
        gap = statistics.median(r[0] for r in results)
        lost = sum(r[2] for r in results)
        sent = sum(r[1] for r in results)
        lines.append(f"| {label} | {route} | {gap:.1f} s | {lost} of {sent} |")
    (Path(__file__).parent / "RESULTS.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
