"""The admin ticket's "change since the last run": the spec half of `compare` against the predecessor Job."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from tests.compare.pairs import A, B, build

IMG2 = "registry.rlinf.example/rlinf/rlinf:embodied-rlinf0.3-torch2.6-ray2.40"
LABEL = "Change since the last run: "


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("since"), b={"head": {"image": IMG2}, "worker": {"image": IMG2}})


def ticket(capsys: pytest.CaptureFixture[str], bundle: Path, job: str, *extra: str) -> list[str]:
    status = main(["diagnose", f"job/{job}", "--snapshot", str(bundle), "--format", "ticket", *extra])
    out, err = capsys.readouterr()
    assert status == 0, err
    return out.splitlines()


def test_predecessor_by_prefix_fills_the_line(bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [x for x in ticket(capsys, bundle, B) if x.startswith(LABEL)]
    assert lines == [f"{LABEL}job/{A} → job/{B}: 1 change (image: …{IMG2.replace('0.3', '0.2')[-47:]} → "
                     f"…{IMG2[-47:]}, 2 tasks)"]


def test_no_predecessor_no_line(bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert not any(x.startswith(LABEL) for x in ticket(capsys, bundle, A))


def test_named_predecessor_and_a_missing_one(bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    named = [x for x in ticket(capsys, bundle, A, "--since", f"job/{B}") if x.startswith(LABEL)]
    assert named and named[0].startswith(f"{LABEL}job/{B} → job/{A}: 1 change (image: ")
    missing = [x for x in ticket(capsys, bundle, B, "--since", "gone-0001") if x.startswith(LABEL)]
    assert missing == [f"{LABEL}job/gone-0001: not in the evidence read"]
    assert main(["diagnose", f"job/{B}", "--snapshot", str(bundle), "--format", "ticket", "--since", "Bad_"]) == 2
