"""What the evidence holds about one run: its member pods per task, the digests they ran, where they ran."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.compare.model import Placement
from bot.models import Evidence, Job, Pod
from bot.models.rlark import JOB_LABEL, Task

_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
MGMT_TASK = "rlark.io/management-task-name"


@dataclass(frozen=True)
class Run:
    """One Job and the objects of it in the evidence."""

    job: Job
    tasks: dict[str, Task]  # task name in the Job's spec -> its Task object
    pods: dict[str, list[Pod]]  # task name -> member pods, by ordinal

    @property
    def head_task(self) -> str | None:
        return next((t.name for t in self.job.spec.tasks if t.head), None)

    def placement_of(self, task: str) -> tuple[str, tuple[str, ...]]:
        """(the cluster the task was routed to, "" when unrouted or unknown; the Nodes its pods ran on)."""
        obj = self.tasks.get(task)
        cluster = (obj.agent_id or "") if obj is not None else ""
        return cluster, tuple(sorted({p.spec.node_name for p in self.pods.get(task, []) if p.spec.node_name}))

    def head_pod(self) -> Pod | None:
        name = self.head_task
        pods = self.pods.get(name, []) if name else []
        return pods[0] if pods else None


def _ordinal(pod: Pod) -> int:
    tail = pod.name.rsplit("-", 1)[-1]
    return int(tail) if tail.isdigit() else 1 << 30


def find_run(evidence: Evidence, job: Job) -> Run:
    tasks: dict[str, Task] = {}
    pods: dict[str, list[Pod]] = {}
    for spec in job.spec.tasks:
        full = f"{job.name}-{spec.name}"
        task = next((t for t in evidence.tasks if t.name == full and t.job_name in ("", job.name)), None)
        if task is None:
            task = next((t for t in evidence.tasks
                         if t.metadata.labels.get(JOB_LABEL) == job.name and t.spec.name == spec.name), None)
        if task is not None:
            tasks[spec.name] = task
        mine = [p for p in evidence.pods
                if p.metadata.labels.get("app") == full or p.metadata.annotations.get(MGMT_TASK) == full]
        pods[spec.name] = sorted(mine, key=_ordinal)
    return Run(job=job, tasks=tasks, pods=pods)


def digests(run: Run) -> dict[str, tuple[str, ...]]:
    """Per task, the image digests `main` actually ran with (from `imageID`), empty when no pod pulled one."""
    out: dict[str, tuple[str, ...]] = {}
    for task, pods in run.pods.items():
        found: set[str] = set()
        for pod in pods:
            status = next((s for s in pod.status.container_statuses if s.name == "main"), None)
            m = _DIGEST.search(status.image_id) if status is not None else None
            if m is not None:
                found.add(m.group(0))
        if found:
            out[task] = tuple(sorted(found))
    return out


def placement(run: Run) -> Placement:
    return Placement(tasks={spec.name: run.placement_of(spec.name) for spec in run.job.spec.tasks})
