"""The typed report: it validates for every scenario and example in both languages, keeps the Diagnosis's
order and vocabulary, refuses values outside it, and its contract JSON has CONTRACT §3's shape."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, get_args

import pydantic
import pytest

from bot.bundle import read_bundle
from bot.diagnose import diagnose
from bot.diagnose.result import Diagnosis
from bot.models import Target
from bot.models.refs import Severity, Stage
from bot.redact import Redactor
from bot.render import render_diagnosis
from bot.render.model import Escalation, Report, TargetKindName
from bot.render.report import build_report, contract_json
from bot.runbook import Runbook
from render.conftest import Scenario
from render.support import NAMES, with_first

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EXAMPLE_NAMES = sorted(p.parent.name for p in EXAMPLES.glob("*/TARGET"))

TARGET_KEYS = ["kind", "name", "namespace", "cluster"]
FINDING_KEYS = ["case", "title", "severity", "evidence", "next_steps", "avoid", "escalate_to"]
REPORT_KEYS = ["target", "findings", "last_stage", "incomplete", "redactions", "first_error", "not_collected",
               "why_first", "starting"]


def _check_contract(doc: dict[str, Any]) -> None:
    """§3's object, key by key and value by value (plus `first_error`, which the report gives)."""
    assert list(doc) == REPORT_KEYS
    assert list(doc["target"]) == TARGET_KEYS and doc["target"]["kind"] in get_args(TargetKindName)
    assert all(isinstance(v, str) for v in doc["target"].values())
    for f in doc["findings"]:
        assert list(f) == FINDING_KEYS
        assert f["severity"] in get_args(Severity) and f["escalate_to"] in get_args(Escalation)
        assert all(list(e) == ["source", "text"] and all(isinstance(v, str) for v in e.values())
                   for e in f["evidence"])
        assert f["next_steps"] and f["avoid"] and all(isinstance(s, str) for s in f["next_steps"] + f["avoid"])
    assert doc["last_stage"] in get_args(Stage)
    assert isinstance(doc["incomplete"], bool) and isinstance(doc["redactions"], int) and doc["redactions"] >= 0
    assert isinstance(doc["starting"], bool)
    # still starting means nothing has failed yet
    assert not (doc["starting"] and any(f["severity"] in ("critical", "error") for f in doc["findings"]))
    fe = doc["first_error"]
    assert fe is None or (list(fe) == ["source", "line", "text"] and (fe["line"] is None or fe["line"] > 0))


def _check_report(diag: Diagnosis, lang: str, redactor: Redactor) -> None:
    report = build_report(diag, lang)
    assert Report.model_validate(report.model_dump()) == report  # every value is within its declared type
    assert report.lang == lang and report.last_stage == diag.last_stage and report.incomplete is diag.incomplete
    assert [f.case for f in report.findings] == [f.id for f in diag.findings]
    assert [len(f.evidence) for f in report.findings] == [len(f.evidence) for f in diag.findings]
    assert report.target.name == diag.target.name and report.target_label == str(diag.target)
    if diag.findings:
        assert report.findings[0].title == diag.findings[0].case.title.pick(lang)
    doc = contract_json(report)
    _check_contract(dict(doc))
    printed = json.loads(str(render_diagnosis(diag, "json", lang=lang, redactor=redactor)))
    _check_contract(printed)
    # what --format json prints is the model's object, redacted, with the count filled in
    assert [f["case"] for f in printed["findings"]] == [f["case"] for f in doc["findings"]]
    assert printed["target"].keys() == doc["target"].keys() and printed["last_stage"] == doc["last_stage"]


@pytest.mark.parametrize("name", NAMES)
def test_every_scenario_builds_a_valid_report(name: str, scenario: Callable[[str], Scenario],
                                              redactor: Redactor) -> None:
    for lang in ("zh", "en"):
        _check_report(scenario(name).diag, lang, redactor)


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_every_example_builds_a_valid_report(name: str, runbook: Runbook, redactor: Redactor) -> None:
    evidence = read_bundle(EXAMPLES / name)
    assert evidence.captured_at is not None
    target = Target.parse((EXAMPLES / name / "TARGET").read_text(encoding="utf-8").strip())
    diag = diagnose(evidence, runbook, now=evidence.captured_at, target=target, redactor=redactor)
    assert diag.found
    for lang in ("zh", "en"):
        _check_report(diag, lang, redactor)


def test_an_unknown_language_is_one_line(scenario: Callable[[str], Scenario]) -> None:
    with pytest.raises(ValueError) as err:
        build_report(scenario("rlark-ray-prepare-failed").diag, "fr")
    assert str(err.value) == "unknown language 'fr': use zh or en"


def test_the_report_is_frozen_and_refuses_words_outside_its_vocabulary(scenario: Callable[[str],
                                                                                 Scenario]) -> None:
    report = scenario("rlark-ray-prepare-failed").report("en")
    with pytest.raises(pydantic.ValidationError):
        report.last_stage = "training-signal"  # type: ignore[misc]
    bad_severity = with_first(report, severity="fatal").model_dump()
    with pytest.raises(pydantic.ValidationError, match="severity"):
        Report.model_validate(bad_severity)
    bad_stage = report.model_dump() | {"last_stage": "done"}
    with pytest.raises(pydantic.ValidationError, match="last_stage"):
        Report.model_validate(bad_stage)
    with pytest.raises(pydantic.ValidationError, match="extra"):
        Report.model_validate(report.model_dump() | {"verdict": "ok"})
