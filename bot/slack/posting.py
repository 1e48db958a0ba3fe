"""Posting a message exactly once although Slack may answer late.

`chat.postMessage` is not idempotent: when Slack takes a post but answers after the client's timeout (or the
connection drops, or it answers 5xx), posting again makes a second message. So every post carries an
idempotency key in its message metadata (`event_payload.post_key`), and a post whose outcome is unknown is
looked up by that key in the channel's recent history (`conversations.history`, or `conversations.replies` for a
thread reply) before it is sent again. A caller that retries on its own (a later tick, a restarted process)
passes the same key with `maybe_sent=True`; within the process a message handed again after an unsure attempt is
recognised by its content and gets the same key. When the history cannot be read (a missing scope, the bot not
in the channel), an unsure post cannot be confirmed either way: it is sent again marked "(may be repeated)",
and so are the later edits of that message, so a reader who sees two knows why.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
import uuid
from collections.abc import Callable
from http.client import HTTPException
from typing import Any
from urllib.error import URLError

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.conversations.ports import SlackDown

log = logging.getLogger("rlark_bot.slack")

KEY_FIELD = "post_key"
ATTEMPTS = 3
LOOKBACK_SECONDS = 900.0  # how far back a lookup reads: a retry comes within minutes of its first attempt
REMEMBERED = 256  # unsure posts remembered in the process (by content) until they are settled
REPEATED_MARK = "(may be repeated · 可能重复)"
"""Said on a message sent again after an attempt whose outcome Slack's history could not confirm."""
UNKNOWN = "?"
"""What `find` returns when the history could not be read: the post may or may not be there."""


class Unsure(Exception):
    """The post may or may not have reached Slack."""


def unsure(exc: Exception) -> bool:
    """Whether a failed call may still have taken effect: a timeout, a connection cut after sending, a 5xx. A
    refusal Slack worded, or a connection never made, did not."""
    if isinstance(exc, SlackApiError):
        return int(getattr(exc.response, "status_code", 200) or 200) >= 500
    if isinstance(exc, URLError) and isinstance(exc.reason, ConnectionRefusedError):
        return False
    return isinstance(exc, (OSError, URLError, HTTPException))


def keyed(metadata: dict[str, Any] | None, key: str) -> dict[str, Any]:
    """The message metadata carrying the idempotency key (a bare one for messages that had none)."""
    if metadata is None:
        return {"event_type": "rlark_post", "event_payload": {KEY_FIELD: key}}
    payload = dict(metadata.get("event_payload") or {})
    payload[KEY_FIELD] = key
    return {**metadata, "event_payload": payload}


