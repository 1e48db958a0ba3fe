"""The mask the redactor writes in place of a value, `[REDACTED:<kind>]`: written and read only through here."""

from __future__ import annotations

from typing import Final

from bot.redact.later import later

OPEN: Final = "[REDACTED:"
"""How every mask starts (a cheap `in` test before the pattern)."""

MASK: Final = later(r"\[REDACTED:([a-z0-9_.-]+)\]")
"""A whole mask; group 1 is the kind of value it replaced."""


def mask(kind: str) -> str:
    """The mask for a value of `kind`."""
    return f"{OPEN}{kind}]"


def kinds(text: str) -> list[str]:
    """The kind of each mask in `text`, in order."""
    return [m.group(1) for m in MASK.finditer(text)] if OPEN in text else []
