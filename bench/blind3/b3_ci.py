"""Placeholder: filled by the scenario writers."""

from __future__ import annotations

from b3_common import Scenario

SCENARIOS: list[Scenario] = []
