"""Collection for a bare pod or a GitHub ARC EphemeralRunner on one cluster.

ARC conventions followed: a runner pod has the EphemeralRunner's name and is owned by it; a "hook" job's
workflow pod is labelled `runner-pod=<runner pod>`. Target, runner and workflow pod are read together
because the answer for one often sits in the other's log.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.cluster import resources as R
from bot.cluster.adapter import ClusterAdapter
from bot.cluster.errors import CollectionError, ReadFailed, TargetNotFound
from bot.cluster.logpick import pick
from bot.cluster.reads import fetch_logs, list_into, node_events
from bot.cluster.resources import Resource
from bot.cluster.session import Session
from bot.models import Target

Obj = dict[str, Any]
RUNNER_POD_LABEL = "runner-pod"
RUNNER_KIND = "EphemeralRunner"


def _meta(obj: Obj) -> Obj:
    return obj.get("metadata") or {}


def _find(adapter: ClusterAdapter, resource: Resource, name: str, namespace: str | None,
          context: str) -> Obj:
    where = f"{adapter.name} (context {context}, " + (f"namespace {namespace})" if namespace else "all namespaces)")
    try:
        if namespace:
            obj = adapter.get(resource, name, namespace=namespace)
            found = [obj] if obj else []
        else:
            found = adapter.list(resource, field_selector=f"metadata.name={name}")
    except ReadFailed as exc:
        raise CollectionError(f"cannot look up {resource.kind} {name}: {exc}") from exc
    if not found:
        raise TargetNotFound(where)
    return found[0]


def _owner_runner(pod: Obj) -> str | None:
    return next((str(o.get("name")) for o in _meta(pod).get("ownerReferences") or []
                 if o.get("kind") == RUNNER_KIND), None)


def _get_pod(session: Session, adapter: ClusterAdapter, name: str, ns: str) -> Obj | None:
    try:
        return adapter.get(R.PODS, name, namespace=ns)
    except ReadFailed as exc:
        session.record_failure(exc, cluster=adapter.name)
        return None


def _workflow_pods(session: Session, adapter: ClusterAdapter, runner_pod: str, ns: str) -> list[Obj]:
    try:
        return adapter.list(R.PODS, namespace=ns, label_selector=f"{RUNNER_POD_LABEL}={runner_pod}")
    except ReadFailed as exc:
        session.record_failure(exc, cluster=adapter.name)
        return []


def collect_pod(session: Session, target: Target, *, context: str, cluster: str, namespace: str | None) -> None:
    session.acc.add_cluster(cluster)
    adapter = session.adapter(context, cluster)
    pod = _find(adapter, R.PODS, target.name, namespace, context)
    ns = str(_meta(pod).get("namespace", ""))
    pods = [pod]
    runner_pod_name = (_meta(pod).get("labels") or {}).get(RUNNER_POD_LABEL)
    if runner_pod_name and (runner_pod := _get_pod(session, adapter, runner_pod_name, ns)):
        pods.append(runner_pod)
    owner = _owner_runner(pod)
    if owner:
        pods.extend(_workflow_pods(session, adapter, target.name, ns))
    runners = sorted({r for r in (_owner_runner(p) for p in pods) if r})
    _around(session, adapter, ns, pods=pods, runners=runners, heads={(cluster, target.name)})


def collect_runner(session: Session, target: Target, *, context: str, cluster: str,
                   namespace: str | None) -> None:
    session.acc.add_cluster(cluster)
    adapter = session.adapter(context, cluster)
    runner = _find(adapter, R.EPHEMERAL_RUNNERS, target.name, namespace, context)
    ns = str(_meta(runner).get("namespace", ""))
    session.acc.add(cluster, R.EPHEMERAL_RUNNERS, items=[runner], listed_in=(ns,))
    pods = [p for p in [_get_pod(session, adapter, target.name, ns)] if p]
    pods.extend(_workflow_pods(session, adapter, target.name, ns))
    _around(session, adapter, ns, pods=pods, runners=[], heads={(cluster, target.name)})


def _around(session: Session, adapter: ClusterAdapter, ns: str, *, pods: list[Obj], runners: list[str],
            heads: set[tuple[str, str]]) -> None:
    """Everything the pod-level cases need: events, nodes, claims, Karpenter and Liqo state, logs."""
    acc, cluster = session.acc, adapter.name
    acc.add(cluster, R.PODS, items=pods, listed_in=(ns,))
    claims = {str(((v.get("persistentVolumeClaim") or {}).get("claimName")) or "")
              for p in pods for v in (p.get("spec") or {}).get("volumes") or []} - {""}
    involved = sorted({str(_meta(p).get("name", "")) for p in pods} | set(runners))
    reads: dict[str, Callable[[], list[Obj]]] = {
        f"events:{name}": list_into(session, adapter, resource=R.EVENTS, namespace=ns,
                                    field_selector=f"involvedObject.name={name}")
        for name in involved
    }
    reads["nodes"] = list_into(session, adapter, resource=R.NODES)
    # The other pods on the target's nodes (any namespace), for what they hold there (ci.node.mixed-schedulers);
    # listed by node, so no namespace's pod list is claimed complete.
    for node in sorted({str((p.get("spec") or {}).get("nodeName") or "") for p in pods} - {""}):
        reads[f"node-pods:{node}"] = list_into(session, adapter, resource=R.PODS,
                                               field_selector=f"spec.nodeName={node}", listed_in=())
    reads["node-events"] = node_events(session, adapter, pods=pods)
    reads["pvcs"] = list_into(session, adapter, resource=R.PVCS, namespace=ns,
                              keep=lambda c: _meta(c).get("name") in claims)
    reads["nodepools"] = list_into(session, adapter, resource=R.NODEPOOLS, optional=True)
    reads["nodeclaims"] = list_into(session, adapter, resource=R.NODECLAIMS, optional=True)
    reads["offloadings"] = list_into(session, adapter, resource=R.OFFLOADINGS, namespace=ns, optional=True)
    for name in runners:
        reads[f"runner:{name}"] = _get_runner(session, adapter, name, ns)
    session.parallel(reads)
    ordered = sorted(((cluster, p) for p in pods), key=lambda cp: str(_meta(cp[1]).get("name", "")))
    picks = pick(ordered, heads=heads, max_requests=session.budget.max_log_requests,
                 max_pods=session.budget.max_log_pods)
    fetch_logs(session, {cluster: adapter}, picks=picks)


def _get_runner(session: Session, adapter: ClusterAdapter, name: str, ns: str) -> Callable[[], list[Obj]]:
    def run() -> list[Obj]:
        try:
            obj = adapter.get(R.EPHEMERAL_RUNNERS, name, namespace=ns)
        except ReadFailed as exc:
            if exc.status != 404:  # 404 here: ARC is not installed, or the runner is already gone
                session.record_failure(exc, cluster=adapter.name)
            return []
        session.acc.add(adapter.name, R.EPHEMERAL_RUNNERS, items=[obj] if obj else [], listed_in=(ns,))
        return [obj] if obj else []
    return run
