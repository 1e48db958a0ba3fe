"""The shared selector and Head rules (bot/signals/selectors.py), as both the signals and preflight call them."""

from __future__ import annotations

from bot.models import RNode
from bot.signals.selectors import HeadProblem, head_problem, matched_clusters, selector_matches, usable


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
