"""B as a planned run (a Job YAML file), and what `compare` refuses: exit 2 with one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from tests.compare.pairs import A, B, build, job_yaml, main_of, set_digest, task_of

IMG2 = "registry.rlinf.example/rlinf/rlinf:embodied-rlinf0.3-torch2.6-ray2.40"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    built = build(tmp_path_factory.mktemp("pair"), a_outcome="cli-missing")
    set_digest(built, A, "a1")
    return built


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _new_image(doc: dict[str, Any]) -> None:
    main_of(task_of(doc, "actor"))["image"] = IMG2


def test_planned_yaml_against_a_job_in_a_bundle(bundle: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    planned = tmp_path / "next.yaml"
    planned.write_text(job_yaml(bundle, A, name="ppo-franka-0414", edit=_new_image), encoding="utf-8")
    status, out, err = run(capsys, "compare", f"job/{A}", str(planned), "--snapshot", str(bundle), "--format", "json")
    assert status == 0, err
    doc = json.loads(out)
    assert doc["b"]["planned"] is True and doc["b"]["name"] == "ppo-franka-0414"
    # only the image reference: A's digest is not compared with a run that has pulled nothing yet
    assert [(c["task"], c["field"]) for c in doc["spec_changes"]] == [("actor", "main.image")]
    assert doc["outcome"]["b"]["planned"] is True and doc["outcome"]["b"]["last_stage"] is None
    assert doc["outcome"]["a"]["case"] == "rlark.ray.cli-missing"
    assert doc["same_stage"] is None
    assert doc["verdict"].startswith("1 change (image: ") and doc["verdict"].endswith("B is planned: no outcome yet")
    assert any("planned run" in w for w in doc["warnings"])


def test_planned_yaml_from_stdin_text(bundle: Path, capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    text = job_yaml(bundle, A, name="ppo-franka-0415")

    class Stdin:
        buffer = io.BytesIO(text.encode())

    monkeypatch.setattr("sys.stdin", Stdin)
    status, out, err = run(capsys, "compare", f"job/{A}", "-", "--snapshot", str(bundle))
    assert status == 0, err
    assert "no change in the submitted spec" in out


@pytest.mark.parametrize(("argv", "message"), [
    ([f"job/{A}", f"job/{A}"], "are the same Job"),
    ([A, f"job/{A}"], "are the same Job"),
    ([f"pod/{A}-actor-0", f"job/{B}"], "compare takes RLark Jobs"),
    ([f"job/{A}", "job/Not_A_Name"], "invalid job name"),
])
def test_refusals_exit_2_with_one_line(bundle: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
                                       message: str) -> None:
    status, out, err = run(capsys, "compare", *argv, "--snapshot", str(bundle))
    assert status == 2
    assert out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_planned_run_reusing_a_name_is_refused(bundle: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    planned = tmp_path / "again.yaml"
    planned.write_text(job_yaml(bundle, A, name=A, edit=_new_image), encoding="utf-8")
    status, out, err = run(capsys, "compare", f"job/{A}", str(planned), "--snapshot", str(bundle))
    assert status == 2 and out == ""
    assert "resubmit under a new Job name" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("text", "message"), [
    ("a: [1, 2\n", "not valid YAML"),
    ("kind: Job\napiVersion: rlinf.io/v1alpha1\n---\nkind: Job\napiVersion: rlinf.io/v1alpha1\n", "2 documents"),
    ("kind: Pod\napiVersion: v1\n", "not an RLark Job"),
    ("a: &x [1, 2]\nb: [*x, *x]\n", "anchors and aliases"),
])
def test_bad_planned_files(bundle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
                           message: str) -> None:
    planned = tmp_path / "bad.yaml"
    planned.write_text(text, encoding="utf-8")
    status, _, err = run(capsys, "compare", f"job/{A}", str(planned), "--snapshot", str(bundle))
    assert status == 2
    assert message in err and len(err.strip().splitlines()) == 1


def test_missing_job_exit_3(bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "compare", f"job/{A}", "job/never-submitted", "--snapshot", str(bundle))
    assert status == 3
    assert "never-submitted" in err and len(err.strip().splitlines()) == 1


def test_a_cannot_be_a_file(bundle: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    planned = tmp_path / "a.yaml"
    planned.write_text(job_yaml(bundle, A, name="x-planned"), encoding="utf-8")
    status, _, err = run(capsys, "compare", str(planned), f"job/{B}", "--snapshot", str(bundle))
    assert status == 2 and "only B may be" in err


def test_planned_run_sharing_a_hostpath_on_the_nodes_its_selector_matches(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vol = {"head": {"volumes": [{"name": "data", "hostPath": {"path": "/mnt/shared"}}],
                    "mounts": [{"name": "data", "mountPath": "/data"}]}}
    built = build(tmp_path, a=vol)  # A is running on gpu-a-node-01 with /mnt/shared
    planned = tmp_path / "next.yaml"
    planned.write_text(job_yaml(built, A, name="ppo-franka-0414"), encoding="utf-8")
    status, out, err = run(capsys, "compare", f"job/{A}", str(planned), "--snapshot", str(built), "--format", "json")
    assert status == 0, err
    warnings = json.loads(out)["warnings"]
    assert any("hostPath /mnt/shared" in w and "gpu-a-node-01" in w for w in warnings), warnings
