"""Which nodes could take a pod, decided the way the scheduler's filters decide it, from objects alone.

Pure: plain shapes in, a verdict per node out. The shapes are read from Kubernetes Nodes and Pods (or RLark Node
objects and a Task's pod template) by `bot.scope.fitobjects`; the `preflight` command can build them from a Job
that has not been submitted yet.

Per node, the filters run in the scheduler's order and the first one that fails is the node's reason, as in a
FailedScheduling message ("0/5 nodes are available: 3 node(s) had untolerated taint {gpu: reserved}, 2 Insufficient
nvidia.com/gpu"):

1. `unschedulable` (cordoned), unless the pod tolerates the `node.kubernetes.io/unschedulable` taint;
2. any taint with effect NoSchedule or NoExecute that none of the pod's tolerations tolerates (any taint, not a
   known list);
3. the pod's nodeSelector and required node affinity (terms ORed, expressions within a term ANDed);
4. resources: what is allocatable minus what the pods already bound to the node request, against the pod's
   requests (each resource named; extended resources such as nvidia.com/gpu or huawei.com/Ascend910 alike).

`Verdict.selected` also says whether the node matched the pod's selector and affinity whatever its first reason:
a cordoned node the pod asked for is a different story from a node it never asked for.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable"
BLOCKING_EFFECTS = ("NoSchedule", "NoExecute")

_QUANTITY = re.compile(r"^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*([a-zA-Z]*)\s*$")
_SUFFIX = {
    "": Decimal(1), "m": Decimal("0.001"), "u": Decimal("0.000001"), "n": Decimal("0.000000001"),
    "k": Decimal(10) ** 3, "M": Decimal(10) ** 6, "G": Decimal(10) ** 9, "T": Decimal(10) ** 12,
    "P": Decimal(10) ** 15, "E": Decimal(10) ** 18,
    "Ki": Decimal(2) ** 10, "Mi": Decimal(2) ** 20, "Gi": Decimal(2) ** 30, "Ti": Decimal(2) ** 40,
    "Pi": Decimal(2) ** 50, "Ei": Decimal(2) ** 60,
}


def quantity(value: object) -> Decimal | None:
    """A Kubernetes resource quantity ("500m", "4Gi", "1e3", 8) as a number; None when it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return Decimal(str(value))
    m = _QUANTITY.match(str(value))
    if m is None or m.group(2) not in _SUFFIX:
        return None
    try:
        return Decimal(m.group(1)) * _SUFFIX[m.group(2)]
    except InvalidOperation:
        return None


@dataclass(frozen=True)
class Taint:
    key: str
    value: str = ""
    effect: str = ""

    def __str__(self) -> str:
        return f"{self.key}{'=' + self.value if self.value else ''}:{self.effect}"


@dataclass(frozen=True)
class Toleration:
    key: str = ""  # empty with operator Exists: tolerates every taint
    operator: str = "Equal"
    value: str = ""
    effect: str = ""  # empty: every effect

    def tolerates(self, taint: Taint) -> bool:
        if self.effect and self.effect != taint.effect:
            return False
        if not self.key:
            return self.operator == "Exists"
        if self.key != taint.key:
            return False
        return self.operator == "Exists" or self.value == taint.value


@dataclass(frozen=True)
class Requirement:
    """One `matchExpressions` entry of a node selector term."""

    key: str
    operator: str  # In, NotIn, Exists, DoesNotExist, Gt, Lt
    values: tuple[str, ...] = ()

    def holds(self, labels: Mapping[str, str]) -> bool:
        present = self.key in labels
        value = labels.get(self.key, "")
        op = self.operator
        if op == "In":
            return present and value in self.values
        if op == "NotIn":
            return not present or value not in self.values
        if op == "Exists":
            return present
        if op == "DoesNotExist":
            return not present
        if op in ("Gt", "Lt") and present and self.values:
            try:
                have, bound = int(value), int(self.values[0])
            except ValueError:
                return False
            return have > bound if op == "Gt" else have < bound
        return False

    def __str__(self) -> str:
        shown = f" ({', '.join(self.values)})" if self.values else ""
        return f"{self.key} {self.operator}{shown}"


@dataclass(frozen=True)
class NodeShape:
    name: str
    labels: Mapping[str, str] = field(default_factory=dict)
    taints: tuple[Taint, ...] = ()
    unschedulable: bool = False
    allocatable: Mapping[str, Decimal] = field(default_factory=dict)
    requested: Mapping[str, Decimal] = field(default_factory=dict)  # by pods already bound to the node
    pods: int = 0  # pods already bound (against allocatable "pods")
    down: str = ""  # why the node takes nothing at all (an RLark Node that is not Online), else ""


@dataclass(frozen=True)
class PodShape:
    node_selector: Mapping[str, str] = field(default_factory=dict)
    affinity_terms: tuple[tuple[Requirement, ...], ...] = ()  # required terms, ORed; empty: no affinity
    tolerations: tuple[Toleration, ...] = ()
    requests: Mapping[str, Decimal] = field(default_factory=dict)

    def selects(self, labels: Mapping[str, str]) -> bool:
        if any(labels.get(k) != v for k, v in self.node_selector.items()):
            return False
        return not self.affinity_terms or any(all(r.holds(labels) for r in term) for term in self.affinity_terms)

    def describe_selection(self) -> str:
        parts = [f"{k}={v}" for k, v in self.node_selector.items()]
        if self.affinity_terms:
            parts.append(" or ".join("(" + ", ".join(str(r) for r in t) + ")" for t in self.affinity_terms))
        return ", ".join(parts) or "(any node)"


