"""The buttons of a diagnosis reply (Ticket, Re-run, Evidence) and of an alert (Mute), once the listener read
which button, where and by whom."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.conversations.alert_acks import ack_alert
from bot.conversations.alert_commands import alerts_command
from bot.conversations.audit import Audit
from bot.conversations.deps import Deps
from bot.conversations.diagnosis import Ask, locate_allowed, run_diagnosis, tell, tell_user
from bot.conversations.feedback import vote
from bot.conversations.from_alert import diagnose_into_alert, is_alert_thread
from bot.conversations.home import Home
from bot.conversations.parsing import Command, parse_key
from bot.conversations.pictures import timeline_into_thread
from bot.conversations.ports import SlackDown
from bot.conversations.requests import channel_lang, first_time, hand_off
from bot.conversations.tickets import post_evidence, post_ticket, thread_diagnosis
from bot.errors import UsageError
from bot.models import Target
from bot.render.ephemeral import ephemeral
from bot.render.slack_actions import ACTION_TIMELINE, parse_target_value
from bot.render.slack_labels import label
from bot.render.slack_message import SlackMessage

DEFAULT_MUTE_SECONDS = 2 * 3600


@dataclass(frozen=True)
class Press:
    """One click: the button, its value, where it was (channel, the thread's root) and by whom."""

    action_id: str
    value: str
    channel: str
    user: str
    thread: str
    request_id: str
    response_url: str | None = None
    message_ts: str = ""  # the clicked message itself (a thread reply's own ts)
    from_home: bool = False  # clicked in the App Home tab: `channel` and `thread` are the alert root's


def _target(value: str) -> Target:
    kind_name, namespace = parse_target_value(value)
    try:
        return Target.parse(kind_name, namespace)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc


def pressed(deps: Deps, press: Press, *, audit: Audit, admin: Callable[[], bool], home: Home | None = None) -> None:
    """Mute at once; Ticket, Re-run and Evidence on the bounded pool, into the button's thread."""
    lang = channel_lang(deps, press.channel)
    if not first_time(deps, press.request_id):
        return
    if press.from_home and not _home_allowed(deps, press, home=home, audit=audit):
        return
    if press.action_id == "rlark_mute":
        _mute(deps, press, lang=lang, audit=audit, admin=admin)
        return
    if press.action_id in ("rlark_ack", "rlark_feedback"):
        _at_once(deps, press, lang=lang, audit=audit, home=home)
        return
    from_alert = press.action_id in ("rlark_diagnose", "rlark_diagnose_pick")
    try:
        # in an alert's thread the alert's root is never edited: progress and verdict are replies in it
        in_thread = from_alert or (press.action_id == "rlark_rerun" and is_alert_thread(deps, press.channel,
                                                                                         press.thread))
        ask = Ask(channel=press.channel, user=press.user, target=_target(press.value), lang=lang,
                  thread_ts=press.thread or None, in_thread=in_thread and bool(press.thread),
                  on_purpose=not from_alert)
    except (UsageError, ValueError):
        _unreadable(deps, press, lang=lang, audit=audit)
        return
    audit.about(target=str(ask.target))
    if from_alert:
        if ask.in_thread:
            diagnose_into_alert(deps, ask=ask, audit=audit)
        else:
            _unreadable(deps, press, lang=lang, audit=audit)
        return
    action_id, thread = press.action_id, press.thread

    def work() -> str:
        if action_id == "rlark_rerun":
            return run_diagnosis(deps, ask)
        where = locate_allowed(deps, ask)  # the binding as it is now, not as when the thread was posted
        if isinstance(where, str):
            return where
        if action_id == ACTION_TIMELINE:
            return timeline_into_thread(deps, channel=ask.channel, thread_ts=thread, target=ask.target, lang=lang)
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

    hand_off(deps, work=work, lang=lang, tell=say, audit=audit)


def _at_once(deps: Deps, press: Press, *, lang: str, audit: Audit, home: Home | None = None) -> None:
    """"I'm on it" and 👍/👎: a store write and at most one chat.update, on the pool (never on the ack path)."""

    def work() -> str:
        if press.action_id == "rlark_ack":
            outcome = ack_alert(deps, value=press.value, channel=press.channel, user=press.user, audit=audit)
        else:
            outcome = vote(deps, value=press.value, channel=press.channel, ts=press.message_ts, user=press.user,
                           thread=press.thread)
        if outcome == "usage":
            _unreadable(deps, press, lang=lang, audit=audit)
        if press.from_home and home is not None and outcome in ("acked", "unacked"):
            home.opened(press.user)  # the Home tab shows who is on it now
        return outcome

    hand_off(deps, work=work, lang=lang, audit=audit, tell=lambda message: tell_user(
        deps, channel=press.channel, user=press.user, message=message, thread_ts=press.thread or None,
        response_url=press.response_url))


def _home_allowed(deps: Deps, press: Press, *, home: Home | None, audit: Audit) -> bool:
    """A click in the Home tab acts only on an alert of a bound channel the user is in, and only for the alert
    buttons; then the channel's own scope checks apply as for a click on the alert's root."""
    try:
        allowed = (home is not None and press.action_id in ("rlark_ack", "rlark_diagnose")
                   and press.channel in home.channels_of(press.user))
    except SlackDown as exc:
        deps.log.warning("home button: user's channels not readable", extra={"reason": str(exc)})
        allowed = False
    if not allowed:
        deps.log.warning("home button refused", extra={"action": press.action_id, "channel": press.channel})
        audit.outcome("refused")
    return allowed


def _unreadable(deps: Deps, press: Press, *, lang: str, audit: Audit) -> None:
    """A button whose value names nothing the bot can read (edited, from an older version): one line back."""
    deps.log.warning("button with an unreadable value", extra={"action": press.action_id})
    audit.outcome("usage")
    if press.channel and press.user:
        reason = label("reply.unreadable", lang)
        tell_user(deps, channel=press.channel, user=press.user, thread_ts=press.thread or None,
                  response_url=press.response_url or None,
                  message=ephemeral("usage", lang=lang, redactor=deps.redactor, command=deps.settings.slash_command,
                                    reason=reason))


def _mute(deps: Deps, press: Press, *, lang: str, audit: Audit, admin: Callable[[], bool]) -> None:
    try:
        cmd = Command("mute", key=parse_key(press.value), seconds=DEFAULT_MUTE_SECONDS)
    except UsageError:
        _unreadable(deps, press, lang=lang, audit=audit)
        return
    reply = alerts_command(deps, cmd, audit=audit, lang=lang, admin=admin)
    tell_user(deps, channel=press.channel, user=press.user, message=reply, thread_ts=press.thread or None)
