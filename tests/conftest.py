"""Shared fixtures: the runbook loaded once, scenario discovery."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.redact import default_redactor, install_default
from bot.runbook import Runbook, load_runbook
from bot.signals.names import SIGNALS

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "tests" / "scenarios"


@pytest.fixture(autouse=True)
def _keep_default_redactor() -> Iterator[None]:
    """Commands install a redactor built from settings; each test starts from the one before it."""
    saved = default_redactor()
    yield
    install_default(saved)


@pytest.fixture(scope="session")
def runbook() -> Runbook:
    return load_runbook(known_signals=SIGNALS)
