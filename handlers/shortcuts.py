"""The message shortcut "Preflight this Job": acknowledge, read which message where, hand it to
`bot.conversations.preflight_message`."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack, BoltContext

from bot.conversations.audit import Audit
from bot.conversations.deps import Deps
from bot.conversations.preflight_message import Shortcut, preflight_message
from bot.conversations.requests import channel_lang


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
        sc = Shortcut(channel=channel, user=user, message_ts=ts, thread_ts=str(message.get("thread_ts") or ts),
                      text=str(message.get("text") or ""), trigger=body.get("trigger_id") or None,
                      response_url=url if isinstance(url, str) and url else None)
        preflight_message(deps, sc, audit=audit, lang=channel_lang(deps, channel))
    finally:
        audit.listener_returned()
