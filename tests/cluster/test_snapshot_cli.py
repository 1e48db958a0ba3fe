"""`rlark-bot snapshot`: live and bundle sources, redaction, exit codes; and progress stays off pipes."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bot.bundle import read_bundle
from bot.cli import main
from bot.cluster.progress import NullProgress, RichProgress, for_terminal
from bot.redact import Redactor
from cluster.standin import StandIn

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def test_snapshot_from_live_writes_a_readable_redacted_bundle(
        standin: StandIn, kubeconfig: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    standin.clusters["gpu-a"].add_log("rlark-system", "ppo-big-head-0", "main", f"export GH_TOKEN={TOKEN}\n")
    out = tmp_path / "snap"
    assert main(["snapshot", "job/ppo-big", "--output", str(out), "--kubeconfig", str(kubeconfig)]) == 0
    assert "redactions" in capsys.readouterr().err
    text = "".join(p.read_text() for p in out.rglob("*") if p.is_file())
    assert TOKEN not in text and "REDACTED" in text
    ev = read_bundle(out)
    assert ev.control_plane == "kcp" and len(ev.pods) == 16 and ev.not_collected == []
    logs = (out / "gpu-a" / "rlark-system" / "ppo-big-head-0" / "logs.txt").read_text()
    assert logs.startswith("==== START logs for container main of pod rlark-system/ppo-big-head-0 ====\n")
    assert logs.rstrip().endswith("==== END logs for container main of pod rlark-system/ppo-big-head-0 ====")
    pods = json.loads((out / "gpu-b" / "rlark-system" / "pods.json").read_text())
    assert pods["kind"] == "PodList" and pods["items"][0]["kind"] == "Pod"


def test_snapshot_of_a_bundle_sanitizes_it(tmp_path: Path, standin: StandIn, kubeconfig: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    assert main(["snapshot", "job/ppo-big", "-o", str(first), "--kubeconfig", str(kubeconfig)]) == 0
    pods = first / "gpu-a" / "rlark-system" / "pods.json"
    pods.write_text(pods.read_text().replace('"rlark-network-sidecar"', f'"sidecar-{TOKEN}"', 1))
    assert main(["snapshot", "ppo-big", "-o", str(second), "--snapshot", str(first)]) == 0
    assert TOKEN not in (second / "gpu-a" / "rlark-system" / "pods.json").read_text()
    assert read_bundle(second).model_dump(exclude={"pods"}) == read_bundle(first).model_dump(exclude={"pods"})


def test_partial_snapshot_keeps_missing_apart_from_empty(tmp_path: Path, standin: StandIn) -> None:
    kc = standin.write_kubeconfig(tmp_path / "kc", {"kcp": "kcp", "gpu-a": "gpu-a"}, current="kcp")
    out = tmp_path / "snap"
    assert main(["snapshot", "job/ppo-big", "-o", str(out), "--kubeconfig", str(kc)]) == 0
    ev = read_bundle(out)
    assert "gpu-b/ (cluster directory)" in map(str, ev.not_collected)
    assert "incomplete: true" in (out / "snapshot.yaml").read_text()


@pytest.mark.parametrize(("argv", "status", "message"), [
    (["snapshot", "job/nope"], 3, "not found: looked in"),
    (["snapshot", "Bad_Name"], 2, "invalid job name"),
])
def test_snapshot_exit_codes(tmp_path: Path, standin: StandIn, kubeconfig: Path, argv: list[str], status: int,
                             message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*argv, "-o", str(tmp_path / "x"), "--kubeconfig", str(kubeconfig)]) == status
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_snapshot_refuses_a_non_empty_output(tmp_path: Path, kubeconfig: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "keep").write_text("mine")
    assert main(["snapshot", "job/ppo-big", "-o", str(tmp_path / "x"), "--kubeconfig", str(kubeconfig)]) == 2
    assert (tmp_path / "x" / "keep").read_text() == "mine"


def test_progress_only_on_a_terminal() -> None:
    assert isinstance(for_terminal(enabled=True, redactor=Redactor(), stream=io.StringIO()), NullProgress)

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Tty()
    progress = for_terminal(enabled=True, redactor=Redactor(), stream=stream)
    assert isinstance(progress, RichProgress)
    progress.reading("gpu-a: list pods in rlark-system", requests=3, nbytes=4096)
    progress.close("read 3 cluster(s)")
    assert "read 3 cluster(s)" in stream.getvalue()
    assert isinstance(for_terminal(enabled=False, redactor=Redactor(), stream=Tty()), NullProgress)
