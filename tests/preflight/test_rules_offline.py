"""Each offline rule alone: the ready example passes, and one mistake makes exactly that rule fire."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from preflight.helpers import check, main_container, pod_spec, ready, rules, task

Mutate = Callable[[dict[str, Any]], None]


def _set(path: str, value: Any) -> Mutate:
    def mutate(d: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = d
        for p in parents:
            node = node[int(p)] if p.isdigit() else node[p]
        if value is _DELETE:
            del node[last]
        else:
            node[int(last) if last.isdigit() else last] = value
    return mutate


_DELETE = object()
WL0 = "spec.tasks.0.kubernetes.workload"
WL1 = "spec.tasks.1.kubernetes.workload"
C0 = f"{WL0}.template.spec.containers.0"


def _extra_container(name: str) -> Mutate:
    return lambda d: pod_spec(d)["containers"].append({"name": name, "image": "busybox:1.36"})


def _env(name: str) -> Mutate:
    return lambda d: main_container(d).setdefault("env", []).append({"name": name, "value": "1"})


def _pvc_on_rollout(d: dict[str, Any]) -> None:
    wl = task(d, 1)["kubernetes"]["workload"]
    wl["pvcStorageMap"] = {"rollout-cache": "rclone-oss"}
    wl["template"]["spec"]["volumes"] = [{"name": "cache", "persistentVolumeClaim": {"claimName": "rollout-cache"}}]
    wl["template"]["spec"]["containers"][0]["volumeMounts"] = [{"name": "cache", "mountPath": "/cache"}]


def _no_head(d: dict[str, Any]) -> None:
    task(d, 0)["head"] = False


# rule -> (mistake, expected errors, expected warnings)
CASES: dict[str, list[tuple[Mutate, set[str], set[str]]]] = {
    "P01": [(_set("metadata.name", "PPO_Franka"), {"P01"}, set()), (_set("metadata.name", ""), {"P01"}, set())],
    "P02": [(_set("metadata.name", "0412-ppo-franka"), {"P02"}, set())],
    "P03": [(_set("metadata.name", "a" * 45), {"P03"}, set()), (_set("metadata.name", "h" * 50), {"P03"}, set())],
    "P05": [(_set("spec.tasks.1.name", "Actor"), {"P05"}, set()), (_set("spec.tasks", []), {"P05"}, set()),
            (_set("spec.tasks.1.name", ""), {"P05"}, set())],
    "P06": [(_set("spec.tasks.1.role", _DELETE), {"P06"}, set()),
            (_set("spec.tasks.1.role", "Learner"), set(), {"P06"})],
    "P07": [(_no_head, {"P07"}, {"P27"}), (_set("spec.tasks.1.head", True), {"P07", "P27"}, set())],
    "P08": [(_set(f"{WL0}.replicas", 2), {"P08"}, {"P26"})],  # two replicas now share the Head's claim
    "P10": [(_set(f"{C0}.image", ""), {"P10"}, set()), (_set(f"{C0}.image", "reg/x:1 "), {"P10"}, set()),
            (_set(f"{C0}.image", "reg/rlinf:latest"), set(), {"P10"}),
            (_set(f"{C0}.image", "reg:5000/rlinf"), set(), {"P10"})],
    "P11": [(_set(f"{C0}.name", "trainer"), {"P11"}, set())],
    "P12": [(_set("spec.tasks.1.nodeSelector", _DELETE), {"P12"}, set()),
            (_set("spec.tasks.1.nodeSelector", {}), {"P12"}, set())],
    "P13": [(_set("spec.tasks.1.nodeSelector", {"rlinf.io/pool": "a100-train,a100-eval"}), {"P13"}, set())],
    "P16": [(_set("spec.tasks.0.nodeSelector", {"kubernetes.io/hostname": "gpu-a-node-0",
                                                 "rlark.io/cluster-id": "rlark-gpu-a"}), {"P16"}, set()),
            (_set("spec.tasks.0.nodeSelector", {"kubernetes.io/hostname": "gpu-a-node-0",
                                                 "rlark.io/agent-type": "Kubernetes"}), {"P16"}, set())],
    "P22": [(_set(f"{C0}.resources.limits", {}), {"P22"}, set()),
            (_set(f"{C0}.resources.limits", {"nvidia.com/gpu": "4"}), {"P22"}, set())],
    "P23": [(_set(f"{C0}.volumeMounts.0.name", "missing"), {"P23"}, set()),
            (_set(f"{C0}.volumeMounts.0.mountPath", ""), {"P23"}, {"P35"}),  # /ckpt is no longer mounted
            (lambda d: pod_spec(d)["volumes"].append(copy.deepcopy(pod_spec(d)["volumes"][0])), {"P23"}, set())],
    "P24": [(lambda d: pod_spec(d)["volumes"].append({"name": "data", "hostPath": {}}), {"P24"}, set()),
            (lambda d: pod_spec(d)["volumes"].append({"name": "data", "hostPath": {"path": "/mnt/data"}}),
             set(), {"P24"})],
    "P25": [(_set(f"{WL0}.pvcStorageMap", _DELETE), {"P25"}, set()),
            (_set(f"{WL0}.template.spec.volumes.0.persistentVolumeClaim", {}), {"P25"}, set())],
    "P26": [(lambda d: (_pvc_on_rollout(d)), set(), {"P26"})],
    "P27": [(_set("spec.tasks.0.runScript", _DELETE), {"P27"}, set()),
            (_set("spec.tasks.1.runScript", "python rollout.py"), set(), {"P27"})],
    "P28": [(_env("RLARK_HEAD_ADDRESS"), {"P28"}, set()), (_env("POD_NAME"), {"P28"}, set()),
            (_set(f"{WL0}.template.spec.volumes.0.name", "rlark-sshd"), {"P23", "P28"}, set()),
            (_extra_container("tensorboard"), {"P28"}, {"P32"}),
            (_set(f"{C0}.volumeMounts.0.mountPath", "/rlark/scripts"), {"P28"}, {"P35"})],
    "P29": [(_set(f"{WL0}.template.metadata", {"labels": {"app": "ray-head"}}), {"P29"}, set()),
            (_set(f"{WL0}.template.metadata", {"labels": {"app": "ppo-franka-0412-actor"}}), set(), set())],
    "P30": [(_set("spec.tasks.1.nodeselector", {"a": "b"}), {"P30"}, set()),
            (_set(f"{WL1}.replicas", "2"), {"P30"}, set()),
            (_set("spec.tasks.0.head", "true"), {"P30", "P07"}, {"P27"}),
            (_set("metadata.lables", {"a": "b"}), {"P30"}, set()),
            (_set("spec.tasks.1.nodeSelector", "rlinf.io/pool=a100-train"), {"P12", "P30"}, set()),
            (_set(f"{WL0}.template.spec.containers", {"name": "main"}), {"P11", "P30"}, {"P35"})],
    "P31": [(_set("spec.tasks.1.agentType", "Raw"), {"P31"}, set()),
            (_set(f"{WL1}.kind", "Deployment"), set(), {"P31"}),
            (_set(f"{WL1}.kind", "Job"), {"P31"}, set())],
    "P32": [(_set(f"{C0}.livenessProbe", {"exec": {"command": ["true"]}}), set(), {"P32"}),
            (_set(f"{WL0}.template.spec.securityContext", {"runAsUser": 0}), set(), {"P32"}),
            (_extra_container("sidecar"), set(), {"P32"}),
            (lambda d: pod_spec(d)["volumes"].append({"name": "shm", "emptyDir": {"medium": "Memory"}}), set(),
             {"P32"})],
    "P35": [(_set("spec.tasks.0.runScript", "python train.py --output_dir /outputs/run1"), set(), {"P35"}),
            (_set("spec.tasks.0.runScript", "python train.py > /var/log/train.log"), set(), {"P35"}),
            (_set("spec.tasks.0.runScript", "python train.py hydra.run.dir=/ckpt/hydra"), set(), set())],
}


def test_the_ready_example_has_no_finding_offline() -> None:
    report = check(ready(), live=False)
    assert report.ready and report.findings == []


@pytest.mark.parametrize(("rule", "index"), [(r, i) for r, cases in CASES.items() for i in range(len(cases))])
def test_each_mistake_fires_its_rule_alone(rule: str, index: int) -> None:
    mutate, errors, warnings = CASES[rule][index]
    data = ready()
    mutate(data)
    report = check(data, live=False)
    assert rules(report, "error") == errors
    assert rules(report, "warning") == warnings
    assert report.ready == (not errors)
    for f in report.findings:
        assert f.field and f.message and f.source
        assert f.line is not None, f  # from a file: every finding has a line
        assert (f.task is None) == (f.rule in ("P01", "P02", "P04", "P07", "P30", "P34") or
                                    (f.rule == "P05" and f.field == "spec.tasks")), f


def test_mistakes_combine_and_errors_come_first() -> None:
    data = ready()
    for mutate in (CASES["P13"][0][0], CASES["P10"][2][0], CASES["P08"][0][0], CASES["P35"][0][0],
                   CASES["P30"][0][0]):
        mutate(data)
    report = check(data, live=False)
    assert rules(report, "error") == {"P08", "P13", "P30"}
    assert rules(report, "warning") == {"P10", "P26", "P35"}
    severities = [f.severity for f in report.findings]
    assert severities == sorted(severities)  # "error" < "warning": worst first


def test_credentials_are_reported_by_location_never_by_value() -> None:
    token = "ghp_" + "x7Kq2" * 7 + "a"
    data = ready()
    task(data, 0)["runScript"] = f"git clone https://{token}@github.com/org/repo\npython train.py\n"
    report = check(data, live=False)
    found = [f for f in report.findings if f.rule == "P33"]
    assert found and found[0].task == "actor" and found[0].field == "spec.tasks[0].runScript"
    assert all(token not in f.message for f in report.findings)


def test_the_selector_rules_are_the_signals_rules() -> None:
    """P13 and P16 call the engine's predicates: a value the signal calls multi-valued, preflight does too."""
    from bot.signals.selectors import control_plane_only_keys, multi_value_pairs

    sel = {"a": "x,y", "rlark.io/cluster-id": "rlark-gpu-a", "b": "z"}
    assert multi_value_pairs(sel) == {"a": "x,y"}
    assert control_plane_only_keys(sel) == ["rlark.io/cluster-id"]
    assert control_plane_only_keys(sel, [{"rlark.io/cluster-id": "x"}]) == []
    data = ready()
    task(data, 1)["nodeSelector"] = sel
    assert rules(check(data, live=False)) == {"P13", "P16"}


def test_messages_in_chinese() -> None:
    data = ready()
    task(data, 1)["nodeSelector"] = {}
    report = check(data, live=False, lang="zh")
    assert "nodeSelector 为空" in report.findings[0].message
