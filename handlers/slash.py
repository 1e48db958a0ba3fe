"""The slash command's listener: parse, acknowledge within Slack's 3 s, call the conversation.

Readiness, retried requests and the audit line are middleware (`handlers.middleware`), not repeated here.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from slack_bolt import Ack

from bot.conversations.alert_commands import alerts_command
from bot.conversations.analyses import COMMANDS, command_later
from bot.conversations.audit import Audit
from bot.conversations.deps import Deps
from bot.conversations.diagnosis import tell_user
from bot.conversations.parsing import Command, parse_command
from bot.conversations.requests import channel_lang, diagnose_later, first_time
from bot.errors import UsageError
from bot.render.ephemeral import ephemeral
from bot.render.slack_message import SlackMessage
from handlers.common import ack_with

ACK_BUDGET_SECONDS = 1.5  # what the alerts commands may spend before the ack (Slack allows 3 s in all)


def on_command(deps: Deps, *, ack: Ack, body: dict[str, Any], audit: Audit, admin: Callable[[], bool]) -> None:
    lang = channel_lang(deps, audit.channel)
    slash = deps.settings.slash_command
    try:
        cmd = parse_command(str(body.get("text", "")))
    except UsageError as exc:
        usage = ephemeral("usage", lang=lang, redactor=deps.redactor, command=slash, reason=str(exc))
        ack_with(ack, deps, message=usage)
        audit.outcome("usage")
        return
    lang = channel_lang(deps, audit.channel, override=cmd.lang)
    audit.about(command=cmd.verb)
    if cmd.verb == "help":
        ack_with(ack, deps, message=ephemeral("help", lang=lang, redactor=deps.redactor, command=slash))
        audit.outcome("ok")
        return
    trigger, response_url = body.get("trigger_id"), body.get("response_url")
    if cmd.verb in ("alerts", "mute", "unmute"):
        _alerts_now_or_later(deps, ack, cmd, audit=audit, lang=lang, trigger=trigger, response_url=response_url,
                             admin=admin)
        return
    ack()  # before any store or Slack call: a slow Redis must never make Slack wait
    if cmd.verb in COMMANDS:
        command_later(deps, cmd, audit=audit, lang=lang, response_url=response_url, trigger=trigger)
        return
    diagnose_later(deps, cmd, audit=audit, lang=lang, response_url=response_url, trigger=trigger)


def _alerts_now_or_later(deps: Deps, ack: Ack, cmd: Command, *, audit: Audit, lang: str, trigger: str | None,
                         response_url: str | None, admin: Callable[[], bool]) -> None:
    """Answered in the ack when the store answers quickly (it nearly always does); else acknowledged at once
    and answered through the response_url, so a slow Redis never makes Slack wait past its 3 s."""

    def work() -> SlackMessage | None:
        if not first_time(deps, trigger):
            return None
        return alerts_command(deps, cmd, audit=audit, lang=lang, admin=admin)

    future = deps.pool.submit(work)
    try:
        reply = future.result(timeout=ACK_BUDGET_SECONDS)
    except FutureTimeout:
        ack()
        audit.later()

        def later(done: Future[SlackMessage | None]) -> None:
            message = done.result() if done.exception() is None else None
            if message is not None:
                tell_user(deps, channel=audit.channel, user=audit.user, message=message, response_url=response_url)

        future.add_done_callback(later)
        return
    if reply is None:
        ack()
    else:
        ack_with(ack, deps, message=reply)
