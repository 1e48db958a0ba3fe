"""Alert thread messages as Slack Block Kit: the root, change replies, resolution, re-open, end of a mute.

The root says what the case is, which object, since when, the runbook's next step and what not to do, with a
Mute button (`rlark_mute`, value the alert key). Text is Chinese or English per channel. Strings here are plain:
the Slack sink redacts everything it sends except the metadata identifiers (CONTRACT §5, §6). Slack's limits
(`bot.render.blocklimits`) are respected here by listing at most a few objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.alerts.model import Action, Record
from bot.alerts.targets import diagnosable
from bot.models.times import MINUTE, from_seconds
from bot.render import blocklimits as lim
from bot.render.slack_labels import has, label
from bot.runbook import Case

Block = dict[str, Any]
MAX_OBJECTS = lim.ALERT_OBJECTS
SECTION_LIMIT = lim.ALERT_SECTION
@dataclass(frozen=True)
class Message:
    text: str
    blocks: list[Block]
    metadata: dict[str, Any]


def metadata(view: Record, *, state: str | None = None) -> dict[str, Any]:
    """CONTRACT §6 message metadata."""
    return {"event_type": "rlark_alert",
            "event_payload": {"key": view.key, "case": view.case, "object": str(view.object),
                              "objects": [str(o) for o in view.objects], "state": state or view.state}}


def _case_text(case_id: str, case: Case | None, lang: str) -> tuple[str, str, str]:
    if case is not None:
        return case.title.pick(lang), case.next_steps[0].pick(lang), case.avoid[0].pick(lang)
    if has(f"case.{case_id}.title"):  # a case about the bot's own reach, not a runbook page
        return (label(f"case.{case_id}.title", lang), label(f"case.{case_id}.next", lang),
                label(f"case.{case_id}.avoid", lang))
    return case_id, "", ""


def _lab(key: str, lang: str, **fields: object) -> str:
    return label(f"alert.{key}", lang, **fields)


def _when(stamp: float | None) -> str:
    return from_seconds(stamp).strftime(MINUTE) if stamp is not None else "-"


def _objects(view: Record, lang: str) -> str:
    shown = view.objects[:MAX_OBJECTS]
    text = "\n".join(f"`{o}`" for o in shown)
    if len(view.objects) > MAX_OBJECTS:
        text += "\n" + _lab("more", lang, n=len(view.objects) - MAX_OBJECTS)
    return text


def _cut(text: str) -> str:
    return text if len(text) <= SECTION_LIMIT else text[:SECTION_LIMIT - 1] + "…"


def _section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": _cut(text)}}


def root(view: Record, *, case: Case | None, lang: str, cause: Case | None = None, degraded: bool = False) -> Message:
    """The thread's root message, firing or resolved."""
    title, next_step, avoid = _case_text(view.case, case, lang)
    if cause is not None:  # the runbook case the evidence names is the better advice
        _, next_step, avoid = _case_text(cause.id, cause, lang)
        title = f"{title}: {cause.title.pick(lang)}"
    state = _lab("resolved", lang) if view.state == "resolved" else _lab("firing", lang)
    mark = " " + _lab("degraded", lang) if degraded else ""
    head = f"{state}: {title}"
    text = f"{head} — {view.object} ({view.case}){mark}"
    blocks: list[Block] = [
        _section(f"*{head}*{mark}\n{view.summary}"),
        {"type": "section", "fields": [
            {"type": "mrkdwn", "text": f"*{_lab('object', lang)}*\n`{view.object}`"},
            {"type": "mrkdwn", "text": f"*{_lab('since', lang)}*\n{_when(view.since)}"},
            {"type": "mrkdwn", "text": f"*{_lab('severity', lang)}*\n{view.severity}"},
            {"type": "mrkdwn", "text": f"*{_lab('key', lang)}*\n`{view.key}`"},
        ]},
    ]
    if len(view.objects) > 1 or (view.objects and view.objects[0] != view.object):
        blocks.append(_section(f"*{_lab('objects', lang)}* ({len(view.objects)})\n{_objects(view, lang)}"))
    advice = "\n".join(line for line in (f"*{_lab('next', lang)}:* {next_step}" if next_step else "",
                                         f"*{_lab('avoid', lang)}:* {avoid}" if avoid else "") if line)
    if advice:
        blocks.append(_section(advice))
    if view.acked_by:
        blocks.append({"type": "context", "elements": [
            {"type": "mrkdwn", "text": _lab("on_it", lang, user=f"<@{view.acked_by}>")}]})
        text += " · " + _lab("on_it", lang, user=f"<@{view.acked_by}>")
    if view.state == "firing":
        blocks.append({"type": "actions", "block_id": "rlark_alert_actions", "elements": _buttons(view, lang)})
    return Message(text=text, blocks=blocks, metadata=metadata(view))


def ack_value(view: Record) -> str:
    """The "I'm on it" button's value: the ack state the clicker saw, then the key (`<seq>|<key>`)."""
    return f"{view.ack_seq}|{view.key}"


def _buttons(view: Record, lang: str) -> list[Block]:
    """Diagnose (the first object that is a Job, pod or runner), a menu when there are several, I'm on it,
    Mute."""
    targets = diagnosable(view)
    elements: list[Block] = []
    if targets:
        elements.append({"type": "button", "action_id": "rlark_diagnose", "value": targets[0].value,
                         "style": "primary", "text": {"type": "plain_text", "text": _lab("diagnose", lang)}})
    if len(targets) > 1:
        options = [{"text": {"type": "plain_text", "text": t.label[:lim.OPTION_TEXT]}, "value": t.value}
                   for t in targets[:lim.SELECT_OPTIONS]]
        elements.append({"type": "static_select", "action_id": "rlark_diagnose_pick", "options": options,
                         "placeholder": {"type": "plain_text", "text": _lab("diagnose_pick", lang)}})
    elements.append({"type": "button", "action_id": "rlark_ack", "value": ack_value(view),
                     "text": {"type": "plain_text", "text": _lab("ack", lang)}})
    elements.append({"type": "button", "action_id": "rlark_mute", "value": view.key,
                     "text": {"type": "plain_text", "text": _lab("mute", lang)}})
    return elements


def reply(action: Action, *, lang: str, degraded: bool = False) -> Message:
    """The thread reply for a change, a resolution, a re-open or the end of a mute."""
    view = action.view
    mark = " " + _lab("degraded", lang) if degraded else ""
    if action.kind == "resolve":
        head, body = _lab("resolved_reply", lang), ""
    elif action.kind == "reopen":
        head, body = _lab("reopened", lang), view.summary
    else:
        head = _lab("unmuted", lang) if action.reason == "unmuted" else _lab("changed", lang)
        body = "\n".join(f"• {line}" for line in action.changes) or view.summary
    text = f"{head} — {view.object}{mark}"
    blocks: list[Block] = [_section(f"*{head}*{mark}" + (f"\n{body}" if body else ""))]
    return Message(text=text, blocks=blocks, metadata=metadata(view))
