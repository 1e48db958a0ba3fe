"""The store interface: records, the one error callers handle, and the protocol every backend implements.

State that must outlive a request or be shared by replicas (dedupe keys of retried Slack requests, cooldowns,
alert records, mutes, scheduler locks, the outbox of Slack deliveries) goes through `Store`. Keys are logical;
a backend maps them into its own versioned namespace (`bot.store.keys`). Nothing here imports a Redis client,
so the rest of the bot can type against `Store` without pulling in an SDK.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

ErrorHook = Callable[[str], None]
"""Called with the operation's name (``"claim"``, ``"put_doc"``, ...) once per operation that failed."""


class StoreUnavailable(Exception):
    """The store could not be reached or did not answer in time; the message is one line.

    The outcome of a write that raised this is unknown: it may or may not have been applied.
    """

    def __init__(self, message: str) -> None:
        lines = message.splitlines()
        super().__init__(lines[0] if lines else "store unavailable")


@dataclass(frozen=True)
class Versioned:
    """A JSON document and its version counter (1 when created, +1 on every successful compare-and-set)."""

    doc: dict[str, Any]
    version: int


@dataclass(frozen=True)
class Lock:
    """A held lease. `fence` grows with every acquisition of `name`, so a stale holder can be told apart."""

    name: str
    token: str
    fence: int


class Store(Protocol):
    """What the Slack app, the alert notifier and the scheduler need from shared state.

    Every method raises `StoreUnavailable` (never a client library's exception) when the server cannot be
    reached or times out. Times are in seconds; TTLs must be positive.
    """

    def ping(self) -> None:
        """Raise `StoreUnavailable` unless the store answers."""

    def claim(self, key: str, *, ttl_seconds: float) -> bool:
        """Atomically create `key` with a TTL if it is absent; True for the one caller that created it."""

    def get(self, key: str) -> str | None:
        """The value stored by `put` (or the opaque token stored by `claim`), None when absent."""

    def put(self, key: str, value: str, *, ttl_seconds: float | None = None) -> None:
        """Store `value`, replacing any previous value and TTL; no TTL means it never expires."""

    def delete(self, key: str) -> None:
        """Remove the value and the document stored under `key`, if any."""

    def ttl(self, key: str) -> float | None:
        """Seconds left before `key` expires; None when it does not exist or never expires."""

    def get_doc(self, key: str) -> Versioned | None:
        """The document stored under `key` with its version, None when absent."""

    def put_doc(self, key: str, doc: dict[str, Any], *, expect_version: int | None) -> Versioned | None:
        """Compare-and-set: write when the current version is `expect_version` (None: only when absent).

        Returns the new `Versioned`, or None when another writer got there first.
        """

    def scan_docs(self, prefix: str) -> list[tuple[str, Versioned]]:
        """Every document whose logical key starts with `prefix`, sorted by key."""

    def acquire_lock(self, name: str, *, ttl_seconds: float) -> Lock | None:
        """Take the lease `name` for `ttl_seconds` unless someone holds it; None when held."""

    def renew_lock(self, lock: Lock, *, ttl_seconds: float) -> bool:
        """Extend a lease still held by `lock`; False when it expired or passed to someone else."""

    def release_lock(self, lock: Lock) -> None:
        """Give the lease back if it is still ours (compare-and-delete); otherwise do nothing."""

    def holds(self, lock: Lock) -> bool:
        """Whether `lock` is still the current holder (check before a side effect; compare fences downstream)."""

    def push(self, queue: str, item: str) -> None:
        """Append `item` to the FIFO `queue`."""

    def peek(self, queue: str, count: int = 1) -> list[str]:
        """Up to `count` items from the head of `queue`, oldest first, without removing them."""

    def ack(self, queue: str, item: str) -> bool:
        """Remove the head of `queue` if it is still `item`; False when the head is something else."""

    def close(self) -> None:
        """Release connections (and stop an embedded server this store started)."""


def check_ttl(ttl_seconds: float) -> int:
    """A TTL in whole milliseconds (at least 1); a non-positive or non-finite TTL is a caller's mistake."""
    if not ttl_seconds > 0 or ttl_seconds == float("inf"):
        raise ValueError(f"ttl_seconds must be a positive number of seconds, not {ttl_seconds!r}")
    return max(1, round(ttl_seconds * 1000))


def check_version(expect_version: int | None) -> int | None:
    """An expected version is None (create) or a version a document can have (1 or more)."""
    if expect_version is not None and (isinstance(expect_version, bool) or not isinstance(expect_version, int)
                                       or expect_version < 1):
        raise ValueError(f"expect_version must be None or a version >= 1, not {expect_version!r}")
    return expect_version


def check_name(kind: str, name: str) -> str:
    """Logical keys, lock names and queue names are non-empty strings."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"{kind} must be a non-empty string, not {name!r}")
    return name


def encode_doc(doc: dict[str, Any]) -> str:
    """Documents are JSON objects; a value JSON cannot represent is a caller's mistake, reported in one line."""
    if not isinstance(doc, dict):
        raise TypeError(f"a store document must be a dict, not {type(doc).__name__}")
    try:
        return json.dumps(doc, sort_keys=True, separators=(",", ":"), allow_nan=False, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"a store document must be plain JSON: {exc}") from None


def decode_doc(text: str) -> dict[str, Any]:
    """The stored JSON object back as a fresh dict (callers may mutate it freely)."""
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError("stored document is not a JSON object")
    return value
