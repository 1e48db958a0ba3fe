"""Signals over CI-runner platform resources, shared with the scheduled checks."""

from __future__ import annotations

from bot.checks.nodepools import unhealthy_nodepools
from bot.checks.runners import stale_runners
from bot.scope.hits import EvidenceItem, Hit, clip
from bot.signals.base import SignalContext, signal
from bot.signals.stages import INDEX

OFFLOADING_OK = ("Ready", "")


@signal("arc.stale-runner")
def stale_runner(sc: SignalContext) -> list[Hit]:
    alerts = stale_runners(sc.scope.evidence, now=sc.now, thresholds=sc.thresholds, runners=sc.scope.runners)
    return [Hit([EvidenceItem(a.object, a.summary)], when=a.since) for a in alerts]


@signal("karpenter.nodepool-unhealthy")
def nodepool_unhealthy(sc: SignalContext) -> list[Hit]:
    """An unhealthy pool explains the Pending pods it should have made a node for, and only those."""
    pools = sc.scope.evidence.nodepools
    alerts = {a.object: a for a in unhealthy_nodepools(pools)}
    hits: list[Hit] = []
    for ctx in sc.scope.pods:
        pod = ctx.pod
        if pod is None or pod.status.phase != "Pending":
            continue
        serving = [p for p in pools if p.cluster == ctx.cluster and p.serves(pod.spec.node_selector)]
        items = [EvidenceItem(a.object, a.summary) for p in serving
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
