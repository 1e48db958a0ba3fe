"""The inventory: the label index never changes what the shared selector match says; the bundle's file names."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bot.models import RNode
from bot.preflight.inventory import Inventory
from bot.preflight.inventory_bundle import read_inventory
from bot.signals.selectors import selector_matches
from preflight.helpers import EXAMPLE

KEYS = st.sampled_from(["a", "b", "kubernetes.io/hostname"])
VALUES = st.sampled_from(["x", "y", "z", " x", "x,y", "y, z", ""])
LABELS = st.dictionaries(KEYS, st.sampled_from(["x", "y", "z", ""]), max_size=3)


@given(st.lists(LABELS, max_size=12), st.dictionaries(KEYS, VALUES, max_size=3))
def test_the_index_agrees_with_selector_matches(labels: list[dict[str, str]], selector: dict[str, str]) -> None:
    nodes = [RNode.model_validate({"metadata": {"name": f"n{i}", "labels": lab}}) for i, lab in enumerate(labels)]
    inv = Inventory(now=datetime.now(UTC), nodes=nodes)
    assert inv.matching(selector) == [n for n in nodes if selector_matches(selector, n)]
    inv.nodes = nodes[: len(nodes) // 2]  # the index follows the list it serves
    assert inv.matching(selector) == [n for n in inv.nodes if selector_matches(selector, n)]


def test_storageclasses_json_is_read_too(tmp_path: Path) -> None:
    root = tmp_path / "inv"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("jobs"))
    (root / "gpu-a" / "storageclasses.storage.k8s.io.json").rename(root / "gpu-a" / "storageclasses.json")
    inv = read_inventory(root)
    assert [sc["metadata"]["name"] for sc in inv.storage_classes["gpu-a"]] == ["rclone-oss", "local-path"]
    assert inv.complete and inv.now == datetime(2026, 12, 3, 8, 0, tzinfo=UTC)


def test_a_flat_bundle_without_rlark_objects_lacks_them(tmp_path: Path) -> None:
    (tmp_path / "nodes.json").write_text('{"kind": "NodeList", "items": []}', encoding="utf-8")
    inv = read_inventory(tmp_path)
    assert inv.lacks("nodes") and inv.lacks("jobs") and not inv.complete
