"""The resource kinds the bot reads, by the file stem a dump (and the live collector) files them under.

One table for both sources: the bundle reader maps files to it, live collection maps API lists to it.
"""

from __future__ import annotations

from bot.models.base import KubeObject
from bot.models.ci import EphemeralRunner, NamespaceOffloading, NodeClaim, NodePool
from bot.models.k8s import Event, Lease, Node, PersistentVolumeClaim, Pod, StatefulSet
from bot.models.rlark import Job, PodMirror, RNode, Task

# File stem -> (Evidence field, model). Cluster-scoped files sit in the cluster directory itself.
CLUSTER_SCOPED: dict[str, tuple[str, type[KubeObject]]] = {
    "nodes": ("nodes", Node),
    "jobs.rlinf.io": ("jobs", Job),
    "nodepools.karpenter.sh": ("nodepools", NodePool),
    "nodeclaims.karpenter.sh": ("nodeclaims", NodeClaim),
}
NAMESPACED: dict[str, tuple[str, type[KubeObject]]] = {
    "pods": ("pods", Pod),
    "events": ("events", Event),
    "statefulsets": ("statefulsets", StatefulSet),
    "persistentvolumeclaims": ("pvcs", PersistentVolumeClaim),
    "leases": ("leases", Lease),
    "tasks.rlinf.io": ("tasks", Task),
    "pods.rlinf.io": ("pod_mirrors", PodMirror),
    "nodes.rlinf.io": ("rlark_nodes", RNode),
    "ephemeralrunners.actions.github.com": ("ephemeral_runners", EphemeralRunner),
    "namespaceoffloadings.offloading.liqo.io": ("offloadings", NamespaceOffloading),
}
