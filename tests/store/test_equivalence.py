"""MemoryStore and the Redis store give the same answers to any sequence of operations (hypothesis drives
both side by side), so tests of other packages written against MemoryStore hold on Redis."""

from __future__ import annotations

import uuid
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test
from redis_server import delete_prefix

from bot.store.base import Lock, Store
from bot.store.factory import open_store
from bot.store.memory import MemoryStore

KEYS = st.sampled_from(["alert:a", "alert:b", "mute:a", "thread:x"])
QUEUES = st.sampled_from(["outbox", "other"])
ITEMS = st.sampled_from(["p1", "p2", "p3"])
LOCKS = st.sampled_from(["tick", "deliver"])
DOCS = st.dictionaries(st.sampled_from(["state", "n", "ts"]), st.one_of(st.integers(-5, 5), st.text(max_size=3)),
                       max_size=3)


def make_machine(url: str, prefix: str, opened: list[Store]) -> type[RuleBasedStateMachine]:
    class SideBySide(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.memory = MemoryStore()
            self.redis = open_store(url=url, data_dir=Path("."), prefix=f"{prefix}{uuid.uuid4().hex[:8]}:")
            opened.append(self.redis)
            self.locks: list[tuple[Lock, Lock]] = []

        def both(self, call: str, *args: object, **kwargs: object) -> object:
            mine, theirs = (getattr(s, call)(*args, **kwargs) for s in (self.memory, self.redis))
            assert mine == theirs, f"{call}{args}{kwargs}: memory {mine!r} != redis {theirs!r}"
            return mine

        @rule(key=KEYS)
        def claim(self, key: str) -> None:
            self.both("claim", key, ttl_seconds=600)

        @rule(key=KEYS, value=ITEMS)
        def put(self, key: str, value: str) -> None:
            self.both("put", key, value)

        @rule(key=KEYS)
        def delete(self, key: str) -> None:
            self.both("delete", key)

        @rule(key=KEYS, doc=DOCS, expect=st.one_of(st.none(), st.integers(1, 4)))
        def put_doc(self, key: str, doc: dict[str, object], expect: int | None) -> None:
            self.both("put_doc", key, doc, expect_version=expect)

        @rule(queue=QUEUES, item=ITEMS)
        def push(self, queue: str, item: str) -> None:
            self.both("push", queue, item)

        @rule(queue=QUEUES, item=ITEMS)
        def ack(self, queue: str, item: str) -> None:
            self.both("ack", queue, item)

        @rule(name=LOCKS)
        def acquire(self, name: str) -> None:
            mine = self.memory.acquire_lock(name, ttl_seconds=600)
            theirs = self.redis.acquire_lock(name, ttl_seconds=600)
            assert (mine is None) == (theirs is None)
            if mine is not None and theirs is not None:
                assert mine.fence == theirs.fence, "fences count the same way"
                self.locks.append((mine, theirs))

        @precondition(lambda self: bool(self.locks))
        @rule(index=st.integers(0, 20))
        def release(self, index: int) -> None:
            mine, theirs = self.locks[index % len(self.locks)]
            self.memory.release_lock(mine)
            self.redis.release_lock(theirs)

        @rule(key=KEYS)
        def read(self, key: str) -> None:
            mine, theirs = self.memory.get(key), self.redis.get(key)
            if self.memory.ttl(key) is None:  # a plain value; a claim holds each store's own opaque token
                assert mine == theirs
            assert (mine is None) == (theirs is None)
            assert (self.memory.ttl(key) is None) == (self.redis.ttl(key) is None)
            self.both("get_doc", key)

        @rule(prefix=st.sampled_from(["", "alert:", "mute:", "alert:a"]))
        def scan(self, prefix: str) -> None:
            self.both("scan_docs", prefix)

        @rule(queue=QUEUES, count=st.integers(1, 5))
        def peek(self, queue: str, count: int) -> None:
            self.both("peek", queue, count)

        @invariant()
        def same_holders(self) -> None:
            for mine, theirs in self.locks:
                assert self.memory.holds(mine) == self.redis.holds(theirs)

        def teardown(self) -> None:
            for key in ("alert:a", "alert:b", "mute:a", "thread:x"):
                self.read(key)
            self.scan("")
            for queue in ("outbox", "other"):
                self.peek(queue, 10)
            self.redis.close()

    return SideBySide


def test_memory_and_redis_agree(redis_url: str, store_prefix: str) -> None:
    opened: list[Store] = []
    try:
        run_state_machine_as_test(
            make_machine(redis_url, store_prefix, opened),
            settings=settings(max_examples=30, stateful_step_count=20, deadline=None, database=None,
                              suppress_health_check=[HealthCheck.too_slow]))
    finally:
        for store in opened:
            store.close()
        delete_prefix(redis_url, store_prefix)
