"""Object references have one string form, parsed back exactly; bad parts are refused."""

from __future__ import annotations

import pytest

from bot.models.refs import ObjectRef, alert_key


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
