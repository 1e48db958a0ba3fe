"""The closed set of API resources the bot reads, with their REST paths and bundle file stems.

Everything the adapter can touch is declared here, so the RBAC manifests in `deploy/` can be checked
against this one table.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote


@dataclass(frozen=True)
class Resource:
    group: str  # "" for the core group
    version: str
    plural: str
    kind: str
    namespaced: bool

    @property
    def stem(self) -> str:
        """File stem in a bundle: `pods` for core/apps/coordination, `<plural>.<group>` for custom resources."""
        return f"{self.plural}.{self.group}" if self.group in CUSTOM_GROUPS else self.plural

    @property
    def display(self) -> str:
        return self.stem

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    def path(self, *, namespace: str | None = None, name: str | None = None, subresource: str | None = None) -> str:
        base = f"/apis/{self.group}/{self.version}" if self.group else f"/api/{self.version}"
        if self.namespaced and namespace:
            base += f"/namespaces/{quote(namespace, safe='')}"
        base += f"/{self.plural}"
        if name is not None:
            base += f"/{quote(name, safe='')}"
            if subresource:
                base += f"/{subresource}"
        return base


CUSTOM_GROUPS = frozenset({"rlinf.io", "actions.github.com", "karpenter.sh", "offloading.liqo.io"})

NODES = Resource("", "v1", "nodes", "Node", namespaced=False)
PODS = Resource("", "v1", "pods", "Pod", namespaced=True)
EVENTS = Resource("", "v1", "events", "Event", namespaced=True)
PVCS = Resource("", "v1", "persistentvolumeclaims", "PersistentVolumeClaim", namespaced=True)
STATEFULSETS = Resource("apps", "v1", "statefulsets", "StatefulSet", namespaced=True)
LEASES = Resource("coordination.k8s.io", "v1", "leases", "Lease", namespaced=True)
JOBS = Resource("rlinf.io", "v1alpha1", "jobs", "Job", namespaced=False)
TASKS = Resource("rlinf.io", "v1alpha1", "tasks", "Task", namespaced=True)
POD_MIRRORS = Resource("rlinf.io", "v1alpha1", "pods", "Pod", namespaced=True)
RLARK_NODES = Resource("rlinf.io", "v1alpha1", "nodes", "Node", namespaced=True)
EPHEMERAL_RUNNERS = Resource("actions.github.com", "v1alpha1", "ephemeralrunners", "EphemeralRunner", namespaced=True)
NODEPOOLS = Resource("karpenter.sh", "v1", "nodepools", "NodePool", namespaced=False)
NODECLAIMS = Resource("karpenter.sh", "v1", "nodeclaims", "NodeClaim", namespaced=False)
OFFLOADINGS = Resource("offloading.liqo.io", "v1beta1", "namespaceoffloadings", "NamespaceOffloading", namespaced=True)
# Read by preflight only: Domains on the control plane, StorageClasses in member clusters.
DOMAINS = Resource("rlinf.io", "v1alpha1", "domains", "Domain", namespaced=False)
STORAGECLASSES = Resource("storage.k8s.io", "v1", "storageclasses", "StorageClass", namespaced=False)

ALL: tuple[Resource, ...] = (NODES, PODS, EVENTS, PVCS, STATEFULSETS, LEASES, JOBS, TASKS, POD_MIRRORS,
                             RLARK_NODES, EPHEMERAL_RUNNERS, NODEPOOLS, NODECLAIMS, OFFLOADINGS, DOMAINS,
                             STORAGECLASSES)
BY_STEM: dict[str, Resource] = {r.stem: r for r in ALL}

# The only subresource read: container logs.
LOG_SUBRESOURCE = "log"

# (api group, resource[/subresource]) -> verbs the adapter may issue. RBAC grants these plus `watch`.
READS: dict[tuple[str, str], frozenset[str]] = {
    **{(r.group, r.plural): frozenset({"get", "list"}) for r in ALL},
    ("", "pods/log"): frozenset({"get"}),
}
