"""Signals over CI-runner platform resources, shared with the scheduled checks."""

from __future__ import annotations

from bot.checks.nodepools import unhealthy_nodepools
from bot.checks.runners import stale_runners
from bot.signals.base import EvidenceItem, Hit, SignalContext, signal
from bot.signals.stages import INDEX

OFFLOADING_OK = ("Ready", "")


@signal("arc.stale-runner")
def stale_runner(sc: SignalContext) -> list[Hit]:
    alerts = stale_runners(sc.scope.evidence, sc.now, sc.thresholds, runners=sc.scope.runners)
    return [Hit([EvidenceItem(a.object, a.summary)], when=a.since) for a in alerts]


@signal("karpenter.nodepool-unhealthy")
def nodepool_unhealthy(sc: SignalContext) -> list[Hit]:
    if not any(c.pod is not None and c.pod.status.phase == "Pending" for c in sc.scope.pods):
        return []  # an unhealthy pool only explains pods that wait for a node
    alerts = unhealthy_nodepools(sc.scope.evidence.nodepools)
    return [Hit([EvidenceItem(a.object, a.summary)], stage=INDEX["scheduled"], when=a.since) for a in alerts]


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
