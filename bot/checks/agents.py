"""RLark agents that stopped renewing their heartbeat Lease (rlark.agent.disconnected)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from bot.checks.alerts import Alert, object_ref
from bot.models import Lease
from bot.settings import Thresholds


def disconnected_agents(leases: Iterable[Lease], now: datetime, thresholds: Thresholds) -> list[Alert]:
    alerts: list[Alert] = []
    for lease in leases:
        renewed = lease.spec.renew_time
        if lease.name != "heartbeat" or not lease.namespace.startswith("rlark-") or renewed is None:
            continue
        age = (now - renewed).total_seconds()
        if age > thresholds.heartbeat_timeout_seconds:
            agent = lease.namespace.removeprefix("rlark-")
            alerts.append(Alert(check="agent-disconnected", case="rlark.agent.disconnected",
                                object=object_ref(lease, "Lease"), severity="error", since=renewed,
                                summary=f"agent {agent} last renewed its heartbeat {int(age)}s ago"))
    return alerts
