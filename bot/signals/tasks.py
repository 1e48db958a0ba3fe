"""Signals about routing, agents and state sync between the Job, its Tasks, Pod mirrors and member Pods."""

from __future__ import annotations

import re
from datetime import datetime

from bot.models import Pod, Task
from bot.scope.hits import EvidenceItem, Hit, age_text, clip
from bot.scope.lineclass import Kind, classify
from bot.signals.base import SignalContext, signal
from bot.signals.selectors import selector_matches, usable
from bot.signals.stages import INDEX


def _stopped(sc: SignalContext) -> bool:
    job = sc.scope.job
    return job is not None and (job.spec.stopped or job.status.phase == "Stopped")


@signal("task.unrouted")
def unrouted(sc: SignalContext) -> list[Hit]:
    return [Hit([EvidenceItem(t.ref(), f"Task is in namespace {t.namespace!r} with phase "
                                       f"{t.status.phase or '(empty)'}: no agent will pick it up")],
                stage=INDEX["task-created"])
            for t in sc.scope.tasks if t.agent_id is None]


@signal("task.no-worker")
def no_worker(sc: SignalContext) -> list[Hit]:
    if _stopped(sc):
        return []
    timeout = sc.thresholds.heartbeat_timeout_seconds
    offline = {le.namespace for le in sc.scope.leases if le.disconnected(sc.now, timeout)}
    hits: list[Hit] = []
    for task in sc.scope.tasks:
        if task.agent_id is None or sc.scope.pods_of(task) or task.namespace in offline:
            continue  # an agent that is offline explains its missing pods (rlark.agent.disconnected)
        items = [EvidenceItem(task.ref(), f"Task phase {task.status.phase or '(empty)'}, no pods"
                                          + (f"; message: {task.status.message}" if task.status.message else ""))]
        if task.spec.replicas == 0:
            items.append(EvidenceItem(task.ref(), "kubernetes.workload.replicas is 0 but the Job is not stopped"))
        sel = task.spec.node_selector or {}
        nodes = [n for n in sc.scope.evidence.rlark_nodes if n.of_agent(task.agent_id)
                 and selector_matches(sel, n)] if sel else []
        usable_nodes = [n for n in nodes if usable(n)]
        if sel and sc.scope.evidence.rlark_nodes and not usable_nodes:
            states = ", ".join(f"{n.name} {n.status.phase or '?'}" + (" unschedulable" if n.spec.unschedulable else "")
                               for n in nodes) or "none"
            items.append(EvidenceItem(task.ref(), f"no Online schedulable Node matches the selector ({states})"))
        refusals = _refusals(sc, task)
        items.extend(refusals)
        # Without a reason in the evidence, a Task without pods is on its way until its window passes (young.py):
        # it waits from its creation. A reason (replicas 0, no usable Node, a refused creation) is a failure now.
        reason = len(items) > 1 or _names_failure(task.status.message)
        since = None if reason else (task.metadata.creation_timestamp or _job_created(sc))
        hits.append(Hit(items, stage=INDEX["pod-created"], since=since))
    return hits


# What the API server and the admission chain answer when they refuse a workload (quota, RBAC, webhooks), in the
# words a Task or StatefulSet status message carries them, besides what reads as an error line anywhere.
REFUSED = re.compile(r"(?i)\bforbidden\b|exceeded quota|\bdenied\b|\binvalid\b|\bback-?off\b|\bunable to\b|"
                     r"\bcannot\b|拒绝|超出|无法")


def _names_failure(message: str) -> bool:
    """Whether a status message says the workload was refused or failed (not that it is on its way)."""
    return bool(message) and (classify(message) is Kind.ERROR or REFUSED.search(message) is not None)


def _job_created(sc: SignalContext) -> datetime | None:
    return sc.scope.job.metadata.creation_timestamp if sc.scope.job is not None else None


def _refusals(sc: SignalContext, task: Task) -> list[EvidenceItem]:
    """Warning events about the Task's workload (its StatefulSet, or the Task's own kept events): why no pod came."""
    events = [e for e in sc.scope.events if e.type == "Warning" and e.involved_object.name.startswith(task.name)]
    events.sort(key=lambda e: (e.when is None, e.when))
    return [EvidenceItem(e.ref(), f"{e.reason}: {clip(e.message)}") for e in events[:2]]


@signal("task.stopped")
def stopped(sc: SignalContext) -> list[Hit]:
    job = sc.scope.job
    if job is None or not _stopped(sc):
        return []
    why = "spec.stopped is true" if job.spec.stopped else "phase Stopped"
    return [Hit([EvidenceItem(job.ref(), f"Job is stopped ({why}); its Tasks are scaled to 0 replicas")],
                stage=INDEX["pod-created"])]


