"""`rlark-bot compare A B` on pairs of runs built to differ in exactly one category, in several, or in nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.compare import CATEGORIES
from tests.compare.pairs import A, B, build, edit_job, main_of, set_digest, task_of

IMG2 = "registry.rlinf.example/rlinf/rlinf:embodied-rlinf0.3-torch2.6-ray2.40"
GPU_COUNT = "nvidia.com/gpu.count"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def compare_json(capsys: pytest.CaptureFixture[str], bundle: Path, *extra: str, b: str = f"job/{B}"
                 ) -> dict[str, Any]:
    status, out, err = run(capsys, "compare", f"job/{A}", b, "--snapshot", str(bundle), "--format", "json", *extra)
    assert status == 0, err
    doc: dict[str, Any] = json.loads(out)
    return doc


def _kind(doc: dict[str, Any]) -> None:
    task_of(doc, "rollout")["kubernetes"]["workload"]["kind"] = "Deployment"


# category -> (build keywords for the pair, an edit of B's Job after the build, a field that must be reported)
SINGLE: dict[str, tuple[dict[str, Any], Any, str]] = {
    "image": ({"b": {"head": {"image": IMG2}, "worker": {"image": IMG2}}}, None, "main.image"),
    "selector": ({"b": {"worker": {"selector": {"rlinf.io/pool": "a800-train", GPU_COUNT: "8"}}}}, None,
                 f"nodeSelector.{GPU_COUNT}"),
    "resources": ({"b": {"worker": {"gpus": 4}}}, None, "main.requests.nvidia.com/gpu"),
    "replicas": ({"b": {"worker": {"replicas": 2}}}, None, "replicas"),
    "scripts": ({"b": {"head": {"prepare": "source /opt/conda/bin/activate rlinf"}}}, None, "prepareScript"),
    "mounts": ({"b": {"head": {"volumes": [{"name": "data", "hostPath": {"path": "/mnt/data"}}],
                               "mounts": [{"name": "data", "mountPath": "/data"}]}}}, None, "volume data"),
    "env": ({"a": {"head": {"env": [{"name": "RLINF_SEED", "value": "1"}]}},
             "b": {"head": {"env": [{"name": "RLINF_SEED", "value": "2"}]}}}, None, "main.RLINF_SEED"),
    "domain": ({"domain": ("", "franka-lab")}, None, "domain"),
    "kind": ({}, _kind, "workload.kind"),
}


def test_every_category_has_a_pair() -> None:
    assert set(SINGLE) == set(CATEGORIES)


@pytest.mark.parametrize("category", list(SINGLE))
def test_one_category_is_detected_and_named_in_the_verdict(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           category: str) -> None:
    kw, edit, fld = SINGLE[category]
    bundle = build(tmp_path, **kw)
    if edit is not None:
        edit_job(bundle, B, edit)
    doc = compare_json(capsys, bundle)
    assert doc["categories_changed"] == [category]
    assert {c["category"] for c in doc["spec_changes"]} == {category}
    assert fld in {c["field"] for c in doc["spec_changes"]}
    assert doc["verdict"].startswith(f"1 change ({category}: ")
    assert set(doc) >= {"a", "b", "spec_changes", "categories_changed", "outcome", "same_stage", "verdict",
                        "warnings"}
    for side in ("a", "b"):
        assert set(doc["outcome"][side]) >= {"phase", "last_stage", "first_error", "case", "cases", "placement",
                                             "durations"}


def test_ignored_fields_report_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Names, uids, timestamps, status and restart annotations differ; claim names differ only by the job name."""
    def claims(job: str) -> dict[str, Any]:
        return {"head": {"volumes": [{"name": "ckpt", "persistentVolumeClaim": {"claimName": f"{job}-ckpt"}}],
                         "mounts": [{"name": "ckpt", "mountPath": "/ckpt"}], "pvc_map": {f"{job}-ckpt": "rclone"}}}

    bundle = build(tmp_path, a=claims(A), b=claims(B), b_outcome="cli-missing")

    def restarted(doc: dict[str, Any]) -> None:
        doc["metadata"]["annotations"]["kubectl.kubernetes.io/restartedAt"] = "2026-11-20T07:30:00Z"
        doc["metadata"]["uid"] = "00000000-0000-0000-0000-000000000000"
        doc["status"]["phase"] = "Failed"
        for t in doc["spec"]["tasks"]:
            t["kubernetes"]["workload"]["template"]["metadata"]["annotations"] = {
                "kubectl.kubernetes.io/restartedAt": "2026-11-20T07:31:00Z"}
            main_of(t)["resources"]["limits"]["memory"] = "1Gi"
    edit_job(bundle, A, restarted)
    edit_job(bundle, B, lambda d: [main_of(t)["resources"]["limits"].update(memory="1024Mi")
                                   for t in d["spec"]["tasks"]])
    doc = compare_json(capsys, bundle)
    assert doc["spec_changes"] == []
    assert doc["categories_changed"] == []
    assert doc["verdict"].startswith("no change in the submitted spec: look at the environment")
    # the outcome still differs, and the verdict says so
    assert "stage training-signal → prepare-script" in doc["verdict"]
    assert "rlark.ray.cli-missing new" in doc["verdict"]


