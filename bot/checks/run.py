"""Run every scheduled check once over the evidence."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.checks.agents import disconnected_agents
from bot.checks.alerts import Alert
from bot.checks.nodepools import unhealthy_nodepools
from bot.checks.pending import long_pending
from bot.checks.runners import stale_runners
from bot.models import Evidence
from bot.settings import Thresholds

Check = Callable[[Evidence, datetime, Thresholds], list[Alert]]

CHECKS: dict[str, Check] = {
    "long-pending": lambda ev, now, th: long_pending(ev.pods, now, th),
    "stale-runner": stale_runners,
    "nodepool-unhealthy": lambda ev, now, th: unhealthy_nodepools(ev.nodepools),
    "agent-disconnected": lambda ev, now, th: disconnected_agents(ev.leases, now, th),
}


def run_checks(evidence: Evidence, now: datetime, thresholds: Thresholds) -> list[Alert]:
    alerts = [a for check in CHECKS.values() for a in check(evidence, now, thresholds)]
    return sorted(alerts, key=lambda a: (a.check, a.object))
