"""The slash command: parse, check readiness, acknowledge within Slack's 3 s, hand the work to the pool."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack

from bot.errors import UsageError
from bot.render.ephemeral import ephemeral
from bot.render.slack_message import SlackMessage
from bot.slack.deps import Deps
from bot.slack.flow import Ask, run_diagnosis, tell
from bot.slack.payloads import Command, parse_command
from bot.slack.tickets import run_ticket
from handlers.alerts import alerts_command
from handlers.common import ack_with, channel_lang, first_time, hand_off


def on_command(deps: Deps, ack: Ack, body: dict[str, Any]) -> None:
    channel, user = str(body.get("channel_id", "")), str(body.get("user_id", ""))
    lang = channel_lang(deps, channel)
    slash = deps.settings.slash_command
    if deps.readiness.draining or not deps.readiness.ready:
        ack_with(ack, deps, ephemeral("starting", lang=lang, redactor=deps.redactor))
        return
    try:
        cmd = parse_command(str(body.get("text", "")))
    except UsageError as exc:
        ack_with(ack, deps, ephemeral("usage", lang=lang, redactor=deps.redactor, command=slash, reason=str(exc)))
        deps.metrics.count_command(command="unknown", outcome="usage")
        return
    lang = channel_lang(deps, channel, cmd.lang)
    if cmd.verb == "help":
        ack_with(ack, deps, ephemeral("help", lang=lang, redactor=deps.redactor, command=slash))
        deps.metrics.count_command(command="help", outcome="ok")
        return
    if not first_time(deps, body.get("trigger_id")):
        ack()
        return
    if cmd.verb in ("alerts", "mute", "unmute"):
        ack_with(ack, deps, alerts_command(deps, cmd, channel=channel, user=user, lang=lang))
        return
    ack()
    _diagnose_later(deps, cmd, channel=channel, user=user, lang=lang, response_url=body.get("response_url"))


def _diagnose_later(deps: Deps, cmd: Command, *, channel: str, user: str, lang: str,
                    response_url: str | None) -> None:
    assert cmd.target is not None
    ask = Ask(channel=channel, user=user, target=cmd.target, lang=lang, response_url=response_url)

    def work() -> str:
        return run_ticket(deps, ask) if cmd.verb == "ticket" else run_diagnosis(deps, ask)

    def say(message: SlackMessage) -> None:
        tell(deps, ask, message=message)

    hand_off(deps, work=work, lang=lang, tell=say,
             audit={"user": user, "channel": channel, "command": cmd.verb, "target": str(cmd.target)})
