"""Scenario reports for the Slack renderers, built from the session's scenario diagnoses (tests/conftest.py's
`diagnosed`: each bundle read and diagnosed once)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from bot.diagnose.result import Diagnosis
from bot.redact import Redactor
from bot.render.model import Report
from bot.render.report import build_report


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
def scenario(diagnosed: Callable[[str], Diagnosis]) -> Callable[[str], Scenario]:
    cache: dict[str, Scenario] = {}

    def get(name: str) -> Scenario:
        if name not in cache:
            diag = diagnosed(name)
            cache[name] = Scenario(name, diag, {lang: build_report(diag, lang) for lang in ("zh", "en")})
        return cache[name]

    return get
