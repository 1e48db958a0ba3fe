"""The buttons of a diagnosis reply (`rlark_ticket`, `rlark_rerun`, `rlark_evidence`) and of an alert (`rlark_mute`)."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack

from bot.errors import UsageError
from bot.models import Target
from bot.render.ephemeral import ephemeral
from bot.render.slack_actions import parse_target_value
from bot.render.slack_message import SlackMessage
from bot.slack.deps import Deps
from bot.slack.flow import Ask, locate_allowed, run_diagnosis, tell, tell_user
from bot.slack.payloads import Command, parse_key
from bot.slack.tickets import post_evidence, post_ticket, thread_diagnosis
from handlers.alerts import alerts_command
from handlers.common import channel_lang, first_time, hand_off

DEFAULT_MUTE_SECONDS = 2 * 3600
UNREADABLE = {"en": "That button names nothing the bot can act on (its value is not readable)",
              "zh": "这个按钮的内容无法识别，机器人无法处理"}


def _where(body: dict[str, Any]) -> tuple[str, str, str]:
    channel = str((body.get("channel") or body.get("container") or {}).get("id")
                  or (body.get("container") or {}).get("channel_id") or "")
    user = str((body.get("user") or {}).get("id") or "")
    message = body.get("message") or {}
    thread = str(message.get("thread_ts") or message.get("ts") or (body.get("container") or {}).get("message_ts")
                 or "")
    return channel, user, thread


def _action(body: dict[str, Any]) -> dict[str, Any]:
    actions = body.get("actions") or [{}]
    return dict(actions[0])


def _target(value: str) -> Target:
    kind_name, namespace = parse_target_value(value)
    try:
        return Target.parse(kind_name, namespace)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc


def on_button(deps: Deps, *, ack: Ack, body: dict[str, Any]) -> None:
    ack()
    action = _action(body)
    action_id = str(action.get("action_id", ""))
    channel, user, thread = _where(body)
    lang = channel_lang(deps, channel)
    if not first_time(deps, f"{action_id}:{body.get('trigger_id') or action.get('action_ts')}"):
        return
    if action_id == "rlark_mute":
        _mute(deps, action, channel=channel, user=user, lang=lang, thread=thread,
              response_url=body.get("response_url"))
        return
    try:
        ask = Ask(channel=channel, user=user, target=_target(str(action.get("value", ""))), lang=lang,
                  thread_ts=thread or None)
    except (UsageError, ValueError):
        _unreadable(deps, action_id, channel=channel, user=user, lang=lang, thread=thread,
                    response_url=body.get("response_url"))
        return

    def work() -> str:
        if action_id == "rlark_rerun":
            return run_diagnosis(deps, ask)
        where = locate_allowed(deps, ask)  # the binding as it is now, not as when the thread was posted
        if isinstance(where, str):
            return where
        diag = thread_diagnosis(deps, ask, thread_ts=thread)
        if diag is None:
            return "not_found"
        if action_id == "rlark_ticket":
            post_ticket(deps, ask, diag=diag, thread_ts=thread)
            return "ticket"
        post_evidence(deps, ask, diag=diag, thread_ts=thread)
        return "evidence"

    def say(message: SlackMessage) -> None:
        tell(deps, ask, message=message)

    hand_off(deps, work=work, lang=lang, tell=say,
             audit={"user": user, "channel": channel, "command": action_id, "target": str(ask.target)})


def _unreadable(deps: Deps, action_id: str, *, channel: str, user: str, lang: str, thread: str,
                response_url: object = None) -> None:
    """A button whose value names nothing the bot can read (edited, from an older version): one line back."""
    deps.log.warning("button with an unreadable value", extra={"action": action_id})
    deps.metrics.count_command(command=action_id, outcome="usage")
    if channel and user:
        reason = UNREADABLE.get(lang, UNREADABLE["en"])
        tell_user(deps, channel=channel, user=user, thread_ts=thread or None,
                  response_url=str(response_url) if isinstance(response_url, str) and response_url else None,
                  message=ephemeral("usage", lang=lang, redactor=deps.redactor, command=deps.settings.slash_command,
                                    reason=reason))


def _mute(deps: Deps, action: dict[str, Any], *, channel: str, user: str, lang: str, thread: str,
          response_url: object = None) -> None:
    try:
        cmd = Command("mute", key=parse_key(str(action.get("value", ""))), seconds=DEFAULT_MUTE_SECONDS)
    except UsageError:
        _unreadable(deps, "rlark_mute", channel=channel, user=user, lang=lang, thread=thread,
                    response_url=response_url)
        return
    reply = alerts_command(deps, cmd, channel=channel, user=user, lang=lang)
    tell_user(deps, channel=channel, user=user, message=reply, thread_ts=thread or None)
