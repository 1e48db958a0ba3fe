"""The App Home tab of one user: the state of the bot and its clusters, the firing alerts of the bound channels
the user is in, the user's recent diagnoses and watches. A `home` view for `views.publish`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.checks.alerts import Alert
from bot.redact import Redactor
from bot.render.slack_labels import lang_index, severity
from bot.render.slack_message import context, divider, header, section
from bot.render.slack_reply import EMOJI
from bot.render.slack_text import clean_line, cut, inline, mrkdwn

ALERTS_SHOWN: Final = 20
ITEMS_SHOWN: Final = 10
AGENT_CHECKS: Final = ("agent-disconnected", "nodepool-unhealthy")

_TEXT: Final[dict[str, tuple[str, str]]] = {
    "title": ("RLark 诊断机器人", "RLark diagnosis bot"),
    "status.ok": ("✅ 机器人、存储和证据来源都正常。", "✅ The bot, its store and its evidence source are working."),
    "status.bad": ("⚠️ 机器人部分不可用：{reason}", "⚠️ The bot is partly unavailable: {reason}"),
    "agents.ok": ("集群与 agent：你的频道里没有 agent 或节点池告警。",
                  "Clusters and agents: no agent or node-pool alert in your channels."),
    "agents.bad": ("集群与 agent：{n} 个 agent 或节点池告警（见下）。",
                   "Clusters and agents: {n} agent or node-pool alerts (below)."),
    "alerts": ("你所在的绑定频道里正在告警（{n}）", "Firing in the bound channels you are in ({n})"),
    "alerts.none": ("你所在的绑定频道里没有告警。", "Nothing is firing in the bound channels you are in."),
    "more": ("还有 {n} 条未显示。", "{n} more not shown."),
    "recent": ("你最近的诊断", "Your recent diagnoses"),
    "recent.none": ("还没有诊断。在频道里输入 {c} diagnose TARGET 试试。",
                    "None yet. Try {c} diagnose TARGET in a channel."),
    "watches": ("你的跟踪", "Your watches"),
    "watches.none": ("没有正在进行的跟踪。", "No watch is running."),
    "updated": ("打开本页时更新：{at}", "Updated when you opened this tab: {at}"),
}


def _t(key: str, lang: str, /, **fields: object) -> str:
    return _TEXT[key][lang_index(lang)].format(**fields)


@dataclass(frozen=True)
class HomeAlert:
    channel: str
    alert: Alert


@dataclass(frozen=True)
class HomeItem:
    """A recent diagnosis or a watch: its target, case or stage, and where its thread is."""

    target: str
    detail: str
    channel: str


def _channel(channel: str) -> str:
    return f"<#{channel}>" if channel[:1] in ("C", "G") and channel.isalnum() else inline(channel)


def _alert_lines(alerts: Sequence[HomeAlert], redactor: Redactor, lang: str) -> list[dict[str, Any]]:
    if not alerts:
        return [section(mrkdwn(_t("alerts.none", lang)))]
    blocks = [section(f"*{mrkdwn(_t('alerts', lang, n=len(alerts)))}*")]
    for item in alerts[:ALERTS_SHOWN]:
        a = item.alert
        summary = cut(mrkdwn(clean_line(a.described, redactor)), 300)
        blocks += [section(f"{EMOJI.get(a.severity, '')} *{mrkdwn(severity(a.severity, lang))}* "
                           f"{inline(clean_line(a.case, redactor))} {_channel(item.channel)} {summary}"),
                   context([], plain=[a.key])]
    if len(alerts) > ALERTS_SHOWN:
        blocks.append(context([mrkdwn(_t("more", lang, n=len(alerts) - ALERTS_SHOWN))]))
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
    blocks: list[dict[str, Any]] = [
        header(_t("title", lang)),
        section(mrkdwn(status)),
        section(mrkdwn(_t("agents.bad", lang, n=len(agents)) if agents else _t("agents.ok", lang))),
        divider(), *_alert_lines(alerts, redactor, lang), divider(),
        *_items(_t("recent", lang), _t("recent.none", lang, c=command), recent, redactor),
        *_items(_t("watches", lang), _t("watches.none", lang), watches, redactor),
        context([mrkdwn(_t("updated", lang, at=at))]),
    ]
    return {"type": "home", "blocks": blocks[:100]}


def verbatim_keys(alerts: Sequence[HomeAlert]) -> tuple[str, ...]:
    return tuple(a.alert.key for a in alerts[:ALERTS_SHOWN])
