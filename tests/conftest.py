"""Shared fixtures: the runbook loaded once, scenario discovery."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.runbook import Runbook, load_runbook
from bot.signals.names import SIGNALS

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "tests" / "scenarios"


@pytest.fixture(scope="session")
def runbook() -> Runbook:
    return load_runbook(known_signals=SIGNALS)