def test_several_categories_cannot_be_pinned(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bundle = build(tmp_path, b={"head": {"image": IMG2, "env": [{"name": "RLINF_SEED", "value": "2"}]},
                                "worker": {"gpus": 4}})
    doc = compare_json(capsys, bundle)
    assert doc["categories_changed"] == ["image", "resources", "env"]
    assert doc["verdict"].startswith("3 categories changed: the outcome cannot be pinned on one change")


def test_verdict_names_the_stage_moved_and_the_case_gone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = "registry.rlinf.example/rlinf/rlinf:math-rlinf0.2-torch2.6"
    bundle = build(tmp_path, a={"head": {"image": old}, "worker": {"image": old}}, a_outcome="cli-missing")
    doc = compare_json(capsys, bundle)
    assert doc["verdict"] == (f"1 change (image: …{old[-47:]} → …{IMG2[-47:].replace('0.3', '0.2')}, 2 tasks): "
                              "stage prepare-script → training-signal; rlark.ray.cli-missing gone")
    assert doc["outcome"]["a"]["case"] == "rlark.ray.cli-missing"
    assert doc["outcome"]["b"]["case"] == "none"
    assert doc["outcome"]["cases_only_in_a"] == ["rlark.ray.cli-missing"]
    same = doc["same_stage"]
    assert same["stage"] == "prepare-script"
    assert "Ray CLI is not found" in same["a"]["lines"][0]
    assert same["b"] is None
    assert doc["outcome"]["a"]["placement"]["clusters"] == ["gpu-a"]
    assert doc["outcome"]["b"]["durations"]["scheduled"] is not None


def test_digest_from_image_id_counts_when_both_pulled(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bundle = build(tmp_path)
    set_digest(bundle, A, "a1")
    set_digest(bundle, B, "b2")
    doc = compare_json(capsys, bundle)
    assert doc["categories_changed"] == ["image"]
    digest = [c for c in doc["spec_changes"] if c["field"] == "main.digest"]
    assert [c["task"] for c in digest] == ["actor", "rollout"]
    assert digest[0]["a"] == "sha256:" + "a1" * 32 and digest[0]["b"] == "sha256:" + "b2" * 32
    set_digest(bundle, B, "a1")
    assert compare_json(capsys, bundle)["spec_changes"] == []


def test_no_digest_compared_when_one_run_never_pulled(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bundle = build(tmp_path)
    set_digest(bundle, A, "a1")
    for path in bundle.glob("*/rlark-system/pods.json"):
        text = path.read_text(encoding="utf-8")
        doc = json.loads(text)
        for pod in doc["items"]:
            if pod["metadata"]["name"].startswith(B):
                for s in pod["status"]["containerStatuses"]:
                    s["imageID"] = ""
        path.write_text(json.dumps(doc), encoding="utf-8")
    assert compare_json(capsys, bundle)["spec_changes"] == []


def test_secrets_never_printed_in_env_or_scripts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key_a, key_b = "a3f9c2e1b7d4" * 3 + "0a1b", "9e8d7c6b5a4f" * 3 + "1c2d"
    token = "hf_" + "QwErTyUiOpAsDfGhJkLzXcVbNm" + "123456"
    bundle = build(tmp_path, a={"head": {"env": [{"name": "WANDB_API_KEY", "value": key_a}]}},
                   b={"head": {"env": [{"name": "WANDB_API_KEY", "value": key_b}],
                               "prepare": f"huggingface-cli login --token {token}"}})
    for fmt in ("json", "text", "markdown"):
        status, out, err = run(capsys, "compare", f"job/{A}", f"job/{B}", "--snapshot", str(bundle), "--format", fmt)
        assert status == 0, err
        assert key_a not in out and key_b not in out and token not in out
        assert "WANDB_API_KEY" in out
    doc = compare_json(capsys, bundle)
    assert doc["categories_changed"] == ["scripts", "env"]
    assert doc["redactions"] >= 3


def test_shared_hostpath_warned_while_both_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vol = {"head": {"volumes": [{"name": "data", "hostPath": {"path": "/mnt/shared"}}],
                    "mounts": [{"name": "data", "mountPath": "/data"}]}}
    bundle = build(tmp_path, a=vol, b=vol)
    doc = compare_json(capsys, bundle)
    assert any("hostPath /mnt/shared" in w and "gpu-a-node-01" in w for w in doc["warnings"])
    edit_job(bundle, A, lambda d: d["spec"].update(stopped=True))
    assert not any("hostPath" in w for w in compare_json(capsys, bundle)["warnings"])


def test_shared_claim_warned(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vol = {"head": {"volumes": [{"name": "d", "persistentVolumeClaim": {"claimName": "team-datasets"}}],
                    "mounts": [{"name": "d", "mountPath": "/datasets"}]}}
    doc = compare_json(capsys, build(tmp_path, a=vol, b=vol))
    assert any("claim team-datasets" in w for w in doc["warnings"])


def test_b_still_running_is_warned(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = compare_json(capsys, build(tmp_path, b_outcome="cli-missing"))
    assert doc["outcome"]["b"]["phase"] not in ("Succeeded", "Failed", "Stopped")
    assert any(w.startswith("B is still running") for w in doc["warnings"])
    doc = compare_json(capsys, build(tmp_path / "other", a_outcome="cli-missing"))
    assert not any(w.startswith("B is still running") for w in doc["warnings"])


@pytest.mark.parametrize(("fmt", "lang", "expect"), [
    ("text", "en", "verdict: 1 change (image:"), ("markdown", "en", "**verdict:** 1 change (image:"),
    ("text", "zh", "结论: 1 处变更（image："), ("markdown", "zh", "两者都到达的最远阶段"),
])
def test_human_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str, lang: str, expect: str) -> None:
    bundle = build(tmp_path, b={"head": {"image": IMG2}, "worker": {"image": IMG2}}, b_outcome="cli-missing")
    status, out, err = run(capsys, "compare", f"job/{A}", B, "--snapshot", str(bundle), "--format", fmt,
                           "--lang", lang)
    assert status == 0, err
    assert expect in out
    assert "rlark.ray.cli-missing" in out
    assert out.rstrip().splitlines()[-1].startswith(("redacted", "已脱敏"))


def test_durations_from_object_times_and_stamped_markers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bundle = build(tmp_path)
    log = bundle / "gpu-a" / "rlark-system" / f"{A}-actor-0" / "logs.txt"
    text = log.read_text(encoding="utf-8")
    text = text.replace("Executing prepare script...", "2026-11-20 06:31:30,000 Executing prepare script...", 1)
    text = text.replace("Executing run script...", "2026-11-20 06:40:00,000 Executing run script...", 1)
    log.write_text(text, encoding="utf-8")
    durations = compare_json(capsys, bundle)["outcome"]["a"]["durations"]
    assert list(durations) == ["scheduled", "containers-started", "prepare-script", "ray-cluster-ready", "run-script"]
    # A was created at 06:30:00: each duration counts from the stage before it that has a time
    upto_prepare = durations["scheduled"] + durations["containers-started"] + durations["prepare-script"]
    assert upto_prepare == 90
    assert upto_prepare + durations["ray-cluster-ready"] + durations["run-script"] == 600
    assert all(v > 0 for v in durations.values())


def test_runs_given_newer_first_are_compared_and_warned(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bundle = build(tmp_path, b={"head": {"image": IMG2}})
    status, out, err = run(capsys, "compare", f"job/{B}", f"job/{A}", "--snapshot", str(bundle), "--format", "json")
    assert status == 0, err
    doc = json.loads(out)
    assert any(w.startswith("A was created after B") for w in doc["warnings"])
    assert doc["spec_changes"][0]["a"] == IMG2  # the changes read from the first run given to the second
    assert not any(w.startswith("A was created after B") for w in compare_json(capsys, bundle)["warnings"])


def test_the_commands_formats_are_the_comparisons() -> None:
    """`compare --format` is declared without loading the comparison (start-up of every other command)."""
    from bot.commands import compare as command
    from bot.compare import FORMATS

    assert command.FORMATS == FORMATS
