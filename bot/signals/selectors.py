"""Node-selector and Head rules shared by the signals (after a run) and preflight (before one).

Pure predicates over the Job's task specs and RLark Node objects: one implementation of each rule, so that
`diagnose` and `preflight` can never disagree about what a selector matches or what makes a Head valid.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.models import RNode
from bot.models.rlark import CLUSTER_ID_LABEL

CONTROL_PLANE_ONLY_PREFIX = "rlark.io/"
AGENT_TYPE_LABEL = "rlark.io/agent-type"


def selector_matches(selector: Mapping[str, str], node: RNode) -> bool:
    """Whether the Node's labels carry every selector pair (a comma-separated value matches any of its parts)."""
    labels = node.metadata.labels
    return all(labels.get(k) in {v.strip() for v in val.split(",")} for k, val in selector.items())


def multi_value_pairs(selector: Mapping[str, str]) -> dict[str, str]:
    """The pairs whose value holds a comma: RLark takes the value literally, so it matches no label."""
    return {k: v for k, v in selector.items() if "," in v}


def usable(node: RNode) -> bool:
    """A Node a Task can be scheduled on: Online and not marked unschedulable."""
    return node.status.phase == "Online" and not node.spec.unschedulable


def matched_clusters(selector: Mapping[str, str], nodes: Iterable[RNode]) -> list[str]:
    """The clusters of every Node the selector matches, sorted; more than one is a cross-cluster selector."""
    return sorted({n.cluster_id for n in nodes if selector_matches(selector, n)})


def control_plane_only_keys(selector: Mapping[str, str],
                            member_labels: Sequence[Mapping[str, str]] | None = None) -> list[str]:
    """Selector keys that only RLark Node objects carry (`rlark.io/cluster-id`, other `rlark.io/` labels), so no
    member-cluster node matches them. `member_labels`: the labels of the member cluster's nodes when known; a
    `rlark.io/` key one of them has is a real node label after all."""
    keys = [k for k in selector if k == CLUSTER_ID_LABEL or k.startswith(CONTROL_PLANE_ONLY_PREFIX)]
    if member_labels:
        keys = [k for k in keys if not any(k in labels for labels in member_labels)]
    return keys


@dataclass(frozen=True)
class HeadProblem:
    """What is wrong with the Job's Head: `kind` is none, several or replicas."""

    kind: str
    names: tuple[str, ...]
    replicas: int | None = None


def head_problem(heads: Sequence[tuple[str, int | None]]) -> HeadProblem | None:
    """`heads`: (task name, replicas) of every task with `head: true`. Exactly one, with one replica (absent
    counts as one), is valid."""
    if not heads:
        return HeadProblem("none", ())
    if len(heads) > 1:
        return HeadProblem("several", tuple(n for n, _ in heads))
    name, replicas = heads[0]
    if replicas is not None and replicas != 1:
        return HeadProblem("replicas", (name,), replicas)
    return None
