"""RLark Task and Job signals: unrouted, without workers, stopped, an agent gone quiet, phases that disagree,
workers left behind a stop."""

from __future__ import annotations

from bot.signals.tasks import agent_disconnected, no_worker, out_of_sync, stopped, unrouted, workers_remain
from signals.scenario import said, scenario, sources, texts


def test_a_task_in_the_default_namespace_is_unrouted() -> None:
    hits = unrouted(scenario("rlark-task-unrouted"))
    assert texts(hits) == "Task is in namespace 'default' with phase (empty): no agent will pick it up"


def test_a_routed_task_without_pods_says_why_when_its_replicas_are_zero() -> None:
    quota = texts(no_worker(scenario("rlark-task-no-worker-quota")))
    assert quota.startswith("Task phase Pending, no pods\nFailedCreate: ") and "exceeded quota" in quota
    said = texts(no_worker(scenario("rlark-task-no-worker-replicas-zero")))
    assert said == "Task phase Stopped, no pods\nkubernetes.workload.replicas is 0 but the Job is not stopped"


def test_a_stopped_job_and_the_workers_still_running_after_it() -> None:
    ctx = scenario("rlark-stop-workers-remain")
    assert texts(stopped(ctx)) == "Job is stopped (spec.stopped is true); its Tasks are scaled to 0 replicas"
    [hit] = workers_remain(ctx)
    assert sources([hit]) == ["gpu-a/rlark-system/ppo-franka-0412-actor-0",
                              *(f"gpu-a/rlark-system/ppo-franka-0412-rollout-{i}" for i in range(3))]
    assert all(item.text == "still Running, Job stopped since 2026-11-20T07:22:00Z" for item in hit.evidence)
    assert workers_remain(scenario("rlark-task-stopped")) == []


def test_an_agent_whose_heartbeat_is_older_than_the_limit() -> None:
    assert said(agent_disconnected(scenario("rlark-agent-disconnected"))) == [(
        "control-plane/rlark-gpu-a/heartbeat",
        "heartbeat Lease last renewed 2026-11-20T07:35:00Z (25m ago, limit 30s): agent disconnected")]


def test_member_pods_running_while_the_job_says_pending() -> None:
    hits = out_of_sync(scenario("rlark-status-out-of-sync"))
    pods = [h for h in hits if h.pod is not None]
    assert len(pods) == 4 and all(sources([h]) == [h.pod] for h in pods)
    assert {texts([h]) for h in pods} == {"Job phase Pending while member pod is Running for 73m"}
    job = [h for h in hits if h.pod is None]
    assert texts(job).splitlines() == [f"Job reports task {t} as Pending, the Task itself is Running"
                                       for t in ("actor", "rollout")]
