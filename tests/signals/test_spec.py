"""spec.*: what is wrong in the Job's spec itself, pointed at the task it concerns."""

from __future__ import annotations

from bot.signals.spec import head_invalid, selector_control_plane_label, selector_cross_cluster, selector_invalid
from signals.scenario import scenario, sources, texts


def test_a_head_with_two_replicas_and_a_job_with_no_head() -> None:
    replicas = head_invalid(scenario("rlark-spec-head-replicas"))
    assert sources(replicas) == ["control-plane//ppo-franka-0412:spec.tasks[actor]"]
    assert texts(replicas) == "Head task 'actor' has kubernetes.workload.replicas: 2 (must be 1)"
    assert texts(head_invalid(scenario("rlark-spec-no-head"))) == "no task has head: true (tasks: actor, rollout)"


def test_comma_separated_selector_values_are_named_with_their_task() -> None:
    hits = selector_invalid(scenario("rlark-spec-selector-comma"))
    assert sources(hits) == ["control-plane//ppo-franka-0412:spec.tasks[rollout]"]
    assert "comma-separated selector values: kubernetes.io/hostname=gpu-a-node-02,gpu-a-node-03" in texts(hits)


def test_a_selector_matching_nodes_of_two_clusters() -> None:
    hits = selector_cross_cluster(scenario("multi-selector-cross-cluster"))
    assert texts(hits) == ("task 'actor': selector rlinf.io/team=embodied matches Nodes in clusters rlark-gpu-a, "
                           "rlark-gpu-b")


def test_a_selector_on_a_label_only_rlark_node_objects_carry() -> None:
    hits = selector_control_plane_label(scenario("rlark-spec-selector-control-plane-label"))
    assert hits and all("rlark.io/cluster-id, a label only RLark Node objects carry" in h.evidence[0].text
                        for h in hits)
    assert selector_control_plane_label(scenario("multi-selector-cross-cluster")) == []
