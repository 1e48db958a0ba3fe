"""Requests as Slack sends them to an app's HTTP endpoint: signed, form-encoded slash commands and button clicks.

Slack's v0 signing scheme (https://docs.slack.dev/authentication/verifying-requests-from-slack/): the signature is
`v0=` + hex HMAC-SHA256 of `v0:<timestamp>:<raw body>` keyed with the signing secret, sent in `X-Slack-Signature`
with the timestamp in `X-Slack-Request-Timestamp`. Slash commands arrive as a urlencoded form; interactions as a
form with one field, `payload`, holding the JSON. The `*_payload` builders give the same fields as a dict, for the
Socket Mode stand-in, which delivers them unencoded.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
import urllib.error
import urllib.request
import uuid
from typing import Any
from urllib.parse import urlencode

from .model import APP_ID, TEAM_DOMAIN, TEAM_ID

Obj = dict[str, Any]
NOWHERE = "http://127.0.0.1:9/response/unset"  # the default response URL: refused at once, never the internet


def new_trigger_id() -> str:
    """A trigger id shaped like Slack's (`<digits>.<digits>.<hex>`), different for every request: the bot
    deduplicates on it, so two requests sharing one would be one request to it."""
    return f"{int(time.time())}.{uuid.uuid4().int % 10**12}.{uuid.uuid4().hex}"


def signature(body: bytes, secret: str, timestamp: int) -> str:
    """The `X-Slack-Signature` value for `body` sent at `timestamp`."""
    base = b"v0:" + str(timestamp).encode("ascii") + b":" + body
    return "v0=" + hmac.new(secret.encode("utf-8"), base, hashlib.sha256).hexdigest()


def signed_headers(body: bytes, secret: str, *, timestamp: int | None = None,
                   content_type: str = "application/x-www-form-urlencoded", retry_num: int | None = None,
                   retry_reason: str = "http_timeout") -> dict[str, str]:
    """The headers Slack sends with `body`: content type, request timestamp (now by default) and signature.

    `retry_num` marks a delivery Slack retries (`X-Slack-Retry-Num`, `X-Slack-Retry-Reason`); a retry is signed
    anew, with its own timestamp.
    """
    ts = int(time.time()) if timestamp is None else timestamp
    headers = {"Content-Type": content_type, "X-Slack-Request-Timestamp": str(ts),
               "X-Slack-Signature": signature(body, secret, ts)}
    if retry_num is not None:
        headers |= {"X-Slack-Retry-Num": str(retry_num), "X-Slack-Retry-Reason": retry_reason}
    return headers


def slash_command_payload(*, text: str, command: str = "/rlark", channel_id: str = "C0DIAG", user_id: str = "U0ASKER",
                          response_url: str = NOWHERE,
                          trigger_id: str | None = None, channel_name: str = "diag", user_name: str = "asker",
                          team_id: str = TEAM_ID) -> Obj:
    """The fields of a slash command invocation, as Slack posts them."""
    return {"token": "standin-verification-token", "team_id": team_id, "team_domain": TEAM_DOMAIN,
            "channel_id": channel_id, "channel_name": channel_name, "user_id": user_id, "user_name": user_name,
            "command": command, "text": text, "api_app_id": APP_ID, "is_enterprise_install": "false",
            "response_url": response_url, "trigger_id": trigger_id or new_trigger_id()}


def slash_command_body(**fields: Any) -> bytes:
    """A slash command's form body; takes `slash_command_payload`'s keyword arguments."""
    return urlencode(slash_command_payload(**fields)).encode("utf-8")


def block_action_payload(*, action_id: str, value: str, channel_id: str = "C0DIAG", message_ts: str,
                         thread_ts: str | None = None, user_id: str = "U0ASKER",
                         response_url: str = NOWHERE,
                         message: Obj | None = None, block_id: str = "actions", text: str = "button",
                         trigger_id: str | None = None) -> Obj:
    """A `block_actions` interaction: a click on button `action_id` carrying `value` in message `message_ts`.

    `thread_ts` is the thread the message is in (its root's ts), when the message is a thread reply.
    `message` is the clicked message as Slack shows it to the app (a minimal one by default).
    """
    container: Obj = {"type": "message", "message_ts": message_ts, "channel_id": channel_id, "is_ephemeral": False}
    shown = dict(message) if message is not None else {"type": "message", "ts": message_ts, "text": ""}
    if thread_ts is not None:
        container["thread_ts"] = thread_ts
        shown.setdefault("thread_ts", thread_ts)
    return {
        "type": "block_actions",
        "user": {"id": user_id, "username": "asker", "name": "asker", "team_id": TEAM_ID},
        "api_app_id": APP_ID,
        "token": "standin-verification-token",
        "container": container,
        "trigger_id": trigger_id or new_trigger_id(),
        "team": {"id": TEAM_ID, "domain": TEAM_DOMAIN},
        "is_enterprise_install": False,
        "channel": {"id": channel_id, "name": "diag"},
        "message": shown,
        "response_url": response_url,
        "actions": [{"type": "button", "action_id": action_id, "block_id": block_id, "value": value,
                     "text": {"type": "plain_text", "text": text, "emoji": True},
                     "action_ts": f"{time.time():.6f}"}],
        "state": {"values": {}},
    }


def block_action_body(**fields: Any) -> bytes:
    """A button click's form body, `payload=<JSON>`; takes `block_action_payload`'s keyword arguments."""
    return urlencode({"payload": json.dumps(block_action_payload(**fields))}).encode("utf-8")


def event_payload(event: Obj, *, event_id: str | None = None) -> Obj:
    """An Events API `event_callback` wrapping `event` (over HTTP it is the JSON body; over Socket Mode the
    envelope's payload). Each gets its own `event_id` unless one is given (a double delivery repeats it)."""
    return {"token": "standin-verification-token", "team_id": TEAM_ID, "api_app_id": APP_ID, "event": event,
            "type": "event_callback", "event_id": event_id or f"Ev{uuid.uuid4().hex[:12].upper()}",
            "event_time": int(time.time()), "authorizations": [{"team_id": TEAM_ID, "is_bot": True}]}


def link_shared_event(*, channel: str, user: str, message_ts: str, urls: list[str]) -> Obj:
    """The `link_shared` event for a message whose links belong to a domain the app registered."""
    return {"type": "link_shared", "channel": channel, "user": user, "message_ts": message_ts,
            "unfurl_id": f"U{uuid.uuid4().hex[:10]}", "source": "conversations_history",
            "event_ts": f"{time.time():.6f}",
            "links": [{"domain": url.split("/")[2], "url": url} for url in urls]}


def post(url: str, body: bytes, headers: dict[str, str], *, timeout: float = 10.0) -> tuple[int, dict[str, str], bytes]:
    """POST `body` with urllib; (status, headers, body), also for 4xx/5xx answers, which urllib raises."""
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers.items()), response.read()
    except urllib.error.HTTPError as e:
        with e:
            return e.code, dict(e.headers.items()), e.read()
