"""Evidence belongs to one object instance and one moment; windows that have not expired are still starting."""

from __future__ import annotations

import pytest

from bot.runbook import Runbook
from diagnose.objects import diagnose_pod, event, evidence, log, pod, stamp


def _ids(diag: object) -> list[str]:
    return [f.id for f in diag.findings]  # type: ignore[attr-defined]


@pytest.mark.parametrize("reason", ["NodeNotReady", "Rebooted"])
def test_a_node_event_from_before_the_pod_existed_does_not_explain_it(runbook: Runbook, reason: str) -> None:
    p = pod("ci-job-0", node_name="npu-07", phase="Running", created_minutes_ago=20)
    old = event("npu-07", reason, "Node npu-07 status is now: NodeNotReady", kind="Node", minutes_ago=45)
    assert "ci.node.hardware-fault" not in _ids(diagnose_pod(runbook, evidence(p, old), "ci-job-0"))


@pytest.mark.parametrize("reason", ["NodeNotReady", "Rebooted"])
def test_a_node_event_during_the_pods_life_does(runbook: Runbook, reason: str) -> None:
    p = pod("ci-job-0", node_name="npu-07", phase="Running", created_minutes_ago=20)
    now_ = event("npu-07", reason, "Node npu-07 status is now: NodeNotReady", kind="Node", minutes_ago=5)
    assert "ci.node.hardware-fault" in _ids(diagnose_pod(runbook, evidence(p, now_), "ci-job-0"))


def test_a_repeated_node_event_last_seen_after_the_pod_came_counts(runbook: Runbook) -> None:
    p = pod("ci-job-0", node_name="npu-07", phase="Running", created_minutes_ago=20)
    ev = event("npu-07", "NodeNotReady", "Node npu-07 status is now: NodeNotReady", kind="Node", minutes_ago=60)
    ev.last_timestamp = ev.last_timestamp.replace(minute=55) if ev.last_timestamp else None  # 07:55, pod from 07:40
    assert "ci.node.hardware-fault" in _ids(diagnose_pod(runbook, evidence(p, ev), "ci-job-0"))


@pytest.mark.parametrize("message", [
    "The node was low on resource: ephemeral-storage. Threshold quantity: 10Gi, available: 2Gi.",
    "The node had condition: [DiskPressure].",
    "Pod was evicted: the node's nodefs is above its eviction threshold",
])
def test_an_evicted_and_recreated_pod_keeps_its_reason_though_it_runs_now(runbook: Runbook, message: str) -> None:
    current = pod("trainer-0", node_name="gpu-2", phase="Running", created_minutes_ago=4, uid="uid-new",
                  statuses=[{"name": "main", "state": {"running": {"startedAt": stamp(3)}}}])
    evicted = event("trainer-0", "Evicted", message, minutes_ago=6, uid="uid-old", host="gpu-1")
    diag = diagnose_pod(runbook, evidence(current, evicted), "trainer-0")
    assert _ids(diag)[:1] == ["pod.run.disk-full"]
    assert "earlier instance uid-old" in diag.findings[0].evidence[0].text


def test_the_previous_instance_oom_is_the_answer_while_the_new_one_runs(runbook: Runbook) -> None:
    current = pod("trainer-0", node_name="gpu-2", phase="Running", statuses=[{
        "name": "main", "restartCount": 1, "state": {"running": {"startedAt": stamp(2)}},
        "lastState": {"terminated": {"exitCode": 137, "reason": "OOMKilled", "finishedAt": stamp(2)}}}])
    diag = diagnose_pod(runbook, evidence(current), "trainer-0")
    assert _ids(diag)[:1] == ["pod.run.oom-killed"]


@pytest.mark.parametrize("message", [
    'Failed to pull image "ghcr.io/acme/ci:v9": rpc error: code = NotFound desc = manifest unknown',
    'Back-off pulling image "registry.example.org/tools/lint:2026.11"',
])
def test_the_workflow_pod_a_hook_deleted_still_has_its_events(runbook: Runbook, message: str) -> None:
    runner = pod("arc-x7k2p-runner-4tq9z", node_name="cpu-1", phase="Running")
    gone = event("arc-x7k2p-runner-4tq9z-workflow", "Failed" if "Failed" in message else "BackOff", message,
                 minutes_ago=3)
    diag = diagnose_pod(runbook, evidence(runner, gone), "arc-x7k2p-runner-4tq9z")
    assert _ids(diag)[:1] == ["pod.image.pull-failed"]


# ------------------------------------------------------------------------------------------ still starting

HEAD_WAIT = ("RLINF_NODE_RANK: 0\nExecuting prepare script...\n{t} Waiting for 3 nodes to join the Ray cluster...\n"
             "Current node count: 1\nCurrent node count: 2\n")
WORKER_WAIT = ("RLINF_NODE_RANK: 1\nExecuting prepare script...\n{t} Connecting to Ray head at head-0.svc:6379...\n"
               "Waiting for head to be reachable at head-0.svc:6379... (attempt 1)\n"
               "Waiting for head to be reachable at head-0.svc:6379... (attempt 2)\n")


@pytest.mark.parametrize("text", [HEAD_WAIT, WORKER_WAIT])
def test_a_ray_wait_inside_its_window_is_still_starting(runbook: Runbook, text: str) -> None:
    p = pod("ppo-0", node_name="gpu-1", phase="Running", created_minutes_ago=2,
            statuses=[{"name": "main", "state": {"running": {"startedAt": stamp(1.5)}}}])
    t = stamp(1).replace("T", " ").rstrip("Z")
    diag = diagnose_pod(runbook, evidence(p, log("ppo-0", text.format(t=t))), "ppo-0")
    assert not [f.id for f in diag.findings if f.severity in ("critical", "error")]


@pytest.mark.parametrize("text", [HEAD_WAIT, WORKER_WAIT])
def test_the_same_wait_past_its_window_is_a_failure(runbook: Runbook, text: str) -> None:
    p = pod("ppo-0", node_name="gpu-1", phase="Running", created_minutes_ago=40,
            statuses=[{"name": "main", "state": {"running": {"startedAt": stamp(39)}}}])
    t = stamp(38).replace("T", " ").rstrip("Z")
    diag = diagnose_pod(runbook, evidence(p, log("ppo-0", text.format(t=t))), "ppo-0")
    assert [f.id for f in diag.findings if f.severity in ("critical", "error")]


def test_an_unstamped_wait_is_timed_by_the_container_start(runbook: Runbook) -> None:
    young = pod("ppo-0", node_name="gpu-1", phase="Running", created_minutes_ago=2,
                statuses=[{"name": "main", "state": {"running": {"startedAt": stamp(1)}}}])
    diag = diagnose_pod(runbook, evidence(young, log("ppo-0", HEAD_WAIT.format(t=""))), "ppo-0")
    assert not [f.id for f in diag.findings if f.severity in ("critical", "error")]
