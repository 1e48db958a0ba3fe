"""Evidence a test changes tick by tick, run through the real checks, for end-to-end alert tests."""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.checks import run_checks
from bot.checks.alerts import Alert
from bot.models import Evidence, NodePool, Pod
from bot.settings import Thresholds

START = datetime(2026, 11, 20, 8, 0, tzinfo=UTC)


def nodepool(name: str, message: str | None, *, cluster: str = "ci") -> NodePool:
    conditions: list[dict[str, Any]] = [{"type": "Ready", "status": "True"}]
    if message is not None:
        conditions.append({"type": "NodeRegistrationHealthy", "status": "False", "reason": "Unhealthy",
                           "message": message, "lastTransitionTime": START.isoformat()})
    pool = NodePool.model_validate({"metadata": {"name": name},
                                    "spec": {"template": {"metadata": {"labels": {"npu": name}}}},
                                    "status": {"conditions": conditions}})
    pool.cluster = cluster
    return pool


def pending_pod(name: str, *, pool: str, created: datetime, cluster: str = "ci", ns: str = "arc-runners") -> Pod:
    pod = Pod.model_validate({
        "metadata": {"name": name, "namespace": ns, "creationTimestamp": created.isoformat()},
        "spec": {"nodeSelector": {"npu": pool}},
        "status": {"phase": "Pending", "conditions": [
            {"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
             "message": "0/12 nodes are available: 12 Insufficient huawei.com/Ascend910."}]}})
    pod.cluster = cluster
    return pod


class World:
    """What the cluster looks like now; `collect` is the scheduler's `collect_tick`."""

    def __init__(self) -> None:
        self.evidence = Evidence(clusters=["ci"])
        self.unreadable: list[str] = []
        self.thresholds = Thresholds()

    def set(self, *, pools: list[NodePool] | None = None, pods: list[Pod] | None = None) -> None:
        self.evidence = Evidence(clusters=["ci"], nodepools=pools or [], pods=pods or [])

    def collect(self, now: datetime) -> tuple[list[Alert], Collection[str]]:
        return run_checks(self.evidence, now=now, thresholds=self.thresholds), list(self.unreadable)


def pods(n: int, *, pool: str = "a3", age: timedelta = timedelta(minutes=30)) -> list[Pod]:
    return [pending_pod(f"runner-{i:04}", pool=pool, created=START - age) for i in range(n)]
