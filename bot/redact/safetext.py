"""SafeText: text that has been through the redactor.

Sinks (renderers, the Slack poster, snapshot writers, the bot's own logging) are typed to take
``SafeText`` so mypy rejects a raw ``str`` at every call site. Runtime construction is guarded by a
private sentinel so that ``SafeText(raw)`` fails loudly instead of silently laundering a secret.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

_MINT: Final = object()


class SafeText(str):
    """A ``str`` that the redactor produced. Concatenating it with ``str`` yields a plain ``str``."""

    __slots__ = ()

    def __new__(cls, value: str, token: object = None) -> SafeText:
        if token is not _MINT:
            raise TypeError("SafeText is only produced by bot.redact.Redactor; call redact() instead")
        return super().__new__(cls, value)

    def __repr__(self) -> str:
        return f"SafeText({super().__repr__()})"


def mint(value: str) -> SafeText:
    """Private to the package: wrap text that has already been redacted."""
    return SafeText(value, _MINT)


def join(parts: Iterable[SafeText], sep: str) -> SafeText:
    """Joining redacted pieces cannot create a secret, but the separator must itself be safe."""
    items = list(parts)
    for part in items:
        if not isinstance(part, SafeText):
            raise TypeError(f"safe_join got {type(part).__name__}, not SafeText")
    return mint(sep.join(items))
