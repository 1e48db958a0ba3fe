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


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "healthy-job"


def _snapshot_example(out: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    target = (EXAMPLE / "TARGET").read_text().strip()
    status = main(["snapshot", target, "--snapshot", str(EXAMPLE), "-o", str(out)])
    return status, capsys.readouterr().err


def test_an_output_that_is_a_file_is_said_so_and_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "notes.txt"
    out.write_text("mine")
    assert _snapshot_example(out, capsys) == (
        2, f"rlark-bot: --output {out}: is a file; a bundle is a directory (a new or an empty one)\n")
    assert out.read_text() == "mine"


def test_an_output_below_a_file_names_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    out = tmp_path / "notes.txt" / "new" / "snap"
    assert _snapshot_example(out, capsys) == (
        2, f"rlark-bot: --output {out}: {tmp_path / 'notes.txt'} is a file, not a directory\n")


def test_missing_directories_above_the_output_are_made(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "new" / "deeper" / "snap"
    status, err = _snapshot_example(out, capsys)
    assert status == 0 and err.startswith(f"rlark-bot: wrote {out} (") and (out / "snapshot.yaml").is_file()


def test_an_unwritable_output_directory_names_where_not_its_temporary_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "snap"

    def refused(*, prefix: str, dir: Path) -> str:
        raise PermissionError(13, "Permission denied", str(dir / f"{prefix}k2j4x9"))
    monkeypatch.setattr("bot.bundle.writer.tempfile.mkdtemp", refused)
    assert _snapshot_example(out, capsys) == (1, f"rlark-bot: cannot write {out}: {tmp_path}: Permission denied\n")


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
