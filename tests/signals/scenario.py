"""The context a signal reads, built as the engine builds it: over a scenario's bundle and target
(tests/scenarios/<name>), at the bundle's capture time unless told otherwise."""

from __future__ import annotations

from datetime import datetime
from functools import cache
from pathlib import Path

import yaml

from bot.bundle import read_bundle
from bot.models import Evidence, Target
from bot.redact import Redactor
from bot.scope.hits import Hit
from bot.scope.target import scope_evidence
from bot.settings import Thresholds
from bot.signals.base import SignalContext

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


@cache
def _redactor() -> Redactor:
    return Redactor()


def context_of(evidence: Evidence, target: Target, *, now: datetime | None = None) -> SignalContext:
    scan = _redactor().scan
    at = now or evidence.captured_at
    assert at is not None
    return SignalContext(scope=scope_evidence(evidence, target, scan=scan), now=at, thresholds=Thresholds(),
                         scan=scan)


@cache
def _bundle(name: str) -> tuple[Evidence, Target]:
    expect = yaml.safe_load((SCENARIOS / name / "expect.yaml").read_text(encoding="utf-8"))
    return read_bundle(SCENARIOS / name / "bundle"), Target.parse(expect["target"], expect.get("namespace") or "")


def scenario(name: str, *, now: datetime | None = None) -> SignalContext:
    """A fresh context (signals memoise in `cache`) over the scenario's evidence, read once per process."""
    evidence, target = _bundle(name)
    return context_of(evidence, target, now=now)


def said(hits: list[Hit]) -> list[tuple[str, str]]:
    """(source, text) of every evidence item, in order."""
    return [(item.source, item.text) for hit in hits for item in hit.evidence]


def sources(hits: list[Hit]) -> list[str]:
    return [item.source for hit in hits for item in hit.evidence]


def texts(hits: list[Hit]) -> str:
    return "\n".join(item.text for hit in hits for item in hit.evidence)
