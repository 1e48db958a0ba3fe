"""Scenarios of the fourth blind set (see README.md), filled by its writers."""

from __future__ import annotations

from b4_common import Scenario

SCENARIOS: list[Scenario] = []
