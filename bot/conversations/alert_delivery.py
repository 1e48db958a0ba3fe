"""The alert notifier's delivery port (`bot.alerts.ports.AlertSink`) on the chat sink.

Every string is sealed through the redactor except the metadata's `key`, `object` and `objects`: identifiers
the bot builds itself, sent unchanged (CONTRACT §6). Slack failing becomes `DeliveryFailed`, and the notifier
keeps the delivery queued until Slack is back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.alerts.ports import DeliveryFailed
from bot.conversations.ports import ChatSink, SlackDown, seal_message
from bot.redact import Redactor
from bot.render.slack_message import SlackMessage

# Refusals that no retry will fix for this channel: the delivery to it is given up (others go on).
PERMANENT = frozenset({"channel_not_found", "not_in_channel", "is_archived", "restricted_action",
                       "cant_update_message", "message_not_found", "thread_not_found"})


def _failed(exc: SlackDown) -> DeliveryFailed:
    return DeliveryFailed(str(exc), permanent=exc.error in PERMANENT)


def identifiers(metadata: dict[str, Any]) -> tuple[str, ...]:
    payload = metadata.get("event_payload") or {}
    ids = [payload.get("key"), payload.get("object"), *(payload.get("objects") or [])]
    return tuple(str(i) for i in ids if isinstance(i, str) and i)


def _state(metadata: dict[str, Any]) -> str:
    return str((metadata.get("event_payload") or {}).get("state") or "firing")


class SlackAlertSink:
    """`on_delivered(state)`: a root posted ("firing"), a reply in its thread ("reply"), a root edited to its
    state ("resolved", "firing" when re-opened); the bot counts these in `rlark_bot_alerts_total`.
    `on_root(channel, ts, metadata)`: a new thread's root is in Slack (the automatic diagnosis starts there)."""

    def __init__(self, sink: ChatSink, redactor: Redactor,
                 on_delivered: Callable[[str], None] | None = None,
                 on_root: Callable[[str, str, dict[str, Any]], None] | None = None) -> None:
        self._sink, self._redactor, self._on_delivered = sink, redactor, on_delivered
        self._on_root = on_root

    def _count(self, state: str) -> None:
        if self._on_delivered is not None:
            self._on_delivered(state)

    def _sealed(self, text: str, blocks: list[dict[str, Any]], metadata: dict[str, Any]) -> Any:
        message = SlackMessage(text=text, blocks=blocks, metadata=metadata)
        return seal_message(message, self._redactor, verbatim=identifiers(metadata))

    def post(self, *, channel: str, text: str, blocks: list[dict[str, Any]], metadata: dict[str, Any],
             thread_ts: str | None = None) -> str:
        try:
            ts = self._sink.post(channel=channel, message=self._sealed(text, blocks, metadata), thread_ts=thread_ts)
        except SlackDown as exc:
            raise _failed(exc) from exc
        self._count("reply" if thread_ts else _state(metadata))
        if thread_ts is None and self._on_root is not None and _state(metadata) == "firing":
            self._on_root(channel, ts, metadata)
        return ts

    def update(self, *, channel: str, ts: str, text: str, blocks: list[dict[str, Any]],
               metadata: dict[str, Any]) -> None:
        try:
            self._sink.update(channel=channel, ts=ts, message=self._sealed(text, blocks, metadata))
        except SlackDown as exc:
            raise _failed(exc) from exc
        self._count(_state(metadata))
