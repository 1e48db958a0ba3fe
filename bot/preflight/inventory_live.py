"""The inventory from live clusters, read-only: one list per kind per cluster.

Control plane (the kubeconfig's current context, `--context`, or the configured one): RLark Nodes and heartbeat
Leases across namespaces (kept: `rlark-*`), Jobs and Domains. Member clusters (the context named after each agent,
or the configured mapping): StorageClasses. A read that fails is a gap in the inventory, never an empty list.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from bot.cluster import resources as R
from bot.cluster.budget import Stats
from bot.cluster.collected import Collected
from bot.cluster.collector import cluster_name
from bot.cluster.errors import CollectionError, ReadFailed
from bot.cluster.kubeconfig import load_source
from bot.cluster.progress import NullProgress, Progress
from bot.cluster.session import Observe, Session
from bot.errors import SourceError
from bot.models import Lease, RNode
from bot.models.rlark import AGENT_NAMESPACE_PREFIX, HEARTBEAT_LEASE
from bot.preflight.inventory import DOMAINS, JOBS, LEASES, NODES, STORAGE, Inventory
from bot.settings import Settings

Obj = dict[str, Any]
CONTROL_PLANE_READS = ((NODES, R.RLARK_NODES, None), (LEASES, R.LEASES, f"metadata.name={HEARTBEAT_LEASE}"),
                       (JOBS, R.JOBS, None), (DOMAINS, R.DOMAINS, None))


def read_live(*, kubeconfig: str | None, context: str | None, settings: Settings, now: datetime | None = None,
              progress: Progress | None = None, observe: Observe | None = None,
              stats: Stats | None = None) -> Inventory:
    """Raises SourceError when no control plane can be read at all (no kubeconfig, unknown context)."""
    try:
        source = load_source(kubeconfig)
        chosen = context or settings.control_plane_context or source.current
        if not chosen or chosen not in source.contexts:
            raise CollectionError(f"the kubeconfig has no context {chosen!r}" if chosen
                                  else "the kubeconfig has no current context: pass --context")
        inv = Inventory(now=now or datetime.now(UTC))
        acc = Collected(captured_at=inv.now)
        with Session(source, settings=settings, acc=acc, progress=progress or NullProgress(),
                     observe=observe) as session:
            _control_plane(session, inv, context=chosen)
            _members(session, inv, read={chosen})
            inv.requests = session.stats.requests
            if stats is not None:
                stats.requests, stats.bytes_read = session.stats.requests, session.stats.bytes_read
    except CollectionError as exc:
        raise SourceError(str(exc)) from exc
    return inv


def _lister(session: Session, *, context: str, cluster: str, resource: R.Resource,
            field_selector: str | None) -> Callable[[], list[Obj]]:
    def run() -> list[Obj]:
        try:
            adapter = session.adapter(context, cluster)
        except CollectionError as exc:  # a context whose credentials cannot be loaded: that cluster only
            raise ReadFailed(f"{cluster}: {exc}") from exc
        return adapter.list(resource, field_selector=field_selector)
    return run


def _control_plane(session: Session, inv: Inventory, *, context: str) -> None:
    cluster = cluster_name(context)
    reads = {kind: _lister(session, context=context, cluster=cluster, resource=res, field_selector=sel)
             for kind, res, sel in CONTROL_PLANE_READS}
    results = session.parallel(reads)
    if not all(isinstance(r, ReadFailed) for r in results.values()):
        inv.clusters.append(cluster)
    for kind, result in results.items():
        if isinstance(result, ReadFailed):
            inv.gap(kind, f"{cluster}: {result}")
            continue
        if kind == NODES:
            inv.nodes = _parse(inv, cluster=cluster, model=RNode, items=[o for o in result if _agent_ns(o)])
        elif kind == LEASES:
            inv.leases = _parse(inv, cluster=cluster, model=Lease, items=[o for o in result if _agent_ns(o)])
        elif kind == JOBS:
            inv.jobs = {str(o["metadata"]["name"]): o for o in result if isinstance(o.get("metadata"), dict)
                        and isinstance(o["metadata"].get("name"), str)}
        else:
            inv.domains = {str((o.get("metadata") or {}).get("name", "")) for o in result}


def _agent_ns(obj: Obj) -> bool:
    ns = str((obj.get("metadata") or {}).get("namespace", ""))
    return ns.startswith(AGENT_NAMESPACE_PREFIX) and len(ns) > len(AGENT_NAMESPACE_PREFIX)


def _parse(inv: Inventory, *, cluster: str, model: type[Any], items: list[Obj]) -> list[Any]:
    out = []
    for obj in items:
        try:
            out.append(model.model_validate(obj))
        except ValidationError:
            name = (obj.get("metadata") or {}).get("name", "?")
            inv.gap(NODES if model is RNode else LEASES, f"{cluster}: {name}: unreadable object skipped")
    return out


def _members(session: Session, inv: Inventory, *, read: set[str]) -> None:
    agents = set(session.settings.cluster_contexts)
    agents |= {n.cluster_id.removeprefix(AGENT_NAMESPACE_PREFIX) for n in inv.nodes}
    agents |= {le.namespace.removeprefix(AGENT_NAMESPACE_PREFIX) for le in inv.leases}
    reads: dict[str, Callable[[], list[Obj]]] = {}
    for agent in sorted(agents):
        context = session.settings.cluster_contexts.get(agent, agent)
        if context in read:
            continue
        if not session.has_context(context):
            inv.gap(f"{STORAGE}:{agent}", f"no kubeconfig context {context!r} for cluster {agent}")
            continue
        reads[agent] = _lister(session, context=context, cluster=agent, resource=R.STORAGECLASSES,
                               field_selector=None)
    for agent, result in session.parallel(reads).items():
        if isinstance(result, ReadFailed):
            inv.gap(f"{STORAGE}:{agent}", f"{agent}: {result}")
        else:
            inv.clusters.append(agent)
            inv.storage_classes[agent] = result
