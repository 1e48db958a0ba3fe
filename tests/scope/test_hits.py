"""What a hit shows: clipped text that never cuts a token, ages in words a reader scans."""

from __future__ import annotations

import pytest

from bot.scope.hits import age_text, clip


@pytest.mark.parametrize(("seconds", "shown"), [
    (0, "0s"), (59.9, "59s"), (119, "119s"), (120, "2m"), (7199, "119m"), (7200, "2h00m"), (7260, "2h01m"),
    (172799, "47h59m"), (172800, "2d"), (10 * 86400 + 5, "10d"),
])
def test_age_text(seconds: float, shown: str) -> None:
    assert age_text(seconds) == shown


@pytest.mark.parametrize(("text", "limit", "shown"), [
    ("  short  ", 20, "short"),
    ("one two three four", 9, "one two …"),  # backs off to the last whitespace
    ("one two", 7, "one two"),
    ("ghp_" + "a" * 40, 10, "[long value omitted]"),  # one token longer than the limit is never half shown
    ("word ghp_" + "a" * 40, 10, "word …"),
    ("a\tb c", 3, "a\tb …"),  # the cut falls on whitespace: nothing to back off
    ("a\tbc d", 3, "a …"),  # a tab counts as whitespace to back off to
])
def test_clip(text: str, limit: int, shown: str) -> None:
    assert clip(text, limit) == shown
