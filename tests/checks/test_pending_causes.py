"""Long-Pending alerts carry the runbook cause the evidence states, and the object their pods share."""

from __future__ import annotations

import pytest

from bot.checks.pending import classify, long_pending
from bot.settings import Thresholds
from checks.build import NOW, event, nodepool, pod, task

TH = Thresholds()
OLD = TH.pending_seconds + 120


@pytest.mark.parametrize(("text", "case"), [
    ("FailedScheduling: 0/8 nodes are available: 8 Insufficient nvidia.com/gpu.",
     "pod.schedule.insufficient-resources"),
    ("FailedScheduling: 0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.",
     "pod.schedule.selector-mismatch"),
    ("FailedScheduling: 0/8 nodes are available: 1 node(s) were unschedulable, 7 node(s) didn't match Pod's node "
     "affinity/selector.", "pod.schedule.node-unschedulable"),
    ("FailedScheduling: 0/8 nodes are available: pod has unbound immediate PersistentVolumeClaims.",
     "pod.storage.pvc-unbound"),
    ("FailedMount: MountVolume.SetUp failed for volume \"data\" : hostPath type check failed: /data is not a "
     "directory", "pod.storage.hostpath-missing"),
    ("ImagePullBackOff: Back-off pulling image \"x:1\"", "pod.image.pull-failed"),
    ("ErrImagePull: failed to authorize: 401 Unauthorized", "pod.image.pull-unauthorized"),
    ("FailedScheduling: 0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules.", ""),
])
def test_classify(text: str, case: str) -> None:
    assert classify([text])[0] == case


def test_cause_from_events_and_group_from_task() -> None:
    pods = [pod(f"ppo-actor-{i}", phase="Pending", age=OLD, labels={"app": "ppo-actor"}) for i in range(3)]
    events = [event("ppo-actor-0", "FailedScheduling", "0/8 nodes are available: 8 Insufficient nvidia.com/gpu.")]
    alerts = long_pending(pods, now=NOW, thresholds=TH, events=events, tasks=[task("ppo", "actor")])
    assert [a.cause for a in alerts] == ["pod.schedule.insufficient-resources", "", ""]
    # A line on its own (CLI, JSON, diagnosis evidence) names the cause; the summary an alert thread shows under
    # a title that already names it does not repeat it.
    assert alerts[0].described.endswith("; cause pod.schedule.insufficient-resources")
    assert "cause" not in alerts[0].summary and alerts[1].described == alerts[1].summary
    assert {str(a.group) for a in alerts} == {"control-plane/rlark-gpu-a/Task/ppo-actor"}


def test_group_is_the_nodepool_serving_the_selector_else_the_selector() -> None:
    pools = [nodepool("npu-a3", labels={"npu": "a3"})]
    served = pod("r1", phase="Pending", age=OLD, cluster="ci", namespace="arc", selector={"npu": "a3"},
                 scheduled=("Unschedulable", "0/12 nodes are available: 12 Insufficient huawei.com/Ascend910"))
    named = pod("r2", phase="Pending", age=OLD, cluster="ci", namespace="arc",
                selector={"karpenter.sh/nodepool": "cpu"})
    other = pod("r3", phase="Pending", age=OLD, cluster="ci", namespace="arc", selector={"npu": "a2"})
    alerts = {str(a.object): a for a in long_pending([served, named, other], now=NOW, thresholds=TH, pools=pools)}
    assert str(alerts["ci/arc/Pod/r1"].group) == "ci//NodePool/npu-a3"
    assert alerts["ci/arc/Pod/r1"].cause == "pod.schedule.insufficient-resources"
    assert str(alerts["ci/arc/Pod/r2"].group) == "ci//NodePool/cpu"
    assert str(alerts["ci/arc/Pod/r3"].group) == "ci/arc/NodeSelector/npu=a2"


def test_young_or_running_pods_do_not_alert() -> None:
    pods = [pod("a", phase="Pending", age=TH.pending_seconds - 1), pod("b", phase="Running", age=OLD)]
    assert long_pending(pods, now=NOW, thresholds=TH) == []
