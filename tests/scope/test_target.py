"""Scoping rules, one row each: which objects of the whole evidence belong to a target, and to which pod."""

from __future__ import annotations

from typing import Any

import pytest
from checks.build import event, job, mirror, pod, task, task_spec

from bot.models import Evidence, Missing, PersistentVolumeClaim, Target
from bot.scope.target import Scope, scope_evidence

JOB = Target.parse("job/ppo")


def _scan(text: str, /, *, utf8: bytes | None = None) -> list[Any]:
    return []


def _scoped(target: Target = JOB, **fields: Any) -> Scope:
    return scope_evidence(Evidence(clusters=["control-plane", "gpu-a", "gpu-b"], **fields), target, scan=_scan)


def _job() -> Any:
    return job("ppo", tasks=[task_spec("actor", head=True), task_spec("rollout")])


def _names(scope: Scope) -> list[str]:
    return [c.key for c in scope.pods]


@pytest.mark.parametrize(("rule", "pods", "expected"), [
    ("a member pod named <task>-<ordinal> belongs to that task",
     [pod("ppo-actor-0"), pod("ppo-rollout-1")],
     ["gpu-a/rlark-system/ppo-actor-0", "gpu-a/rlark-system/ppo-rollout-1"]),
    ("the Head's pods come first",
     [pod("ppo-rollout-0"), pod("ppo-actor-0")],
     ["gpu-a/rlark-system/ppo-actor-0", "gpu-a/rlark-system/ppo-rollout-0"]),
    ("another job's pods, even with a shared prefix, are not this job's",
     [pod("ppo-actor-0"), pod("ppo2-actor-0"), pod("ppo-actor-x")], ["gpu-a/rlark-system/ppo-actor-0"]),
    ("a pod labelled app=<task> belongs to it whatever its name",
     [pod("renamed", labels={"app": "ppo-rollout"})], ["gpu-a/rlark-system/renamed"]),
])
def test_pods_of_a_job(rule: str, pods: list[Any], expected: list[str]) -> None:
    scope = _scoped(jobs=[_job()], tasks=[task("ppo", "actor"), task("ppo", "rollout")], pods=pods)
    assert scope.found, rule
    assert _names(scope) == expected, rule


def test_a_mirror_with_no_member_pod_stands_for_the_worker() -> None:
    t = task("ppo", "actor")
    scope = _scoped(jobs=[_job()], tasks=[t], pod_mirrors=[mirror("ppo-actor", "ppo-actor-0", phase="Pending")])
    [ctx] = scope.pods
    assert ctx.pod is None and ctx.mirror is not None and ctx.phase == "Pending" and ctx.task is t


def _about(kind: str, e: Any) -> Any:
    e.involved_object.kind = kind
    return e


@pytest.mark.parametrize(("rule", "events", "attached"), [
    ("events about the pod are the pod's", [event("ppo-actor-0", "BackOff", "restarting")], ["BackOff"]),
    ("the same pod name in another cluster is another pod",
     [event("ppo-actor-0", "BackOff", "restarting", cluster="gpu-b")], []),
    ("events about its node are the pod's too", [_about("Node", event("node-1", "NodeNotReady", "kubelet stopped"))],
     ["NodeNotReady"]),
    ("events about a node of another cluster are not",
     [_about("Node", event("node-1", "NodeNotReady", "kubelet stopped", cluster="gpu-b"))], []),
])
def test_events_attached_to_a_pod(rule: str, events: list[Any], attached: list[str]) -> None:
    p = pod("ppo-actor-0")
    p.spec.node_name = "node-1"
    scope = _scoped(jobs=[_job()], tasks=[task("ppo", "actor")], pods=[p], events=events)
    assert [e.reason for e in scope.pods[0].events] == attached, rule


def test_a_pods_claims_and_their_events_are_attached() -> None:
    p = pod("ppo-actor-0")
    p.spec.volumes = [{"name": "data", "persistentVolumeClaim": {"claimName": "ckpt"}}]
    claim = PersistentVolumeClaim.model_validate({"metadata": {"name": "ckpt", "namespace": "rlark-system"},
                                                  "status": {"phase": "Pending"}})
    claim.cluster = "gpu-a"
    pvc_event = _about("PersistentVolumeClaim", event("ckpt", "ProvisioningFailed", "no storage class"))
    scope = _scoped(jobs=[_job()], tasks=[task("ppo", "actor")], pods=[p], pvcs=[claim], events=[pvc_event])
    [ctx] = scope.pods
    assert [c.name for c in ctx.pvcs] == ["ckpt"] and [e.reason for e in ctx.events] == ["ProvisioningFailed"]


@pytest.mark.parametrize(("rule", "jobs", "missing", "found", "tasks", "says"), [
    ("a Job read is found", [True], [], True, 2, ""),
    ("Tasks whose Job the Job list does not hold are orphans, named, not a job to diagnose",
     [], [], False, 0, "the Job object does not exist, but Tasks still carry its label or owner"),
    ("without the Job list, its Tasks are all there is and are diagnosed",
     [], [Missing(cluster="control-plane", kind="jobs.rlinf.io", where="control-plane/jobs.rlinf.io.json")],
     True, 2, ""),
])
def test_a_job_and_its_tasks(rule: str, jobs: list[bool], missing: list[Missing], found: bool, tasks: int,
                             says: str) -> None:
    scope = _scoped(jobs=[_job()] if jobs else [], tasks=[task("ppo", "actor"), task("ppo", "rollout")],
                    not_collected=missing)
    assert (scope.found, len(scope.tasks)) == (found, tasks), rule
    assert says in scope.where, rule
    if says:
        assert "ppo-actor" in scope.where and "ppo-rollout" in scope.where, "the orphans are named"


def test_nothing_of_the_target_is_not_found_and_says_where_it_looked() -> None:
    scope = _scoped(jobs=[job("other", tasks=[])], tasks=[task("other", "actor")])
    assert not scope.found
    assert "looked for Job 'ppo'" in scope.where and "gpu-b" in scope.where


@pytest.mark.parametrize(("target", "expected"), [
    (Target.parse("pod/runner-1", "arc"), ["ci/arc/runner-1"]),
    (Target.parse("pod/runner-1"), ["ci/arc/runner-1", "ci/other/runner-1"]),  # no namespace: every namespace
    (Target.parse("pod/runner"), []),
])
def test_a_pod_target_by_name_and_namespace(target: Target, expected: list[str]) -> None:
    pods = [pod("runner-1", namespace="arc", cluster="ci"), pod("runner-1", namespace="other", cluster="ci")]
    scope = _scoped(target, pods=pods)
    assert _names(scope) == expected and scope.found is bool(expected)


def test_a_runners_workflow_pod_is_scoped_with_it() -> None:
    from bot.models import EphemeralRunner

    runner = EphemeralRunner.model_validate({"metadata": {"name": "r-1", "namespace": "arc"}})
    runner.cluster = "ci"
    pods = [pod("r-1", namespace="arc", cluster="ci"), pod("r-1-workflow", namespace="arc", cluster="ci"),
            pod("r-10", namespace="arc", cluster="ci")]
    scope = _scoped(Target.parse("runner/r-1", "arc"), pods=pods, ephemeral_runners=[runner])
    assert _names(scope) == ["ci/arc/r-1", "ci/arc/r-1-workflow"]
