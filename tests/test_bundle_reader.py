"""The bundle reader: kubectl's layout, YAML or JSON Lists, log sections, and one-line errors."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

from bot.bundle import BundleError, read_bundle
from bot.bundle.logs import UNKNOWN_CONTAINER, split_sections


def _write(path: Path, doc: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc), encoding="utf-8")


def _pod(name: str) -> dict[str, object]:
    return {"metadata": {"name": name, "namespace": "ci"}, "status": {"phase": "Running"}}


def test_single_cluster_without_index(tmp_path: Path) -> None:
    _write(tmp_path / "nodes.json", {"kind": "NodeList", "items": [{"metadata": {"name": "n1"}}]})
    _write(tmp_path / "ci" / "pods.json", {"kind": "PodList", "items": [_pod("p1")]})
    (tmp_path / "ci" / "p1").mkdir()
    (tmp_path / "ci" / "p1" / "logs.txt").write_text(
        "==== START logs for container main of pod ci/p1 ====\nhello\nworld\n"
        "==== END logs for container main of pod ci/p1 ====\n"
        "==== START logs for container side of pod ci/p1 ====\nside\n"
        "==== END logs for container side of pod ci/p1 ====\n",
        encoding="utf-8")
    ev = read_bundle(tmp_path)
    assert ev.clusters == ["default"]
    assert [p.name for p in ev.pods] == ["p1"] and ev.pods[0].cluster == "default"
    assert {(x.source.container, x.text) for x in ev.logs} == {("main", "hello\nworld\n"), ("side", "side\n")}
    assert [str(m) for m in ev.not_collected] == ["ci/events.json"]
    assert ev.lacks("events", cluster="default", namespace="ci") and not ev.lacks("pods")
    assert not ev.lacks("events", namespace="other")


def test_yaml_lists_and_index(tmp_path: Path) -> None:
    (tmp_path / "snapshot.yaml").write_text("capturedAt: 2026-11-20T08:00:00Z\nclusters: [a]\n", encoding="utf-8")
    (tmp_path / "a" / "ns").mkdir(parents=True)
    (tmp_path / "a" / "ns" / "pods.yaml").write_text("kind: PodList\nitems:\n- metadata: {name: y}\n", encoding="utf-8")
    ev = read_bundle(tmp_path)
    assert ev.captured_at is not None and ev.captured_at.year == 2026
    assert ev.pods[0].name == "y" and ev.pods[0].namespace == "ns" and ev.pods[0].cluster == "a"
    assert "a/nodes.json" in [str(m) for m in ev.not_collected]
    assert ev.lacks("nodes", cluster="a") and not ev.lacks("nodes", cluster="b")


def test_missing_cluster_directory_is_not_collected(tmp_path: Path) -> None:
    (tmp_path / "snapshot.yaml").write_text("clusters: [gone]\n", encoding="utf-8")
    ev = read_bundle(tmp_path)
    assert [str(m) for m in ev.not_collected] == ["gone/ (cluster directory)"]
    assert ev.lacks("pods", cluster="gone", namespace="any") and not ev.lacks("pods", cluster="here")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"kind": "PodList", "items": [', "ci/pods.json: not valid JSON at line 1"),
        ('{"kind": "Pod", "metadata": {}}', "ci/pods.json: not a Kubernetes List"),
        ('{"kind": "Pod", "items": []}', "ci/pods.json: kind 'Pod' is not a List"),
        ('{"kind": "PodList", "items": [3]}', "ci/pods.json: items[0] is not an object"),
        ('{"kind": "PodList", "items": [{"status": {"containerStatuses": [{"restartCount": "x"}]}}]}',
         "ci/pods.json: items[0].status.containerStatuses.0.restartCount"),
    ],
)
def test_corrupt_file_gives_one_line(tmp_path: Path, content: str, message: str) -> None:
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "pods.json").write_text(content, encoding="utf-8")
    with pytest.raises(BundleError) as err:
        read_bundle(tmp_path)
    assert str(err.value).startswith(message)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("name", ["pods.json", "pods.yaml"])
def test_a_list_file_that_is_not_utf8_says_where(tmp_path: Path, name: str) -> None:
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / name).write_bytes(b'{"kind": "PodList", "items": []}\n\xff\xfe')
    with pytest.raises(BundleError) as err:
        read_bundle(tmp_path)
    assert str(err.value) == f"ci/{name}: not UTF-8 text (byte 0xff at offset 33)"


def test_corrupt_index(tmp_path: Path) -> None:
    (tmp_path / "snapshot.yaml").write_text("capturedAt: [unclosed\n", encoding="utf-8")
    with pytest.raises(BundleError, match=r"^snapshot.yaml: not valid YAML"):
        read_bundle(tmp_path)
    (tmp_path / "snapshot.yaml").write_text("clusters: ['../etc']\n", encoding="utf-8")
    with pytest.raises(BundleError, match="not a directory name"):
        read_bundle(tmp_path)


def test_log_sections_cut_short_and_unmarked() -> None:
    cut = "==== START logs for container main of pod a/b ====\nline1\nline2"
    assert list(split_sections(cut)) == [("main", "line1\nline2")]
    assert list(split_sections("plain log\n")) == [(UNKNOWN_CONTAINER, "plain log\n")]
    assert list(split_sections("")) == []


def test_partial_snapshot_stays_incomplete(tmp_path: Path) -> None:
    (tmp_path / "snapshot.yaml").write_text(
        "capturedAt: 2026-11-20T08:00:00Z\nclusters: [a]\nincomplete: true\n"
        "problems: ['gpu-b: 403 Forbidden listing pods in rlark-system']\n", encoding="utf-8")
    (tmp_path / "a").mkdir()
    ev = read_bundle(tmp_path)
    assert ev.incomplete and ev.problems == ["gpu-b: 403 Forbidden listing pods in rlark-system"]


SCENARIOS = Path(__file__).parent / "scenarios"


def _shape(obj: object) -> object:
    """An object as read, down to which fields the file set and the Python types of kept unknown fields."""
    from pydantic import BaseModel

    if isinstance(obj, BaseModel):
        extra = obj.__pydantic_extra__ or {}
        return (type(obj).__name__, sorted(obj.model_fields_set),
                {k: _shape(getattr(obj, k)) for k in type(obj).model_fields}, {k: _shape(v) for k, v in extra.items()})
    if isinstance(obj, dict):
        return {k: _shape(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_shape(v) for v in obj]
    return type(obj).__name__, repr(obj)


@pytest.mark.parametrize("name", ["cause-head-override-workers-gcs-lost", "pod-run-shm-exhausted-bus-error"])
def test_json_lists_read_from_bytes_as_the_careful_path_reads_them(name: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    root = SCENARIOS / name / "bundle"
    assert any(root.rglob("pods.json")), "the scenario has JSON lists"
    fast = read_bundle(root)
    monkeypatch.setattr("bot.bundle.reader.load_json_models", lambda *_: None)
    careful = read_bundle(root)
    fields = [f for f in type(fast).model_fields if f != "logs"]
    assert sum(len(getattr(fast, f)) for f in fields if isinstance(getattr(fast, f), list)) > 0
    for f in fields:
        assert _shape(getattr(fast, f)) == _shape(getattr(careful, f)), f



def test_reading_keeps_a_frozen_heap_frozen_and_leaves_nothing_young_otherwise() -> None:
    """The Slack app and the forked helpers freeze their start-up heap; a read must not thaw it. A process that
    froze nothing gets what was read counted as old (not walked again by every young collection)."""
    example = Path(__file__).resolve().parents[1] / "examples" / "healthy-job"
    gc.freeze()
    frozen = gc.get_freeze_count()
    read_bundle(example)
    assert gc.get_freeze_count() > frozen // 2  # not thawed (frozen objects freed by their last reference leave it)
    gc.unfreeze()
    try:
        read_bundle(example)
        assert gc.get_freeze_count() == 0
        assert gc.get_count()[0] < 700  # the read's objects went to the oldest generation, not the youngest
    finally:
        gc.freeze()


@pytest.mark.parametrize("hidden", [False, True])
def test_an_empty_member_cluster_directory_is_named_not_collected(tmp_path: Path, hidden: bool) -> None:
    (tmp_path / "snapshot.yaml").write_text("controlPlane: cp\nclusters: [gpu-a, gpu-b]\n", encoding="utf-8")
    for name in ("cp", "gpu-a", "gpu-b"):
        (tmp_path / name).mkdir()
    (tmp_path / "gpu-b" / "nodes.json").write_text('{"kind": "NodeList", "items": []}', encoding="utf-8")
    if hidden:  # what a file manager leaves behind is no evidence
        (tmp_path / "gpu-a" / ".DS_Store").write_bytes(b"\0")
    ev = read_bundle(tmp_path)
    assert "gpu-a/ (cluster directory, empty)" in [str(m) for m in ev.not_collected]
    assert ev.lacks("pods", cluster="gpu-a", namespace="any") and ev.lacks("nodes", cluster="gpu-a")
    assert not any(m.cluster == "gpu-b" for m in ev.not_collected)
