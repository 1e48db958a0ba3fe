"""The shortcuts' listeners: the message shortcut "Diagnose" (`rlark_diagnose_message`), the menu it may show
(`rlark_target_pick`), the global shortcut (`rlark_diagnose_modal`) and its modal's submission, handed to
`bot.conversations.entry`; the message shortcut "Preflight this Job", handed to
`bot.conversations.preflight_message`. Each acknowledges within Slack's 3 s."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack, BoltContext

from bot.conversations.audit import Audit
from bot.conversations.deps import Deps
from bot.conversations.entry import Shortcut, message_shortcut, picked, submitted
from bot.conversations.ports import SlackDown
from bot.conversations.preflight_message import Shortcut as PreflightShortcut
from bot.conversations.preflight_message import preflight_message
from bot.conversations.requests import channel_lang
from bot.redact import seal
from bot.render.slack_entry import diagnose_modal


def _url(body: dict[str, Any]) -> str | None:
    url = body.get("response_url")
    return url if isinstance(url, str) and url else None


def on_message_shortcut(deps: Deps, *, ack: Ack, body: dict[str, Any], audit: Audit) -> None:
    ack()
    message = dict(body.get("message") or {})
    ts = str(message.get("ts") or body.get("message_ts") or "")
    shortcut = Shortcut(channel=audit.channel, user=audit.user, text=str(message.get("text") or ""),
                        thread=str(message.get("thread_ts") or ts), trigger=str(body.get("trigger_id") or ""),
                        response_url=_url(body))
    message_shortcut(deps, shortcut, audit=audit)


def on_pick(deps: Deps, *, ack: Ack, body: dict[str, Any], audit: Audit) -> None:
    ack()
    action = dict((body.get("actions") or [{}])[0])
    value = str((action.get("selected_option") or {}).get("value") or "")
    picked(deps, value=value, channel=audit.channel, user=audit.user, response_url=_url(body), audit=audit,
           trigger=f"pick:{body.get('trigger_id') or action.get('action_ts')}")


def on_global_shortcut(deps: Deps, *, ack: Ack, body: dict[str, Any], audit: Audit) -> None:
    """The modal opens with the shortcut's trigger, which Slack honours for 3 s: opened before returning."""
    ack()
    view = seal(diagnose_modal(lang=channel_lang(deps, "")), deps.redactor)
    try:
        deps.sink.open_view(trigger_id=str(body.get("trigger_id") or ""), view=view)
        audit.outcome("modal")
    except SlackDown as exc:
        deps.log.warning("modal not opened", extra={"reason": str(exc)})
        audit.outcome("slack_error")


def on_submission(deps: Deps, *, ack: Ack, body: dict[str, Any], audit: Audit) -> None:
    view = dict(body.get("view") or {})
    values = dict((view.get("state") or {}).get("values") or {})
    errors = submitted(deps, values=values, user=audit.user, view_id=str(view.get("id") or ""), audit=audit)
    if errors:
        ack(response_action="errors", errors=errors)
        audit.outcome("usage")
    else:
        ack()


def on_preflight_shortcut(deps: Deps, *, ack: Ack, body: dict[str, Any], context: BoltContext) -> None:
    ack()
    channel = str((body.get("channel") or {}).get("id") or "")
    user = str((body.get("user") or {}).get("id") or "")
    found = context.get("audit")
    audit = found if isinstance(found, Audit) else Audit(log=deps.log, metrics=deps.metrics, user=user,
                                                          channel=channel, command="preflight")
    try:
        message = dict(body.get("message") or {})
        ts = str(message.get("ts") or body.get("message_ts") or "")
        url = body.get("response_url")
        sc = PreflightShortcut(channel=channel, user=user, message_ts=ts,
                               thread_ts=str(message.get("thread_ts") or ts), text=str(message.get("text") or ""),
                               trigger=body.get("trigger_id") or None,
                               response_url=url if isinstance(url, str) and url else None)
        preflight_message(deps, sc, audit=audit, lang=channel_lang(deps, channel))
    finally:
        audit.listener_returned()
