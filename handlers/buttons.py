"""The buttons' listener: acknowledge, read which button where, hand it to `bot.conversations.buttons`."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack

from bot.conversations.buttons import Press, pressed
from bot.conversations.deps import Deps


def _where(body: dict[str, Any]) -> tuple[str, str, str]:
    channel = str((body.get("channel") or body.get("container") or {}).get("id")
                  or (body.get("container") or {}).get("channel_id") or "")
    user = str((body.get("user") or {}).get("id") or "")
    message = body.get("message") or {}
    thread = str(message.get("thread_ts") or message.get("ts") or (body.get("container") or {}).get("message_ts")
                 or "")
    return channel, user, thread


def on_button(deps: Deps, *, ack: Ack, body: dict[str, Any]) -> None:
    ack()
    action = dict((body.get("actions") or [{}])[0])
    action_id = str(action.get("action_id", ""))
    channel, user, thread = _where(body)
    url = body.get("response_url")
    pressed(deps, Press(action_id=action_id, value=str(action.get("value", "")), channel=channel, user=user,
                        thread=thread, request_id=f"{action_id}:{body.get('trigger_id') or action.get('action_ts')}",
                        response_url=url if isinstance(url, str) and url else None))
