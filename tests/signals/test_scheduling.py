"""schedule.fit-*: why a Pending pod fits no node, judged from the nodes themselves."""

from __future__ import annotations

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
