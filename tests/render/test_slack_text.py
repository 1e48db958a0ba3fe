"""The text helpers every Slack renderer uses: clean (escapes out, redacted), escape, code, cut, fit."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.redact import Redactor
from bot.render.blocklimits import slack_len
from bot.render.slack_text import ELLIPSIS, clean, clean_line, code, cut, fit_lines, inline, mrkdwn

RED = Redactor()
MASK = "[REDACTED:aws-secret-key]"
PIECES = st.lists(st.sampled_from(["a", "é", "中", "🙂", "&amp;", "&lt;", "&gt;", MASK, " ", "\n", "x" * 7]),
                  max_size=60).map("".join)


def test_clean_drops_terminal_escapes_and_controls_then_redacts() -> None:
    raw = "\x1b[1;31mERROR\x1b[0m \x1b]8;;https://x\x07link\x1b]8;;\x07 bell\x07 nul\x00 AWS_SECRET_ACCESS_KEY=" \
          "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY\r\nnext\tcol"
    out = clean(raw, RED)
    assert out.startswith("ERROR link bell nul AWS_SECRET_ACCESS_KEY=[REDACTED:")
    assert "wJalrXUtnFEMI" not in out and "\nnext\tcol" in out
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", out)
    assert clean_line("a\n b\t\tc  ", RED) == "a b c"


def test_mrkdwn_escapes_only_slacks_three_characters() -> None:
    assert mrkdwn("<!channel> & <@U1|x> *b* _i_") == "&lt;!channel&gt; &amp; &lt;@U1|x&gt; *b* _i_"


def test_code_and_inline_cannot_be_closed_from_inside() -> None:
    block = code("a ``` b `c` <x>")
    assert block.startswith("```\n") and block.endswith("\n```") and block.count("`") == 6
    assert "&lt;x&gt;" in block
    assert inline("x`y\nz") == "`xˋy z`"


@settings(max_examples=150, deadline=None)
@given(text=PIECES, limit=st.integers(min_value=1, max_value=80))
def test_cut_keeps_the_limit_and_never_splits_a_mask_or_entity(text: str, limit: int) -> None:
    out = cut(text, limit)
    assert slack_len(out) <= max(limit, slack_len(ELLIPSIS))
    if slack_len(text) <= limit:
        assert out == text
        return
    assert out.endswith(ELLIPSIS)
    head = out[: -len(ELLIPSIS)]
    assert text.startswith(head)
    # the cut point is not inside a mask or an entity of the original text
    for m in re.finditer(re.escape(MASK) + "|&amp;|&lt;|&gt;", text):
        assert not m.start() < len(head) < m.end()


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(st.text(alphabet="ab中🙂 ", max_size=40), max_size=30),
       limit=st.integers(min_value=30, max_value=400), cap=st.none() | st.integers(min_value=1, max_value=10))
def test_fit_lines_shows_a_prefix_within_the_limit_and_counts_the_rest(lines: list[str], limit: int,
                                                                       cap: int | None) -> None:
    def more(n: int) -> str:
        return f"… {n} more"

    kept, left = fit_lines(lines, limit, more=more, max_lines=cap)
    assert sum(slack_len(x) for x in kept) + max(0, len(kept) - 1) <= limit
    if not left:
        assert kept == lines
        return
    assert kept[-1] == more(left)
    shown = kept[:-1]
    if shown and shown[0] != lines[0]:  # the first line alone did not fit: it is cut, and counted
        assert len(shown) == 1 and shown[0].endswith(ELLIPSIS) and left == len(lines)
    else:
        assert shown == lines[: len(shown)] and len(shown) + left == len(lines)
    if cap is not None:
        assert len(shown) <= cap


def test_slack_len_counts_astral_characters_twice() -> None:
    assert slack_len("a中🙂") == 4
