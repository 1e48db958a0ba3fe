"""The pure diagnosis engine."""

from __future__ import annotations

from datetime import datetime

from bot.diagnose.engine import diagnose
from bot.diagnose.result import Diagnosis, Finding, FirstError
from bot.models import Evidence, Target
from bot.redact import Redactor
from bot.runbook.schema import Runbook
from bot.settings import Settings


def diagnose_target(evidence: Evidence, target: Target, *, runbook: Runbook, now: datetime,
                    settings: Settings, redactor: Redactor) -> Diagnosis:
    return diagnose(evidence, runbook, now=now, target=target, redactor=redactor, thresholds=settings.thresholds)


__all__ = ["Diagnosis", "Finding", "FirstError", "diagnose", "diagnose_target"]
