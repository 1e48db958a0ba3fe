"""Result types. None of them ever holds a secret value: only kinds, counts and positions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from bot.redact.safetext import SafeText


@dataclass(frozen=True)
class Detection:
    """A credential's place in the scanned text; ``line`` is 1-based, offsets are ``str`` indices."""

    kind: str
    start: int
    end: int
    line: int


class Scan(Protocol):
    """The redactor's credential scan (`Redactor.scan`), as the engine is handed it. `utf8`: the text's UTF-8
    encoding when the caller has it at hand (the bytes it was read from), so it is not encoded again."""

    def __call__(self, text: str, /, *, utf8: bytes | None = None) -> list[Detection]: ...


@dataclass(frozen=True)
class Redacted:
    text: SafeText
    counts: Mapping[str, int]

    @property
    def total(self) -> int:
        return sum(self.counts.values())
