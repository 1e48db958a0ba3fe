"""`rlark-bot timeline` as users call it: outputs by extension, text on stdout, exit codes and one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from timeline.support import JOB, SCENARIOS, png_size

BUNDLE = str(SCENARIOS / "rlark-worker-replaced" / "bundle")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_png_and_text_together(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_png = tmp_path / "deep" / "t.png"
    status, out, err = run(capsys, "timeline", JOB, "--snapshot", BUNDLE, "--output", str(out_png),
                           "--format", "text")
    assert status == 0, err
    assert out.startswith("Timeline of job/ppo-franka-0412") and "ppo-franka-0412-rollout-1" in out
    width, height = png_size(out_png.read_bytes())
    assert width >= 800 and height <= 4000


def test_svg_alone_prints_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_svg = tmp_path / "t.SVG"
    status, out, err = run(capsys, "timeline", "ppo-franka-0412", "--snapshot", BUNDLE, "--output", str(out_svg))
    assert (status, out, err) == (0, "", "")
    assert out_svg.read_text(encoding="utf-8").startswith("<svg xmlns=")


def test_with_diagnose_the_first_error_is_the_diagnosis_s(capsys: pytest.CaptureFixture[str]) -> None:
    bundle = str(SCENARIOS / "rlark-ray-worker-exit-nonzero" / "bundle")
    status, out, _ = run(capsys, "timeline", JOB, "--snapshot", bundle, "--diagnose")
    assert status == 0
    assert out.splitlines()[-1].startswith("First error 07:13:00Z on ppo-franka-0412-rollout-2 (diagnosis): [2026-11")
    status, out, _ = run(capsys, "timeline", JOB, "--snapshot", bundle)
    assert "First error-looking line 07:13:00Z on ppo-franka-0412-rollout-2 (log scan)" in out
    assert out.splitlines()[-1].startswith("`rlark-bot diagnose` (or `timeline --diagnose`) names")


def test_text_is_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "timeline", JOB, "--snapshot", BUNDLE, "--now", "2026-11-20T09:00:00Z")
    assert status == 0 and "to 09:00:00Z (3h30m)" in out.splitlines()[0]


@pytest.mark.parametrize(("argv", "status", "says"), [
    (["job/nope"], 3, "job/nope not found: looked for Job 'nope'"),
    (["job/Bad_Name"], 2, "invalid job name"),
    ([JOB, "--output", "t.jpg"], 2, "name a .png or .svg file"),
    ([JOB, "--format", "json"], 2, "invalid choice"),
    ([JOB, "--now", "yesterday"], 2, "is not an RFC3339 time"),
])
def test_refusals_are_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], status: int,
                               says: str) -> None:
    try:
        got = main(["timeline", *argv, "--snapshot", BUNDLE])
    except SystemExit as exc:  # argparse's own usage errors
        got = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert got == status and out == ""
    assert says in err and "Traceback" not in err
    assert len([line for line in err.splitlines() if line.startswith("rlark-bot")]) == 1


def test_an_output_under_a_file_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    status, out, err = run(capsys, "timeline", JOB, "--snapshot", BUNDLE, "--output", str(blocker / "t.png"))
    assert status == 2 and out == "" and "is a file, not a directory" in err


def test_a_name_too_long_is_bad_usage(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    too_long = tmp_path / ("t" * 300 + ".svg")  # ENAMETOOLONG, for root too
    status, out, err = run(capsys, "timeline", JOB, "--snapshot", BUNDLE, "--output", str(too_long))
    assert status == 2 and out == ""
    assert "File name too long" in err and len(err.splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("name", ["t.svg", "t.png"])
def test_an_unwritable_output_is_one_line(capsys: pytest.CaptureFixture[str], name: str) -> None:
    status, out, err = run(capsys, "timeline", JOB, "--snapshot", BUNDLE, "--output", f"/proc/{name}")  # root too
    assert status == 1 and out == ""
    assert err == f"rlark-bot: cannot write /proc/{name}: No such file or directory\n"