@dataclass(frozen=True)
class Verdict:
    node: str
    reason: str  # "" when the node fits; else the first failing filter, in the scheduler's words
    kind: str  # "fits", "unschedulable", "taint", "selector", "resources"
    selected: bool  # the node matches the pod's nodeSelector and required affinity


def _untolerated(pod: PodShape, node: NodeShape) -> Taint | None:
    for taint in node.taints:
        if taint.effect in BLOCKING_EFFECTS and not any(t.tolerates(taint) for t in pod.tolerations):
            return taint
    return None


def _short(pod: PodShape, node: NodeShape) -> list[str]:
    short = []
    for name, want in pod.requests.items():
        if want <= 0:
            continue
        have = node.allocatable.get(name)
        if have is None or have - node.requested.get(name, Decimal(0)) < want:
            short.append(name)
    pods_cap = node.allocatable.get("pods")
    if pods_cap is not None and node.pods + 1 > pods_cap:
        short.append("pods")
    return short


def judge(pod: PodShape, node: NodeShape) -> Verdict:
    """The first filter `node` fails for `pod`, in the scheduler's order."""
    selected = pod.selects(node.labels)
    if node.down:
        return Verdict(node.name, f"node {node.down}", "unschedulable", selected)
    cordon = Taint(UNSCHEDULABLE_TAINT, "", "NoSchedule")
    if node.unschedulable and not any(t.tolerates(cordon) for t in pod.tolerations):
        return Verdict(node.name, "unschedulable (cordoned)", "unschedulable", selected)
    taint = _untolerated(pod, node)
    if taint is not None:
        return Verdict(node.name, f"untolerated taint {taint}", "taint", selected)
    if not selected:
        return Verdict(node.name, f"did not match the pod's selector/affinity {pod.describe_selection()}",
                       "selector", selected)
    short = _short(pod, node)
    if short:
        named = ", ".join(n for n in short if n != "pods")
        parts = ([f"insufficient {named}"] if named else []) + (["too many pods"] if "pods" in short else [])
        reason = "; ".join(parts)
        return Verdict(node.name, reason, "resources", selected)
    return Verdict(node.name, "", "fits", selected)


@dataclass(frozen=True)
class FitReport:
    verdicts: tuple[Verdict, ...]

    @property
    def fitting(self) -> list[str]:
        return [v.node for v in self.verdicts if v.kind == "fits"]

    @property
    def blocker(self) -> str:
        """Why no node takes the pod, read from the nodes it asked for: "selector" when none matches its
        selector and affinity, "resources" when one it asked for is open to it but short of room, else
        "unschedulable" / "taint" (every node it asked for is closed to it); "fits" when some node fits."""
        if self.fitting:
            return "fits"
        chosen = [v for v in self.verdicts if v.selected]
        if not chosen:
            return "selector"
        if any(v.kind == "resources" for v in chosen):
            return "resources"
        return "unschedulable" if all(v.kind == "unschedulable" for v in chosen) else "taint"

    def summary(self) -> str:
        """Per reason, how many nodes it excluded, the largest group first: "3 nodes: untolerated taint
        gpu=reserved:NoSchedule; 2 nodes: insufficient nvidia.com/gpu"."""
        counts = Counter(v.reason for v in self.verdicts if v.kind != "fits")
        parts = [f"{n} node{'s' if n != 1 else ''}: {reason}" for reason, n in
                 sorted(counts.items(), key=lambda item: (-item[1], item[0]))]
        fits = len(self.fitting)
        if fits:
            parts.append(f"{fits} node{'s' if fits != 1 else ''} fit")
        return "; ".join(parts)


def fit(pod: PodShape, nodes: Iterable[NodeShape]) -> FitReport:
    return FitReport(tuple(judge(pod, n) for n in nodes))


def add_requests(totals: dict[str, Decimal], requests: Mapping[str, object]) -> None:
    for name, raw in requests.items():
        value = quantity(raw)
        if value is not None:
            totals[name] = totals.get(name, Decimal(0)) + value


def pod_requests(containers: Sequence[Mapping[str, object]], init: Sequence[Mapping[str, object]] = ()) -> dict[
        str, Decimal]:
    """The pod's effective requests: the sum over its containers, or the largest init container's when larger
    (init containers run one at a time). A limit without a request counts as the request, as the API defaults it."""
    total: dict[str, Decimal] = {}
    for c in containers:
        add_requests(total, _requests_of(c))
    for c in init:
        for name, raw in _requests_of(c).items():
            value = quantity(raw)
            if value is not None and value > total.get(name, Decimal(0)):
                total[name] = value
    return total


def _requests_of(container: Mapping[str, object]) -> dict[str, object]:
    resources = container.get("resources")
    if not isinstance(resources, Mapping):
        return {}
    limits = resources.get("limits")
    requests = resources.get("requests")
    out: dict[str, object] = dict(limits) if isinstance(limits, Mapping) else {}
    if isinstance(requests, Mapping):
        out.update(requests)
    return out
