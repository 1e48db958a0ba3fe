"""A Socket Mode connection that went half-open (nothing passes, nothing is closed) is noticed within seconds,
not after the minute the SDK's defaults take: the bot pings often and reconnects; a command sent afterwards is
acked over the new connection."""

from __future__ import annotations

import time

from bot.runbook import Runbook
from bot.store.memory import MemoryStore

from .apphost import AppHost, bundle_of
from .halfopen import FreezingProxy, ThroughProxy
from .signing import slash_command_payload
from .socket_standin import SocketModeStandIn
from .standin import SlackStandIn

DETECTED_WITHIN = 15.0  # seconds; with the SDK's default ping interval (10 s) it took 46 s (bench/socket)


def test_a_half_open_connection_is_replaced_within_seconds(slack: SlackStandIn, runbook: Runbook) -> None:
    with SocketModeStandIn(ping_interval=None) as sm:
        proxy = FreezingProxy(sm.port)
        slack.attach(ThroughProxy(sm, proxy))  # type: ignore[arg-type]
        try:
            with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(),
                         runbook=runbook, socket_mode=True):
                sm.wait_for_connection(timeout=10)
                proxy.freeze()
                frozen_at = time.monotonic()
                sm.wait_for(lambda: sm.connections_ever >= 2, timeout=DETECTED_WITHIN,
                            what="a new connection after the old one went half-open")
                gap = time.monotonic() - frozen_at
                assert gap < DETECTED_WITHIN, f"noticed after {gap:.1f} s"
                envelope = sm.send_slash_command(slash_command_payload(text="help", trigger_id="1.2.halfopen"))
                assert sm.wait_for_ack(envelope, timeout=5).payload is not None
        finally:
            proxy.close()
