"""A recording AlertSink for unit tests: keeps every post and update, can be switched off like Slack down."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.alerts.ports import DeliveryFailed


@dataclass
class Sent:
    method: str  # "post" or "update"
    channel: str
    ts: str
    text: str
    blocks: list[dict[str, Any]]
    metadata: dict[str, Any]
    thread_ts: str | None = None

    @property
    def state(self) -> str:
        return str(self.metadata["event_payload"]["state"])


@dataclass
class RecordingSink:
    sent: list[Sent] = field(default_factory=list)
    down: bool = False
    fail_after: int | None = None  # accept this many more calls, then behave as down
    _next: int = 1

    def _gate(self) -> None:
        if self.fail_after is not None:
            if self.fail_after <= 0:
                raise DeliveryFailed("slack unreachable (scripted)")
            self.fail_after -= 1
        if self.down:
            raise DeliveryFailed("slack unreachable")

    def post(self, *, channel: str, text: str, blocks: list[dict[str, Any]], metadata: dict[str, Any],
             thread_ts: str | None = None, key: str | None = None, maybe_sent: bool = False) -> str:
        self._gate()
        ts = f"{self._next}.000100"
        self._next += 1
        self.sent.append(Sent("post", channel, ts, text, blocks, metadata, thread_ts))
        return ts

    def update(self, *, channel: str, ts: str, text: str, blocks: list[dict[str, Any]],
               metadata: dict[str, Any]) -> None:
        self._gate()
        self.sent.append(Sent("update", channel, ts, text, blocks, metadata))

    def roots(self, channel: str | None = None) -> list[Sent]:
        return [s for s in self.sent if s.method == "post" and s.thread_ts is None
                and (channel is None or s.channel == channel)]

    def replies(self, root_ts: str) -> list[Sent]:
        return [s for s in self.sent if s.method == "post" and s.thread_ts == root_ts]

    def updates(self, root_ts: str) -> list[Sent]:
        return [s for s in self.sent if s.method == "update" and s.ts == root_ts]
