"""Shapes for the feasibility check (`bot.scope.fit`) read from the objects: Kubernetes Nodes and Pods, RLark Node
objects and a Task's pod template. Fields the working types do not name (tolerations, affinity, resources) are
read from what the API server sent, kept on every object."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from bot.models import Node, Pod, RNode, Task
from bot.scope.fit import NodeShape, PodShape, Requirement, Taint, Toleration, pod_requests, quantity

FINISHED = ("Succeeded", "Failed")


def _extra(model: Any, key: str) -> Any:
    extra = getattr(model, "model_extra", None) or {}
    return extra.get(key)


def _dicts(value: object) -> list[Mapping[str, Any]]:
    return [v for v in value if isinstance(v, Mapping)] if isinstance(value, list) else []


def tolerations(raw: object) -> tuple[Toleration, ...]:
    return tuple(Toleration(key=str(t.get("key") or ""), operator=str(t.get("operator") or "Equal"),
                            value=str(t.get("value") or ""), effect=str(t.get("effect") or ""))
                 for t in _dicts(raw))


def affinity_terms(raw: object) -> tuple[tuple[Requirement, ...], ...]:
    """The required node-affinity terms of a pod's `affinity`; matchFields are not node labels and are skipped."""
    if not isinstance(raw, Mapping):
        return ()
    node = raw.get("nodeAffinity")
    required = node.get("requiredDuringSchedulingIgnoredDuringExecution") if isinstance(node, Mapping) else None
    terms = required.get("nodeSelectorTerms") if isinstance(required, Mapping) else None
    out = []
    for term in _dicts(terms):
        reqs = tuple(Requirement(key=str(e.get("key", "")), operator=str(e.get("operator", "")),
                                 values=tuple(str(v) for v in e.get("values") or ()))
                     for e in _dicts(term.get("matchExpressions")))
        out.append(reqs)
    return tuple(out)


def _containers(raw: object) -> list[Mapping[str, Any]]:
    out = []
    for c in raw if isinstance(raw, list) else []:
        if isinstance(c, Mapping):
            out.append(c)
        elif hasattr(c, "model_dump"):
            out.append(c.model_dump(by_alias=True))
    return out


def pod_shape(pod: Pod) -> PodShape:
    spec = pod.spec
    return PodShape(node_selector=dict(spec.node_selector), affinity_terms=affinity_terms(_extra(spec, "affinity")),
                    tolerations=tolerations(_extra(spec, "tolerations")),
                    requests=pod_requests(_containers(spec.containers), _containers(spec.init_containers)))


def template_shape(task: Task) -> PodShape | None:
    """The pod a Task would create, from its workload template and its nodeSelector; None without either."""
    workload = task.spec.kubernetes.workload if task.spec.kubernetes else None
    template = workload.template if workload is not None else {}
    spec = template.get("spec") if isinstance(template.get("spec"), Mapping) else template
    selector = dict(task.spec.node_selector or {})
    if isinstance(spec, Mapping) and isinstance(spec.get("nodeSelector"), Mapping):
        selector = {**{str(k): str(v) for k, v in spec["nodeSelector"].items()}, **selector}
    if not isinstance(spec, Mapping):
        spec = {}
    if not selector and not spec:
        return None
    return PodShape(node_selector=selector, affinity_terms=affinity_terms(spec.get("affinity")),
                    tolerations=tolerations(spec.get("tolerations")),
                    requests=pod_requests(_containers(spec.get("containers")), _containers(spec.get("initContainers"))))


def _bound(pods: Iterable[Pod]) -> dict[tuple[str, str], tuple[dict[str, Decimal], int]]:
    """(cluster, node) -> what the pods bound there and not finished request, and how many they are."""
    out: dict[tuple[str, str], tuple[dict[str, Decimal], int]] = {}
    for p in pods:
        if not p.spec.node_name or p.status.phase in FINISHED:
            continue
        totals, count = out.get((p.cluster, p.spec.node_name), ({}, 0))
        for name, value in pod_shape(p).requests.items():
            totals[name] = totals.get(name, Decimal(0)) + value
        out[(p.cluster, p.spec.node_name)] = (totals, count + 1)
    return out


def _amounts(raw: Mapping[str, object]) -> dict[str, Decimal]:
    return {k: q for k, v in raw.items() if (q := quantity(v)) is not None}


def node_shapes(nodes: Sequence[Node], pods: Iterable[Pod], *, exclude: Pod | None = None,
                reported: Mapping[str, Mapping[str, Decimal]] | None = None) -> list[NodeShape]:
    """Nodes as the scheduler sees them: what the other bound pods request is taken from what is allocatable.
    `reported`: node name -> what its RLark Node mirror says is used (every namespace's pods, also those the
    evidence did not read); per resource, the larger of that and the bound pods read counts."""
    bound = _bound(p for p in pods if p is not exclude)
    out = []
    for n in nodes:
        requested, count = bound.get((n.cluster, n.name), ({}, 0))
        also = (reported or {}).get(n.name)
        if also:
            requested = {k: max(requested.get(k, Decimal(0)), also.get(k, Decimal(0))) for k in {*requested, *also}}
        taints = tuple(Taint(t.key, t.value, t.effect) for t in n.spec.taints)
        out.append(NodeShape(name=n.name, labels=dict(n.metadata.labels), taints=taints,
                             unschedulable=n.spec.unschedulable, allocatable=_amounts(n.status.allocatable),
                             requested=requested, pods=count))
    return out


def reported_used(nodes: Iterable[RNode], cluster: str) -> dict[str, dict[str, Decimal]]:
    """Node name -> `used` as the RLark Node mirrors of member cluster `cluster` report it."""
    return {n.name: _amounts(n.status.used) for n in nodes
            if n.status.used and n.of_agent(cluster)}


def rnode_shapes(nodes: Sequence[RNode]) -> list[NodeShape]:
    """RLark Node objects: labels, `spec.unschedulable`, `allocatable` and what RLark reports as `used`; a node
    that is not Online takes nothing."""
    out = []
    for n in nodes:
        taints = tuple(Taint(str(t.get("key", "")), str(t.get("value", "")), str(t.get("effect", "")))
                       for t in _dicts(_extra(n.spec, "taints")))
        down = n.status.phase if n.status.phase and n.status.phase != "Online" else ""
        out.append(NodeShape(name=n.name, labels=dict(n.metadata.labels), taints=taints,
                             unschedulable=n.spec.unschedulable, allocatable=_amounts(n.status.allocatable),
                             requested=_amounts(n.status.used), down=down))
    return out
