"""Each live rule alone against the example inventory (examples/preflight), and what cannot be checked."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.preflight.catalog import LIVE_RULES
from bot.preflight.inventory import Inventory
from bot.preflight.inventory_bundle import read_inventory
from preflight.helpers import EXAMPLE, check, inventory, main_container, pod_spec, ready, rules, task

Mutate = Callable[[dict[str, Any]], None]


def _head_on(host: str, *, gpus: str | None = "8", volumes: bool = True) -> Mutate:
    def mutate(d: dict[str, Any]) -> None:
        task(d, 0)["nodeSelector"] = {"kubernetes.io/hostname": host}
        res = main_container(d)["resources"]
        if gpus is None:
            del res["requests"]["nvidia.com/gpu"], res["limits"]
        else:
            res["requests"]["nvidia.com/gpu"] = res["limits"]["nvidia.com/gpu"] = gpus
        if not volumes:
            del pod_spec(d)["volumes"], main_container(d)["volumeMounts"], task(d, 0)["kubernetes"]["workload"][
                "pvcStorageMap"]
            task(d, 0)["runScript"] = "python train.py"
    return mutate


def _rollout(*, selector: dict[str, str] | None = None, replicas: int | None = None, gpus: str | None = None,
             cpu: str | None = None) -> Mutate:
    def mutate(d: dict[str, Any]) -> None:
        t = task(d, 1)
        if selector is not None:
            t["nodeSelector"] = selector
        if replicas is not None:
            t["kubernetes"]["workload"]["replicas"] = replicas
        res = main_container(d, 1)["resources"]
        if gpus is not None:
            res["requests"]["nvidia.com/gpu"] = res["limits"]["nvidia.com/gpu"] = gpus
        if cpu is not None:
            res["requests"]["cpu"] = cpu
    return mutate


def _both(*mutations: Mutate) -> Mutate:
    def mutate(d: dict[str, Any]) -> None:
        for m in mutations:
            m(d)
    return mutate


def _domain(value: str | None) -> Mutate:
    def mutate(d: dict[str, Any]) -> None:
        if value is None:
            del d["spec"]["domain"]
        else:
            d["spec"]["domain"] = value
    return mutate


def _storage(cls: str) -> Mutate:
    return lambda d: task(d, 0)["kubernetes"]["workload"].update(pvcStorageMap={"franka-ckpt-0412": cls})


def _claim(name: str) -> Mutate:
    def mutate(d: dict[str, Any]) -> None:
        task(d, 0)["kubernetes"]["workload"]["pvcStorageMap"] = {name: "rclone-oss"}
        pod_spec(d)["volumes"][0]["persistentVolumeClaim"]["claimName"] = name
    return mutate


def _edge_online(inv: Inventory) -> Inventory:
    for n in inv.nodes:
        if n.name == "edge-node-0":
            n.status.phase = "Online"
    return inv


CASES: dict[str, list[tuple[Mutate, set[str], set[str]]]] = {
    "P04": [(lambda d: d["metadata"].update(name="ppo-franka-0411"), {"P04"}, set())],
    "P09": [(lambda d: task(d, 0).update(nodeSelector={"topology.rlinf.io/zone": "zone-a"}), {"P09"}, set()),
            (_head_on("no-such-node", volumes=False), {"P09", "P14"}, set())],
    "P14": [(_rollout(selector={"kubernetes.io/hostname": "gpu-b-node-1"}), {"P14"}, set())],
    "P15": [(_rollout(selector={"rlinf.io/pool": "a100-train"}), {"P15"}, set())],
    "P18": [(_rollout(replicas=5, gpus="1"), {"P18"}, set()), (_rollout(replicas=0), {"P18"}, set())],
    "P19": [(_head_on("gpu-a-node-1", gpus="8"), {"P19"}, set())],
    "P20": [(_rollout(replicas=4, gpus="6"), {"P20"}, set())],
    "P21": [(_rollout(cpu="200"), set(), {"P21"})],
    "P25": [(_storage("fast-ssd"), {"P25"}, set()), (_storage("local-path"), set(), {"P25"})],
    "P26": [(_both(_head_on("gpu-a-node-1", gpus="4"), _claim("franka-ckpt")), set(), {"P26"})],
    "P34": [(_domain("vision"), {"P34"}, set()),
            (_both(_domain(None), _rollout(selector={"topology.rlinf.io/zone": "zone-b"}, replicas=1)), set(),
             {"P34"})],
}


def test_the_ready_example_passes_every_live_rule() -> None:
    report = check(ready())
    assert report.ready and report.findings == [] and report.not_checked == []
    assert report.inventory is not None and report.inventory.complete


@pytest.mark.parametrize(("rule", "index"), [(r, i) for r, cases in CASES.items() for i in range(len(cases))])
def test_each_live_mistake_fires_its_rule_alone(rule: str, index: int) -> None:
    mutate, errors, warnings = CASES[rule][index]
    data = ready()
    mutate(data)
    report = check(data)
    assert (rules(report, "error"), rules(report, "warning")) == (errors, warnings)
    assert report.not_checked == []


def test_a_disconnected_agent() -> None:
    data = ready()
    _head_on("edge-node-0", gpus=None, volumes=False)(data)
    report = check(data, inv=_edge_online(inventory()))
    assert rules(report) == {"P17"}
    assert "3600s ago" in next(f.message for f in report.findings if f.rule == "P17")
    fresh = _edge_online(inventory())
    fresh.now = fresh.now - timedelta(seconds=3590)  # judged ten seconds after its last renewal: online
    assert rules(check(data, inv=fresh)) == set()


def test_a_resubmitted_job_is_not_held_to_a_free_name() -> None:
    data = ready()
    data["metadata"]["name"] = "ppo-franka-0411"
    assert "P04" not in rules(check(data, resubmit=True))


def test_offline_lists_every_live_rule_as_not_checked() -> None:
    report = check(ready(), live=False)
    assert {s.rule for s in report.not_checked} == set(LIVE_RULES)
    assert report.inventory is None


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "inv"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("jobs"))
    return root


def test_what_was_not_read_is_not_checked_never_passed(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "gpu-a" / "storageclasses.storage.k8s.io.json").unlink()
    (root / "kcp" / "domains.rlinf.io.json").unlink()
    (root / "kcp" / "rlark-gpu-b" / "nodes.rlinf.io.json").unlink()
    report = check(ready(), inv=read_inventory(root))
    skipped = {s.rule: s.why for s in report.not_checked}
    assert set(skipped) >= {"P25", "P34", "P09", "P15"}
    assert "gpu-a" in skipped["P25"] and "domains" in skipped["P34"] and "rlark-gpu-b" in skipped["P15"]
    assert report.inventory is not None and not report.inventory.complete
    assert report.ready  # nothing known to be wrong; what was not read is said


def test_certain_errors_stand_even_with_nodes_missing(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "kcp" / "rlark-edge" / "nodes.rlinf.io.json").unlink()
    data = ready()
    task(data, 0)["nodeSelector"] = {"topology.rlinf.io/zone": "zone-a"}  # 4 Nodes: more can only add
    task(data, 1)["nodeSelector"] = {"rlinf.io/pool": "a100-train"}  # two clusters already
    report = check(data, inv=read_inventory(root))
    assert {"P09", "P15"} <= rules(report, "error")
    assert "P14" not in {s.rule for s in report.not_checked if "rollout" in s.why}  # a usable Node was seen


def test_the_example_mistakes_files() -> None:
    from preflight.helpers import JOBS

    expected = {
        "mistakes-selector.yaml": ({"P12", "P13", "P15", "P16", "P30"}, set()),
        "mistakes-head.yaml": ({"P02", "P08", "P09", "P18", "P27", "P29"}, {"P06", "P27", "P31"}),
        "mistakes-resources.yaml": ({"P04", "P11", "P14", "P17", "P19", "P22", "P24", "P25", "P28", "P33", "P34"},
                                    {"P10", "P35"}),
    }
    for name, (errors, warnings) in expected.items():
        report = check((JOBS / name).read_text(encoding="utf-8"))
        assert (rules(report, "error"), rules(report, "warning")) == (errors, warnings), name
