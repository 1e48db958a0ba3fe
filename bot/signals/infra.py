"""Signals over CI-runner platform resources, shared with the scheduled checks."""

from __future__ import annotations

from bot.checks.nodepools import unhealthy_nodepools
from bot.checks.runners import old_runners, stale_runners
from bot.checks.schedulers import mixed_scheduler_nodes
from bot.scope.hits import EvidenceItem, Hit, clip
from bot.signals.base import SignalContext, signal
from bot.signals.stages import INDEX

OFFLOADING_OK = ("Ready", "")


@signal("arc.stale-runner")
def stale_runner(sc: SignalContext) -> list[Hit]:
    alerts = stale_runners(sc.scope.evidence, now=sc.now, thresholds=sc.thresholds, runners=sc.scope.runners)
    return [Hit([EvidenceItem(str(a.object), a.summary)], when=a.since) for a in alerts]


@signal("arc.runner-too-old")
def runner_too_old(sc: SignalContext) -> list[Hit]:
    alerts = old_runners(sc.scope.evidence, now=sc.now, thresholds=sc.thresholds, runners=sc.scope.runners)
    return [Hit([EvidenceItem(str(a.object), a.summary)], when=a.since) for a in alerts]


@signal("node.mixed-schedulers")
def mixed_schedulers(sc: SignalContext) -> list[Hit]:
    """A pod of the target on a node that pods of two schedulers share and overcommit."""
    ev = sc.scope.evidence
    on_nodes = {(c.cluster, c.pod.spec.node_name): c for c in sc.scope.pods
                if c.pod is not None and c.pod.spec.node_name}
    if not on_nodes:
        return []
    clusters = {cluster for cluster, _ in on_nodes}
    found = mixed_scheduler_nodes([p for p in ev.pods if p.cluster in clusters],
                                  [n for n in ev.nodes if n.cluster in clusters],
                                  held=frozenset(c.key for c in on_nodes.values()))
    return [Hit([EvidenceItem(f"{cluster}//Node/{node}", text)], pod=on_nodes[(cluster, node)].key,
                stage=INDEX["containers-started"]) for (cluster, node), text in found.items()
            if (cluster, node) in on_nodes]


@signal("karpenter.nodepool-unhealthy")
def nodepool_unhealthy(sc: SignalContext) -> list[Hit]:
    """An unhealthy pool explains the Pending pods it should have made a node for, and only those."""
    pools = sc.scope.evidence.nodepools
    alerts = {str(a.object): a for a in unhealthy_nodepools(pools, now=sc.now,
                                                        grace_seconds=sc.thresholds.nodepool_grace_seconds)}
    hits: list[Hit] = []
    for ctx in sc.scope.pods:
        pod = ctx.pod
        if pod is None or pod.status.phase != "Pending":
            continue
        serving = [p for p in pools if p.cluster == ctx.cluster and p.serves(pod.spec.node_selector)]
        items = [EvidenceItem(str(a.object), a.summary) for p in serving
                 if (a := alerts.get(f"{p.cluster}//NodePool/{p.name}")) is not None]
        if not items:
            continue
        scheduling = next((e for e in reversed(ctx.events) if e.reason == "FailedScheduling"), None)
        if scheduling is not None:
            items.append(EvidenceItem(ctx.key, f"meanwhile the scheduler says: {clip(scheduling.message, 300)}"))
        hits.append(Hit(items, pod=ctx.key, stage=INDEX["scheduled"]))
    return hits


@signal("liqo.offloading-failed")
def offloading_failed(sc: SignalContext) -> list[Hit]:
    namespaces = {(c.cluster, c.namespace) for c in sc.scope.pods}
    hits: list[Hit] = []
    for off in sc.scope.evidence.offloadings:
        if (off.cluster, off.namespace) not in namespaces:
            continue
        phase = off.status.offloading_phase
        if phase in OFFLOADING_OK:
            continue
        remote = ", ".join(sorted(off.status.remote_namespaces_conditions)) or "(none reported)"
        hits.append(Hit([EvidenceItem(off.ref(), f"NamespaceOffloading phase {phase}; remote clusters: {remote}")],
                        stage=INDEX["scheduled"]))
    return hits
