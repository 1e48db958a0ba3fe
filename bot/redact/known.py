"""Secrets known by their value: the bot's own (configured as known secrets) in the forms they take in text,
and values already found to be secret somewhere in a text, wherever else that text repeats them."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable
from functools import lru_cache
from urllib.parse import quote

from bot.redact import decode
from bot.redact.prefilter import find_literals
from bot.redact.spans import PRIO_CONT, PRIO_STRUCT, PRIO_TOKEN, Span

MIN_ECHO, MAX_ECHO, MAX_ECHO_VALUES = 10, 4096, 256  # bounds for re-finding secret values elsewhere

_B64_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_")


def forms_of(values: Iterable[str]) -> frozenset[str]:
    """Each value as it may show in text: as it is, URL-encoded, JSON-escaped, and in base64."""
    forms: set[str] = set()
    for value in values:
        forms.add(value)
        forms.add(quote(value, safe=""))
        forms.add(json.dumps(value)[1:-1])
        full = base64.b64encode(value.encode()).decode()
        forms.add(full.rstrip("="))
        forms.update(decode.base64_forms(value))
    return frozenset(f for f in forms if len(f) >= 4)


def find(line: str, forms: frozenset[str]) -> list[Span]:
    """Every occurrence of a known form in ``line``; a base64 form takes the whole base64 run around it."""
    spans: list[Span] = []
    for form in forms:
        pos = line.find(form)
        while pos >= 0:
            start, end = pos, pos + len(form)
            if form in _b64_forms(forms):
                while start > 0 and line[start - 1] in _B64_CHARS:
                    start -= 1
                while end < len(line) and line[end] in _B64_CHARS:
                    end += 1
            spans.append(Span(start, end, "known-secret", PRIO_TOKEN + 1))
            pos = line.find(form, pos + 1)
    return spans


def echoes(text: str, spans: list[Span], limit: int) -> list[Span]:
    """Other occurrences of a value already found to be secret: a token printed once next to its key
    and again bare later (``echo $TOKEN``) must not survive the second time."""
    values = {
        text[s.start : s.end]: s.kind for s in spans if MIN_ECHO <= s.end - s.start <= MAX_ECHO and s.prio != PRIO_CONT
    }
    if not values or len(values) > MAX_ECHO_VALUES:
        return []
    literals = list(values)
    kinds = [values[v] for v in literals]
    return [Span(a, b, kinds[i], PRIO_STRUCT) for a, b, i in find_literals(text, literals, limit=limit)]


@lru_cache(maxsize=64)
def _b64_forms(forms: frozenset[str]) -> frozenset[str]:
    return frozenset(f for f in forms if set(f) <= _B64_CHARS)
