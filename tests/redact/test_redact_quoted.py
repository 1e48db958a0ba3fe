"""A quoted value ends at the next quote that no backslash escapes (or at the line's end: fail closed)."""

from __future__ import annotations

import itertools
import random

from bot.redact.values import find_close


def _close_by_hand(line: str, start: int, q: str) -> int:
    """The rule spelled out one character at a time: a backslash escapes the character after it."""
    i = start
    while i < len(line):
        if line[i] == "\\":
            i += 2
        elif line[i] == q:
            return i
        else:
            i += 1
    return len(line)


_ALPHABET = 'ab"\'`\\ '
_QUOTES = '"\'`'


def _cases() -> itertools.chain[tuple[str, str]]:
    """Every line of up to five characters with every quote, then 20,000 longer lines from a seeded generator
    (the same each run)."""
    rng = random.Random("quoted")
    short = (("".join(p), q) for n in range(6) for p in itertools.product(_ALPHABET, repeat=n) for q in _QUOTES)
    longer = (
        ("".join(rng.choice(_ALPHABET) for _ in range(rng.randint(6, 16))), rng.choice(_QUOTES)) for _ in range(20_000)
    )
    return itertools.chain(short, longer)


def test_the_closing_quote_is_the_first_unescaped_one() -> None:
    for line, q in _cases():
        for start in range(len(line) + 1):
            assert find_close(line, start, q) == _close_by_hand(line, start, q), (line, start, q)


def test_escaped_quotes_and_backslashes() -> None:
    assert find_close(r'ab\"cd"ef', 0, '"') == 6
    assert find_close(r'ab\\"cd', 0, '"') == 4  # an escaped backslash escapes nothing after it
    assert find_close(r"ab\"", 0, '"') == 4  # no closing quote: the line's end
    assert find_close('x\\"y\\\\"z', 0, '"') == 6
