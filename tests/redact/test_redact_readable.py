"""Ordinary RLark/Ray/CI lines, including every shape that looks like a secret's place but is not one
(working directories, pass@k metrics, cache keys, Docker's own warning, references such as
``${{ secrets.X }}`` or ``$(cat ...)``, paths after ``--from-file=``, kubectl describe's
``<set to the key ...>``, Secret *names*), stay exactly as they were. Changed lines are counted and shown.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.redact import RedactionSettings, Redactor

CORPUS = Path(__file__).parent / "corpus"
MAX_CHANGED_LINES = 0.005


def _lines(name: str) -> list[str]:
    text = (CORPUS / name).read_text(encoding="utf-8")
    return text.replace("\\x1b", "\x1b").splitlines()  # the file spells ANSI escapes out


def _changed(redactor: Redactor, lines: list[str]) -> list[tuple[str, str]]:
    out = redactor.redact("\n".join(lines)).text.split("\n")
    assert len(out) == len(lines)
    return [(a, b) for a, b in zip(lines, out, strict=True) if a != b]


@pytest.mark.parametrize("use_hyperscan", [True, False], ids=["hyperscan", "pure-re"])
def test_not_a_secret_shapes_stay_unchanged(use_hyperscan: bool) -> None:
    lines = _lines("clean_ecosystem.txt")
    changed = _changed(Redactor(RedactionSettings(), use_hyperscan=use_hyperscan), lines)
    shown = "\n".join(f"  {a!r}\n    -> {b!r}" for a, b in changed)
    print(f"clean ecosystem lines: {len(changed)} of {len(lines)} changed\n{shown}")
    assert changed == []


def test_clean_logs_lose_under_half_a_percent_of_lines() -> None:
    lines = _lines("clean_logs.txt") + _lines("clean_ecosystem.txt")
    changed = _changed(Redactor(RedactionSettings()), lines)
    print(f"clean lines: {len(changed)} of {len(lines)} changed ({len(changed) / len(lines):.3%})")
    for a, b in changed[:20]:
        print(f"  {a!r}\n    -> {b!r}")
    assert len(changed) / len(lines) < MAX_CHANGED_LINES
