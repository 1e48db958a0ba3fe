"""Per-stage durations say where each time came from: the objects, the wrapper's timed markers, or object times
standing in for a marker the Head's log gives no time (only for stages the run reached; never the run script)."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from tests.compare.pairs import A, B, build

HEAD = f"{A}-actor-0"
STAMPS = re.compile(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}[.,]?\d*")


def compare(capsys: pytest.CaptureFixture[str], bundle: Path, fmt: str = "json", lang: str = "en") -> Any:
    status = main(["compare", f"job/{A}", f"job/{B}", "--snapshot", str(bundle), "--format", fmt, "--lang", lang])
    out, err = capsys.readouterr()
    assert status == 0, err
    return json.loads(out) if fmt == "json" else out


def head_log(bundle: Path, job: str = A) -> Path:
    return bundle / "gpu-a" / "rlark-system" / f"{job}-actor-0" / "logs.txt"


def stamp(bundle: Path, marks: dict[str, str], job: str = A) -> None:
    log = head_log(bundle, job)
    text = log.read_text(encoding="utf-8")
    for marker, at in marks.items():
        assert marker in text
        text = text.replace(marker, f"{at} {marker}", 1)
    log.write_text(text, encoding="utf-8")


def pods(bundle: Path) -> list[dict[str, Any]]:
    return list(json.loads((bundle / "gpu-a" / "rlark-system" / "pods.json").read_text(encoding="utf-8"))["items"])


def late_worker(bundle: Path, name: str, at: str) -> None:
    """The worker's `main` first started at `at`, in its events and its container status alike."""
    ns = bundle / "gpu-a" / "rlark-system"
    events = json.loads((ns / "events.json").read_text(encoding="utf-8"))
    for e in events["items"]:
        if e["involvedObject"]["name"] == name and e["reason"] == "Started" and e["message"].endswith("main"):
            e["firstTimestamp"] = e["lastTimestamp"] = at
    (ns / "events.json").write_text(json.dumps(events), encoding="utf-8")
    doc = json.loads((ns / "pods.json").read_text(encoding="utf-8"))
    for pod in doc["items"]:
        if pod["metadata"]["name"] == name:
            for status in pod["status"]["containerStatuses"]:
                if status["name"] == "main":
                    status["state"] = {"running": {"startedAt": at}}
    (ns / "pods.json").write_text(json.dumps(doc), encoding="utf-8")


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def first_main_start(bundle: Path, pod: dict[str, Any]) -> datetime:
    """The kubelet's "Started container main" events and the container status, the earliest."""
    events = json.loads((bundle / "gpu-a" / "rlark-system" / "events.json").read_text(encoding="utf-8"))["items"]
    times = [_time(e["firstTimestamp"]) for e in events if e["reason"] == "Started"
             and e["involvedObject"]["name"] == pod["metadata"]["name"] and e["message"].endswith("container main")]
    status = next(s for s in pod["status"]["containerStatuses"] if s["name"] == "main")
    state = status["state"].get("running") or status["state"].get("terminated")
    return min([*times, _time(state["startedAt"])])


def test_every_stage_names_its_source_and_timed_markers_are_measured(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    bundle = build(tmp_path)
    for job in (A, B):
        stamp(bundle, {"Executing prepare script...": "2026-11-20 06:31:30,000",
                       "Ray cluster is ready.": "2026-11-20 06:33:00,000",
                       "Executing run script...": "2026-11-20 06:40:00,000"}, job)
    a = compare(capsys, bundle)["outcome"]["a"]
    assert list(a["duration_sources"]) == list(a["durations"])
    assert a["duration_sources"] == {"scheduled": "condition", "containers-started": "container",
                                     "prepare-script": "marker", "ray-cluster-ready": "marker",
                                     "run-script": "marker"}
    assert a["durations"]["ray-cluster-ready"] == 90 and a["durations"]["run-script"] == 420
    text = compare(capsys, bundle, "text")
    assert "*" not in text.split("durations per stage (s):", 1)[1].split("cases only in A", 1)[0]


def test_untimed_markers_of_reached_stages_are_bounded_by_object_times(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    bundle = build(tmp_path)
    log = head_log(bundle)
    text = STAMPS.sub("", log.read_text(encoding="utf-8"))  # the wrapper's markers stay, no line has a time
    assert "Executing prepare script..." in text and "Ray cluster is ready." in text
    log.write_text(text, encoding="utf-8")
    late_worker(bundle, f"{A}-rollout-0", "2026-11-20T06:31:40Z")  # the last pod up is a worker, after the Head
    doc = compare(capsys, bundle)
    a = doc["outcome"]["a"]
    assert a["last_stage"] in ("run-script", "training-signal")
    assert a["duration_sources"] == {"scheduled": "condition", "containers-started": "container",
                                     "prepare-script": "head-started", "ray-cluster-ready": "pods-started",
                                     "run-script": None}
    assert a["durations"]["prepare-script"] == 0  # the Head's main start: no later than the stage before it
    assert a["durations"]["run-script"] is None  # the run script never gets a stand-in
    job = next(j for j in json.loads((bundle / "control-plane" / "jobs.rlinf.io.json").read_text(
        encoding="utf-8"))["items"] if j["metadata"]["name"] == A)
    created = _time(job["metadata"]["creationTimestamp"])
    mine = [p for p in pods(bundle) if p["metadata"]["name"].startswith(A + "-")]
    assert len(mine) == 2  # the Head and a worker
    last_start = max(first_main_start(bundle, p) for p in mine)
    upto_ready = sum(a["durations"][s] for s in ("scheduled", "containers-started", "prepare-script",
                                                 "ray-cluster-ready"))
    assert last_start == _time("2026-11-20T06:31:40Z")
    assert upto_ready == (last_start - created).total_seconds()
    en = compare(capsys, bundle, "text")
    assert "0*" in en and "* from object times (no timed wrapper marker in the Head's log)" in en
    assert "* 取自对象时间" in compare(capsys, bundle, "text", "zh")
    assert "_* from object times" in compare(capsys, bundle, "markdown")


def test_a_stage_not_reached_gets_no_stand_in(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bundle = build(tmp_path, b_outcome="cli-missing")  # B's wrappers stop after the prepare script
    b = compare(capsys, bundle)["outcome"]["b"]
    assert b["last_stage"] in ("rank-assigned", "prepare-script")
    assert b["durations"]["ray-cluster-ready"] is None and b["duration_sources"]["ray-cluster-ready"] is None
    assert b["durations"]["run-script"] is None and b["duration_sources"]["run-script"] is None
    assert b["duration_sources"]["containers-started"] == "container"


def test_scheduled_from_the_scheduler_event_when_the_condition_was_not_collected(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bundle = build(tmp_path)
    path = bundle / "gpu-a" / "rlark-system" / "pods.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    for pod in doc["items"]:
        if pod["metadata"]["name"] == HEAD:
            pod["status"]["conditions"] = [c for c in pod["status"].get("conditions", [])
                                           if c["type"] != "PodScheduled"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    events = json.loads((bundle / "gpu-a" / "rlark-system" / "events.json").read_text(encoding="utf-8"))["items"]
    scheduled = [e for e in events if e["reason"] == "Scheduled" and e["involvedObject"]["name"] == HEAD]
    a = compare(capsys, bundle)["outcome"]["a"]
    if scheduled:
        assert a["duration_sources"]["scheduled"] == "event" and a["durations"]["scheduled"] is not None
    else:
        assert a["duration_sources"]["scheduled"] is None and a["durations"]["scheduled"] is None
