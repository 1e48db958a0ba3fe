"""Preflight and nodes against live clusters (the Kubernetes API stand-in serving the example inventory): the same
answer as from the bundle, one list per kind per cluster, only what the RBAC grants, and failures not checked."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from cluster.standin import Fault, StandIn, load_bundle
from cluster.test_rbac import allowed, rules

from bot.bundle.files import load_list
from bot.cli import main
from bot.cluster import resources
from preflight.helpers import EXAMPLE, JOBS, READY

CONTEXTS = {"kcp": "kcp", "gpu-a": "gpu-a", "gpu-b": "gpu-b", "edge": "edge"}
ROLES = {"kcp": "control-plane.yaml", "gpu-a": "member-cluster.yaml", "gpu-b": "member-cluster.yaml",
         "edge": "member-cluster.yaml"}


@pytest.fixture
def api() -> Iterator[StandIn]:
    clusters = load_bundle(EXAMPLE)
    for agent in ("gpu-a", "gpu-b", "edge"):  # the bundle names them storageclasses.storage.k8s.io.json
        path = EXAMPLE / agent / "storageclasses.storage.k8s.io.json"
        for obj in load_list(path, str(path)):
            clusters[agent].add(resources.STORAGECLASSES, obj)
    with StandIn(clusters) as standin:
        yield standin


@pytest.fixture
def kubeconfig(api: StandIn, tmp_path: Path) -> Path:
    return api.write_kubeconfig(tmp_path / "kubeconfig", CONTEXTS, current="kcp")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    status = main(list(argv))
    out, _ = capsys.readouterr()
    return status, json.loads(out)


@pytest.mark.parametrize("job", [READY, JOBS / "mistakes-resources.yaml", JOBS / "mistakes-selector.yaml",
                                 JOBS / "mistakes-head.yaml"])
def test_live_gives_the_bundles_answer(job: Path, api: StandIn, kubeconfig: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    now = "2026-12-03T08:00:00Z"  # the bundle's capturedAt: heartbeats are judged at the same time
    live = run(capsys, "preflight", str(job), "--kubeconfig", str(kubeconfig), "--format", "json", "--now", now)
    bundle = run(capsys, "preflight", str(job), "--snapshot", str(EXAMPLE), "--format", "json")
    assert live == bundle


def test_one_list_per_kind_per_cluster_all_allowed(api: StandIn, kubeconfig: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    api.reset_log()
    assert main(["preflight", str(READY), "--kubeconfig", str(kubeconfig), "--now", "2026-12-03T08:00:00Z"]) == 0
    capsys.readouterr()
    lists = Counter((r.cluster, r.path.rsplit("/", 1)[-1]) for r in api.requests)
    assert lists == Counter({("kcp", "nodes"): 1, ("kcp", "leases"): 1, ("kcp", "jobs"): 1, ("kcp", "domains"): 1,
                             ("gpu-a", "storageclasses"): 1, ("gpu-b", "storageclasses"): 1,
                             ("edge", "storageclasses"): 1})
    for rec in api.requests:
        assert rec.method == "GET" and "secrets" not in rec.path
        assert allowed(rules(ROLES[rec.cluster]), rec), f"{rec.cluster}: GET {rec.path}"


def test_an_unreadable_cluster_is_not_checked_never_passed(api: StandIn, kubeconfig: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    api.faults.append(Fault(path=".*/storageclasses", cluster="gpu-a", status=403))
    status, doc = run(capsys, "preflight", str(READY), "--kubeconfig", str(kubeconfig), "--format", "json",
                      "--now", "2026-12-03T08:00:00Z")
    assert status == 0
    skipped = {(n["rule"], n["why"]) for n in doc["not_checked"]}  # type: ignore[union-attr,index]
    assert any(rule == "P25" and "gpu-a" in why and "403" in why for rule, why in skipped)
    assert doc["inventory"]["complete"] is False  # type: ignore[index]
    assert "gpu-a" not in doc["inventory"]["clusters"]  # type: ignore[index]


def test_control_plane_down_leaves_every_live_rule_not_checked(api: StandIn, kubeconfig: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    api.faults.append(Fault(cluster="kcp", status=503))
    status, doc = run(capsys, "preflight", str(JOBS / "mistakes-selector.yaml"), "--kubeconfig", str(kubeconfig),
                      "--format", "json")
    assert status == 4  # the offline errors still stand
    assert {n["rule"] for n in doc["not_checked"]} >= {"P04", "P09", "P14", "P15", "P17"}  # type: ignore[union-attr]
    assert "P15" not in {f["rule"] for f in doc["findings"]}  # type: ignore[union-attr]


def test_a_job_by_name_live(api: StandIn, kubeconfig: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, doc = run(capsys, "preflight", "job/ppo-franka-0411", "--kubeconfig", str(kubeconfig), "--format", "json")
    assert doc["job"] == "ppo-franka-0411" and status in (0, 4)
    assert main(["preflight", "job/absent", "--kubeconfig", str(kubeconfig)]) == 3


def test_nodes_live(api: StandIn, kubeconfig: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, live = run(capsys, "nodes", "topology.rlinf.io/zone=zone-a", "--kubeconfig", str(kubeconfig),
                       "--format", "json")
    _, bundle = run(capsys, "nodes", "topology.rlinf.io/zone=zone-a", "--snapshot", str(EXAMPLE), "--format", "json")
    assert status == 0 and live == bundle and live["one_cluster"] is True and live["one_node"] is False
