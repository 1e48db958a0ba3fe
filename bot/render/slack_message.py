"""The message shapes the Slack app posts, and Block Kit block builders that keep Slack's limits.

Builders take text that is already cleaned, redacted and escaped (bot.render.slack_text); they cut it to the
element's hard limit as a last resort only — the renderers cut earlier, at line boundaries, and say what was
left out. `finish` keeps a message within the block count and the total text budget.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.render import blocklimits as lim
from bot.render.slack_text import cut


@dataclass(frozen=True)
class SlackFile:
    """A redacted text file to upload into the thread."""

    name: str
    title: str
    content: str


@dataclass(frozen=True)
class SlackMessage:
    """What one `chat.postMessage` / `chat.update` / ephemeral reply carries.

    `text` is the notification fallback; `metadata` is Slack message metadata or None; `files` are uploaded
    into the same thread after the message. `verbatim` names strings of `blocks` that are identifiers the bot
    built itself (alert keys, object references): the app seals the message with them left unchanged.
    """

    text: str
    blocks: list[dict[str, Any]]
    metadata: dict[str, Any] | None = None
    files: list[SlackFile] = field(default_factory=list)
    verbatim: tuple[str, ...] = ()


def header(text: str) -> dict[str, Any]:
    """A header block; plain text on one line, cut to Slack's 150 characters."""
    return {"type": "header", "text": {"type": "plain_text", "text": cut(" ".join(text.split()), lim.HEADER_TEXT),
                                       "emoji": True}}


def section(text: str) -> dict[str, Any]:
    """A mrkdwn section (text already escaped)."""
    return {"type": "section", "text": {"type": "mrkdwn", "text": cut(text, lim.SECTION_TEXT)}}


def context(pieces: Sequence[str], *, plain: Sequence[str] = ()) -> dict[str, Any]:
    """A context block: mrkdwn `pieces`, then `plain` text pieces (left as they are, for identifiers);
    at most Slack's 10 elements, each within the piece budget."""
    elements: list[dict[str, Any]] = [{"type": "mrkdwn", "text": cut(p, lim.CONTEXT_PIECE)} for p in pieces if p]
    elements += [{"type": "plain_text", "text": p, "emoji": False} for p in plain if p]
    return {"type": "context", "elements": elements[: lim.CONTEXT_ELEMENTS]}


def divider() -> dict[str, Any]:
    """A divider between the answer and the other findings."""
    return {"type": "divider"}


def button(*, action_id: str, text: str, value: str, style: str | None = None) -> dict[str, Any]:
    """A button; a value past Slack's 2,000 characters is refused (it would not parse back)."""
    if len(value) > lim.ACTION_VALUE:
        raise ValueError(f"button value of {len(value)} characters is over Slack's {lim.ACTION_VALUE}")
    out: dict[str, Any] = {"type": "button", "action_id": action_id[: lim.ACTION_ID],
                           "text": {"type": "plain_text", "text": cut(" ".join(text.split()), lim.BUTTON_TEXT),
                                    "emoji": True},
                           "value": value}
    if style:
        out["style"] = style
    return out


def actions(buttons: Sequence[dict[str, Any]], *, block_id: str) -> dict[str, Any]:
    """An actions block; `block_id` lets the app tell the diagnosis buttons from others."""
    return {"type": "actions", "block_id": block_id, "elements": list(buttons)}


def texts(value: Any) -> Iterator[str]:
    """Every `text` string inside blocks (what counts toward the message budget)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "text" and isinstance(v, str):
                yield v
            else:
                yield from texts(v)
    elif isinstance(value, list):
        for v in value:
            yield from texts(v)


def block_chars(blocks: Sequence[dict[str, Any]]) -> int:
    return sum(lim.slack_len(t) for t in texts(list(blocks)))


def finish(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Keep at most `MAX_BLOCKS` blocks and the text budget: blocks are dropped from the end, except the
    trailing actions blocks, which stay (the buttons are how to get the rest)."""
    n = 0
    while n < len(blocks) and blocks[len(blocks) - 1 - n].get("type") == "actions":
        n += 1
    tail = blocks[len(blocks) - n:]
    body = blocks[: len(blocks) - len(tail)]
    body = body[: lim.MAX_BLOCKS - len(tail)]
    while len(body) > 1 and block_chars(body + tail) > lim.MESSAGE_CHARS:
        body.pop()
    return body + tail
