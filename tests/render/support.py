"""Helpers shared by the Slack renderer tests: every string a message sends."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bot.render.model import EvidenceView, FindingView, Report
from bot.render.slack_message import SlackMessage

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
NAMES = sorted(p.parent.name for p in SCENARIOS.glob("*/expect.yaml"))
CREDENTIAL_CASE = "rlark.risk.credentials-exposed"


def with_first(report: Report, **changes: Any) -> Report:
    """`report` with fields of its first finding replaced (the report is frozen: this is a new one)."""
    first = report.findings[0].model_copy(update=changes)
    return report.model_copy(update={"findings": (first, *report.findings[1:])})


def finding(i: int, **changes: Any) -> FindingView:
    """A small made-up finding, number `i`."""
    return FindingView(case=f"rlark.test.case-{i:02d}", title=f"Test case {i}", symptom="s", severity="warning",
                       evidence=(EvidenceView(source=f"c/ns/pod-{i}:main", text=f"line {i}"),), next_steps=("look",),
                       avoid=("do not",), escalate_to="user", sources=("p § s",), stage="scheduled").model_copy(
        update=changes)


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
