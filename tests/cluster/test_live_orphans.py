"""A Job deleted while its Tasks remain: the live answer names the orphan Tasks, as a bundle's does."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.cluster import resources as R
from cluster.standin import ClusterData, StandIn


def test_missing_job_names_its_orphan_tasks(world: dict[str, ClusterData], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    world["kcp"].objects[R.JOBS] = []
    with StandIn(world) as api:
        kubeconfig = api.write_kubeconfig(tmp_path / "kubeconfig", {"kcp": "kcp", "gpu-a": "gpu-a", "gpu-b": "gpu-b"},
                                          current="kcp")
        status = main(["diagnose", "ppo-big", "--kubeconfig", str(kubeconfig)])
    out, err = capsys.readouterr()
    assert status == 3 and out == ""
    assert err.count("\n") == 1
    assert "the Job object does not exist, but Tasks still carry its label: " in err
    for task in ("kcp/rlark-gpu-a/ppo-big-head", "kcp/rlark-gpu-a/ppo-big-worker-gpu-a",
                 "kcp/rlark-gpu-b/ppo-big-worker-gpu-b"):
        assert task in err


def test_missing_job_without_tasks_says_where_it_looked(standin: StandIn, kubeconfig: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["diagnose", "gone-job", "--kubeconfig", str(kubeconfig)])
    _, err = capsys.readouterr()
    assert status == 3 and "Tasks still carry" not in err and "RLark control plane (context kcp)" in err
