"""RLark agents that stopped renewing their heartbeat Lease (rlark.agent.disconnected)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from bot.checks.alerts import Alert, object_ref
from bot.models import Lease
from bot.models.rlark import agent_of
from bot.settings import Thresholds


def disconnected_agents(leases: Iterable[Lease], *, now: datetime, thresholds: Thresholds) -> list[Alert]:
    alerts: list[Alert] = []
    for lease in leases:
        renewed, age = lease.spec.renew_time, lease.heartbeat_age(now)
        if age is not None and lease.disconnected(now, thresholds.heartbeat_timeout_seconds):
            agent = agent_of(lease.namespace)
            alerts.append(Alert(check="agent-disconnected", case="rlark.agent.disconnected",
                                object=object_ref(lease, "Lease"), severity="error", since=renewed,
                                summary=f"agent {agent} last renewed its heartbeat {int(age)}s ago"))
    return alerts
