"""RLark Jobs whose spec or state needs a person: an invalid Head (rlark.spec.head-invalid), a stopped Job whose
pods keep running (rlark.stop.workers-remain), a Task left unrouted in `default` (rlark.task.unrouted).

These read the whole evidence at once (every Job, Task and pod), so each pass indexes pods by Task first
instead of scanning every pod per Job.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from bot.checks.alerts import Alert, cluster_ref, object_ref
from bot.models import Evidence, Job, Task
from bot.models.refs import ObjectRef
from bot.models.rlark import JOB_LABEL
from bot.models.times import rfc3339
from bot.settings import Thresholds

TERMINAL_PHASES = ("Succeeded", "Failed", "Stopped")


def _job_ref(job: Job) -> ObjectRef:
    return cluster_ref(job.cluster, kind="Job", name=job.name)


def _stopped(job: Job) -> bool:
    return job.spec.stopped or job.status.phase == "Stopped"


def head_invalid(ev: Evidence, *, now: datetime, thresholds: Thresholds) -> list[Alert]:
    """A live Job with no Head task, several, or a Head whose replicas is not 1 (several Ray Heads would each run
    the training script)."""
    alerts: list[Alert] = []
    for job in ev.jobs:
        tasks = job.spec.tasks
        if not tasks or _stopped(job) or job.status.phase in TERMINAL_PHASES:
            continue
        heads = [t for t in tasks if t.head]
        if not heads:
            problem = f"no task has head: true (tasks: {', '.join(t.name for t in tasks)})"
        elif len(heads) > 1:
            problem = f"{len(heads)} tasks have head: true: {', '.join(t.name for t in heads)}"
        elif heads[0].replicas is not None and heads[0].replicas != 1:
            problem = f"Head task {heads[0].name} has kubernetes.workload.replicas {heads[0].replicas} (must be 1)"
        else:
            continue
        alerts.append(Alert(check="head-invalid", case="rlark.spec.head-invalid", object=_job_ref(job),
                            severity="error", since=job.status.start_time or job.metadata.creation_timestamp,
                            summary=f"Job {job.name}: {problem}", domain=job.spec.domain))
    return alerts


def _tasks_by_job(ev: Evidence) -> dict[str, list[Task]]:
    out: dict[str, list[Task]] = defaultdict(list)
    for task in ev.tasks:
        job = task.job_name or next((o.name for o in task.metadata.owner_references if o.kind == "Job"), "")
        if job:
            out[job].append(task)
    return out


def _running_by_task(ev: Evidence) -> dict[str, set[str]]:
    """Task name -> names of its pods that are Running, from member pods (label `app`) and Pod mirrors."""
    out: dict[str, set[str]] = defaultdict(set)
    for pod in ev.pods:
        app = pod.metadata.labels.get("app", "")
        if app and pod.status.phase == "Running":
            out[app].add(pod.name)
    for mirror in ev.pod_mirrors:
        if mirror.task_name and mirror.status.phase == "Running":
            out[mirror.task_name].add(mirror.local_name or mirror.name)
    return out


def workers_remain(ev: Evidence, *, now: datetime, thresholds: Thresholds) -> list[Alert]:
    """A stopped Job whose pods still run past the stop grace: they hold accelerators and may keep training."""
    stopped = [j for j in ev.jobs if _stopped(j)]
    if not stopped:
        return []
    tasks = _tasks_by_job(ev)
    running = _running_by_task(ev)
    alerts: list[Alert] = []
    for job in stopped:
        at = job.stopped_at
        if at is not None and (now - at).total_seconds() <= thresholds.stop_grace_seconds:
            continue
        pods = sorted({p for t in tasks.get(job.name, []) for p in running.get(t.name, ())})
        if not pods:
            continue
        shown = ", ".join(pods[:5]) + (f" and {len(pods) - 5} more" if len(pods) > 5 else "")
        since = f" since {rfc3339(at)}" if at is not None else ""
        alerts.append(Alert(check="workers-remain", case="rlark.stop.workers-remain", object=_job_ref(job),
                            severity="warning", since=at,
                            summary=f"Job {job.name} stopped{since} but {len(pods)} pod(s) still Running: {shown}",
                            domain=job.spec.domain))
    return alerts


def unrouted(ev: Evidence, *, now: datetime, thresholds: Thresholds) -> list[Alert]:
    """A Task that sits in namespace `default` past the sync grace: no Node matched, no agent will ever run it."""
    stopped = {j.name for j in ev.jobs if _stopped(j) or j.status.phase in TERMINAL_PHASES}
    domains = {j.name: j.spec.domain for j in ev.jobs}
    alerts: list[Alert] = []
    for task in ev.tasks:
        if task.agent_id is not None or task.job_name in stopped:
            continue
        created = task.metadata.creation_timestamp
        if created is not None and (now - created).total_seconds() <= thresholds.sync_grace_seconds:
            continue
        sel = task.spec.node_selector or {}
        selector = ", ".join(f"{k}={v}" for k, v in sorted(sel.items())) or "(empty)"
        job = task.metadata.labels.get(JOB_LABEL, "")
        of_job = f" of Job {job}" if job else ""
        alerts.append(Alert(check="task-unrouted", case="rlark.task.unrouted", object=object_ref(task, "Task"),
                            severity="error", since=created,
                            summary=f"Task {task.name}{of_job} sits in namespace {task.namespace} with phase "
                                    f"{task.status.phase or '(empty)'} (nodeSelector {selector}): no agent will run "
                                    "it", domain=domains.get(task.job_name, task.spec.domain)))
    return alerts
