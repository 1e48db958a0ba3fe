"""Select, from everything read, the objects that belong to one target, grouped per pod.

Evidence may be a whole dump (a bundle) or already narrowed by the live collector; scoping is the same
either way, so the engine never needs to know where the evidence came from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from bot.models import (
    EphemeralRunner,
    Event,
    Evidence,
    Job,
    Lease,
    Node,
    PersistentVolumeClaim,
    Pod,
    PodMirror,
    StatefulSet,
    Target,
    TargetKind,
    Task,
)
from bot.models.k8s import InvolvedObject
from bot.models.rlark import JOB_LABEL, MEMBER_NAMESPACE
from bot.redact import Scan
from bot.scope.logview import LogView


@dataclass
class PodCtx:
    """One worker as seen from every layer: member Pod, control-plane mirror, its Task, events, node, logs."""

    name: str
    cluster: str
    namespace: str
    pod: Pod | None = None
    mirror: PodMirror | None = None
    task: Task | None = None
    events: list[Event] = field(default_factory=list)
    node: Node | None = None
    pvcs: list[PersistentVolumeClaim] = field(default_factory=list)
    logs: list[LogView] = field(default_factory=list)
    # Answers about this pod that the layers above compute once the scope is complete (how far it got, asked by
    # the stage, the gaps and the case loop alike); never filled while the pod is being scoped.
    memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @cached_property
    def key(self) -> str:
        """`<cluster>/<namespace>/<name>`; the three never change once the pod is scoped."""
        return f"{self.cluster}/{self.namespace}/{self.name}"

    @property
    def is_head(self) -> bool:
        return self.task.is_head if self.task is not None else False

    @property
    def main_log(self) -> LogView | None:
        """The current log of the workload container (`main` for RLark pods, else the first one)."""
        current = [v for v in self.logs if not v.excerpt.source.previous]
        return next((v for v in current if v.excerpt.source.container == "main"), current[0] if current else None)

    @property
    def phase(self) -> str:
        if self.pod is not None:
            return self.pod.status.phase
        return self.mirror.status.phase if self.mirror is not None else ""


@dataclass
class Scope:
    target: Target
    evidence: Evidence
    found: bool
    where: str
    job: Job | None = None
    tasks: list[Task] = field(default_factory=list)
    pods: list[PodCtx] = field(default_factory=list)
    statefulsets: list[StatefulSet] = field(default_factory=list)
    leases: list[Lease] = field(default_factory=list)
    runners: list[EphemeralRunner] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    def pods_of(self, task: Task) -> list[PodCtx]:
        return [p for p in self.pods if p.task is task]


def _ordinal_name(task_name: str) -> re.Pattern[str]:
    return re.compile(rf"^{re.escape(task_name)}-\d+$")


def _task_events(task: Task) -> list[Event]:
    """Task.status.events (kept by RLark while Pending) as ordinary events, so one matcher handles both."""
    out: list[Event] = []
    for ev in task.status.events:
        involved = InvolvedObject(kind=ev.object_kind or "Pod", name=ev.object_name, namespace=MEMBER_NAMESPACE)
        event = Event(involvedObject=involved, reason=ev.reason, message=ev.message, type=ev.type,
                      count=ev.count, lastTimestamp=ev.last_time, firstTimestamp=ev.last_time)
        event.cluster = task.agent_id or task.cluster
        event.metadata.namespace = MEMBER_NAMESPACE
        out.append(event)
    return out


def _event_time(e: Event) -> tuple[bool, datetime | None]:
    return e.when is None, e.when


class _Index:
    """Lookups over the whole evidence, built once per scoping."""

    def __init__(self, ev: Evidence, scan: Scan) -> None:
        self.ev = ev
        self.events_by_object: dict[tuple[str, str, str], list[Event]] = {}
        for e in ev.events:
            io = e.involved_object
            key = (e.cluster, io.kind, io.name)
            self.events_by_object.setdefault(key, []).append(e)
        self.nodes = {(n.cluster, n.name): n for n in ev.nodes}
        self.pvcs = {(p.cluster, p.namespace, p.name): p for p in ev.pvcs}
        self.logs: dict[tuple[str, str, str], list[LogView]] = {}
        for excerpt in ev.logs:
            s = excerpt.source
            self.logs.setdefault((s.cluster, s.namespace, s.pod), []).append(LogView(excerpt, scan))

    def fill(self, ctx: PodCtx) -> None:
        ctx.events.extend(self.events_by_object.get((ctx.cluster, "Pod", ctx.name), []))
        ctx.logs = self.logs.get((ctx.cluster, ctx.namespace, ctx.name), [])
        if ctx.pod is not None:
            self._fill_pod(ctx)
        ctx.events.sort(key=_event_time)

    def _fill_pod(self, ctx: PodCtx) -> None:
        assert ctx.pod is not None
        node_name = ctx.pod.spec.node_name
        if node_name:
            ctx.node = self.nodes.get((ctx.cluster, node_name))
            ctx.events.extend(self.events_by_object.get((ctx.cluster, "Node", node_name), []))
        for vol in ctx.pod.spec.volumes:
            claim = (vol.get("persistentVolumeClaim") or {}).get("claimName")
            if claim:
                pvc = self.pvcs.get((ctx.cluster, ctx.namespace, claim))
                if pvc is not None:
                    ctx.pvcs.append(pvc)
                ctx.events.extend(self.events_by_object.get((ctx.cluster, "PersistentVolumeClaim", claim), []))


def _orphans(ev: Evidence, tasks: list[Task], where: str) -> tuple[list[Task], str]:
    """Tasks of a Job that the Job list (read, not missing) does not hold are orphans, not a job to diagnose:
    no Tasks, and `where` names them. Without the Job list they are all there is, and they are diagnosed."""
    if ev.lacks("jobs.rlinf.io"):
        return tasks, where
    orphans = ", ".join(sorted(t.ref() for t in tasks))
    return [], where + f"; the Job object does not exist, but Tasks still carry its label or owner: {orphans}"


def _job_tasks(target: Target, ev: Evidence) -> list[Task]:
    """Tasks that carry the Job's label or name it as their owner."""
    return [t for t in ev.tasks if t.metadata.labels.get(JOB_LABEL) == target.name
            or any(o.kind == "Job" and o.name == target.name for o in t.metadata.owner_references)]


