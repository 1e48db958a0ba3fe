"""Helpers shared by the Slack renderer tests: every string a message sends."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bot.render.slack_message import SlackMessage

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
NAMES = sorted(p.parent.name for p in SCENARIOS.glob("*/expect.yaml"))
CREDENTIAL_CASE = "rlark.risk.credentials-exposed"


def strings(value: Any) -> Iterator[str]:
    """Every string inside a JSON-able value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from strings(v)


def message_strings(msg: SlackMessage) -> list[str]:
    """Everything a message sends: fallback text, blocks, metadata, file names, titles and contents."""
    out = [msg.text, *strings(msg.blocks), *strings(msg.metadata or {})]
    for f in msg.files:
        out += [f.name, f.title, f.content]
    return out


def dumped(msg: SlackMessage) -> str:
    return "\n".join(message_strings(msg)) + json.dumps(msg.blocks, ensure_ascii=False)
