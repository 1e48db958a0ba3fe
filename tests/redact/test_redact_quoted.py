"""A quoted value ends at the next quote that no backslash escapes (or at the line's end: fail closed)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.redact.structure import _find_close


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


@settings(max_examples=2000, deadline=None)
@given(line=st.text(alphabet='ab"\'`\\ ', max_size=16), start=st.integers(0, 16), q=st.sampled_from(['"', "'", "`"]))
def test_the_closing_quote_is_the_first_unescaped_one(line: str, start: int, q: str) -> None:
    start = min(start, len(line))
    assert _find_close(line, start, q) == _close_by_hand(line, start, q)


def test_escaped_quotes_and_backslashes() -> None:
    assert _find_close(r'ab\"cd"ef', 0, '"') == 6
    assert _find_close(r'ab\\"cd', 0, '"') == 4  # an escaped backslash escapes nothing after it
    assert _find_close(r"ab\"", 0, '"') == 4  # no closing quote: the line's end
    assert _find_close('x\\"y\\\\"z', 0, '"') == 6
