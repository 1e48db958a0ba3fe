"""Nodes shared by pods of two schedulers and overcommitted (ci.node.mixed-schedulers).

Each scheduler keeps its own account of what a node has left: volcano does not count what default-scheduler
placed, and the other way round, so together they can place more than the node has - most visibly devices, where
the second job then finds its card "already in use". A node is reported when the pods bound to it that still
hold resources come from more than one scheduler and their requests of some resource add up to more than the
node's allocatable amount.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from bot.checks.alerts import Alert, cluster_ref
from bot.models import Evidence, Node, Pod
from bot.settings import Thresholds

DEFAULT_SCHEDULER = "default-scheduler"
DONE_PHASES = ("Succeeded", "Failed")
_SUFFIX: dict[str, int | Decimal] = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60,
           "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15, "E": 10**18, "m": Decimal("0.001")}


def quantity(text: object) -> Decimal | None:
    """A Kubernetes quantity (`500m`, `16Gi`, `8`) as a number; None when it is not one."""
    value = str(text).strip()
    for suffix in sorted(_SUFFIX, key=len, reverse=True):
        if value.endswith(suffix):
            try:
                return Decimal(value[: -len(suffix)]) * Decimal(str(_SUFFIX[suffix]))
            except InvalidOperation:
                return None
    try:
        return Decimal(value)
    except InvalidOperation:
        return None


def _extra(obj: Any, attr: str, alias: str) -> Any:
    """A field the working model may or may not declare: its attribute, else the raw value kept as an extra."""
    if attr in getattr(type(obj), "model_fields", {}):
        return getattr(obj, attr)
    extra = getattr(obj, "__pydantic_extra__", None)
    return extra.get(alias) if extra else None


def scheduler_of(pod: Pod) -> str:
    return str(_extra(pod.spec, "scheduler_name", "schedulerName") or DEFAULT_SCHEDULER)


def requests_of(pod: Pod) -> dict[str, Decimal]:
    """What a pod holds on its node: its containers' requests summed, or the largest init container's if larger."""
    def one(container: Any) -> dict[str, Decimal]:
        resources = _extra(container, "resources", "resources") or {}
        if not isinstance(resources, dict):
            resources = getattr(resources, "model_dump", lambda **_: {})(by_alias=True)
        asked = resources.get("requests") or resources.get("limits") or {}
        got = {str(k): quantity(v) for k, v in asked.items()} if isinstance(asked, dict) else {}
        return {k: v for k, v in got.items() if v is not None}

    total: dict[str, Decimal] = defaultdict(Decimal)
    for c in pod.spec.containers:
        for k, v in one(c).items():
            total[k] += v
    for c in pod.spec.init_containers:
        for k, v in one(c).items():
            total[k] = max(total[k], v)
    return dict(total)


def _overcommitted(node: Node, pods: list[Pod]) -> list[tuple[str, Decimal, Decimal]]:
    asked: dict[str, Decimal] = defaultdict(Decimal)
    for p in pods:
        for k, v in requests_of(p).items():
            asked[k] += v
    out = []
    for resource, total in sorted(asked.items()):
        have = quantity(node.status.allocatable.get(resource, "")) if resource in node.status.allocatable else None
        if have is not None and total > have:
            out.append((resource, total, have))
    return out


def _fmt(resource: str, value: Decimal) -> str:
    if resource == "memory" or resource.endswith("storage"):
        return f"{value / 2**30:.1f}Gi"
    return f"{value.normalize():f}"


def mixed_scheduler_nodes(pods: Iterable[Pod], nodes: Iterable[Node], *,
                          held: frozenset[str] = frozenset()) -> dict[tuple[str, str], str]:
    """(cluster, node) -> what is overcommitted and by which schedulers, for every such node. Pods that ended no
    longer hold anything, except those named in `held` (`cluster/namespace/name`): a diagnosed pod that failed
    there held its share when it failed."""
    pods = list(pods)
    if len({scheduler_of(p) for p in pods}) < 2:
        return {}  # one scheduler: it keeps one account of every node (the common case, answered at once)
    by_node: dict[tuple[str, str], list[Pod]] = defaultdict(list)
    for p in pods:
        if p.spec.node_name and (p.status.phase not in DONE_PHASES or f"{p.cluster}/{p.namespace}/{p.name}" in held):
            by_node[(p.cluster, p.spec.node_name)].append(p)
    known = {(n.cluster, n.name): n for n in nodes}
    found: dict[tuple[str, str], str] = {}
    for key, on_node in sorted(by_node.items()):
        schedulers = sorted({scheduler_of(p) for p in on_node})
        node = known.get(key)
        if len(schedulers) < 2 or node is None:
            continue
        over = _overcommitted(node, on_node)
        if not over:
            continue
        what = ", ".join(f"{r} requested {_fmt(r, t)} of {_fmt(r, h)}" for r, t, h in over)
        found[key] = f"pods of {' and '.join(schedulers)} share the node: {what}"
    return found


def mixed_schedulers(ev: Evidence, /, *, now: datetime, thresholds: Thresholds) -> list[Alert]:
    return [Alert(check="mixed-schedulers", case="ci.node.mixed-schedulers",
                  object=cluster_ref(cluster, kind="Node", name=name), severity="warning", since=None, summary=text)
            for (cluster, name), text in mixed_scheduler_nodes(ev.pods, ev.nodes).items()]
