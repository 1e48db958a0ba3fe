"""A runner Pending on a Karpenter pool's labels: no node carries them until the pool makes one. When that pool is
unhealthy, it is the answer (ci-runner § 弹性扩容失败 / 弹性节点不健康: Pod 长时间 Pending，但 Karpenter 不扩容), not
the selector; when it is healthy, or serves another selector, the selector stays the answer."""

from __future__ import annotations

from typing import Any

import pytest

from bot.models import NodePool
from bot.runbook import Runbook
from tests.diagnose.objects import CLUSTER, diagnose_pod, event, evidence, node, pod, stamp

SELECTOR = {"karpenter.sh/nodepool": "cpu-16", "kubernetes.io/arch": "amd64"}


def _pool(name: str, ready: str, *, reason: str = "", message: str = "") -> NodePool:
    conditions: list[dict[str, Any]] = [
        {"type": "NodeClassReady", "status": ready, "reason": reason, "message": message,
         "lastTransitionTime": stamp(300)},
        {"type": "Ready", "status": ready, "reason": "UnhealthyDependents" if ready == "False" else "",
         "lastTransitionTime": stamp(300)}]
    p = NodePool.model_validate({"metadata": {"name": name, "creationTimestamp": stamp(3000)},
                                 "spec": {"template": {"metadata": {"labels": {"team": "ci"}}}},
                                 "status": {"conditions": conditions}})
    p.cluster = CLUSTER
    return p


def _first(runbook: Runbook, pool: NodePool) -> str:
    ev = evidence(node("cpu-8-a", labels={"karpenter.sh/nodepool": "cpu-8"}),
                  node("cpu-8-b", labels={"karpenter.sh/nodepool": "cpu-8"}),
                  pod("runner-x", selector=SELECTOR, requests={"cpu": "500m"}, created_minutes_ago=26),
                  event("runner-x", "FailedScheduling", "0/2 nodes are available: 2 node(s) didn't match Pod's node "
                        "affinity/selector. preemption: 0/2 nodes are available.", minutes_ago=25))
    ev.nodepools.append(pool)
    diag = diagnose_pod(runbook, ev, "runner-x")
    return str(diag.findings[0].id) if diag.findings else "none"


@pytest.mark.parametrize(("reason", "message"), [
    ("NodeClassNotReady", "NodeClass is not ready: SubnetsReady=False"),
    ("NodeClassNotFound", "NodeClass ec2nodeclass/default not found"),
])
def test_an_unhealthy_pool_that_serves_the_selector_is_the_answer(runbook: Runbook, reason: str,
                                                                  message: str) -> None:
    assert _first(runbook, _pool("cpu-16", "False", reason=reason, message=message)) == \
        "infra.karpenter.nodepool-unhealthy"


def test_a_healthy_pool_leaves_the_selector_as_the_answer(runbook: Runbook) -> None:
    assert _first(runbook, _pool("cpu-16", "True")) == "pod.schedule.selector-mismatch"


def test_an_unhealthy_pool_serving_other_labels_explains_nothing_here(runbook: Runbook) -> None:
    assert _first(runbook, _pool("gpu-8", "False", reason="NodeClassNotReady", message="not ready")) == \
        "pod.schedule.selector-mismatch"
