"""Karpenter NodePools that stopped provisioning (infra.karpenter.nodepool-unhealthy)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.checks.alerts import Alert
from bot.models import NodePool


def unhealthy_nodepools(pools: Iterable[NodePool]) -> list[Alert]:
    alerts: list[Alert] = []
    for pool in pools:
        bad = []
        reg = pool.status.condition("NodeRegistrationHealthy")
        if reg is not None and reg.status == "False":
            bad.append(reg)
        ready = pool.status.condition("Ready")
        if ready is not None and ready.status != "True":
            bad.append(ready)
        if not bad:
            continue
        text = "; ".join(f"{c.type}={c.status}" + (f" ({c.reason}: {c.message})" if c.reason or c.message else "")
                         for c in bad)
        since = min((c.last_transition_time for c in bad if c.last_transition_time), default=None)
        alerts.append(Alert(check="nodepool-unhealthy", case="infra.karpenter.nodepool-unhealthy",
                            object=f"{pool.cluster}//NodePool/{pool.name}", severity="error", since=since,
                            summary=text))
    return alerts
