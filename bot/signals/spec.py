"""Signals about the Job's own spec: Head tasks and node selectors (what the creator wizard validates)."""

from __future__ import annotations

from bot.models import TaskSpec
from bot.scope.hits import EvidenceItem, Hit
from bot.signals.base import SignalContext, signal
from bot.signals.selectors import (
    control_plane_only_keys,
    head_problem,
    matched_clusters,
    multi_value_pairs,
)
from bot.signals.stages import INDEX


def _specs(sc: SignalContext) -> list[tuple[str, TaskSpec, str]]:
    """(task name, spec, evidence source) from the Job, or from the Tasks when the Job was not read."""
    scope = sc.scope
    if scope.job is not None:
        return [(t.name, t, f"{scope.job.ref()}:spec.tasks[{t.name}]") for t in scope.job.spec.tasks]
    return [(t.spec.name or t.name, t.spec, t.ref()) for t in scope.tasks]


@signal("spec.head-invalid")
def head_invalid(sc: SignalContext) -> list[Hit]:
    specs = _specs(sc)
    job = sc.scope.job
    if not specs:
        if job is None:
            return []
        return [Hit([EvidenceItem(job.ref(), "spec.tasks is empty: the Job has no Head task (and no task at all)")],
                    stage=INDEX["submitted"])]
    heads = [(n, s, src) for n, s, src in specs if s.head]
    if not heads and sc.scope.job is None:
        heads = [(t.name, t.spec, t.ref()) for t in sc.scope.tasks if t.is_head]
    problem = head_problem([(n, s.replicas) for n, s, _ in heads])
    if problem is None:
        return []
    if problem.kind == "none":
        names = ", ".join(n for n, _, _ in specs)
        return [Hit([EvidenceItem(specs[0][2].split(":")[0], f"no task has head: true (tasks: {names})")],
                    stage=INDEX["submitted"])]
    if problem.kind == "several":
        names = ", ".join(problem.names)
        return [Hit([EvidenceItem(heads[0][2].split(":")[0], f"{len(heads)} tasks have head: true: {names}")],
                    stage=INDEX["submitted"])]
    name, _, src = heads[0]
    return [Hit([EvidenceItem(src, f"Head task {name!r} has kubernetes.workload.replicas: {problem.replicas} "
                                   "(must be 1)")], stage=INDEX["submitted"])]


@signal("spec.selector-invalid")
def selector_invalid(sc: SignalContext) -> list[Hit]:
    hits: list[Hit] = []
    for name, spec, src in _specs(sc):
        sel = spec.node_selector
        if not sel:
            hits.append(Hit([EvidenceItem(src, f"task {name!r}: nodeSelector is empty")], stage=INDEX["submitted"]))
            continue
        multi = multi_value_pairs(sel)
        if multi:
            shown = ", ".join(f"{k}={v}" for k, v in multi.items())
            hits.append(Hit([EvidenceItem(src, f"task {name!r}: comma-separated selector values: {shown}")],
                            stage=INDEX["submitted"]))
    return hits


@signal("spec.selector-cross-cluster")
def selector_cross_cluster(sc: SignalContext) -> list[Hit]:
    hits: list[Hit] = []
    nodes = sc.scope.evidence.rlark_nodes
    for name, spec, src in _specs(sc):
        if not spec.node_selector or not nodes:
            continue
        clusters = matched_clusters(spec.node_selector, nodes)
        if len(clusters) > 1:
            sel = ", ".join(f"{k}={v}" for k, v in spec.node_selector.items())
            hits.append(Hit([EvidenceItem(src, f"task {name!r}: selector {sel} matches Nodes in clusters "
                                               f"{', '.join(clusters)}")], stage=INDEX["submitted"]))
    for ctx in sc.scope.pods:
        task = ctx.task
        if task is None or task.agent_id is None or ctx.pod is None:
            continue
        if ctx.cluster != task.agent_id:
            hits.append(Hit([EvidenceItem(ctx.key, f"worker runs in cluster {ctx.cluster!r} but Task {task.name!r} "
                                                   f"was routed to {task.agent_id!r}")],
                            pod=ctx.key, stage=INDEX["scheduled"]))
    return hits


@signal("spec.selector-control-plane-label")
def selector_control_plane_label(sc: SignalContext) -> list[Hit]:
    hits: list[Hit] = []
    ev = sc.scope.evidence
    for task in sc.scope.tasks:
        sel = task.spec.node_selector or {}
        if task.agent_id is None:
            continue
        member_nodes = [n for n in ev.nodes if n.cluster == task.agent_id]
        keys = control_plane_only_keys(sel, [n.metadata.labels for n in member_nodes])
        if keys:
            hits.append(Hit([EvidenceItem(task.ref(), f"nodeSelector uses {', '.join(keys)}, a label only RLark Node "
                                                       "objects carry; member-cluster nodes do not have it")],
                            stage=INDEX["scheduled"]))
    return hits
