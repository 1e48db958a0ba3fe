"""Still starting: a wait inside its window is a note and the diagnosis says `starting`; the same evidence read once
the window has passed is the failure; a failure named in the evidence is one at any age (tests/scenarios/young-*
are the whole bundles, written by tests/scenariogen/young.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pydantic import ValidationError
from scenario_expect import load_expect

from bot.bundle import read_bundle
from bot.cli import main
from bot.diagnose import diagnose
from bot.diagnose.result import Diagnosis
from bot.diagnose.young import describe, still_open
from bot.models import Target
from bot.redact import Redactor
from bot.runbook import Runbook
from bot.runbook.schema import Case, Trigger

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
YOUNG = sorted(p.name for p in SCENARIOS.glob("young-*") if (p / "expect.yaml").exists())
EXPECT = {n: load_expect(SCENARIOS / n / "expect.yaml") for n in YOUNG}
OPEN = [n for n in YOUNG if EXPECT[n].healthy and EXPECT[n].last_stage != "training-signal"]
WENT_THROUGH = [n for n in YOUNG if EXPECT[n].healthy and n not in OPEN]  # failed, then went through: healthy
FAILED = [n for n in YOUNG if not EXPECT[n].healthy]
NOW = datetime(2026, 11, 20, 8, 0, tzinfo=UTC)


def _errors(diag: Diagnosis) -> list[str]:
    return [f.id for f in diag.findings if f.severity in ("critical", "error")]


def _at(runbook: Runbook, name: str, later: timedelta) -> Diagnosis:
    exp = load_expect(SCENARIOS / name / "expect.yaml")
    evidence = read_bundle(SCENARIOS / name / "bundle")
    assert evidence.captured_at is not None
    return diagnose(evidence, runbook, now=evidence.captured_at + later, target=Target.parse(exp.target, exp.namespace),
                    redactor=Redactor())


def test_the_families_cover_both_sides_of_the_window() -> None:
    assert len(OPEN) >= 15 and len(FAILED) >= 10 and len(WENT_THROUGH) >= 3


@pytest.mark.parametrize("name", WENT_THROUGH)
def test_a_step_that_went_through_after_failing_is_history(name: str, diagnosed: Callable[[str], Diagnosis]) -> None:
    diag = diagnosed(name)
    assert _errors(diag) == [] and not diag.starting and diag.last_stage == "training-signal"
    assert not any(f.id in EXPECT[name].excludes for f in diag.findings)


@pytest.mark.parametrize("name", OPEN)
def test_inside_its_window_the_job_is_still_starting(name: str, diagnosed: Callable[[str], Diagnosis]) -> None:
    diag = diagnosed(name)
    assert _errors(diag) == [] and diag.starting, [(f.id, f.severity) for f in diag.findings]
    for f in diag.findings:
        if f.starting:
            assert f.severity == "info" and not f.explains  # a wait in its window explains nothing
    if diag.findings and diag.findings[0].starting:
        assert diag.first_error is None or "Waiting for" not in diag.first_error.text
        assert diag.why_first[0].startswith("still starting: ")


@pytest.mark.parametrize("name", FAILED)
def test_past_its_window_or_with_a_named_failure_it_is_not(name: str, diagnosed: Callable[[str], Diagnosis]) -> None:
    diag = diagnosed(name)
    assert not diag.starting and diag.findings and not diag.findings[0].starting
    assert diag.findings[0].severity in ("critical", "error", "warning")


@pytest.mark.parametrize("name", [n for n in OPEN if any(k in n for k in ("no-pods", "head-waits", "scaling-up",
                                                                        "claim"))])
def test_the_same_evidence_read_after_the_window_is_the_failure(runbook: Runbook, name: str) -> None:
    """Nothing in the bundle changes but `now`: 20 minutes later every window of these families has passed."""
    diag = _at(runbook, name, timedelta(minutes=20))
    assert _errors(diag), [(f.id, f.severity) for f in diag.findings]
    assert not diag.starting


def test_a_stalled_count_is_said_in_the_evidence(diagnosed: Callable[[str], Diagnosis]) -> None:
    f = diagnosed("young-head-stalled-workers-up-10m").findings[0]
    assert f.id == "rlark.ray.waiting-for-nodes" and any("stalled" in e.text for e in f.evidence)


def test_the_autoscaler_answer_is_part_of_the_evidence(diagnosed: Callable[[str], Diagnosis]) -> None:
    f = diagnosed("young-ci-scaling-up-4m").findings[0]
    assert f.starting and any("autoscaler answered" in e.text for e in f.evidence)


def test_a_refusal_is_part_of_the_evidence(diagnosed: Callable[[str], Diagnosis]) -> None:
    f = diagnosed("young-quota-refused-2p5m").findings[0]
    assert any("exceeded quota" in e.text for e in f.evidence)


@pytest.mark.parametrize(("lang", "words"), [("en", ["Still starting", "15m window"]), ("zh", ["仍在启动", "15m"])])
def test_the_note_says_still_starting_in_each_language(diagnosed: Callable[[str], Diagnosis], lang: str,
                                                       words: list[str]) -> None:
    diag = diagnosed("young-head-waits-workers-pulling-8m")
    f = next(f for f in diag.findings if f.starting)
    text = describe(f, lang, diag.now)
    assert all(w in text for w in words), text


@pytest.mark.parametrize(("name", "starting"), [("young-no-pods-6m", True), ("young-no-pods-expired-30m", False),
                                                ("young-ci-scaling-up-4m", True), ("young-ci-no-autoscaler-2m", False)])
def test_the_json_report_says_starting(name: str, starting: bool, capsys: pytest.CaptureFixture[str]) -> None:
    exp = load_expect(SCENARIOS / name / "expect.yaml")
    where = ["--namespace", exp.namespace] if exp.namespace else []
    assert main(["diagnose", exp.target, *where, "--snapshot", str(SCENARIOS / name / "bundle"), "--format",
                 "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["starting"] is starting
    assert [f["severity"] for f in doc["findings"]][:1] == (["info"] if starting else ["error"])


# ------------------------------------------------------------------------------------ the window itself


@pytest.mark.parametrize(("since_ago", "window", "open_"), [
    (0, 60.0, True), (59, 60.0, True), (60, 60.0, False), (3600, 900.0, False), (-30, 60.0, True),
])
def test_still_open(since_ago: int, window: float, open_: bool) -> None:
    assert still_open(NOW - timedelta(seconds=since_ago), window, NOW) is open_


def test_no_start_or_no_window_is_never_open() -> None:
    assert not still_open(None, 900.0, NOW) and not still_open(NOW, None, NOW)


@pytest.mark.parametrize(("text", "seconds"), [("90s", 90.0), ("15m", 900.0), ("1h30m", 5400.0), ("24h", 86400.0)])
def test_a_window_is_a_duration_with_its_unit(text: str, seconds: float) -> None:
    t = Trigger.model_validate({"signal": "ray.waiting-for-nodes", "window": text})
    assert t.window == seconds
    assert Trigger.model_validate(t.model_dump()).window == seconds  # it reads back what it writes


@pytest.mark.parametrize("text", ["15", "0s", "25h", "m", "15 m", "-5m", "", 900])
def test_a_window_without_a_unit_or_out_of_range_is_refused(text: object) -> None:
    with pytest.raises(ValidationError):
        Trigger.model_validate({"signal": "ray.waiting-for-nodes", "window": text})


def test_a_window_needs_a_signal_or_an_event_that_says_when_the_wait_began() -> None:
    with pytest.raises(ValidationError, match="signal or an event"):
        Trigger.model_validate({"pod": {"phase": "Pending"}, "window": "5m"})
    t = Trigger.model_validate({"pod": {"phase": "Pending"}, "event": {"reason": "^ExternalProvisioning$"},
                                "window": "5m"})
    assert t.window == 300.0


def test_a_note_cannot_have_a_window(runbook: Runbook) -> None:
    case = runbook.cases["rlark.ray.waiting-for-nodes"].model_dump()
    assert case["when"][0]["window"] == "15m"
    case["severity"] = "info"
    with pytest.raises(ValidationError, match="note already"):
        Case.model_validate(case)


# ------------------------------------------------------------------------------------ what a Task's message says


def _young_task(runbook: Runbook, message: str, *, minutes: float = 3) -> Diagnosis:
    from bot.models import Evidence, Job, Task

    created = (NOW - timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")
    job = Job.model_validate({"metadata": {"name": "ppo-y", "creationTimestamp": created},
                              "spec": {"tasks": [{"name": "actor", "head": True, "nodeSelector": {"gpu": "h100"}}]}})
    task = Task.model_validate({
        "metadata": {"name": "ppo-y-actor", "namespace": "rlark-gpu-a", "labels": {"rlinf.io/job": "ppo-y"},
                     "creationTimestamp": created},
        "spec": {"name": "actor", "head": True, "nodeSelector": {"gpu": "h100"},
                 "kubernetes": {"workload": {"kind": "StatefulSet", "replicas": 1}}},
        "status": {"phase": "Pending", "message": message}})
    job.cluster = task.cluster = "control-plane"
    ev = Evidence(captured_at=NOW, clusters=["control-plane"], jobs=[job], tasks=[task])
    return diagnose(ev, runbook, now=NOW, target=Target.parse("job/ppo-y"), redactor=Redactor())


@pytest.mark.parametrize("message", [
    "", "Waiting for pods to be created", "StatefulSet ppo-y-actor created", "等待 Pod 创建", "正在创建工作负载",
    "reconciling workload (attempt 1)", "Pending: 0/1 replicas ready", "pulling image registry.example/rlinf:0.2",
])
def test_a_young_task_whose_message_names_no_failure_is_still_starting(runbook: Runbook, message: str) -> None:
    diag = _young_task(runbook, message)
    assert [(f.id, f.severity) for f in diag.findings] == [("rlark.task.no-worker", "info")] and diag.starting


@pytest.mark.parametrize("message", [
    'pods "ppo-y-actor-0" is forbidden: exceeded quota: rlark-system-gpu',
    "Error creating: admission webhook \"vpod.rlark.io\" denied the request: GPU limit",
    "failed to create StatefulSet: Internal error occurred",
    "工作负载创建失败：超出配额",
    "创建 Pod 失败: 资源不足",
])
def test_a_young_task_whose_message_names_a_failure_is_one(runbook: Runbook, message: str) -> None:
    diag = _young_task(runbook, message)
    assert [(f.id, f.severity) for f in diag.findings][:1] == [("rlark.task.no-worker", "error")]
    assert not diag.starting


def test_the_same_task_an_hour_old_is_a_failure(runbook: Runbook) -> None:
    diag = _young_task(runbook, "Waiting for pods to be created", minutes=60)
    assert [(f.id, f.severity) for f in diag.findings][:1] == [("rlark.task.no-worker", "error")]


# -------------------------------------------------------------------------------- a wait in its window explains nothing


def test_a_still_starting_finding_supersedes_nothing_and_ranks_after_failures(runbook: Runbook) -> None:
    from bot.diagnose.rank import rank
    from bot.diagnose.relations import relations
    from bot.diagnose.result import Finding
    from bot.signals.stages import INDEX

    worker = Finding(case=runbook.cases["rlark.ray.head-unreachable"], evidence=[], pods=[],
                     stage=INDEX["ray-cluster-forming"], starting=True)
    head = Finding(case=runbook.cases["rlark.ray.waiting-for-nodes"], evidence=[], pods=[],
                   stage=INDEX["ray-cluster-forming"])
    assert "rlark.ray.waiting-for-nodes" in worker.case.supersedes  # the relation the window suspends
    assert relations([worker, head]) == {}
    ordered = rank([worker, head])
    assert [f.id for f in ordered] == ["rlark.ray.waiting-for-nodes", "rlark.ray.head-unreachable"]
    assert worker.severity == "info" and "'failure'" in ordered[0].why[1]
    worker.starting = False  # the same finding once its window has passed: the relation holds again
    assert ("rlark.ray.head-unreachable", "rlark.ray.waiting-for-nodes") in relations([worker, head])
