"""The registry imports every signal module, so each signal runs by its name; on a healthy job none finds
anything."""

from __future__ import annotations

import pkgutil

import pytest

import bot.signals
from bot.signals import registry
from signals.scenario import scenario

HELPERS = {"base", "names", "registry", "selectors", "stages"}  # shared code, no signal of their own


def test_every_module_with_signals_is_imported_by_the_registry() -> None:
    modules = {m.name for m in pkgutil.iter_modules(bot.signals.__path__)} - HELPERS
    assert modules == set(registry.__all__) - {"REGISTRY", "Signal"}
    assert {fn.__module__.rsplit(".", 1)[1] for fn in registry.REGISTRY.values()} == modules


@pytest.mark.parametrize("name", ["healthy-ppo-four-nodes", "healthy-ci-running"])
def test_no_signal_fires_on_a_healthy_target(name: str) -> None:
    ctx = scenario(name)
    fired = {signal: hits for signal, fn in registry.REGISTRY.items() if (hits := fn(ctx))}
    assert fired == {}
