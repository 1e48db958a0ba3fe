"""Result types. None of them ever holds a secret value: only kinds, counts and positions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.redact.safetext import SafeText


@dataclass(frozen=True)
class Detection:
    """A credential's place in the scanned text; ``line`` is 1-based, offsets are ``str`` indices."""

    kind: str
    start: int
    end: int
    line: int


@dataclass(frozen=True)
class Redacted:
    text: SafeText
    counts: Mapping[str, int]

    @property
    def total(self) -> int:
        return sum(self.counts.values())
