"""Scenario reports for the Slack renderers: each scenario bundle read and diagnosed once per session."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
import yaml

from bot.bundle import read_bundle
from bot.diagnose import diagnose
from bot.diagnose.result import Diagnosis
from bot.models import Target
from bot.redact import Redactor
from bot.render.model import Report
from bot.render.report import build_report
from bot.runbook import Runbook
from bot.settings import Thresholds
from render.support import SCENARIOS


@dataclass(frozen=True)
class Scenario:
    name: str
    diag: Diagnosis
    reports: dict[str, Report]  # by language

    def report(self, lang: str) -> Report:
        return self.reports[lang]


@pytest.fixture(scope="session")
def redactor() -> Redactor:
    return Redactor()


@pytest.fixture(scope="session")
def scenario(runbook: Runbook, redactor: Redactor) -> Callable[[str], Scenario]:
    cache: dict[str, Scenario] = {}

    def get(name: str) -> Scenario:
        if name not in cache:
            exp = yaml.safe_load((SCENARIOS / name / "expect.yaml").read_text(encoding="utf-8"))
            evidence = read_bundle(SCENARIOS / name / "bundle")
            assert evidence.captured_at is not None
            target = Target.parse(exp["target"], exp.get("namespace", ""))
            diag = diagnose(evidence, runbook, now=evidence.captured_at, target=target, redactor=redactor,
                            thresholds=Thresholds())
            cache[name] = Scenario(name, diag, {lang: build_report(diag, lang) for lang in ("zh", "en")})
        return cache[name]

    return get
