"""`rlark-bot preflight` and `rlark-bot nodes` as users and scripts call them: output, JSON shape, exit codes."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from bot.cli import main
from preflight.helpers import EXAMPLE, JOBS, READY

FINDING_KEYS = {"rule", "name", "severity", "task", "field", "line", "message", "source"}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_ready_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "preflight", str(READY), "--snapshot", str(EXAMPLE))
    assert (status, err) == (0, "")
    assert out.startswith("preflight job/ppo-franka-0412 (") and "READY, 0 error(s), 0 warning(s)" in out
    assert "inventory: 7 Nodes, clusters read kcp, edge, gpu-a, gpu-b (complete)" in out


def test_not_ready_exits_4_with_one_line_per_finding_worst_first(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "preflight", str(JOBS / "mistakes-head.yaml"), "--snapshot", str(EXAMPLE))
    assert status == 4
    lines = out.splitlines()[1:-1]
    assert lines[0].startswith("ERROR P02 (job): metadata.name (line 6): ")
    assert lines[-1].startswith("WARN  P31 rollout: spec.tasks[1].kubernetes.workload.kind (line ")
    kinds = [line.split()[0] for line in lines]
    assert kinds == sorted(kinds)  # ERROR before WARN
    assert all(line.endswith(")") for line in lines)  # every finding names its source


def test_json_is_the_contract_object(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "preflight", str(JOBS / "mistakes-resources.yaml"), "--snapshot", str(EXAMPLE),
                         "--format", "json")
    assert status == 4
    doc = json.loads(out)
    assert set(doc) == {"job", "ready", "findings", "not_checked", "inventory"}
    assert doc["job"] == "ppo-franka-0411" and doc["ready"] is False
    assert doc["inventory"] == {"clusters": ["kcp", "edge", "gpu-a", "gpu-b"], "nodes": 7, "complete": True}
    for f in doc["findings"]:
        assert set(f) == FINDING_KEYS and f["severity"] in ("error", "warning")
        assert f["rule"].startswith("P") and f["name"] and isinstance(f["line"], int)
    first = doc["findings"][0]
    assert (first["rule"], first["name"], first["task"], first["field"]) == ("P04", "name-free", None, "metadata.name")
    secret = "3f9a1c2b7d4e5f60718293a4b5c6d7e8f9a0b1c2"
    assert secret not in out and any(f["rule"] == "P33" for f in doc["findings"])


def test_offline_json_lists_live_rules_not_checked(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "preflight", str(READY), "--offline", "--format", "json")
    doc = json.loads(out)
    assert status == 0 and doc["ready"] is True and doc["findings"] == []
    assert {n["rule"] for n in doc["not_checked"]} >= {"P04", "P09", "P14", "P17", "P34"}
    assert all(set(n) == {"rule", "name", "why"} for n in doc["not_checked"])
    assert doc["inventory"] == {"clusters": [], "nodes": 0, "complete": False}


def test_stdin_and_chinese(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = (JOBS / "mistakes-selector.yaml").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status, out, _ = run(capsys, "preflight", "-", "--offline", "--lang", "zh")
    assert status == 4
    assert out.startswith("preflight job/sac-franka-0412（stdin）：不可提交")
    assert "nodeSelector 为空" in out and "（第 10 行）" in out


def test_a_live_job_is_rechecked_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "preflight", "job/ppo-franka-0411", "--snapshot", str(EXAMPLE), "--format", "json")
    doc = json.loads(out)
    assert doc["job"] == "ppo-franka-0411"
    assert "P04" not in {f["rule"] for f in doc["findings"]}  # it is that Job: resubmitting it is the point
    assert all(f["line"] is None for f in doc["findings"])  # not from a file
    assert status == (0 if doc["ready"] else 4)


def test_a_missing_job_exits_3_and_a_bad_name_2(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "preflight", "job/nope", "--snapshot", str(EXAMPLE))
    assert status == 3 and "job/nope not found" in err
    status, _, err = run(capsys, "preflight", "job/Bad_Name", "--snapshot", str(EXAMPLE))
    assert status == 2 and err.count("\n") == 1


def test_a_broken_snapshot_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "snapshot.yaml").write_text("controlPlane: kcp\nclusters: [kcp]\n", encoding="utf-8")
    (tmp_path / "kcp").mkdir()
    (tmp_path / "kcp" / "jobs.rlinf.io.json").write_text("{not json", encoding="utf-8")
    status, _, err = run(capsys, "preflight", str(READY), "--snapshot", str(tmp_path))
    assert status == 1 and err.startswith("rlark-bot: cannot read snapshot") and err.count("\n") == 1


def test_no_cluster_reachable_still_runs_the_offline_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KUBECONFIG", str(tmp_path / "none"))
    status, out, _ = run(capsys, "preflight", str(READY), "--kubeconfig", str(tmp_path / "missing"))
    assert status == 0 and "not checked P04, P09" in out and "inventory not read: cannot read kubeconfig" in out


def test_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "preflight", str(READY), "--snapshot", str(EXAMPLE), "--context", "x")
    assert status == 2 and "cannot be combined" in err


def test_nodes_text_and_last_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "nodes", "rlinf.io/pool=a100-train", "--snapshot", str(EXAMPLE))
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split() == ["CLUSTER", "NODE", "PHASE", "SCHEDULABLE", "FREE"]
    assert "gpu-a    gpu-a-node-1  Online  yes          nvidia.com/gpu=6" in lines
    assert lines[-1] == ("rlinf.io/pool=a100-train: 5 Node(s) in 2 cluster(s) (gpu-a, gpu-b); exactly one cluster: "
                         "no; exactly one Node: no")


def test_nodes_json_and_one_node(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "nodes", "kubernetes.io/hostname=gpu-b-node-1,rlinf.io/pool=a100-eval",
                         "--snapshot", str(EXAMPLE), "--format", "json")
    doc = json.loads(out)
    assert status == 0
    assert doc["selector"] == {"kubernetes.io/hostname": "gpu-b-node-1", "rlinf.io/pool": "a100-eval"}
    assert doc["nodes"] == [{"name": "gpu-b-node-1", "cluster": "gpu-b", "phase": "Online", "schedulable": False,
                             "usable": False, "free": {"nvidia.com/gpu": "8"}}]
    assert (doc["clusters"], doc["one_cluster"], doc["one_node"]) == (["gpu-b"], True, True)


def test_nodes_empty_match_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "nodes", "rlinf.io/pool=none", "--snapshot", str(EXAMPLE), "--format", "json")
    doc = json.loads(out)
    assert status == 0 and doc["nodes"] == [] and doc["one_cluster"] is False and doc["one_node"] is False


@pytest.mark.parametrize("selector", ["", "a", "a=b,c", "a!=b", "a=b,a=c", "bad key=x", "a=b c", "=x"])
def test_nodes_malformed_selector_exits_2(selector: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "nodes", selector, "--snapshot", str(EXAMPLE))
    assert status == 2 and out == "" and err.count("\n") == 1


def test_not_checked_reasons_in_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "preflight", str(JOBS / "mistakes-selector.yaml"), "--snapshot", str(EXAMPLE),
                         "--lang", "zh")
    assert status == 4 and "未检查 P09, P14, P15, P17, P18, P19, P20, P21, P25, P26：角色 actor：选择器无效" in out
    status, out, _ = run(capsys, "preflight", str(READY), "--offline", "--lang", "zh")
    assert status == 0 and "：--offline：未读取清单" in out
