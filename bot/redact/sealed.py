"""SafeValue: a JSON-able structure (Slack blocks, message metadata) every string of which passed the redactor.

The Slack sink takes only `SafeValue` and `SafeText`. Strings are redacted one by one (a value is never
glued to its neighbour), dictionary keys are the bot's own field names and stay as they are, and the only
strings let through unchanged are identifiers the bot built itself (alert keys, object references), named
explicitly by the caller.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection
from typing import TYPE_CHECKING, Any, Final

from bot.redact.safetext import SafeText, mint

if TYPE_CHECKING:
    from bot.redact.redactor import Redactor

_MINT: Final = object()


class SafeValue:
    """A sealed JSON-able value; `.value` is a deep copy the sink may serialise."""

    __slots__ = ("counts", "value")

    def __init__(self, value: Any, counts: Counter[str], token: object = None) -> None:
        if token is not _MINT:
            raise TypeError("SafeValue is only produced by bot.redact.seal(); seal the value first")
        self.value = value
        self.counts = counts

    def __repr__(self) -> str:
        return f"SafeValue({self.value!r})"


def seal(value: Any, redactor: Redactor, *, verbatim: Collection[str] = ()) -> SafeValue:
    """Redact every string leaf of `value`; strings in `verbatim` (bot-built identifiers) pass unchanged."""
    keep = frozenset(verbatim)
    counts: Counter[str] = Counter()

    def walk(node: Any) -> Any:
        if isinstance(node, str):
            if node in keep:
                return node
            done = redactor.redact(node)
            counts.update(done.counts)
            return str(done.text)
        if isinstance(node, dict):
            return {str(k): walk(v) for k, v in node.items()}
        if isinstance(node, list | tuple):
            return [walk(v) for v in node]
        if node is None or isinstance(node, bool | int | float):
            return node
        raise TypeError(f"cannot seal a {type(node).__name__}: only JSON values")

    return SafeValue(walk(value), counts, _MINT)


def dump_json(value: SafeValue, *, indent: int | None = None) -> SafeText:
    """Serialise a sealed value: every string in it has passed the redactor already."""
    if not isinstance(value, SafeValue):
        raise TypeError(f"dump_json got {type(value).__name__}, not SafeValue: seal it first")
    return mint(json.dumps(value.value, ensure_ascii=False, indent=indent) + "\n")
