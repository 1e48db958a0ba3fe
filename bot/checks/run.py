"""Run every scheduled check once over the evidence."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.checks.agents import disconnected_agents
from bot.checks.alerts import Alert
from bot.checks.coverage import check_failed
from bot.checks.nodepools import unhealthy_nodepools
from bot.checks.pending import long_pending
from bot.checks.rlark import head_invalid, unrouted, workers_remain
from bot.checks.runners import stale_runners
from bot.models import Evidence
from bot.settings import Thresholds

Check = Callable[[Evidence, datetime, Thresholds], list[Alert]]

CHECKS: dict[str, Check] = {
    "long-pending": lambda ev, now, th: long_pending(ev.pods, now, th, events=ev.events, tasks=ev.tasks,
                                                     pools=ev.nodepools),
    "stale-runner": stale_runners,
    "nodepool-unhealthy": lambda ev, now, th: unhealthy_nodepools(ev.nodepools),
    "agent-disconnected": lambda ev, now, th: disconnected_agents(ev.leases, now, th),
    "head-invalid": head_invalid,
    "workers-remain": workers_remain,
    "task-unrouted": unrouted,
    "check-failed": check_failed,
}


def run_checks(evidence: Evidence, now: datetime, thresholds: Thresholds,
               only: tuple[str, ...] | None = None) -> list[Alert]:
    """Every check (or those named in `only`), alerts ordered by check then object."""
    checks = CHECKS if only is None else {n: CHECKS[n] for n in only}
    alerts = [a for check in checks.values() for a in check(evidence, now, thresholds)]
    return sorted(alerts, key=lambda a: (a.check, a.object))
