"""head-invalid, workers-remain and task-unrouted over small built evidence."""

from __future__ import annotations

from bot.checks import run_checks
from bot.checks.rlark import head_invalid, unrouted, workers_remain
from bot.models import Evidence
from bot.settings import Thresholds
from checks.build import NOW, ago, job, mirror, pod, task, task_spec

TH = Thresholds()


def test_head_with_two_replicas_alerts_on_the_job() -> None:
    ev = Evidence(jobs=[job("ppo", tasks=[task_spec("actor", head=True, replicas=2), task_spec("rollout")])])
    [alert] = head_invalid(ev, now=NOW, thresholds=TH)
    assert alert.key == "head-invalid:control-plane//Job/ppo"
    assert alert.case == "rlark.spec.head-invalid"
    assert "replicas 2" in alert.summary and "actor" in alert.summary


def test_no_head_and_two_heads_alert_and_a_valid_or_stopped_job_does_not() -> None:
    ev = Evidence(jobs=[
        job("none", tasks=[task_spec("a"), task_spec("b")]),
        job("two", tasks=[task_spec("a", head=True), task_spec("b", head=True)]),
        job("ok", tasks=[task_spec("a", head=True), task_spec("b", replicas=8)]),
        job("old", tasks=[task_spec("a", head=True, replicas=3)], stopped=True, phase="Stopped"),
    ])
    got = {str(a.object): a.summary for a in head_invalid(ev, now=NOW, thresholds=TH)}
    assert set(got) == {"control-plane//Job/none", "control-plane//Job/two"}
    assert "no task has head" in got["control-plane//Job/none"]
    assert "2 tasks have head" in got["control-plane//Job/two"]


def test_stopped_job_with_running_pods_past_grace() -> None:
    ev = Evidence(jobs=[job("ppo", tasks=[task_spec("actor", head=True)], stopped=True, phase="Stopped",
                            end=ago(TH.stop_grace_seconds + 60))],
                  tasks=[task("ppo", "actor"), task("ppo", "rollout")],
                  pods=[pod("ppo-actor-0", labels={"app": "ppo-actor"}),
                        pod("ppo-actor-1", labels={"app": "ppo-actor"}, phase="Succeeded"),
                        pod("other-x-0", labels={"app": "other-x"})],
                  pod_mirrors=[mirror("ppo-rollout", "ppo-rollout-0")])
    [alert] = workers_remain(ev, now=NOW, thresholds=TH)
    assert alert.key == "workers-remain:control-plane//Job/ppo"
    assert "2 pod(s) still Running" in alert.summary
    assert "ppo-actor-0" in alert.summary and "ppo-rollout-0" in alert.summary
    assert "other-x-0" not in alert.summary and "ppo-actor-1" not in alert.summary


def test_stopped_within_grace_or_without_pods_is_quiet() -> None:
    fresh = Evidence(jobs=[job("ppo", tasks=[], stopped=True, end=ago(TH.stop_grace_seconds - 30))],
                     tasks=[task("ppo", "actor")], pods=[pod("ppo-actor-0", labels={"app": "ppo-actor"})])
    assert workers_remain(fresh, now=NOW, thresholds=TH) == []
    empty = Evidence(jobs=[job("ppo", tasks=[], stopped=True, end=ago(3600))], tasks=[task("ppo", "actor")])
    assert workers_remain(empty, now=NOW, thresholds=TH) == []
    running = Evidence(jobs=[job("ppo", tasks=[])], tasks=[task("ppo", "actor")],
                       pods=[pod("ppo-actor-0", labels={"app": "ppo-actor"})])
    assert workers_remain(running, now=NOW, thresholds=TH) == []


def test_task_in_default_is_unrouted_after_the_sync_grace() -> None:
    ev = Evidence(jobs=[job("ppo", tasks=[])],
                  tasks=[task("ppo", "rollout", namespace="default", selector={"gpu": "h100"}),
                         task("ppo", "new", namespace="default", age=TH.sync_grace_seconds - 10),
                         task("ppo", "actor")])
    [alert] = unrouted(ev, now=NOW, thresholds=TH)
    assert alert.key == "task-unrouted:control-plane/default/Task/ppo-rollout"
    assert "gpu=h100" in alert.summary and "of Job ppo" in alert.summary


def test_registered_in_run_checks_with_unique_keys() -> None:
    ev = Evidence(jobs=[job("ppo", tasks=[task_spec("actor", head=True, replicas=2)])],
                  tasks=[task("ppo", "actor", namespace="default")])
    alerts = run_checks(ev, now=NOW, thresholds=TH)
    assert [a.check for a in alerts] == ["head-invalid", "task-unrouted"]
    assert run_checks(ev, now=NOW, thresholds=TH, only=("task-unrouted",))[0].check == "task-unrouted"
