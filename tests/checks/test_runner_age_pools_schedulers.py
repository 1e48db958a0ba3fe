"""Runners Running after their pod finished, runners being deleted, runners past the age limit, NodePools seconds
old or missing their NodeClass, and nodes two schedulers overcommit."""

from __future__ import annotations

from typing import Any

from bot.checks.nodepools import unhealthy_nodepools
from bot.checks.runners import old_runners, stale_runners
from bot.checks.schedulers import mixed_scheduler_nodes, quantity
from bot.models import Evidence, Node, NodePool, Pod
from bot.settings import Thresholds
from checks.build import NOW, ago, pod, runner

TH = Thresholds()


def _finished_pod(name: str, finished: str) -> Pod:
    return pod(name, phase="Succeeded", cluster="ci", namespace="arc-runners", finished=finished)


def test_a_running_runner_whose_pod_finished_long_ago_is_stale() -> None:
    r = runner("r", phase="Running", age=7200)
    long_ago = Evidence(ephemeral_runners=[r], pods=[_finished_pod("r", ago(TH.stale_runner_seconds + 60))])
    [alert] = stale_runners(long_ago, now=NOW, thresholds=TH)
    assert alert.case == "infra.arc.stale-runner" and "finished" in alert.summary
    just_now = Evidence(ephemeral_runners=[r], pods=[_finished_pod("r", ago(30))])
    assert stale_runners(just_now, now=NOW, thresholds=TH) == []


def test_a_runner_still_running_its_job_is_not_stale() -> None:
    r = runner("r", phase="Running", age=7200)
    ev = Evidence(ephemeral_runners=[r], pods=[pod("r", cluster="ci", namespace="arc-runners")])
    assert stale_runners(ev, now=NOW, thresholds=TH) == []


def test_a_runner_being_deleted_is_neither_stale_nor_too_old() -> None:
    r = runner("r", phase="Running", age=20 * 3600)
    r.metadata.deletion_timestamp = NOW
    ev = Evidence(ephemeral_runners=[r], pods=[_finished_pod("r", ago(3600))])
    assert stale_runners(ev, now=NOW, thresholds=TH) == []
    assert old_runners(ev, now=NOW, thresholds=TH) == []


def test_runner_age_limit_whatever_the_phase() -> None:
    limit = TH.runner_max_age_seconds
    young = runner("young", phase="Running", age=limit - 60)
    old = runner("old", phase="Running", age=limit + 60)
    pending = runner("pending", phase="Pending", age=limit + 3600)
    ev = Evidence(ephemeral_runners=[young, old, pending],
                  pods=[pod(n, cluster="ci", namespace="arc-runners") for n in ("young", "old", "pending")])
    alerts = old_runners(ev, now=NOW, thresholds=TH)
    assert sorted(a.object.name for a in alerts) == ["old", "pending"]
    assert all(a.case == "infra.arc.runner-too-old" for a in alerts)
    tighter = Thresholds(runner_max_age_seconds=30)
    assert len(old_runners(ev, now=NOW, thresholds=tighter)) == 3


def test_a_stale_runner_is_not_also_too_old() -> None:
    r = runner("r", phase="Running", age=20 * 3600)
    ev = Evidence(ephemeral_runners=[r], pods=[])
    assert len(stale_runners(ev, now=NOW, thresholds=TH)) == 1
    assert old_runners(ev, now=NOW, thresholds=TH) == []


def _pool(name: str, *, age: float, conditions: list[dict[str, str]]) -> NodePool:
    p = NodePool.model_validate({"metadata": {"name": name, "creationTimestamp": ago(age)},
                                 "status": {"conditions": conditions}})
    p.cluster = "ci"
    return p


def test_a_nodepool_seconds_old_with_unknown_conditions_is_not_unhealthy() -> None:
    unknown = [{"type": "Ready", "status": "Unknown", "reason": "AwaitingReconciliation"},
               {"type": "NodeRegistrationHealthy", "status": "Unknown"}]
    fresh = _pool("fresh", age=20, conditions=unknown)
    stuck = _pool("stuck", age=3600, conditions=unknown)
    alerts = unhealthy_nodepools([fresh, stuck], now=NOW, grace_seconds=TH.nodepool_grace_seconds)
    assert [str(a.object) for a in alerts] == ["ci//NodePool/stuck"]


def test_a_nodepool_whose_nodeclass_is_missing_is_unhealthy_even_when_young() -> None:
    missing = _pool("p", age=20, conditions=[
        {"type": "NodeClassReady", "status": "False", "reason": "NodeClassNotFound",
         "message": "EC2NodeClass \"default\" not found"},
        {"type": "Ready", "status": "Unknown", "reason": "UnhealthyDependents"}])
    via_ready = _pool("q", age=20, conditions=[
        {"type": "Ready", "status": "Unknown", "reason": "NodeClassNotReady", "message": "NodeClass not found"}])
    alerts = unhealthy_nodepools([missing, via_ready], now=NOW, grace_seconds=TH.nodepool_grace_seconds)
    assert sorted(str(a.object) for a in alerts) == ["ci//NodePool/p", "ci//NodePool/q"]
    assert "NodeClassReady=False" in alerts[0].summary


