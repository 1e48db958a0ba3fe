"""The App Home tab of one user: the state of the bot and its clusters, the firing alerts of the bound channels
the user is in, the user's recent diagnoses and watches. A `home` view for `views.publish`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.checks.alerts import Alert
from bot.models.refs import SEVERITY_RANK
from bot.redact import Redactor
from bot.render.slack_labels import label, severity
from bot.render.slack_message import context, divider, header, section
from bot.render.slack_reply import EMOJI
from bot.render.slack_text import clean_line, cut, inline, mrkdwn

ALERTS_SHOWN: Final = 20
MAX_VIEW_BLOCKS: Final = 100  # Slack's limit for a Home (or modal) view
ITEMS_SHOWN: Final = 10
AGENT_CHECKS: Final = ("agent-disconnected", "nodepool-unhealthy")

HOME_MARK: Final = "home|"  # a Home button's value: home|<channel>|<root ts>|<the alert root's own value>


def _t(key: str, lang: str, /, **fields: object) -> str:
    return label(f"home.{key}", lang, **fields)


@dataclass(frozen=True)
class HomeAlert:
    """A firing alert and, when its root is known, the values its root's buttons carry."""

    channel: str
    alert: Alert
    root: str = ""  # the root's ts in `channel`
    ack: str = ""  # the root's "I'm on it" value
    diagnose: str = ""  # the root's Diagnose value ("" when it is about no Job, pod or runner)
    acked_by: str = ""


def home_value(channel: str, root: str, value: str) -> str:
    """A Home button's value: where the alert's root is, then the value the root's own button carries."""
    return f"{HOME_MARK}{channel}|{root}|{value}"


def parse_home_value(value: str) -> tuple[str, str, str] | None:
    """(channel, root ts, the root's value) of a Home button's value; None for any other value."""
    if not value.startswith(HOME_MARK):
        return None
    channel, _, rest = value[len(HOME_MARK):].partition("|")
    root, _, inner = rest.partition("|")
    if not (channel.isalnum() and root.replace(".", "").isdigit() and inner):
        return None
    return channel, root, inner


def _buttons(item: HomeAlert, lang: str) -> list[dict[str, Any]]:
    if not item.root or not item.ack:
        return []
    elements: list[dict[str, Any]] = []
    if item.diagnose:
        elements.append({"type": "button", "action_id": "rlark_diagnose", "style": "primary",
                         "value": home_value(item.channel, item.root, item.diagnose),
                         "text": {"type": "plain_text", "text": _t("diagnose", lang)}})
    elements.append({"type": "button", "action_id": "rlark_ack",
                     "value": home_value(item.channel, item.root, item.ack),
                     "text": {"type": "plain_text", "text": _t("ack", lang)}})
    return [{"type": "actions", "elements": elements}]


@dataclass(frozen=True)
class HomeItem:
    """A recent diagnosis or a watch: its target, case or stage, and where its thread is."""

    target: str
    detail: str
    channel: str


def _channel(channel: str) -> str:
    return f"<#{channel}>" if channel[:1] in ("C", "G") and channel.isalnum() else inline(channel)


def _alert_lines(alerts: Sequence[HomeAlert], redactor: Redactor, lang: str, *, room: int) -> list[dict[str, Any]]:
    """The top alerts (in the order given: most severe first), as many as `ALERTS_SHOWN` and `room` blocks allow,
    then one line counting the others."""
    if not alerts:
        return [section(mrkdwn(_t("alerts.none", lang)))]
    blocks = [section(f"*{mrkdwn(_t('alerts', lang, n=len(alerts)))}*")]
    shown = 0
    for item in alerts[:ALERTS_SHOWN]:
        a = item.alert
        summary = cut(mrkdwn(clean_line(a.described, redactor)), 300)
        one = [section(f"{EMOJI.get(a.severity, '')} *{mrkdwn(severity(a.severity, lang))}* "
                       f"{inline(clean_line(a.case, redactor))} {_channel(item.channel)} {summary}"),
               context([], plain=[a.key])]
        if item.acked_by.isalnum():
            one.append(context([_t("on_it", lang, user=f"<@{item.acked_by}>")]))
        one += _buttons(item, lang)
        if len(blocks) + len(one) + 1 > room:  # keep one block for the line counting the others
            break
        blocks += one
        shown += 1
    if len(alerts) > shown:
        rest = Counter(item.alert.severity for item in alerts[shown:])
        worst_first = sorted(rest.items(), key=lambda pair: -SEVERITY_RANK.get(pair[0], -1))
        by = " · ".join(f"{severity(s, lang)} {n}" for s, n in worst_first)
        blocks.append(context([mrkdwn(f"{_t('more', lang, n=len(alerts) - shown)} {by}")]))
    return blocks


def _items(title: str, empty: str, items: Sequence[HomeItem], redactor: Redactor) -> list[dict[str, Any]]:
    if not items:
        return [section(f"*{mrkdwn(title)}*\n{mrkdwn(empty)}")]
    lines = [f"• {inline(clean_line(i.target, redactor))} {inline(clean_line(i.detail, redactor))} "
             f"{_channel(i.channel)}" for i in items[:ITEMS_SHOWN]]
    return [section(f"*{mrkdwn(title)}*\n" + "\n".join(lines))]


def home_view(*, problem: str | None, alerts: Sequence[HomeAlert], recent: Sequence[HomeItem],
              watches: Sequence[HomeItem], command: str, at: str, redactor: Redactor, lang: str) -> dict[str, Any]:
    """The `home` view; alert keys are the bot's own identifiers (`verbatim_keys`)."""
    agents = [a for a in alerts if a.alert.check in AGENT_CHECKS]
    status = _t("status.ok", lang) if problem is None else _t("status.bad", lang, reason=clean_line(problem, redactor))
    head = [header(_t("title", lang)), section(mrkdwn(status)),
            section(mrkdwn(_t("agents.bad", lang, n=len(agents)) if agents else _t("agents.ok", lang))), divider()]
    tail = [divider(), *_items(_t("recent", lang), _t("recent.none", lang, c=command), recent, redactor),
            *_items(_t("watches", lang), _t("watches.none", lang), watches, redactor),
            context([mrkdwn(_t("updated", lang, at=at))])]
    room = MAX_VIEW_BLOCKS - len(head) - len(tail)
    return {"type": "home", "blocks": [*head, *_alert_lines(alerts, redactor, lang, room=room), *tail]}


def verbatim_keys(alerts: Sequence[HomeAlert]) -> tuple[str, ...]:
    """The alert keys and the buttons' values: the bot's own identifiers, passed unchanged."""
    shown = alerts[:ALERTS_SHOWN]
    values = [home_value(a.channel, a.root, v) for a in shown if a.root for v in (a.ack, a.diagnose) if v]
    return (*(a.alert.key for a in shown), *values)
