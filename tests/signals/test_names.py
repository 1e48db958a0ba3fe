"""The names a runbook trigger may use: each one implemented, each implementation named and described."""

from __future__ import annotations

from bot.signals.names import SIGNALS
from bot.signals.registry import REGISTRY


def test_every_named_signal_is_implemented_and_every_implementation_is_named() -> None:
    assert set(SIGNALS) == set(REGISTRY)


def test_each_name_says_what_it_means() -> None:
    for name, meaning in SIGNALS.items():
        area, _, what = name.partition(".")
        assert area and what, name
        assert len(meaning.split()) >= 5, f"{name}: {meaning!r}"
