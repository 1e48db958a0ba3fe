"""The alert notifier's delivery port (`bot.alerts.ports.AlertSink`) on the Slack sink.

Every string is sealed through the redactor except the metadata's `key`, `object` and `objects`: identifiers
the bot builds itself, sent unchanged (CONTRACT §6). Slack failing becomes `DeliveryFailed`, and the notifier
keeps the delivery queued until Slack is back.
"""

from __future__ import annotations

from typing import Any

from bot.alerts.ports import DeliveryFailed
from bot.redact import Redactor
from bot.render.slack_message import SlackMessage
from bot.slack.sink import SlackDown, SlackSink, seal_message


# Refusals that no retry will fix for this channel: the delivery to it is given up (others go on).
PERMANENT = frozenset({"channel_not_found", "not_in_channel", "is_archived", "restricted_action",
                       "cant_update_message", "message_not_found", "thread_not_found"})


def _failed(exc: SlackDown) -> DeliveryFailed:
    return DeliveryFailed(str(exc), permanent=exc.error in PERMANENT)


def identifiers(metadata: dict[str, Any]) -> tuple[str, ...]:
    payload = metadata.get("event_payload") or {}
    ids = [payload.get("key"), payload.get("object"), *(payload.get("objects") or [])]
    return tuple(str(i) for i in ids if isinstance(i, str) and i)


class SlackAlertSink:
    def __init__(self, sink: SlackSink, redactor: Redactor) -> None:
        self._sink, self._redactor = sink, redactor

    def _sealed(self, text: str, blocks: list[dict[str, Any]], metadata: dict[str, Any]) -> Any:
        message = SlackMessage(text=text, blocks=blocks, metadata=metadata)
        return seal_message(message, self._redactor, verbatim=identifiers(metadata))

    def post(self, *, channel: str, text: str, blocks: list[dict[str, Any]], metadata: dict[str, Any],
             thread_ts: str | None = None) -> str:
        try:
            return self._sink.post(channel=channel, message=self._sealed(text, blocks, metadata), thread_ts=thread_ts)
        except SlackDown as exc:
            raise _failed(exc) from exc

    def update(self, *, channel: str, ts: str, text: str, blocks: list[dict[str, Any]],
               metadata: dict[str, Any]) -> None:
        try:
            self._sink.update(channel=channel, ts=ts, message=self._sealed(text, blocks, metadata))
        except SlackDown as exc:
            raise _failed(exc) from exc
