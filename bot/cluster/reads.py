"""Reads shared by the target plans: a list into the collection, and the chosen container logs."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.cluster.adapter import ClusterAdapter
from bot.cluster.errors import ReadFailed
from bot.cluster.logpick import LogRequest
from bot.cluster.resources import EVENTS as R_EVENTS
from bot.cluster.resources import Resource
from bot.cluster.session import Session
from bot.models import LogExcerpt, LogSource, Missing

Obj = dict[str, Any]
Keep = Callable[[Obj], bool]


def missing(cluster: str, resource: Resource, *, namespace: str | None, why: str = "") -> Missing:
    """This read's list as not collected, shown as the bundle path it would fill (as the bundle reader names it)."""
    where = "/".join(p for p in (cluster, namespace or "", f"{resource.stem}.json") if p)
    return Missing(cluster=cluster, namespace=namespace or "", kind=resource.stem,
                   where=f"{where} ({why})" if why else where)


def list_into(session: Session, adapter: ClusterAdapter, *, resource: Resource, namespace: str | None = None,
              label_selector: str | None = None, field_selector: str | None = None,
              keep: Keep | None = None, listed_in: tuple[str, ...] | None = None,
              optional: bool = False) -> Callable[[], list[Obj]]:
    """A read for `Session.parallel`: list, filter client-side, store; failures become problems.

    `listed_in` defaults to the namespace read (or "" for cluster-scoped). `optional`: a 404 means the
    resource type is not installed there (Karpenter, Liqo...), which is "not collected", not a problem.
    """
    def run() -> list[Obj]:
        try:
            items = adapter.list(resource, namespace=namespace, label_selector=label_selector,
                                 field_selector=field_selector)
        except ReadFailed as exc:
            if optional and exc.status == 404:
                gap = missing(adapter.name, resource, namespace=namespace, why="not served by this cluster")
                session.acc.missing(gap)
                return []
            gap = missing(adapter.name, resource, namespace=namespace)
            session.record_failure(exc, cluster=adapter.name, missing=gap)
            return []
        kept = [o for o in items if keep is None or keep(o)]
        scope = listed_in
        if scope is None:
            # An all-namespaces list fills one file per namespace it found something in.
            scope = (namespace or "",) if namespace or not resource.namespaced else tuple(
                {str((o.get("metadata") or {}).get("namespace", "")) for o in kept})
        session.acc.add(adapter.name, resource, items=kept, listed_in=scope)
        return kept
    return run


def fetch_logs(session: Session, adapters: Mapping[str, ClusterAdapter], *, picks: list[LogRequest]) -> None:
    budget = session.budget

    def read(req: LogRequest) -> Callable[[], None]:
        def run() -> None:
            try:
                text = adapters[req.cluster].log(namespace=req.namespace, pod=req.pod, container=req.container,
                                                 previous=req.previous, tail_lines=budget.log_tail_lines,
                                                 limit_bytes=budget.log_limit_bytes)
            except ReadFailed as exc:
                if exc.status == 400:
                    return  # container not started / no previous instance: there is no log, nothing failed
                session.record_failure(exc, cluster=req.cluster)
                return
            truncated = (text.count("\n") >= budget.log_tail_lines
                         or len(text.encode()) >= budget.log_limit_bytes)
            source = LogSource(cluster=req.cluster, namespace=req.namespace, pod=req.pod, container=req.container,
                               previous=req.previous)
            session.acc.add_log(LogExcerpt(source=source, text=text, truncated=truncated))
        return run

    session.parallel({i: read(req) for i, req in enumerate(picks)})


def node_events(session: Session, adapter: ClusterAdapter, *, pods: list[Obj]) -> Callable[[], list[Obj]]:
    """Events about the nodes these pods run on (NotReady, reboots, device health), whatever their namespace:
    one list of all Node events, filtered here, so the cost does not grow with the pod count."""
    nodes = {str((p.get("spec") or {}).get("nodeName") or "") for p in pods} - {""}
    return list_into(session, adapter, resource=R_EVENTS, field_selector="involvedObject.kind=Node",
                     keep=lambda e: str((e.get("involvedObject") or {}).get("name", "")) in nodes)
