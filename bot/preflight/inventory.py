"""The inventory preflight's live rules read: RLark Nodes, heartbeat Leases, Jobs, Domains, StorageClasses.

Built from a bundle (`bot.preflight.inventory_bundle`) or live clusters (`bot.preflight.inventory_live`); the
rules cannot tell which. Whatever could not be read is said in `gaps` (kind -> why), never taken for "none".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.models import Lease, RNode
from bot.models.rlark import AGENT_NAMESPACE_PREFIX
from bot.signals.selectors import selector_matches

NODES, LEASES, JOBS, DOMAINS, STORAGE = "nodes", "leases", "jobs", "domains", "storageclasses"
RCLONE_CSI = "rclone.csi.veloxpack.io"  # the provisioner of the StorageClasses RLark's storage page creates

Obj = dict[str, Any]


@dataclass
class Inventory:
    now: datetime
    clusters: list[str] = field(default_factory=list)
    nodes: list[RNode] = field(default_factory=list)
    leases: list[Lease] = field(default_factory=list)
    jobs: dict[str, Obj] = field(default_factory=dict)
    domains: set[str] = field(default_factory=set)
    storage_classes: dict[str, list[Obj]] = field(default_factory=dict)  # agent id -> classes read there
    gaps: dict[str, list[str]] = field(default_factory=dict)  # kind -> what of it could not be read
    requests: int = 0  # live: requests sent (for the benchmark)
    _index: dict[tuple[str, str], list[int]] = field(default_factory=dict, repr=False)
    _indexed: int = field(default=-1, repr=False)

    def gap(self, kind: str, why: str) -> None:
        self.gaps.setdefault(kind, [])
        if why not in self.gaps[kind]:
            self.gaps[kind].append(why)

    def lacks(self, kind: str) -> str | None:
        """Why `kind` is incomplete, or None when it was read in full."""
        whys = self.gaps.get(kind)
        return "; ".join(whys) if whys else None

    def storage_lacks(self, cluster: str) -> str | None:
        if cluster in self.storage_classes:
            return None
        return self.lacks(f"{STORAGE}:{cluster}") or f"StorageClasses of {cluster} were not read"

    @property
    def complete(self) -> bool:
        return not self.gaps

    def matching(self, selector: dict[str, str]) -> list[RNode]:
        """Every Node the selector matches. A label index narrows the candidates (each pair's Nodes, a superset of
        the matches); the engine's `selector_matches` alone decides, so the two cannot disagree."""
        candidates: set[int] | None = None
        for key, value in selector.items():
            ids = set().union(*(self._label_index().get((key, part.strip()), ()) for part in value.split(",")))
            candidates = ids if candidates is None else candidates & ids
            if not candidates:
                return []
        chosen = range(len(self.nodes)) if candidates is None else sorted(candidates)
        return [self.nodes[i] for i in chosen if selector_matches(selector, self.nodes[i])]

    def _label_index(self) -> dict[tuple[str, str], list[int]]:
        if self._indexed != len(self.nodes):
            self._index = {}
            for i, node in enumerate(self.nodes):
                for pair in node.metadata.labels.items():
                    self._index.setdefault(pair, []).append(i)
            self._indexed = len(self.nodes)
        return self._index

    def heartbeat(self, cluster: str) -> Lease | None:
        ns = f"{AGENT_NAMESPACE_PREFIX}{cluster}"
        return next((le for le in self.leases if le.namespace == ns and le.is_heartbeat), None)


def agent_of_node(node: RNode) -> str:
    """The agent id of a Node's cluster (`rlark-gpu-a` -> `gpu-a`)."""
    cid = node.cluster_id
    return cid[len(AGENT_NAMESPACE_PREFIX):] if cid.startswith(AGENT_NAMESPACE_PREFIX) else cid
