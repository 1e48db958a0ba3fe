"""Run every scheduled check once over the evidence."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from bot.checks.agents import disconnected_agents
from bot.checks.alerts import Alert
from bot.checks.coverage import check_failed, unreadable_clusters
from bot.checks.dind import dind_not_running
from bot.checks.nodepools import unhealthy_nodepools
from bot.checks.pending import long_pending
from bot.checks.rlark import head_invalid, unrouted, workers_remain
from bot.checks.runners import old_runners, stale_runners
from bot.checks.schedulers import mixed_schedulers
from bot.models import Evidence
from bot.settings import Thresholds


class Check(Protocol):
    def __call__(self, ev: Evidence, /, *, now: datetime, thresholds: Thresholds) -> list[Alert]: ...


def _long_pending(ev: Evidence, /, *, now: datetime, thresholds: Thresholds) -> list[Alert]:
    return long_pending(ev.pods, now=now, thresholds=thresholds, events=ev.events, tasks=ev.tasks,
                        pools=ev.nodepools)


def _nodepools(ev: Evidence, /, *, now: datetime, thresholds: Thresholds) -> list[Alert]:
    return unhealthy_nodepools(ev.nodepools, now=now, grace_seconds=thresholds.nodepool_grace_seconds)


def _agents(ev: Evidence, /, *, now: datetime, thresholds: Thresholds) -> list[Alert]:
    return disconnected_agents(ev.leases, now=now, thresholds=thresholds)


CHECKS: dict[str, Check] = {
    "long-pending": _long_pending,
    "stale-runner": stale_runners,
    "runner-too-old": old_runners,
    "mixed-schedulers": mixed_schedulers,
    "dind-not-running": dind_not_running,
    "nodepool-unhealthy": _nodepools,
    "agent-disconnected": _agents,
    "head-invalid": head_invalid,
    "workers-remain": workers_remain,
    "task-unrouted": unrouted,
    "check-failed": check_failed,
}


def tick_checks(evidence: Evidence, *, now: datetime, thresholds: Thresholds) -> tuple[list[Alert], list[str]]:
    """One scheduled tick over what was read: every alert, and the clusters that could not be read (their alerts
    are not counted as gone). A bundle's "now" is its capture time, as for `rlark-bot check`."""
    at = evidence.captured_at or now
    return run_checks(evidence, now=at, thresholds=thresholds), sorted(unreadable_clusters(evidence))


def run_checks(evidence: Evidence, *, now: datetime, thresholds: Thresholds,
               only: tuple[str, ...] | None = None) -> list[Alert]:
    """Every check (or those named in `only`), alerts ordered by check then object."""
    checks = CHECKS if only is None else {n: CHECKS[n] for n in only}
    alerts = [a for check in checks.values() for a in check(evidence, now=now, thresholds=thresholds)]
    return sorted(alerts, key=lambda a: (a.check, str(a.object)))
