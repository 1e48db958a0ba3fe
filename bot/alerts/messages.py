"""Alert thread messages as Slack Block Kit: the root, change replies, resolution, re-open, end of a mute.

The root says what the case is, which object, since when, the runbook's next step and what not to do, with a
Mute button (`rlark_mute`, value the alert key). Text is Chinese or English per channel. Strings here are plain:
the Slack sink redacts everything it sends except the metadata identifiers (CONTRACT §5, §6). Slack's limits
(3,000 characters per section, 10 fields) are respected here by listing at most a few objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.alerts.model import Action, View
from bot.runbook import Case

Block = dict[str, Any]
MAX_OBJECTS = 10
SECTION_LIMIT = 2900
DEGRADED = {"en": "(may be repeated: state store unavailable)", "zh": "（可能重复：状态存储不可用）"}

_LABELS: dict[str, dict[str, str]] = {
    "en": {"firing": "Alert", "resolved": "Resolved", "object": "Object", "objects": "Objects", "since": "Since",
           "severity": "Severity", "next": "Next step", "avoid": "Do not", "mute": "Mute 2h", "more": "and {n} more",
           "changed": "Changed", "resolved_reply": "Resolved: not seen for the last checks.",
           "reopened": "Firing again", "unmuted": "Mute ended; still firing", "key": "Key"},
    "zh": {"firing": "告警", "resolved": "已恢复", "object": "对象", "objects": "对象列表", "since": "开始于",
           "severity": "级别", "next": "下一步", "avoid": "不要", "mute": "静音 2 小时", "more": "等另外 {n} 个",
           "changed": "有变化", "resolved_reply": "已恢复：最近几次巡检都未再出现。",
           "reopened": "再次触发", "unmuted": "静音已结束，告警仍在触发", "key": "告警键"},
}

# Cases the checks raise that are about the bot's own reach rather than a runbook page.
_BUILTIN: dict[str, dict[str, tuple[str, str, str]]] = {
    "infra.check.cluster-unreadable": {
        "en": ("Checks could not read a cluster",
               "Check the bot's access to that cluster (kubeconfig context, RBAC, network); its other alerts stay "
               "open until it can be read again.",
               "Do not read the silence from that cluster as healthy."),
        "zh": ("巡检无法读取某个集群",
               "检查机器人对该集群的访问（kubeconfig context、RBAC、网络）；"
               "在能再次读取之前，该集群的其他告警保持不变。",
               "不要把该集群没有告警理解为一切正常。"),
    },
}


@dataclass(frozen=True)
class Message:
    text: str
    blocks: list[Block]
    metadata: dict[str, Any]


def metadata(view: View, *, state: str | None = None) -> dict[str, Any]:
    """CONTRACT §6 message metadata."""
    return {"event_type": "rlark_alert",
            "event_payload": {"key": view.key, "case": view.case, "object": view.object,
                              "objects": list(view.objects), "state": state or view.state}}


def _case_text(case_id: str, case: Case | None, lang: str) -> tuple[str, str, str]:
    if case is not None:
        return case.title.pick(lang), case.next_steps[0].pick(lang), case.avoid[0].pick(lang)
    builtin = _BUILTIN.get(case_id, {}).get(lang) or _BUILTIN.get(case_id, {}).get("en")
    if builtin is not None:
        return builtin
    return case_id, "", ""


def _when(stamp: float | None) -> str:
    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%d %H:%M UTC") if stamp is not None else "-"


def _objects(view: View, lang: str) -> str:
    shown = view.objects[:MAX_OBJECTS]
    text = "\n".join(f"`{o}`" for o in shown)
    if len(view.objects) > MAX_OBJECTS:
        text += "\n" + _LABELS[lang]["more"].format(n=len(view.objects) - MAX_OBJECTS)
    return text


def _cut(text: str) -> str:
    return text if len(text) <= SECTION_LIMIT else text[:SECTION_LIMIT - 1] + "…"


def _section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": _cut(text)}}


def root(view: View, *, case: Case | None, lang: str, cause: Case | None = None, degraded: bool = False) -> Message:
    """The thread's root message, firing or resolved."""
    lab = _LABELS[lang]
    title, next_step, avoid = _case_text(view.case, case, lang)
    if cause is not None:  # the runbook case the evidence names is the better advice
        _, next_step, avoid = _case_text(cause.id, cause, lang)
        title = f"{title}: {cause.title.pick(lang)}"
    state = lab["resolved"] if view.state == "resolved" else lab["firing"]
    mark = " " + DEGRADED[lang] if degraded else ""
    head = f"{state}: {title}"
    text = f"{head} — {view.object} ({view.case}){mark}"
    blocks: list[Block] = [
        _section(f"*{head}*{mark}\n{view.summary}"),
        {"type": "section", "fields": [
            {"type": "mrkdwn", "text": f"*{lab['object']}*\n`{view.object}`"},
            {"type": "mrkdwn", "text": f"*{lab['since']}*\n{_when(view.since)}"},
            {"type": "mrkdwn", "text": f"*{lab['severity']}*\n{view.severity}"},
            {"type": "mrkdwn", "text": f"*{lab['key']}*\n`{view.key}`"},
        ]},
    ]
    if len(view.objects) > 1 or (view.objects and view.objects[0] != view.object):
        blocks.append(_section(f"*{lab['objects']}* ({len(view.objects)})\n{_objects(view, lang)}"))
    advice = "\n".join(line for line in (f"*{lab['next']}:* {next_step}" if next_step else "",
                                         f"*{lab['avoid']}:* {avoid}" if avoid else "") if line)
    if advice:
        blocks.append(_section(advice))
    if view.state == "firing":
        blocks.append({"type": "actions", "elements": [
            {"type": "button", "action_id": "rlark_mute", "value": view.key,
             "text": {"type": "plain_text", "text": lab["mute"]}}]})
    return Message(text=text, blocks=blocks, metadata=metadata(view))


def reply(action: Action, *, lang: str, degraded: bool = False) -> Message:
    """The thread reply for a change, a resolution, a re-open or the end of a mute."""
    lab = _LABELS[lang]
    view = action.view
    mark = " " + DEGRADED[lang] if degraded else ""
    if action.kind == "resolve":
        head, body = lab["resolved_reply"], ""
    elif action.kind == "reopen":
        head, body = lab["reopened"], view.summary
    else:
        head = lab["unmuted"] if action.reason == "unmuted" else lab["changed"]
        body = "\n".join(f"• {line}" for line in action.changes) or view.summary
    text = f"{head} — {view.object}{mark}"
    blocks: list[Block] = [_section(f"*{head}*{mark}" + (f"\n{body}" if body else ""))]
    return Message(text=text, blocks=blocks, metadata=metadata(view))