def fingerprint(kwargs: dict[str, Any]) -> str:
    body = json.dumps(kwargs, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


class OncePoster:
    """`chat.postMessage` with an idempotency key. `client`: one that does not retry timeouts, dropped
    connections or 5xx by itself (rate limits it may retry: a 429 took nothing); `lookup`: a client for the
    history reads (it may retry anything: reads are safe)."""

    def __init__(self, *, client: WebClient, lookup: WebClient, sleep: Callable[[float], None] = time.sleep,
                 backoff: float = 1.0) -> None:
        self.client, self._lookup, self._sleep, self._backoff = client, lookup, sleep, backoff
        self._unsure: dict[str, tuple[str, float]] = {}  # content fingerprint -> (key, first attempt)
        self.repeated: set[tuple[str, str]] = set()  # (channel, ts) of messages sent marked as possible repeats
        self._lock = threading.Lock()

    def post(self, kwargs: dict[str, Any], *, key: str | None, maybe_sent: bool) -> str:
        """Post `kwargs` (chat.postMessage's arguments) once; its ts. Raises SlackDown."""
        channel, thread_ts = str(kwargs["channel"]), kwargs.get("thread_ts")
        content = fingerprint(kwargs)
        with self._lock:
            remembered = self._unsure.get(content)
        since = time.time()
        if remembered is not None:
            key, since = key or remembered[0], remembered[1]
            maybe_sent = True
        key = key or uuid.uuid4().hex
        sent = {**kwargs, "metadata": keyed(kwargs.get("metadata"), key)}
        if maybe_sent:
            found = self.find(channel=channel, thread_ts=thread_ts, key=key, since=since)
            if found == UNKNOWN:
                sent = marked(sent)
            elif found:
                self._settle(content)
                return found
        delay = self._backoff
        for attempt in range(ATTEMPTS):
            try:
                ts = self._once(sent)
            except Unsure as exc:
                self._remember(content, key, since)
                found = self.find(channel=channel, thread_ts=thread_ts, key=key, since=since)
                if found and found != UNKNOWN:
                    log.info("a post answered late had reached Slack; not posted again")
                    ts = found
                elif attempt == ATTEMPTS - 1:
                    raise SlackDown(f"Slack unreachable: {exc}") from exc
                else:
                    if found == UNKNOWN:
                        sent = marked(sent)
                    self._sleep(delay)
                    delay *= 2
                    continue
            self._settle(content)
            if sent.get("text", "").endswith(REPEATED_MARK):
                with self._lock:
                    self.repeated.add((channel, ts))
            return ts
        raise AssertionError("unreachable")

    def mark_if_repeated(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        """chat.update's arguments for `kwargs["ts"]`, marked when that message was sent as a possible repeat."""
        with self._lock:
            repeated = (str(kwargs.get("channel")), str(kwargs.get("ts"))) in self.repeated
        return marked(kwargs) if repeated else kwargs

    def _once(self, kwargs: dict[str, Any]) -> str:
        try:
            response = self.client.chat_postMessage(**kwargs)
        except SlackApiError as exc:
            error = str(exc.response.get("error", "error"))
            if unsure(exc):
                raise Unsure(f"HTTP {exc.response.status_code}") from exc
            raise SlackDown(f"Slack refused: {error}", error=error) from exc
        except Exception as exc:
            if unsure(exc):
                raise Unsure(type(exc).__name__) from exc
            raise SlackDown(f"Slack unreachable: {type(exc).__name__}") from exc
        return str(response.get("ts") or "")

    def find(self, *, channel: str, thread_ts: str | None, key: str, since: float) -> str | None:
        """The ts of the bot's message carrying `key`, posted since `since` (minus a margin); None when there is
        none; UNKNOWN when Slack refuses the read (no scope, not in the channel). Raises SlackDown when Slack
        cannot be reached (the post stays unsure, the caller tries later)."""
        oldest = f"{max(0.0, since - LOOKBACK_SECONDS):.6f}"
        try:
            if thread_ts:
                response = self._lookup.conversations_replies(channel=channel, ts=thread_ts, oldest=oldest,
                                                              include_all_metadata=True, limit=200)
            else:
                response = self._lookup.conversations_history(channel=channel, oldest=oldest,
                                                              include_all_metadata=True, limit=200)
        except SlackApiError as exc:
            error = str(exc.response.get("error", "error"))
            if unsure(exc):
                raise SlackDown(f"Slack unreachable: HTTP {exc.response.status_code}") from exc
            # missing_scope, not_in_channel: this post cannot be checked; posting again is the lesser harm
            log.warning("cannot read %s to check an unanswered post (%s); it is sent again marked as a possible "
                        "repeat", channel, error)
            return UNKNOWN
        except Exception as exc:
            raise SlackDown(f"Slack unreachable: {type(exc).__name__}") from exc
        for message in response.get("messages") or []:
            payload = (message.get("metadata") or {}).get("event_payload") or {}
            if payload.get(KEY_FIELD) == key:
                return str(message.get("ts") or "") or None
        return None

    def _remember(self, content: str, key: str, since: float) -> None:
        with self._lock:
            if len(self._unsure) >= REMEMBERED:
                self._unsure.pop(next(iter(self._unsure)))
            self._unsure.setdefault(content, (key, since))

    def _settle(self, content: str) -> None:
        with self._lock:
            self._unsure.pop(content, None)


def marked(kwargs: dict[str, Any]) -> dict[str, Any]:
    """A message's arguments with REPEATED_MARK after its text and, when it has blocks, as a last context block."""
    text = str(kwargs.get("text") or "")
    if text.endswith(REPEATED_MARK):
        return kwargs
    out = {**kwargs, "text": f"{text} {REPEATED_MARK}".strip()}
    blocks = kwargs.get("blocks")
    if blocks:
        note = {"type": "context", "elements": [{"type": "mrkdwn", "text": REPEATED_MARK}]}
        out["blocks"] = [*list(blocks)[:49], note]
    return out
