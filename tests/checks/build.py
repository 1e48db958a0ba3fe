"""Small evidence built in code for the scheduled checks' tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from bot.models import EphemeralRunner, Event, Job, NodePool, Pod, PodMirror, Task

NOW = datetime(2026, 11, 20, 8, 0, tzinfo=UTC)


def ago(seconds: float) -> str:
    return (NOW - timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")


def job(name: str, *, tasks: list[dict[str, Any]], stopped: bool = False, phase: str = "Running",
        end: str | None = None, cluster: str = "control-plane") -> Job:
    status: dict[str, Any] = {"phase": phase}
    if end:
        status["endTime"] = end
    j = Job.model_validate({"metadata": {"name": name, "creationTimestamp": ago(3600)},
                            "spec": {"stopped": stopped, "tasks": tasks}, "status": status})
    j.cluster = cluster
    return j


def task_spec(name: str, *, head: bool = False, replicas: int = 1) -> dict[str, Any]:
    return {"name": name, "head": head, "nodeSelector": {"gpu": "a100"},
            "kubernetes": {"workload": {"kind": "StatefulSet", "replicas": replicas}}}


def task(job_name: str, name: str, *, namespace: str = "rlark-gpu-a", age: float = 3600,
         selector: dict[str, str] | None = None) -> Task:
    t = Task.model_validate({"metadata": {"name": f"{job_name}-{name}", "namespace": namespace,
                                          "creationTimestamp": ago(age), "labels": {"rlinf.io/job": job_name}},
                             "spec": {"name": name, "nodeSelector": selector or {}}})
    t.cluster = "control-plane"
    return t


def pod(name: str, *, phase: str = "Running", age: float = 3600, namespace: str = "rlark-system",
        cluster: str = "gpu-a", labels: dict[str, str] | None = None, selector: dict[str, str] | None = None,
        scheduled: tuple[str, str] | None = None, waiting: tuple[str, str] | None = None,
        finished: str | None = None) -> Pod:
    status: dict[str, Any] = {"phase": phase}
    if scheduled:
        status["conditions"] = [{"type": "PodScheduled", "status": "False", "reason": scheduled[0],
                                 "message": scheduled[1]}]
    if waiting:
        status["containerStatuses"] = [{"name": "main", "state": {"waiting": {"reason": waiting[0],
                                                                              "message": waiting[1]}}}]
    if finished:
        status["containerStatuses"] = [{"name": "runner", "state": {"terminated": {"exitCode": 1,
                                                                                   "finishedAt": finished}}}]
    p = Pod.model_validate({"metadata": {"name": name, "namespace": namespace, "creationTimestamp": ago(age),
                                         "labels": labels or {}},
                            "spec": {"nodeSelector": selector or {}}, "status": status})
    p.cluster = cluster
    return p


def mirror(task_name: str, local: str, *, phase: str = "Running") -> PodMirror:
    m = PodMirror.model_validate({"metadata": {"name": f"uid-{local}", "namespace": "rlark-gpu-a",
                                               "labels": {"rlark.io/task-name": task_name,
                                                          "rlark.io/local-pod-name": local}},
                                  "status": {"phase": phase}})
    m.cluster = "control-plane"
    return m


def event(pod_name: str, reason: str, message: str, *, namespace: str = "rlark-system",
          cluster: str = "gpu-a") -> Event:
    e = Event.model_validate({"metadata": {"name": f"{pod_name}.1", "namespace": namespace},
                              "involvedObject": {"kind": "Pod", "name": pod_name, "namespace": namespace},
                              "reason": reason, "message": message, "type": "Warning",
                              "lastTimestamp": ago(60)})
    e.cluster = cluster
    return e


def nodepool(name: str, *, labels: dict[str, str], cluster: str = "ci") -> NodePool:
    p = NodePool.model_validate({"metadata": {"name": name},
                                 "spec": {"template": {"metadata": {"labels": labels}}}})
    p.cluster = cluster
    return p


def runner(name: str, *, phase: str, age: float = 3600, failures: dict[str, str] | None = None,
           reason: str = "") -> EphemeralRunner:
    r = EphemeralRunner.model_validate({"metadata": {"name": name, "namespace": "arc-runners",
                                                     "creationTimestamp": ago(age)},
                                        "status": {"phase": phase, "reason": reason, "failures": failures or {}}})
    r.cluster = "ci"
    return r
