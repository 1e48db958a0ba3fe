"""The YAML a "Preflight this Job" shortcut reads from a message: the first code block, Slack's escapes undone."""

from __future__ import annotations

import pytest

from bot.conversations.preflight_message import yaml_of


@pytest.mark.parametrize(("text", "expected"), [
    ("look:\n```\nkind: Job\n```", "kind: Job\n"),
    ("```yaml\nkind: Job\n```", "kind: Job\n"),
    ("```YAML\nkind: Job\n``` and ```\nsecond: block\n```", "kind: Job\n"),
    ("```\nrun: a &amp;&amp; b &gt; out &lt; in\n```", "run: a && b > out < in\n"),
    ("```kind: Job```", "kind: Job"),
])
def test_the_first_code_block_is_read(text: str, expected: str) -> None:
    assert yaml_of(text) == expected


@pytest.mark.parametrize("text", ["", "kind: Job", "```\n   \n```", "`kind: Job`", "```\nkind: Job"])
def test_no_code_block_is_none(text: str) -> None:
    assert yaml_of(text) is None