def _job_where(target: Target, ev: Evidence) -> str:
    """Where a Job was looked for: the kinds, the label, the clusters and the Task namespaces read."""
    where_clusters = ", ".join(ev.clusters) or "(none)"
    task_namespaces = sorted({t.namespace for t in ev.tasks}) or ["(none collected)"]
    return (f"looked for Job {target.name!r} in jobs.rlinf.io and tasks.rlinf.io (label {JOB_LABEL}) "
            f"across clusters {where_clusters}; Task namespaces {', '.join(task_namespaces)}")


def _member_pods(ev: Evidence, task_by_name: dict[str, Task]) -> dict[tuple[str, str], PodCtx]:
    """The member pods of the Job's Tasks, by (cluster, name): a pod's `app` label names its Task, else its
    name is the Task's followed by an ordinal."""
    ordinal = {name: _ordinal_name(name) for name in task_by_name}
    members: dict[tuple[str, str], PodCtx] = {}
    for pod in ev.pods:
        app = pod.metadata.labels.get("app", "")
        task = task_by_name.get(app) or next((t for n, t in task_by_name.items() if ordinal[n].match(pod.name)), None)
        if task is None:
            continue
        ctx = PodCtx(name=pod.name, cluster=pod.cluster, namespace=pod.namespace, pod=pod, task=task)
        members[(pod.cluster, pod.name)] = ctx
    return members


def _add_mirrors(ev: Evidence, task_by_name: dict[str, Task], members: dict[tuple[str, str], PodCtx]) -> None:
    """Give each member its control-plane mirror, and add a worker for each mirror whose member pod was not read."""
    mirrors: dict[tuple[str, str], list[PodMirror]] = {}
    for mirror in ev.pod_mirrors:
        task = task_by_name.get(mirror.task_name)
        if task is not None:
            mirrors.setdefault((task.agent_id or mirror.cluster, mirror.local_name or mirror.name), []).append(mirror)
    for (cluster, local), group in mirrors.items():
        found_ctx = members.get((cluster, local))
        if found_ctx is None:
            # No member pod read: the newest mirror stands for the worker (older ones were replaced).
            mirror = max(group, key=lambda m: (m.metadata.creation_timestamp is not None,
                                               m.metadata.creation_timestamp, m.name))
            members[(cluster, local)] = PodCtx(
                name=local, cluster=cluster,
                namespace=mirror.metadata.labels.get("rlark.io/local-pod-namespace", MEMBER_NAMESPACE),
                mirror=mirror, task=task_by_name[mirror.task_name])
            continue
        # A mirror is named after its member pod's UID; one left from a replaced pod is history, not state.
        uid = found_ctx.pod.metadata.uid if found_ctx.pod is not None else ""
        current = [m for m in group if m.name == uid]
        found_ctx.mirror = current[0] if current else (group[0] if len(group) == 1 else None)