def _node(name: str, allocatable: dict[str, str]) -> Node:
    n = Node.model_validate({"metadata": {"name": name}, "status": {"allocatable": allocatable}})
    n.cluster = "ci"
    return n


def _placed(name: str, node: str, *, scheduler: str, requests: dict[str, str], phase: str = "Running") -> Pod:
    spec: dict[str, Any] = {"nodeName": node, "schedulerName": scheduler,
                            "containers": [{"name": "c", "resources": {"requests": requests}}]}
    p = Pod.model_validate({"metadata": {"name": name, "namespace": "arc-runners"}, "spec": spec,
                            "status": {"phase": phase}})
    p.cluster = "ci"
    return p


def test_two_schedulers_overcommitting_a_node() -> None:
    node = _node("npu-1", {"cpu": "190", "memory": "1584Gi", "huawei.com/Ascend910": "8"})
    a = _placed("a", "npu-1", scheduler="default-scheduler", requests={"cpu": "80", "huawei.com/Ascend910": "4"})
    b = _placed("b", "npu-1", scheduler="volcano", requests={"cpu": "80", "huawei.com/Ascend910": "8"})
    found = mixed_scheduler_nodes([a, b], [node])
    assert list(found) == [("ci", "npu-1")]
    assert "huawei.com/Ascend910 requested 12 of 8" in found[("ci", "npu-1")]
    assert "cpu" not in found[("ci", "npu-1")]


def test_two_schedulers_within_capacity_or_one_scheduler_over_it_are_not_reported() -> None:
    node = _node("npu-1", {"huawei.com/Ascend910": "8"})
    fits = [_placed("a", "npu-1", scheduler="default-scheduler", requests={"huawei.com/Ascend910": "4"}),
            _placed("b", "npu-1", scheduler="volcano", requests={"huawei.com/Ascend910": "4"})]
    assert mixed_scheduler_nodes(fits, [node]) == {}
    one = [_placed("a", "npu-1", scheduler="volcano", requests={"huawei.com/Ascend910": "8"}),
           _placed("b", "npu-1", scheduler="volcano", requests={"huawei.com/Ascend910": "8"})]
    assert mixed_scheduler_nodes(one, [node]) == {}


def test_a_finished_pod_holds_nothing_unless_it_is_the_one_diagnosed() -> None:
    node = _node("npu-1", {"huawei.com/Ascend910": "8"})
    a = _placed("a", "npu-1", scheduler="default-scheduler", requests={"huawei.com/Ascend910": "4"})
    b = _placed("b", "npu-1", scheduler="volcano", requests={"huawei.com/Ascend910": "8"}, phase="Failed")
    assert mixed_scheduler_nodes([a, b], [node]) == {}
    assert list(mixed_scheduler_nodes([a, b], [node], held=frozenset({"ci/arc-runners/b"}))) == [("ci", "npu-1")]


def test_quantities() -> None:
    assert quantity("500m") == quantity("0.5")
    assert quantity("16Gi") == 16 * 2**30
    assert quantity("2k") == 2000
    assert quantity("lots") is None


def _runner_pod(dind: dict[str, Any], *, phase: str = "Running", restarts: int = 0) -> Pod:
    p = Pod.model_validate({"metadata": {"name": "r", "namespace": "arc-runners"},
                            "status": {"phase": phase, "containerStatuses": [
                                {"name": "runner", "state": {"running": {"startedAt": ago(600)}}},
                                {"name": "dind", "state": dind, "restartCount": restarts}]}})
    p.cluster = "ci"
    return p


def test_a_running_runner_without_its_docker_daemon() -> None:
    from bot.checks.dind import dind_not_running

    crashed = _runner_pod({"terminated": {"exitCode": 1, "reason": "Error", "finishedAt": ago(300)}})
    looping = _runner_pod({"waiting": {"reason": "CrashLoopBackOff"}}, restarts=4)
    fine = _runner_pod({"running": {"startedAt": ago(600)}})
    done = _runner_pod({"terminated": {"exitCode": 0, "reason": "Completed"}}, phase="Succeeded")
    for bad in (crashed, looping):
        [alert] = dind_not_running(Evidence(pods=[bad]), now=NOW, thresholds=TH)
        assert alert.case == "ci.runner.dind-not-running" and "no Docker daemon" in alert.summary
    assert dind_not_running(Evidence(pods=[fine, done]), now=NOW, thresholds=TH) == []
