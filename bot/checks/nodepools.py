"""Karpenter NodePools that stopped provisioning (infra.karpenter.nodepool-unhealthy).

A pool is unhealthy when Karpenter says so (NodeRegistrationHealthy=False), when it is not Ready, or when the
NodeClass it points at is missing or not ready (NodeClassReady=False, or a Ready condition whose reason says so).
A pool created moments ago reports Unknown conditions until Karpenter has looked at it: younger than
`nodepool_grace_seconds`, Unknown is "still starting", not unhealthy.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from bot.checks.alerts import Alert, cluster_ref
from bot.models import NodePool
from bot.models.base import Condition

NODECLASS_MISSING = re.compile(r"(?i)nodeclass[^\n]*(not ?found|missing|does not exist|not ready)|NodeClassNotReady")


def _young(pool: NodePool, now: datetime | None, grace: int) -> bool:
    created = pool.metadata.creation_timestamp
    return now is not None and created is not None and (now - created).total_seconds() < grace


def _bad_conditions(pool: NodePool, *, young: bool) -> list[Condition]:
    bad: list[Condition] = []
    for ctype in ("NodeRegistrationHealthy", "NodeClassReady"):
        cond = pool.status.condition(ctype)
        if cond is not None and cond.status == "False":
            bad.append(cond)
    ready = pool.status.condition("Ready")
    if ready is not None and ready.status != "True":
        missing_class = bool(NODECLASS_MISSING.search(f"{ready.reason} {ready.message}"))
        if ready.status == "False" or missing_class or not young:
            bad.append(ready)
    return bad


def unhealthy_nodepools(pools: Iterable[NodePool], *, now: datetime | None = None,
                        grace_seconds: int = 300) -> list[Alert]:
    """`now` and `grace_seconds`: a pool younger than the grace with Unknown conditions is not reported."""
    alerts: list[Alert] = []
    for pool in pools:
        bad = _bad_conditions(pool, young=_young(pool, now, grace_seconds))
        if not bad:
            continue
        text = "; ".join(f"{c.type}={c.status}" + (f" ({c.reason}: {c.message})" if c.reason or c.message else "")
                         for c in bad)
        since = min((c.last_transition_time for c in bad if c.last_transition_time), default=None)
        alerts.append(Alert(check="nodepool-unhealthy", case="infra.karpenter.nodepool-unhealthy",
                            object=cluster_ref(pool.cluster, kind="NodePool", name=pool.name), severity="error",
                            since=since, summary=text))
    return alerts
