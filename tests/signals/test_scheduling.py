"""schedule.fit-*: why a Pending pod fits no node, judged from the nodes themselves."""

from __future__ import annotations

from bot.scope.hits import Hit
from bot.signals.scheduling import no_node_selected, no_room, nodes_closed
from bot.signals.stages import INDEX
from signals.scenario import scenario, texts


def test_no_node_carries_the_labels_the_pod_asks_for() -> None:
    [hit] = no_node_selected(scenario("pod-schedule-selector-mismatch"))
    assert hit.pod == "ci-cluster/arc-runners/linux-aarch64-a2b3-8-wd4nk-runner-p2xk7"
    assert texts([hit]).startswith("0/12 nodes can take it (selector ascend-ci/npu-type=a2b3")
    assert nodes_closed(scenario("pod-schedule-selector-mismatch")) == []


def test_the_node_asked_for_is_cordoned() -> None:
    [hit] = nodes_closed(scenario("rlark-node-cordoned"))
    assert hit.pod == "gpu-a/rlark-system/ppo-franka-0412-actor-0" and hit.stage == INDEX["scheduled"]
    assert "1 node: unsch" in texts([hit])
    assert no_room(scenario("rlark-node-cordoned")) == []


def test_the_nodes_asked_for_are_open_but_full() -> None:
    [hit] = no_room(scenario("pod-schedule-insufficient-resources"))
    assert hit.pod == "ci-cluster/arc-runners/linux-aarch64-a2-16-s4bqm-runner-n6v2h"
    assert "3 no" in texts([hit]) and "huawei.com/Ascend910=16" in texts([hit])
    assert no_node_selected(scenario("pod-schedule-insufficient-resources")) == []


def _npu_cluster(mirror_cluster: str | None, used: str) -> list[object]:
    """A pod asking 4 NPUs of a member cluster `ci-a` whose two nodes have 8 allocatable; the pods holding the
    others run in namespaces the evidence did not read, so only the RLark Node mirrors say what is used."""
    from diagnose.objects import node, pod

    from bot.models import RNode

    objects: list[object] = [pod("build-0", selector={"pool": "npu"}, requests={"huawei.com/Ascend910": "4"},
                                 created_minutes_ago=30)]
    for name in ("npu-1", "npu-2"):
        objects.append(node(name, labels={"pool": "npu"},
                            allocatable={"cpu": "192", "memory": "1500Gi", "huawei.com/Ascend910": "8"}))
        if mirror_cluster is not None:
            objects.append(RNode.model_validate({
                "metadata": {"name": name, "namespace": f"rlark-{mirror_cluster}",
                             "labels": {"rlark.io/cluster-id": f"rlark-{mirror_cluster}", "pool": "npu"}},
                "status": {"phase": "Online", "allocatable": {"huawei.com/Ascend910": "8"},
                           "used": {"huawei.com/Ascend910": used}}}))
    return objects


def _room(objects: list[object]) -> list[Hit]:
    from diagnose.objects import evidence

    from bot.models import RNode, Target
    from signals.scenario import context_of

    ev = evidence(*objects)
    ev.rlark_nodes = [o for o in objects if isinstance(o, RNode)]
    return list(no_room(context_of(ev, Target.parse("pod/build-0", "runners"))))


def test_what_the_rlark_node_mirror_reports_used_counts_against_room() -> None:
    [hit] = _room(_npu_cluster("ci-a", used="6"))
    assert "2 nodes: insufficient huawei.com/Ascend910" in texts([hit])


def test_without_the_mirror_or_with_room_left_nothing_is_claimed() -> None:
    assert _room(_npu_cluster(None, used="6")) == []
    assert _room(_npu_cluster("ci-a", used="4")) == []


def test_a_mirror_of_another_cluster_does_not_count() -> None:
    assert _room(_npu_cluster("ci-b", used="6")) == []


def test_a_node_belongs_to_the_agent_its_cluster_id_names_exactly() -> None:
    from bot.models import RNode

    def rnode(cluster_id: str) -> RNode:
        return RNode.model_validate({"metadata": {"name": "n", "namespace": cluster_id,
                                                  "labels": {"rlark.io/cluster-id": cluster_id}}})

    assert rnode("rlark-gpu-a").of_agent("gpu-a") and rnode("gpu-a").of_agent("gpu-a")
    assert not rnode("rlark-xgpu-a").of_agent("gpu-a") and not rnode("rlark-gpu-a").of_agent("")
