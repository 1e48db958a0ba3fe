"""What every request goes through, written once as bolt middleware: Slack's retries dropped, the audit of
each command and button (its line and the commands counter), the admin-group check, and the refusal while the
bot is starting."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import Any

from slack_bolt import Ack, BoltContext, BoltRequest, BoltResponse

from bot.conversations.audit import Audit
from bot.conversations.deps import Deps
from bot.conversations.ports import SlackDown
from bot.conversations.requests import channel_lang
from bot.render.ephemeral import ephemeral
from handlers.common import ack_with

Next = Callable[[], BoltResponse | None]
Middleware = Callable[..., BoltResponse | None]


def drop_retries(deps: Deps) -> Middleware:
    def drop(req: BoltRequest, next: Next) -> BoltResponse | None:
        """A request Slack retries is answered 200 and never runs twice (the first one is being handled).

        A fresh response: at this point in bolt's global middleware there is no response object yet. Over
        Socket Mode every Events API envelope carries its attempt number, `0` for the first delivery."""
        retry = req.headers.get("x-slack-retry-num") or [""]  # bolt keeps each header as a list of values
        if retry[0] not in ("", "0"):
            deps.log.info("retried request dropped", extra={"retry": retry[0]})
            return BoltResponse(status=200, body="")
        return next()

    return drop


def _subject(body: dict[str, Any]) -> tuple[str, str, str] | None:
    """(user, channel, what) of a slash command, a button, an event, a shortcut or a modal; None for anything else."""
    if body.get("command"):
        return str(body.get("user_id", "")), str(body.get("channel_id", "")), "unknown"
    if body.get("type") == "event_callback":
        event = body.get("event") or {}
        return str(event.get("user") or ""), str(event.get("channel") or ""), str(event.get("type") or "event")
    if body.get("type") in ("message_action", "shortcut", "view_submission"):
        return (str((body.get("user") or {}).get("id") or ""), str((body.get("channel") or {}).get("id") or ""),
                str(body.get("callback_id") or (body.get("view") or {}).get("callback_id") or "shortcut"))
    if body.get("type") == "block_actions":
        action = dict((body.get("actions") or [{}])[0])
        channel = str((body.get("channel") or body.get("container") or {}).get("id")
                      or (body.get("container") or {}).get("channel_id") or "")
        return str((body.get("user") or {}).get("id") or ""), channel, str(action.get("action_id", ""))
    return None


def audit(deps: Deps) -> Middleware:
    def begin(req: BoltRequest, next: Next) -> BoltResponse | None:
        """One `Audit` per command or button, in the listener's context as `audit` (see `audited`)."""
        subject = _subject(req.body)
        if subject is not None:
            user, channel, what = subject
            req.context["audit"] = Audit(log=deps.log, metrics=deps.metrics, user=user, channel=channel,
                                         command=what)
        return next()

    return begin


@contextlib.contextmanager
def audited(context: BoltContext) -> Iterator[Audit]:
    """The request's audit around its listener: bolt runs middleware before the listener, never around it, so
    the audit ends here when the listener returns (or, for work handed to the pool, when that work does)."""
    record = context["audit"]
    assert isinstance(record, Audit)
    try:
        yield record
    finally:
        record.listener_returned()


def admin_group(deps: Deps) -> Middleware:
    def admin(req: BoltRequest, next: Next) -> BoltResponse | None:
        """`is_admin` in the listener's context: whether the requester is in `RLARK_BOT_ADMIN_USERGROUP`, asked of
        Slack (cached) only when a conversation needs it, so the ack never waits on it."""
        subject = _subject(req.body)
        if subject is not None:
            user = subject[0]
            req.context["is_admin"] = functools.cache(lambda: _in_admin_group(deps, user))
        return next()

    return admin


def _in_admin_group(deps: Deps, user: str) -> bool:
    group = deps.settings.admin_usergroup
    if not group or deps.admins is None:
        return False
    try:
        return user in deps.admins.members(group)
    except SlackDown as exc:
        deps.log.warning("admin user group not readable", extra={"reason": str(exc)})
        return False


def when_ready(deps: Deps) -> Middleware:
    def ready(ack: Ack, body: dict[str, Any], next: Next) -> BoltResponse | None:
        """Until Slack and the evidence source answered once (and while draining), commands hear "starting"."""
        if not deps.readiness.taking_commands:
            lang = channel_lang(deps, str(body.get("channel_id", "")))
            kind = "restarting" if deps.readiness.draining else "starting"
            ack_with(ack, deps, message=ephemeral(kind, lang=lang, redactor=deps.redactor))
            return ack.response  # a response, not None: None would tell bolt this listener is not for the request
        return next()

    return ready
