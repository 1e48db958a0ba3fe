"""The redactor's patterns are compiled on first use: each one compiles, and answers as `re.compile` would."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import re
from typing import Any

import pytest

import bot.redact
from bot.redact.later import _Later, later


def _patterns(value: Any, seen: set[int]) -> list[Any]:
    if id(value) in seen:
        return []
    seen.add(id(value))
    if isinstance(value, _Later):
        return [value]
    if isinstance(value, dict):
        return [p for v in value.values() for p in _patterns(v, seen)]
    if isinstance(value, list | tuple | set | frozenset):
        return [p for v in value for p in _patterns(v, seen)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [p for f in dataclasses.fields(value) for p in _patterns(getattr(value, f.name), seen)]
    return []


def _every_pattern() -> list[Any]:
    seen: set[int] = set()
    found = []
    for info in pkgutil.iter_modules(bot.redact.__path__):
        module = importlib.import_module(f"bot.redact.{info.name}")
        for value in vars(module).values():
            found += _patterns(value, seen)
    return found


def test_every_pattern_of_the_redactor_compiles() -> None:
    patterns = _every_pattern()
    assert len(patterns) > 150  # the detectors' own, and the token rules'
    for p in patterns:
        p.search(p.pattern[:0])  # compiled here: a syntax error would raise (a bytes pattern searches bytes)
        assert isinstance(p.pattern, str | bytes)


def test_a_pattern_is_compiled_when_first_used_and_answers_as_compiled() -> None:
    text = "token=abc123 and TOKEN=def"
    lazy, now = later(r"(?P<k>token)=(?P<v>\w+)", re.IGNORECASE), re.compile(r"(?P<k>token)=(?P<v>\w+)", re.I)
    assert "search" not in vars(lazy)  # nothing compiled yet
    assert [m.span("v") for m in lazy.finditer(text)] == [m.span("v") for m in now.finditer(text)]
    assert "search" in vars(lazy)  # compiled once, its methods then found directly
    assert lazy.sub("x", text) == now.sub("x", text) and lazy.groupindex == now.groupindex
    assert lazy.flags == now.flags and lazy.pattern == now.pattern


def test_a_bad_pattern_says_so_when_used() -> None:
    bad = later("(unclosed")
    with pytest.raises(re.error):
        bad.search("x")