@signal("agent.disconnected")
def agent_disconnected(sc: SignalContext) -> list[Hit]:
    hits: list[Hit] = []
    limit = sc.thresholds.heartbeat_timeout_seconds
    for lease in sc.scope.leases:
        age = lease.heartbeat_age(sc.now)
        if age is not None and lease.spec.renew_time is not None and lease.disconnected(sc.now, limit):
            renewed = f"{lease.spec.renew_time:%Y-%m-%dT%H:%M:%SZ}"
            text = f"heartbeat Lease last renewed {renewed} ({age_text(age)} ago, limit {limit}s): agent disconnected"
            hits.append(Hit([EvidenceItem(lease.ref(), text)],
                            stage=INDEX["pod-created"], when=lease.spec.renew_time))
    return hits


def _last_change(pod: Pod) -> datetime | None:
    """When the member pod's state last changed, as far as its status tells."""
    times: list[datetime] = [c.last_transition_time for c in pod.status.conditions if c.last_transition_time]
    for status, _ in pod.all_statuses():
        for state in (status.state, status.last_state):
            if state.running is not None and state.running.started_at:
                times.append(state.running.started_at)
            if state.terminated is not None and state.terminated.finished_at:
                times.append(state.terminated.finished_at)
    if pod.status.start_time:
        times.append(pod.status.start_time)
    return max(times) if times else pod.metadata.creation_timestamp


def _crash_looping(pod: Pod) -> bool:
    return any(s.restart_count > 0 or (s.state.waiting is not None and s.state.waiting.reason == "CrashLoopBackOff")
               for s, _ in pod.all_statuses())


@signal("status.out-of-sync")
def out_of_sync(sc: SignalContext) -> list[Hit]:
    grace = sc.thresholds.sync_grace_seconds
    job = sc.scope.job
    hits: list[Hit] = []
    for ctx in sc.scope.pods:
        pod = ctx.pod
        if pod is None:
            continue
        changed = _last_change(pod)
        if changed is None or (sc.now - changed).total_seconds() <= grace:
            continue
        since = f"for {age_text((sc.now - changed).total_seconds())}"
        member = "crash-looping" if _crash_looping(pod) else pod.status.phase
        task = ctx.task
        layers: list[str] = []
        if job is not None and job.status.phase == "Pending" and member in ("Running", "crash-looping"):
            layers.append(f"Job phase Pending while member pod is {member} {since}")
        if ctx.mirror is not None and ctx.mirror.status.phase and ctx.mirror.status.phase != pod.status.phase:
            layers.append(f"Pod mirror says {ctx.mirror.status.phase}, member pod is {pod.status.phase} {since}")
        running = pod.status.phase == "Running" and not _crash_looping(pod)
        if task is not None and task.status.phase == "Pending" and running:
            layers.append(f"Task {task.name} phase Pending while member pod is Running {since}")
        if layers:
            hits.append(Hit([EvidenceItem(ctx.key, "; ".join(layers))], pod=ctx.key, when=changed))
    if job is not None:
        by_name = {t.spec.name or t.name: t for t in sc.scope.tasks}
        for ts in job.status.tasks:
            task = by_name.get(ts.name) or by_name.get(f"{job.name}-{ts.name}")
            if task is None or not task.status.phase or not ts.phase or task.status.phase == ts.phase:
                continue
            start = task.status.start_time or task.metadata.creation_timestamp
            if start is not None and (sc.now - start).total_seconds() > grace:
                hits.append(Hit([EvidenceItem(job.ref(), f"Job reports task {ts.name} as {ts.phase}, the Task itself "
                                                         f"is {task.status.phase}")]))
    return hits


@signal("stop.workers-remain")
def workers_remain(sc: SignalContext) -> list[Hit]:
    job = sc.scope.job
    if job is None or not _stopped(sc):
        return []
    stopped_at = job.stopped_at
    grace = sc.thresholds.stop_grace_seconds
    if stopped_at is not None and (sc.now - stopped_at).total_seconds() <= grace:
        return []
    running = [c for c in sc.scope.pods if c.pod is not None and c.pod.status.phase == "Running"]
    if not running:
        return []
    since = f" since {stopped_at:%Y-%m-%dT%H:%M:%SZ}" if stopped_at else ""
    items = [EvidenceItem(c.key, ("stuck terminating" if c.pod and c.pod.metadata.deletion_timestamp
                                  else "still Running") + f", Job stopped{since}") for c in running]
    return [Hit(items, stage=INDEX["pod-created"], when=stopped_at)]
