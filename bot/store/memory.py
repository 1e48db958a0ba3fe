"""MemoryStore: the store's semantics in one process, with an injectable clock, for unit tests of other packages.

It behaves like the Redis store (same namespaces, TTLs, compare-and-set, fencing, FIFO), so code tested against
it runs unchanged on Redis. `set_unavailable` makes every operation fail as a dead server would, to test how
callers degrade.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from bot.store.base import (
    ErrorHook,
    Lock,
    StoreUnavailable,
    Versioned,
    check_name,
    check_ttl,
    check_version,
    decode_doc,
    encode_doc,
)

T = TypeVar("T")


class MemoryStore:
    """An in-process `Store`. Thread-safe; `now` is the clock TTLs are measured against (seconds)."""

    def __init__(self, *, now: Callable[[], float] = time.monotonic, on_error: ErrorHook | None = None) -> None:
        self._now = now
        self._on_error = on_error
        self._mutex = threading.Lock()
        self._values: dict[str, tuple[str, float | None]] = {}
        self._locks: dict[str, tuple[str, float]] = {}
        self._docs: dict[str, tuple[str, int]] = {}
        self._fences: dict[str, int] = {}
        self._queues: dict[str, list[str]] = {}
        self._down: str | None = None
        self._closed = False

    def describe(self) -> str:
        """A short description for logs and readiness messages."""
        return "in-memory store"

    def set_unavailable(self, reason: str | None) -> None:
        """While `reason` is set every operation raises `StoreUnavailable(reason)`; None restores service."""
        self._down = reason

    def _run(self, op: str, body: Callable[[], T]) -> T:
        if self._closed:
            raise StoreUnavailable(f"store {op}: the store is closed")
        if self._down is not None:
            if self._on_error is not None:
                self._on_error(op)
            raise StoreUnavailable(f"store {op}: {self._down}")
        with self._mutex:
            return body()

    def _live_value(self, key: str) -> tuple[str, float | None] | None:
        entry = self._values.get(key)
        if entry is not None and entry[1] is not None and entry[1] <= self._now():
            del self._values[key]
            return None
        return entry

    def _holder(self, name: str) -> str | None:
        entry = self._locks.get(name)
        if entry is not None and entry[1] <= self._now():
            del self._locks[name]
            return None
        return None if entry is None else entry[0]

    def _deadline(self, ttl_seconds: float) -> float:
        return self._now() + check_ttl(ttl_seconds) / 1000

    def ping(self) -> None:
        self._run("ping", lambda: None)

    def claim(self, key: str, *, ttl_seconds: float) -> bool:
        check_name("key", key)
        deadline_ms = check_ttl(ttl_seconds)

        def body() -> bool:
            if self._live_value(key) is not None:
                return False
            self._values[key] = (uuid.uuid4().hex, self._now() + deadline_ms / 1000)
            return True

        return self._run("claim", body)

    def get(self, key: str) -> str | None:
        check_name("key", key)

        def body() -> str | None:
            entry = self._live_value(key)
            return None if entry is None else entry[0]

        return self._run("get", body)

    def put(self, key: str, value: str, *, ttl_seconds: float | None = None) -> None:
        check_name("key", key)
        if ttl_seconds is not None:
            check_ttl(ttl_seconds)

        def body() -> None:
            self._values[key] = (value, None if ttl_seconds is None else self._deadline(ttl_seconds))

        self._run("put", body)

    def delete(self, key: str) -> None:
        check_name("key", key)

        def body() -> None:
            self._values.pop(key, None)
            self._docs.pop(key, None)

        self._run("delete", body)

    def ttl(self, key: str) -> float | None:
        check_name("key", key)

        def body() -> float | None:
            entry = self._live_value(key)
            if entry is None or entry[1] is None:
                return None
            return max(0.0, entry[1] - self._now())

        return self._run("ttl", body)

    def get_doc(self, key: str) -> Versioned | None:
        check_name("key", key)

        def body() -> Versioned | None:
            entry = self._docs.get(key)
            return None if entry is None else Versioned(decode_doc(entry[0]), entry[1])

        return self._run("get_doc", body)

    def put_doc(self, key: str, doc: dict[str, Any], *, expect_version: int | None) -> Versioned | None:
        check_name("key", key)
        check_version(expect_version)
        text = encode_doc(doc)

        def body() -> Versioned | None:
            entry = self._docs.get(key)
            current = None if entry is None else entry[1]
            if current != expect_version:
                return None
            version = 1 if current is None else current + 1
            self._docs[key] = (text, version)
            return Versioned(decode_doc(text), version)

        return self._run("put_doc", body)

    def scan_docs(self, prefix: str) -> list[tuple[str, Versioned]]:
        def body() -> list[tuple[str, Versioned]]:
            return [(key, Versioned(decode_doc(text), version))
                    for key, (text, version) in sorted(self._docs.items()) if key.startswith(prefix)]

        return self._run("scan_docs", body)

    def acquire_lock(self, name: str, *, ttl_seconds: float) -> Lock | None:
        check_name("lock name", name)
        check_ttl(ttl_seconds)

        def body() -> Lock | None:
            if self._holder(name) is not None:
                return None
            fence = self._fences.get(name, 0) + 1
            self._fences[name] = fence
            lock = Lock(name=name, token=uuid.uuid4().hex, fence=fence)
            self._locks[name] = (_lock_value(lock), self._deadline(ttl_seconds))
            return lock

        return self._run("acquire_lock", body)

    def renew_lock(self, lock: Lock, *, ttl_seconds: float) -> bool:
        check_ttl(ttl_seconds)

        def body() -> bool:
            if self._holder(lock.name) != _lock_value(lock):
                return False
            self._locks[lock.name] = (_lock_value(lock), self._deadline(ttl_seconds))
            return True

        return self._run("renew_lock", body)

    def release_lock(self, lock: Lock) -> None:
        def body() -> None:
            if self._holder(lock.name) == _lock_value(lock):
                del self._locks[lock.name]

        self._run("release_lock", body)

    def holds(self, lock: Lock) -> bool:
        return self._run("holds", lambda: self._holder(lock.name) == _lock_value(lock))

    def push(self, queue: str, item: str) -> None:
        check_name("queue name", queue)
        self._run("push", lambda: self._queues.setdefault(queue, []).append(item))

    def peek(self, queue: str, count: int = 1) -> list[str]:
        check_name("queue name", queue)
        if count < 1:
            raise ValueError(f"count must be at least 1, not {count!r}")
        return self._run("peek", lambda: list(self._queues.get(queue, [])[:count]))

    def ack(self, queue: str, item: str) -> bool:
        check_name("queue name", queue)

        def body() -> bool:
            items = self._queues.get(queue)
            if not items or items[0] != item:
                return False
            items.pop(0)
            return True

        return self._run("ack", body)

    def close(self) -> None:
        self._closed = True


def _lock_value(lock: Lock) -> str:
    return f"{lock.token}:{lock.fence}"
