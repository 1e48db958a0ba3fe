"""Replies only the asker sees: usage, help, the refusal, not found, starting up, duplicate, busy, the apology,
mute results and the alert list — each in Chinese and English.

The refusal has no fields at all, so it cannot differ between a channel that is not bound, a target outside the
channel's scope and a target that does not exist in a scoped channel (CONTRACT §5). Alert keys in the alert
list are identifiers the bot built (§6): they go out unchanged, each as its own plain-text element, and are
named in `SlackMessage.verbatim` so the app's final seal leaves them alone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Final

from bot.checks.alerts import Alert
from bot.models.times import rfc3339
from bot.redact import Redactor
from bot.redact.allow import REDACTED_PREFIX
from bot.render import blocklimits as lim
from bot.render.slack_labels import label, lang_index, severity
from bot.render.slack_message import SlackMessage, context, finish, section
from bot.render.slack_reply import EMOJI
from bot.render.slack_text import clean_line, cut, inline, mrkdwn

ALERTS_SHOWN: Final = 20
_USER_ID: Final = re.compile(r"[UW][A-Z0-9]{2,20}")
ALERT_SUMMARY: Final = 300

_USAGE = ("{c} diagnose TARGET [--namespace NS] [--lang zh|en] · {c} ticket TARGET · {c} alerts · "
          "{c} mute ALERT_KEY DURATION · {c} unmute ALERT_KEY · {c} watch TARGET · {c} unwatch TARGET · "
          "{c} preflight job/NAME · {c} nodes SELECTOR · {c} compare job/A job/B · {c} timeline TARGET · {c} help")

# kind -> (required fields, optional fields)
KINDS: Final[dict[str, tuple[frozenset[str], frozenset[str]]]] = {
    "usage": (frozenset(), frozenset({"command", "reason"})),
    "help": (frozenset(), frozenset({"command"})),
    "refusal": (frozenset(), frozenset()),
    "not_found": (frozenset({"target", "where"}), frozenset()),
    "starting": (frozenset(), frozenset()),
    "restarting": (frozenset(), frozenset()),
    "duplicate": (frozenset({"target", "permalink"}), frozenset()),
    "busy": (frozenset(), frozenset()),
    "error": (frozenset(), frozenset()),
    "muted": (frozenset({"key", "duration"}), frozenset({"until"})),
    "unmuted": (frozenset({"key"}), frozenset()),
    "not_allowed": (frozenset(), frozenset()),
    "alerts": (frozenset({"alerts"}), frozenset({"muted", "on_it"})),
    "feedback": (frozenset({"vote"}), frozenset()),
}


def _t(entry: str, lang: str, /, **fields: object) -> str:
    return label(f"reply.{entry}", lang, **fields)


def _check(kind: str, fields: Mapping[str, Any]) -> None:
    if kind not in KINDS:
        raise ValueError(f"unknown ephemeral kind {kind!r}: one of {', '.join(KINDS)}")
    need, may = KINDS[kind]
    missing, extra = need - set(fields), set(fields) - need - may
    if missing or extra:
        raise ValueError(f"ephemeral {kind!r} needs {sorted(need)} and may take {sorted(may)}; "
                         f"missing {sorted(missing)}, unexpected {sorted(extra)}")


def _one(text: str) -> SlackMessage:
    """A one-liner: the same text as fallback and as one section."""
    body = cut(text, lim.EPHEMERAL_TEXT)
    return SlackMessage(text=body, blocks=[section(body)])


def _is_url(text: str) -> bool:
    return text.startswith("https://") and not any(c in text for c in " <>|`") and REDACTED_PREFIX not in text


def _field(value: Any) -> str | None:
    """A scalar field as text (times as RFC3339); collections are not text fields."""
    if isinstance(value, datetime):
        return rfc3339(value)
    if isinstance(value, str | int | float):
        return str(value)
    return None


def _mention(user: str) -> str | None:
    """`<@U…>` for a Slack user id (anything else is not mentioned)."""
    return f"<@{user}>" if _USER_ID.fullmatch(user) else None


def _alerts(alerts: Sequence[Alert], muted: Mapping[str, str], redactor: Redactor, lang: str, *,
            on_it: Mapping[str, str]) -> SlackMessage:
    if not alerts:
        return _one(mrkdwn(_t("alerts.none", lang)))
    blocks = [section(f"*{mrkdwn(_t('alerts.head', lang, n=len(alerts)))}*")]
    shown = alerts[:ALERTS_SHOWN]
    for a in shown:
        notes = []
        since = _field(a.since) if a.since else None
        if since:
            notes.append(_t("alerts.since", lang, since=since))
        if a.key in muted:
            notes.append(_t("alerts.muted", lang, until=clean_line(muted[a.key], redactor)))
        who = _mention(on_it.get(a.key, ""))
        on_it_note = " " + label("alert.on_it", lang, user=who) if who else ""
        summary = cut(mrkdwn(clean_line(a.described, redactor)), ALERT_SUMMARY)
        extra = f" _({mrkdwn(' · '.join(notes))})_" if notes else ""
        blocks += [section(f"{EMOJI.get(a.severity, '')} *{mrkdwn(severity(a.severity, lang))}* "
                           f"{inline(clean_line(a.case, redactor))} {summary}{extra}{on_it_note}"),
                   context([], plain=[a.key])]
    if len(alerts) > len(shown):
        blocks.append(context([mrkdwn(_t("alerts.more", lang, n=len(alerts) - len(shown)))]))
    text = _t("alerts.head", lang, n=len(alerts))
    return SlackMessage(text=text, blocks=finish(blocks), verbatim=tuple(a.key for a in shown))


def ephemeral(kind: str, *, lang: str, redactor: Redactor, **fields: Any) -> SlackMessage:
    """The ephemeral reply of `kind` (see KINDS for the fields each takes); bad arguments are one line."""
    lang_index(lang)
    _check(kind, fields)
    line = {k: clean_line(text, redactor) for k, v in fields.items() if (text := _field(v)) is not None}
    if kind in ("usage", "help"):
        c = inline(line.get("command") or "/rlark")
        if kind == "help":
            return _one(_t("help", lang, c=c))
        usage = mrkdwn(_USAGE.format(c=line.get("command") or "/rlark"))
        if line.get("reason"):
            return _one(_t("usage.reason", lang, reason=mrkdwn(line["reason"]), usage=usage))
        return _one(_t("usage", lang, usage=usage))
    if kind == "alerts":
        return _alerts(list(fields["alerts"]), dict(fields.get("muted") or {}), redactor, lang,
                       on_it=dict(fields.get("on_it") or {}))
    if kind == "duplicate":
        link = line.get("permalink", "")
        if _is_url(link):
            return _one(_t("duplicate", lang, target=inline(line["target"]), link=f"<{link.replace('&', '&amp;')}>"))
        return _one(_t("duplicate.nolink", lang, target=inline(line["target"])))
    if kind in ("muted", "unmuted"):
        entry = "muted.until" if line.get("until") else kind
        return _one(_t(entry, lang, **{k: inline(v) if k == "key" else mrkdwn(v) for k, v in line.items()}))
    if kind == "feedback":
        return _one(_t("feedback.up" if line["vote"] == "up" else "feedback.down", lang))
    if kind == "not_found":
        return _one(_t("not_found", lang, target=inline(line["target"]), where=mrkdwn(line["where"])))
    return _one(mrkdwn(_t(kind, lang)))
