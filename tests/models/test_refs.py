"""Object references have one string form, parsed back exactly; bad parts are refused."""

from __future__ import annotations

import pytest

from bot.models.refs import ObjectGroup, ObjectRef, alert_key, parse_alert_key, parse_object


@pytest.mark.parametrize(("ref", "text"), [
    (ObjectRef("gpu-a", "rlark-system", "Pod", "ppo-actor-0"), "gpu-a/rlark-system/Pod/ppo-actor-0"),
    (ObjectRef("ci", "", "NodePool", "npu-pool"), "ci//NodePool/npu-pool"),
    (ObjectRef("default", "arc-runners", "EphemeralRunner", "r.x-1"), "default/arc-runners/EphemeralRunner/r.x-1"),
])
def test_string_form_round_trips(ref: ObjectRef, text: str) -> None:
    assert str(ref) == text
    assert ObjectRef.parse(text) == ref
    assert ref.cluster_scoped is (ref.namespace == "")
    assert alert_key("long-pending", ref) == f"long-pending:{text}"


@pytest.mark.parametrize("parts", [("a/b", "ns", "Pod", "x"), ("c", "n s", "Pod", "x"), ("c", "n", "", "x"),
                                   ("c", "n", "Pod", "")])
def test_bad_parts_are_refused(parts: tuple[str, str, str, str]) -> None:
    with pytest.raises(ValueError):
        ObjectRef(*parts)


@pytest.mark.parametrize("text", ["", "a/b/c", "a/b/Pod/x/y", "a/b/1Pod/x", "a/b/Pod/x y"])
def test_parse_refuses_what_is_not_a_reference(text: str) -> None:
    with pytest.raises(ValueError):
        ObjectRef.parse(text)


@pytest.mark.parametrize(("group", "text", "owner"), [
    (ObjectGroup.owned_by(ObjectRef("cp", "rlark-gpu-a", "Task", "ppo-actor")), "cp/rlark-gpu-a/Task/ppo-actor", True),
    (ObjectGroup.owned_by(ObjectRef("ci", "", "NodePool", "npu-a3")), "ci//NodePool/npu-a3", True),
    (ObjectGroup.selecting("ci", "arc", {"npu": "a3", "kubernetes.io/arch": "arm64"}),
     "ci/arc/NodeSelector/kubernetes.io/arch=arm64,npu=a3", False),
])
def test_a_group_is_named_by_its_owner_or_its_selector_and_parsed_back(group: ObjectGroup, text: str,
                                                                       owner: bool) -> None:
    assert str(group) == text and ObjectGroup.parse(text) == group
    assert (group.owner is not None) is owner
    assert alert_key("long-pending", group) == f"long-pending:{text}"
    assert parse_alert_key(alert_key("long-pending", group)) == ("long-pending", text)


def test_an_alerts_object_reads_back_as_a_group_when_it_is_not_among_its_objects() -> None:
    pods = {"ci/arc/Pod/r0", "ci/arc/Pod/r1"}
    assert parse_object("ci//NodePool/a3", listed=pods) == ObjectGroup("ci", "", "NodePool", "a3")
    assert parse_object("ci/arc/Pod/r0", listed=pods) == ObjectRef("ci", "arc", "Pod", "r0")
    with pytest.raises(ValueError):
        ObjectGroup.selecting("ci", "arc", {})
    with pytest.raises(ValueError):
        parse_alert_key("no-check-here")
