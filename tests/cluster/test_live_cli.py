"""`rlark-bot diagnose` and `check` against live clusters (the API stand-in): answers and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from cluster.standin import Fault, StandIn


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_diagnose_live_job(standin: StandIn, kubeconfig: Path, capsys: pytest.CaptureFixture[str],
                           monkeypatch: pytest.MonkeyPatch) -> None:
    # A loaded CI machine must not turn a slow answer into a partial one here: budgets are tested elsewhere.
    monkeypatch.setenv("RLARK_BOT_COLLECTION__REQUEST_TIMEOUT_SECONDS", "30")
    monkeypatch.setenv("RLARK_BOT_COLLECTION__DEADLINE_SECONDS", "120")
    status, out, err = run(capsys, "diagnose", "ppo-big", "--kubeconfig", str(kubeconfig), "--format", "json")
    assert status == 0, err
    doc = json.loads(out)
    assert doc["target"]["kind"] == "Job" and doc["findings"], doc
    assert doc["incomplete"] is False, out
    assert {r.method for r in standin.requests} == {"GET"}


def test_unknown_job_exits_3(standin: StandIn, kubeconfig: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "diagnose", "no-such-job", "--kubeconfig", str(kubeconfig))
    assert status == 3 and out == ""
    assert err.startswith("rlark-bot: job/no-such-job not found: looked in") and err.count("\n") == 1


def test_member_cluster_forbidden_is_partial(standin: StandIn, kubeconfig: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    standin.faults.append(Fault(cluster="gpu-b", status=403))
    status, out, err = run(capsys, "diagnose", "ppo-big", "--kubeconfig", str(kubeconfig), "--format", "json")
    assert status == 0, err
    assert json.loads(out)["incomplete"] is True
    assert "Traceback" not in err


def test_unreadable_kubeconfig_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "kubeconfig"
    bad.write_text("this: [is not a kubeconfig\n", encoding="utf-8")
    status, out, err = run(capsys, "diagnose", "ppo-big", "--kubeconfig", str(bad))
    assert status == 1 and out == "" and err.count("\n") == 1 and "Traceback" not in err


def test_check_live(standin: StandIn, kubeconfig: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "check", "--kubeconfig", str(kubeconfig), "--format", "json")
    assert status == 0, err
    assert "alerts" in json.loads(out)
    assert {r.method for r in standin.requests} == {"GET"}
