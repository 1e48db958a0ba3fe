"""The entry points beyond the slash command, each reaching the same use cases (`run_diagnosis`, `run_ticket`,
`run_watch`, `run_unwatch`) with the same scope check, the same refusals and the same cooldown per
(channel, target):

- `@rlark diagnose TARGET` in a channel or a thread: answered in that thread (`chat_request`, a mention);
- a DM to the bot: like the slash command in a channel bound as `RLARK_BOT_DM_SCOPE` says (`chat_request`);
- the message shortcut on a message naming targets (`message_shortcut`; several: a menu, then `picked`);
- the global shortcut's modal (`submitted`).

Slack delivers an event again when it was not acknowledged in time, and Socket Mode may deliver one twice:
every request is taken once by its event id or trigger id (`first_time`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from bot.conversations.audit import Audit
from bot.conversations.deps import Deps
from bot.conversations.diagnosis import Ask, run_diagnosis, tell, tell_user
from bot.conversations.parsing import Command, named_targets, parse_chat
from bot.conversations.requests import channel_lang, first_time, hand_off
from bot.conversations.tickets import run_ticket
from bot.conversations.watch import run_unwatch, run_watch
from bot.errors import UsageError
from bot.models import Target
from bot.render.ephemeral import ephemeral
from bot.render.slack_entry import note, pick_menu
from bot.render.slack_message import SlackMessage

_TS = re.compile(r"\d{1,12}\.\d{1,8}")


@dataclass(frozen=True)
class Said:
    """A mention or a DM: who said what where, the thread to answer in (None: a new root), the event id."""

    channel: str
    user: str
    text: str
    thread: str | None
    event_id: str


def run_command(deps: Deps, cmd: Command, ask: Ask) -> str:
    """One of the chat verbs, with the scope check and refusals of the slash command."""
    if cmd.verb == "watch":
        return run_watch(deps, ask)
    if cmd.verb == "unwatch":
        return run_unwatch(deps, ask)
    if cmd.verb == "ticket":
        return run_ticket(deps, ask)
    return run_diagnosis(deps, ask)


def _say(deps: Deps, *, channel: str, user: str, thread: str | None, response_url: str | None = None) -> Any:
    def say(message: SlackMessage) -> None:
        tell_user(deps, channel=channel, user=user, message=message, thread_ts=thread, response_url=response_url)

    return say


def chat_request(deps: Deps, said: Said, *, audit: Audit) -> None:
    """A mention or a DM, acknowledged already: parsed, then run on the bounded pool like the slash command."""
    lang = channel_lang(deps, said.channel)
    say = _say(deps, channel=said.channel, user=said.user, thread=said.thread)

    def work() -> str:
        if not first_time(deps, f"event:{said.event_id}"):
            return "duplicate_request"
        if not deps.readiness.taking_commands:
            say(ephemeral("starting", lang=lang, redactor=deps.redactor))
            return "starting"
        try:
            cmd = parse_chat(said.text)
        except UsageError as exc:
            say(ephemeral("usage", lang=lang, redactor=deps.redactor, command=deps.settings.slash_command,
                          reason=str(exc)))
            return "usage"
        audit.about(command=cmd.verb, target=str(cmd.target or ""))
        asked_lang = channel_lang(deps, said.channel, override=cmd.lang)
        if cmd.verb == "help" or cmd.target is None:
            say(ephemeral("help", lang=asked_lang, redactor=deps.redactor, command=deps.settings.slash_command))
            return "ok"
        ask = Ask(channel=said.channel, user=said.user, target=cmd.target, lang=asked_lang, thread_ts=said.thread,
                  in_thread=said.thread is not None)
        return run_command(deps, cmd, ask)

    hand_off(deps, work=work, audit=audit, lang=lang, tell=say)


@dataclass(frozen=True)
class Shortcut:
    """A message shortcut: the message's text and thread, who asked where, and how to answer them alone."""

    channel: str
    user: str
    text: str
    thread: str
    trigger: str
    response_url: str | None


def message_shortcut(deps: Deps, shortcut: Shortcut, *, audit: Audit) -> None:
    """Diagnose the target the message names into its thread; several named: a menu to pick from."""
    lang = channel_lang(deps, shortcut.channel)
    say = _say(deps, channel=shortcut.channel, user=shortcut.user, thread=shortcut.thread,
               response_url=shortcut.response_url)

    def work() -> str:
        if not first_time(deps, shortcut.trigger):
            return "duplicate_request"
        targets = named_targets(shortcut.text, ui_url=deps.settings.ui_url)
        if not targets:
            say(note("none", lang=lang))
            return "usage"
        if len(targets) > 1:
            say(pick_menu([str(t) for t in targets], thread=shortcut.thread, redactor=deps.redactor, lang=lang))
            return "menu"
        audit.about(command="diagnose", target=str(targets[0]))
        return run_diagnosis(deps, Ask(channel=shortcut.channel, user=shortcut.user, target=targets[0], lang=lang,
                                       response_url=shortcut.response_url, thread_ts=shortcut.thread,
                                       in_thread=True))

    hand_off(deps, work=work, audit=audit, lang=lang, tell=say)


def picked(deps: Deps, *, value: str, channel: str, user: str, trigger: str, response_url: str | None,
           audit: Audit) -> None:
    """A target picked from the message shortcut's menu: diagnosed into the message's thread."""
    lang = channel_lang(deps, channel)
    try:
        choice = json.loads(value)
        target = Target.parse(str(choice["target"]))
        thread = str(choice["thread"])
        if not _TS.fullmatch(thread):
            raise ValueError("not a message ts")
    except (ValueError, KeyError, TypeError):
        tell_user(deps, channel=channel, user=user, message=ephemeral("error", lang=lang, redactor=deps.redactor),
                  response_url=response_url)
        audit.outcome("usage")
        return
    audit.about(command="diagnose", target=str(target))
    ask = Ask(channel=channel, user=user, target=target, lang=lang, response_url=response_url, thread_ts=thread,
              in_thread=True)

    def work() -> str:
        if not first_time(deps, trigger):
            return "duplicate_request"
        return run_diagnosis(deps, ask)

    hand_off(deps, work=work, audit=audit, lang=lang, tell=lambda message: tell(deps, ask, message=message))


def submitted(deps: Deps, *, values: dict[str, Any], user: str, view_id: str, audit: Audit) -> dict[str, str]:
    """The modal's answers: errors by block id for the modal to show (nothing runs), or {} once handed off."""
    channel = str(_value(values, "channel", "selected_conversation") or "")
    text = str(_value(values, "target", "value") or "").strip()
    namespace = str(_value(values, "namespace", "value") or "").strip()
    lang = str(_value(values, "lang", "selected_option") or channel_lang(deps, channel))
    if not channel:
        return {"channel": "Pick a channel"}
    try:
        target = Target.parse(text, namespace)
    except ValueError as exc:
        return {"target": str(exc)[:150]}
    audit.about(command="diagnose", target=str(target))
    ask = Ask(channel=channel, user=user, target=target, lang=lang if lang in ("zh", "en") else "en")

    def work() -> str:
        if not first_time(deps, f"view:{view_id}"):
            return "duplicate_request"
        return run_diagnosis(deps, ask)

    hand_off(deps, work=work, audit=audit, lang=ask.lang, tell=lambda message: tell(deps, ask, message=message))
    return {}


def _value(values: dict[str, Any], block: str, field: str) -> Any:
    entry = (values.get(block) or {}).get(block) or {}
    if field == "selected_option":
        return (entry.get("selected_option") or {}).get("value")
    return entry.get(field)
