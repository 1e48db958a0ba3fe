"""Events and shortcuts as Slack sends them: an Events API callback (HTTP body or Socket Mode payload) for
`app_mention`, `message.im` and `app_home_opened`; a message shortcut, a global shortcut and a view submission
(interactions: the `payload` form field over HTTP, the dict itself over Socket Mode)."""

from __future__ import annotations

import json
import uuid
from typing import Any
from urllib.parse import urlencode

from .model import APP_ID, BOT_USER_ID, TEAM_DOMAIN, TEAM_ID
from .signing import NOWHERE, new_trigger_id

Obj = dict[str, Any]


def event_callback(event: Obj, *, event_id: str | None = None) -> Obj:
    """The Events API envelope Slack posts to the Request URL (and wraps in Socket Mode's `events_api`)."""
    return {"token": "legacy-verification-token", "team_id": TEAM_ID, "api_app_id": APP_ID, "type": "event_callback",
            "event_id": event_id or f"Ev{uuid.uuid4().hex[:10].upper()}", "event_time": 1_795_161_600,
            "authorizations": [{"team_id": TEAM_ID, "user_id": BOT_USER_ID, "is_bot": True}], "event": event}


def mention(text: str, *, channel: str = "C0DIAG", user: str = "U0ASKER", ts: str = "1795161600.000100",
            thread_ts: str | None = None) -> Obj:
    event: Obj = {"type": "app_mention", "user": user, "text": f"<@{BOT_USER_ID}> {text}", "ts": ts,
                  "channel": channel, "event_ts": ts}
    if thread_ts:
        event["thread_ts"] = thread_ts
    return event


def direct_message(text: str, *, channel: str = "D0ASKER", user: str = "U0ASKER",
                   ts: str = "1795161600.000200") -> Obj:
    return {"type": "message", "channel_type": "im", "user": user, "text": text, "ts": ts, "channel": channel,
            "event_ts": ts}


def home_opened(*, user: str = "U0ASKER") -> Obj:
    return {"type": "app_home_opened", "user": user, "channel": "D0ASKER", "tab": "home",
            "event_ts": "1795161600.000300"}


def message_shortcut(text: str, *, channel: str = "C0DIAG", user: str = "U0ASKER", ts: str,
                     thread_ts: str | None = None, response_url: str = NOWHERE) -> Obj:
    message: Obj = {"type": "message", "user": "U0SOMEONE", "text": text, "ts": ts}
    if thread_ts:
        message["thread_ts"] = thread_ts
    return {"type": "message_action", "callback_id": "rlark_diagnose_message", "trigger_id": new_trigger_id(),
            "action_ts": "1795161600.1", "team": {"id": TEAM_ID, "domain": TEAM_DOMAIN},
            "user": {"id": user, "name": "asker"}, "channel": {"id": channel, "name": "diag"},
            "message": message, "message_ts": ts, "response_url": response_url, "token": "legacy"}


def global_shortcut(*, user: str = "U0ASKER") -> Obj:
    return {"type": "shortcut", "callback_id": "rlark_diagnose_modal", "trigger_id": new_trigger_id(),
            "action_ts": "1795161600.2", "team": {"id": TEAM_ID, "domain": TEAM_DOMAIN},
            "user": {"id": user, "username": "asker"}, "token": "legacy"}


def view_submission(*, view: Obj, values: Obj, user: str = "U0ASKER") -> Obj:
    """The modal `view` (as opened) submitted with `values` (block_id -> action_id -> value object)."""
    return {"type": "view_submission", "team": {"id": TEAM_ID, "domain": TEAM_DOMAIN},
            "user": {"id": user, "username": "asker"}, "trigger_id": new_trigger_id(),
            "view": {**view, "id": f"V{uuid.uuid4().hex[:8].upper()}", "state": {"values": values}},
            "api_app_id": APP_ID, "token": "legacy"}


def json_body(obj: Obj) -> bytes:
    return json.dumps(obj).encode("utf-8")


def form_body(payload: Obj) -> bytes:
    return urlencode({"payload": json.dumps(payload)}).encode("utf-8")
