"""The buttons' listener: acknowledge, read which button where, hand it to `bot.conversations.buttons`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from slack_bolt import Ack

from bot.conversations.audit import Audit
from bot.conversations.buttons import Press, pressed
from bot.conversations.deps import Deps
from bot.conversations.home import Home
from bot.render.slack_home import parse_home_value


def _thread(body: dict[str, Any]) -> str:
    """The ts of the thread's root the button sits in (the message itself when it is the root)."""
    message = body.get("message") or {}
    return str(message.get("thread_ts") or message.get("ts") or (body.get("container") or {}).get("message_ts")
               or "")


def on_button(deps: Deps, *, ack: Ack, body: dict[str, Any], audit: Audit, admin: Callable[[], bool],
              home: Home | None = None) -> None:
    ack()
    action = dict((body.get("actions") or [{}])[0])
    action_id = str(action.get("action_id", ""))
    url = body.get("response_url")
    request_id = f"{action_id}:{body.get('trigger_id') or action.get('action_ts')}"
    value = action.get("value") or (action.get("selected_option") or {}).get("value") or ""  # a button | a menu
    message = body.get("message") or {}
    press = Press(action_id=action_id, value=str(value), channel=audit.channel,
                  user=audit.user, thread=_thread(body), request_id=request_id,
                  response_url=url if isinstance(url, str) and url else None,
                  message_ts=str(message.get("ts") or (body.get("container") or {}).get("message_ts") or ""))
    where = parse_home_value(press.value) if (body.get("view") or {}).get("type") == "home" else None
    if where is not None:  # from the Home tab: it acts on the alert's root, in the channel the root is in
        channel, root, inner = where
        audit.channel = channel
        press = Press(action_id=action_id, value=inner, channel=channel, user=audit.user, thread=root,
                      request_id=request_id, message_ts=root, from_home=True)
    pressed(deps, press, audit=audit, admin=admin, home=home)
