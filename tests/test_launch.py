"""The installed command's entry point (`bot.launch`): a bounded command ends without the interpreter's teardown,
and still delivers all of its output and its exit status, through a pipe as to a terminal or a file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "ci-runner-image-pull"
RUNNER = "runner/linux-aarch64-a2-1-kq7xv-runner-x7k2p"
LAUNCH = "from bot.launch import run; run()"


def _installed(*argv: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-c", LAUNCH, *argv], capture_output=True, cwd=ROOT, check=False,
                          timeout=120)


@pytest.mark.parametrize("fmt", ["json", "text", "ticket"])
def test_a_bounded_command_writes_all_of_its_output_before_it_ends(capsys: pytest.CaptureFixture[str],
                                                                    fmt: str) -> None:
    argv = ["diagnose", RUNNER, "--snapshot", str(EXAMPLE), "--format", fmt]
    assert main(argv) == 0
    want = capsys.readouterr().out
    got = _installed(*argv)
    assert got.returncode == 0, got.stderr
    assert got.stdout.decode("utf-8") == want and want.endswith("\n")


def test_a_failing_bounded_command_keeps_its_status_and_its_one_line() -> None:
    got = _installed("diagnose", "job/no-such-job", "--snapshot", str(EXAMPLE))
    assert got.returncode == 3
    assert got.stdout == b"" and got.stderr.decode("utf-8").count("\n") == 1


def test_an_exit_handler_still_runs_at_the_end_of_a_bounded_command(tmp_path: Path) -> None:
    mark = tmp_path / "ran"
    code = ("import atexit, pathlib, sys; from bot.launch import finish; "
            f"atexit.register(pathlib.Path({str(mark)!r}).write_text, 'yes'); "
            "sys.stdout.write('out'); finish(5, bounded=True)")
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT, check=False, timeout=60)
    assert (got.returncode, got.stdout) == (5, b"out")
    assert mark.read_text() == "yes"
