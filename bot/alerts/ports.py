"""The delivery port the alert notifier posts through; the Slack side implements it.

The Slack implementation redacts every string it sends except the metadata `key`, `object` and `objects` values,
which are identifiers the bot builds itself (CONTRACT §6).
"""

from __future__ import annotations

from typing import Any, Protocol


class DeliveryFailed(Exception):
    """Slack unreachable, or it refused the call after the client's retries.

    The delivery stays queued and is tried again on the next tick, unless `permanent` says retrying cannot help
    (channel_not_found, not_in_channel, is_archived, invalid_blocks, msg_too_long): then that channel's step is
    given up with a log line, so one bad channel does not hold back every alert behind it.
    """

    def __init__(self, message: str, *, permanent: bool = False) -> None:
        super().__init__(message)
        self.permanent = permanent


class AlertSink(Protocol):
    def post(self, *, channel: str, text: str, blocks: list[dict[str, Any]], metadata: dict[str, Any],
             thread_ts: str | None = None, key: str | None = None, maybe_sent: bool = False) -> str:
        """Post a message (a thread reply when `thread_ts` is given) and return its ts. `key`: the post's
        idempotency key, the same on every retry; `maybe_sent`: an earlier attempt with this key may have
        reached Slack, so it is looked up before posting again."""
        ...

    def update(self, *, channel: str, ts: str, text: str, blocks: list[dict[str, Any]],
               metadata: dict[str, Any]) -> None:
        """Replace the message at `ts` in place."""
        ...
