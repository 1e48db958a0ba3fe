"""A channel of the Slack stand-in as a person would read it, as plain text.

Root messages in order, each in its final version with a note of its earlier versions, their thread replies
indented under them, Block Kit rendered the way it reads (buttons as `[Ticket] [Re-run] [Evidence]`), files as
`📎 name (N bytes)`, replies only one person sees as `(only you) ...`, and message metadata shown small
(`· rlark_diagnosis`). No timestamps or ids, so the same conversation always reads the same.
"""

from __future__ import annotations

from typing import Any

from .model import Ephemeral, Message, Obj, Version
from .standin import SlackStandIn

INDENT = "    "
QUOTE_LIMIT = 48


def _text_of(obj: Any) -> str:
    return str(obj.get("text", "")) if isinstance(obj, dict) else ""


def _rich_text(node: Any) -> str:
    if isinstance(node, dict):
        if node.get("type") == "text":
            return str(node.get("text", ""))
        return "".join(_rich_text(child) for child in node.get("elements", []))
    return ""


def _element(element: Obj) -> str:
    kind = element.get("type")
    if kind == "button":
        return f"[{_text_of(element.get('text'))}]"
    if kind in ("plain_text", "mrkdwn"):
        return _text_of(element)
    if kind == "image":
        return f"[image: {element.get('alt_text', '')}]"
    return f"[{kind}]"


def render_blocks(blocks: list[Obj]) -> list[str]:
    """Each block as the lines it reads as."""
    lines: list[str] = []
    for block in blocks:
        kind = block.get("type")
        if kind in ("header", "section"):
            text = _text_of(block.get("text"))
            if block.get("fields"):
                text = "\n".join(filter(None, [text, " | ".join(_text_of(f) for f in block["fields"])]))
            if isinstance(block.get("accessory"), dict):
                text = f"{text} {_element(block['accessory'])}".strip()
            lines += text.splitlines() or [""]
        elif kind == "context":
            lines.append(" · ".join(_element(e) for e in block.get("elements", [])))
        elif kind == "actions":
            lines.append(" ".join(_element(e) for e in block.get("elements", [])))
        elif kind == "divider":
            lines.append("───")
        elif kind == "rich_text":
            lines += _rich_text(block).splitlines()
        elif kind == "image":
            lines.append(_element(block))
        else:
            lines.append(f"[{kind}]")
    return lines


def _content(text: str, blocks: list[Obj] | None, attachments: list[Obj] | None) -> list[str]:
    lines = render_blocks(blocks) if blocks else text.splitlines()
    for attachment in attachments or []:
        lines += [f"▌ {line}" for line in str(attachment.get("text") or attachment.get("fallback") or "").splitlines()]
    return lines


def _quote(version: Version) -> str:
    first = next((line for line in _content(version.text, version.blocks, version.attachments) if line.strip()), "")
    short = first if len(first) <= QUOTE_LIMIT else first[: QUOTE_LIMIT - 1] + "…"
    return f"'{short}'"


def _edited(message: Message) -> str:
    if not message.history:
        return ""
    quotes = [_quote(v) for v in message.history]
    listed = ", ".join([f"first {quotes[0]}", *(f"then {q}" for q in quotes[1:])])
    times = "once" if len(quotes) == 1 else f"{len(quotes)} times"
    return f"  (edited {times}: {listed})"


def _lines(item: Message | Ephemeral, *, reply: bool) -> list[str]:
    """A message or ephemeral: its first line after who posted it, the rest indented under it."""
    head, body = (INDENT + "↳ ", INDENT * 2) if reply else ("", INDENT)
    lines = _content(item.text, item.blocks, item.attachments) or [""]
    if isinstance(item, Ephemeral):
        return [f"{head}(only you) [{item.user}] {lines[0]}".rstrip()] + [f"{body}{line}" for line in lines[1:]]
    out = [f"{head}rlark-bot: {lines[0]}".rstrip() + _edited(item)] + [f"{body}{line}" for line in lines[1:]]
    out += [f"{body}📎 {f.name} ({f.size} bytes)" for f in item.files]
    if item.event_type:
        out.append(f"{body}· {item.event_type}")
    return out


def _in_order(messages: list[Message], ephemerals: list[Ephemeral]) -> list[Message | Ephemeral]:
    items: list[Message | Ephemeral] = [*messages, *ephemerals]
    return sorted(items, key=lambda item: float(item.ts))


def render_thread(standin: SlackStandIn, channel: str) -> str:
    """The whole channel as text: every root with its thread under it, ephemerals where they were posted."""
    name = standin.model.channels.get(channel)
    out = [f"#{name.name}" if name else f"#{channel}"]
    ephemerals = standin.ephemerals(channel=channel)
    roots = [e for e in ephemerals if e.thread_ts is None]
    for item in _in_order(standin.messages(channel), roots):
        out += _lines(item, reply=False)
        if isinstance(item, Message):
            in_thread = [e for e in ephemerals if e.thread_ts == item.ts]
            for reply in _in_order(standin.thread(channel, item.ts), in_thread):
                out += _lines(reply, reply=True)
    return "\n".join(out) + "\n"
