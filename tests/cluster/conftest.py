"""Fixtures: an API stand-in on a background thread and kubeconfigs pointing at it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cluster.standin import ClusterData, StandIn, load_bundle
from cluster.world import build_world

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SCENARIOS = REPO / "tests" / "scenarios"


@pytest.fixture
def world() -> dict[str, ClusterData]:
    return build_world(job="ppo-big", workers={"gpu-a": 7, "gpu-b": 8}, failing={"gpu-b": 2})


@pytest.fixture
def standin(world: dict[str, ClusterData]) -> Iterator[StandIn]:
    with StandIn(world) as api:
        yield api


@pytest.fixture
def kubeconfig(standin: StandIn, tmp_path: Path) -> Path:
    return standin.write_kubeconfig(tmp_path / "kubeconfig",
                                    {"kcp": "kcp", "gpu-a": "gpu-a", "gpu-b": "gpu-b"}, current="kcp")


def scenario_dirs() -> list[Path]:
    return sorted(p.parent for p in SCENARIOS.glob("*/bundle") if (p.parent / "expect.yaml").is_file())


def bundle_clusters(path: Path) -> dict[str, ClusterData]:
    return load_bundle(path)