def _add_task_events(scope: Scope, tasks: list[Task]) -> None:
    """The events RLark keeps in the Tasks, each once and none a pod already has: on the pod it concerns, else
    on the scope."""
    kept = [e for task in tasks for e in _task_events(task)]
    if not kept:  # the common case once a job runs: no pod's events need to be looked at
        return
    seen = {(e.reason, e.message, e.involved_object.name) for c in scope.pods for e in c.events}
    for e in kept:
        key = (e.reason, e.message, e.involved_object.name)
        if key in seen:
            continue
        seen.add(key)
        owner = next((c for c in scope.pods if c.name == e.involved_object.name), None)
        if owner is not None:
            owner.events.append(e)
            owner.events.sort(key=_event_time)
        else:
            scope.events.append(e)


def _scope_job(target: Target, ev: Evidence, idx: _Index) -> Scope:
    job = next((j for j in ev.jobs if j.name == target.name), None)
    tasks = _job_tasks(target, ev)
    where = _job_where(target, ev)
    if job is None and tasks:
        tasks, where = _orphans(ev, tasks, where)
    scope = Scope(target=target, evidence=ev, found=job is not None or bool(tasks), where=where, job=job,
                  tasks=tasks)
    if not scope.found:
        return scope
    task_by_name = {t.name: t for t in tasks}
    members = _member_pods(ev, task_by_name)
    _add_mirrors(ev, task_by_name, members)
    scope.pods = sorted(members.values(), key=lambda c: (not c.is_head, c.task.name if c.task else "", c.name))
    for ctx in scope.pods:
        idx.fill(ctx)
    _add_task_events(scope, tasks)
    names = set(task_by_name)
    scope.statefulsets = [s for s in ev.statefulsets if s.name in names]
    for s in scope.statefulsets:
        scope.events.extend(idx.events_by_object.get((s.cluster, "StatefulSet", s.name), []))
    agent_namespaces = {t.namespace for t in tasks}
    scope.leases = [le for le in ev.leases if le.namespace in agent_namespaces]
    return scope


def _scope_pod(target: Target, ev: Evidence, idx: _Index) -> Scope:
    def wanted(name: str, namespace: str) -> bool:
        return (not target.namespace or namespace == target.namespace) and name == target.name

    runners = [r for r in ev.ephemeral_runners if wanted(r.name, r.namespace)]
    pods = [p for p in ev.pods if wanted(p.name, p.namespace)]
    if target.kind is TargetKind.RUNNER:
        pods = [p for p in ev.pods if any(p.name == r.name and p.namespace == r.namespace for r in runners)]
    else:
        runners = [r for r in ev.ephemeral_runners if any(p.name == r.name for p in pods)]
    roots = {p.name for p in pods} | {r.name for r in runners}
    # runner-container-hooks start the job's containers in a separate `<runner>-workflow` pod.
    related = [p for p in ev.pods if p not in pods and any(p.name.startswith(f"{r}-workflow") for r in roots)]
    namespaces = sorted({p.namespace for p in ev.pods}) or ["(none collected)"]
    kind = "EphemeralRunner" if target.kind is TargetKind.RUNNER else "Pod"
    ns_text = f"namespace {target.namespace}" if target.namespace else f"namespaces {', '.join(namespaces)}"
    where = f"looked for {kind} {target.name!r} in clusters {', '.join(ev.clusters) or '(none)'}, {ns_text}"
    primary = runners if target.kind is TargetKind.RUNNER else pods
    scope = Scope(target=target, evidence=ev, found=bool(primary), where=where, runners=runners)
    for pod in pods + related:
        ctx = PodCtx(name=pod.name, cluster=pod.cluster, namespace=pod.namespace, pod=pod)
        idx.fill(ctx)
        scope.pods.append(ctx)
    # A workflow pod the hooks already deleted is gone from the pod list, not from the events: its story stays.
    present = {(p.cluster, p.name) for p in pods + related}
    for (cluster, kind, name), events in idx.events_by_object.items():
        if kind != "Pod" or (cluster, name) in present or not any(name.startswith(f"{r}-workflow") for r in roots):
            continue
        namespace = events[0].involved_object.namespace or events[0].namespace
        if target.namespace and namespace != target.namespace:
            continue
        gone = PodCtx(name=name, cluster=cluster, namespace=namespace)
        idx.fill(gone)
        scope.pods.append(gone)
    for r in runners:
        scope.events.extend(idx.events_by_object.get((r.cluster, "EphemeralRunner", r.name), []))
    return scope


def scope_evidence(evidence: Evidence, target: Target, *, scan: Scan) -> Scope:
    """The part of the evidence `target` concerns. `scan` is the redactor's credential scan for log views."""
    idx = _Index(evidence, scan)
    if target.kind is TargetKind.JOB:
        return _scope_job(target, evidence, idx)
    return _scope_pod(target, evidence, idx)
