"""The shared selector and Head rules (bot/signals/selectors.py), as both the signals and preflight call them."""

from __future__ import annotations

from bot.models import RNode
from bot.signals.selectors import (
    HeadProblem,
    control_plane_only_keys,
    head_problem,
    matched_clusters,
    multi_value_pairs,
    selector_matches,
    usable,
)


def _node(name: str, cluster: str, *, phase: str = "Online", unschedulable: bool = False, **labels: str) -> RNode:
    return RNode.model_validate({"metadata": {"name": name, "namespace": f"rlark-{cluster}",
                                              "labels": {"rlark.io/cluster-id": f"rlark-{cluster}", **labels}},
                                 "spec": {"unschedulable": unschedulable}, "status": {"phase": phase}})


def test_head_problem() -> None:
    assert head_problem([]) == HeadProblem("none", ())
    assert head_problem([("a", 1), ("b", None)]) == HeadProblem("several", ("a", "b"))
    assert head_problem([("a", 4)]) == HeadProblem("replicas", ("a",), 4)
    assert head_problem([("a", None)]) is None and head_problem([("a", 1)]) is None


def test_match_clusters_and_usable() -> None:
    nodes = [_node("n1", "gpu-a", pool="x"), _node("n2", "gpu-b", pool="x", phase="Offline"),
             _node("n3", "gpu-b", pool="y", unschedulable=True)]
    assert [n.name for n in nodes if selector_matches({"pool": "x"}, n)] == ["n1", "n2"]
    assert matched_clusters({"pool": "x"}, nodes) == ["rlark-gpu-a", "rlark-gpu-b"]
    assert [usable(n) for n in nodes] == [True, False, False]


def test_a_comma_matches_any_part_here_and_is_reported_as_a_multi_value_pair() -> None:
    node = _node("n1", "gpu-a", gpu="h100")
    assert selector_matches({"gpu": "a100, h100"}, node) and not selector_matches({"gpu": "a100"}, node)
    assert multi_value_pairs({"gpu": "a100, h100", "pool": "x"}) == {"gpu": "a100, h100"}


def test_control_plane_only_keys_unless_member_nodes_carry_them() -> None:
    sel = {"rlark.io/cluster-id": "rlark-gpu-a", "rlark.io/pool": "p1", "team": "rl"}
    assert control_plane_only_keys(sel) == ["rlark.io/cluster-id", "rlark.io/pool"]
    assert control_plane_only_keys(sel, [{"rlark.io/pool": "p1"}]) == ["rlark.io/cluster-id"]
