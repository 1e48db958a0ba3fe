"""A glance at a watched target: the few reads that tell whether anything about its objects moved since the last
look, without the full collection (member clusters, events, nodes, logs) a diagnosis needs.

A RLark Job: one GET of the Job (its status carries each Task's phase and message) and one filtered list of its
Pod mirrors by task name on the control plane, 2 requests whatever the Job's size. A pod or runner: one GET. The
answer is a fingerprint of the fields that matter (phases, messages, Nodes, restarts, readiness), not of resource
versions, so heartbeats and image-pull progress do not count as a change. What only the logs say (a stage marker)
is not seen here: the watch ticker takes a full look every few ticks for that.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

from bot.cluster import resources as R
from bot.cluster.adapter import ClusterAdapter
from bot.cluster.collected import Collected
from bot.cluster.collector import cluster_name
from bot.cluster.errors import CollectionError, ReadFailed, TargetNotFound
from bot.cluster.locate import first_context
from bot.cluster.plan_job import task_names
from bot.cluster.progress import NullProgress
from bot.cluster.session import Observe, Session
from bot.models import Target, TargetKind
from bot.models.rlark import TASK_NAME_LABEL
from bot.settings import Settings

Obj = dict[str, Any]


def _meta(obj: Obj) -> Obj:
    return obj.get("metadata") or {}


def _status(obj: Obj) -> Obj:
    return obj.get("status") or {}


def job_marks(job: Obj, mirrors: list[Obj]) -> list[Any]:
    """What a Job's glance compares: its phase and stop flag, each Task's phase and message (from the Job's
    status), each Pod mirror's phase, Node and message."""
    status = _status(job)
    marks: list[Any] = [bool((job.get("spec") or {}).get("stopped")), status.get("phase"), status.get("endTime"),
                        sorted((str(t.get("name")), str(t.get("phase")), str(t.get("message") or ""))
                               for t in status.get("tasks") or [])]
    marks.append(sorted((str(_meta(m).get("namespace")), str(_meta(m).get("name")), str(_status(m).get("phase")),
                         str(_status(m).get("node") or ""), str(_status(m).get("message") or ""))
                        for m in mirrors))
    return marks


def pod_marks(obj: Obj) -> list[Any]:
    """What a pod's (or runner's) glance compares: phase, reason, and each container's state, restarts, readiness."""
    status = _status(obj)
    containers = [*(status.get("initContainerStatuses") or []), *(status.get("containerStatuses") or [])]
    return [status.get("phase"), status.get("reason"), str(status.get("message") or ""),
            sorted((str(c.get("name")), int(c.get("restartCount") or 0), bool(c.get("ready")),
                    sorted((c.get("state") or {}).keys())) for c in containers)]


def fingerprint(marks: list[Any]) -> str:
    return hashlib.sha256(json.dumps(marks, sort_keys=True, default=str).encode()).hexdigest()[:24]


def glance(target: Target, *, kubeconfig: str | None, context: str | None, settings: Settings,
           observe: Observe | None = None) -> str:
    """The target's fingerprint. Raises TargetNotFound when it is gone, CollectionError (one line) otherwise."""
    source, chosen = first_context(target, kubeconfig=kubeconfig, context=context, settings=settings)
    acc = Collected(captured_at=datetime.now(UTC))
    with Session(source, settings=settings, acc=acc, progress=NullProgress(), observe=observe) as session:
        adapter = session.adapter(chosen, cluster_name(chosen))
        try:
            if target.kind is TargetKind.JOB:
                return fingerprint(_job(adapter, target.name))
            resource = R.PODS if target.kind is TargetKind.POD else R.EPHEMERAL_RUNNERS
            if not target.namespace:  # a watch always knows its target's namespace; a caller that does not, reads
                raise CollectionError(f"a glance at {target} needs its namespace")
            obj = adapter.get(resource, target.name, namespace=target.namespace)
        except ReadFailed as exc:
            raise CollectionError(f"glance at {target}: {exc}") from exc
        if obj is None:
            raise TargetNotFound(f"{adapter.name} (context {chosen}, namespace {target.namespace})")
        return fingerprint(pod_marks(obj))


def _job(cp: ClusterAdapter, name: str) -> list[Any]:
    job = cp.get(R.JOBS, name)
    if job is None:
        raise TargetNotFound(f"the RLark control plane ({cp.name})")
    names = task_names(job)
    mirrors = cp.list(R.POD_MIRRORS, label_selector=f"{TASK_NAME_LABEL} in ({','.join(names)})") if names else []
    return job_marks(job, mirrors)
