"""One behavioural suite for every store: MemoryStore, the local Redis and the embedded store must agree."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import pytest

from bot.store.base import Lock, Store, StoreUnavailable

from .conftest import Backend

T = TypeVar("T")
SHORT = 0.5
"""A TTL short enough to wait for, long enough that a loaded machine still sees the key before it expires."""


def race(count: int, action: Callable[[int], T]) -> list[T]:
    """Run `action(i)` on `count` threads released at the same moment."""
    start = threading.Barrier(count)

    def run(index: int) -> T:
        start.wait()
        return action(index)

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))


def test_claim_belongs_to_the_first_caller_until_it_expires(backend: Backend, store: Store) -> None:
    assert store.claim("slack:retry:abc", ttl_seconds=SHORT) is True
    assert store.claim("slack:retry:abc", ttl_seconds=SHORT) is False
    assert backend.open().claim("slack:retry:abc", ttl_seconds=SHORT) is False
    left = store.ttl("slack:retry:abc")
    assert left is not None and 0 < left <= SHORT
    assert backend.wait_until(lambda: store.claim("slack:retry:abc", ttl_seconds=60), after=SHORT)
    assert store.claim("slack:retry:abc", ttl_seconds=60) is False


def test_claim_race_has_exactly_one_winner(backend: Backend) -> None:
    clients = [backend.open() for _ in range(4)]
    for round_ in range(10):
        results = race(12, lambda i, r=round_: clients[i % 4].claim(f"cooldown:{r}", ttl_seconds=30))
        assert results.count(True) == 1, results


def test_values_with_and_without_ttl(backend: Backend, store: Store) -> None:
    assert store.get("missing") is None and store.ttl("missing") is None
    store.put("thread", "C1/1700000000.0001")
    assert store.get("thread") == "C1/1700000000.0001"
    assert store.ttl("thread") is None
    store.put("thread", "C1/2", ttl_seconds=60)
    left = store.ttl("thread")
    assert store.get("thread") == "C1/2" and left is not None and 59 < left <= 60
    store.put("thread", "C1/3")
    assert store.ttl("thread") is None, "a put without TTL makes the value permanent again"
    store.delete("thread")
    assert store.get("thread") is None
    store.delete("thread")  # deleting what is absent is fine


def test_value_expires(backend: Backend, store: Store) -> None:
    store.put("short", "x", ttl_seconds=SHORT)
    store.put("long", "y", ttl_seconds=600)
    assert store.get("short") == "x"
    assert backend.wait_until(lambda: store.get("short") is None, after=SHORT)
    assert store.ttl("short") is None
    assert store.get("long") == "y"


def test_value_and_document_under_one_key_do_not_collide(store: Store) -> None:
    store.put("alert:k", "plain")
    assert store.put_doc("alert:k", {"state": "firing"}, expect_version=None) is not None
    assert store.get("alert:k") == "plain"
    got = store.get_doc("alert:k")
    assert got is not None and got.doc == {"state": "firing"}
    store.delete("alert:k")
    assert store.get("alert:k") is None and store.get_doc("alert:k") is None
    assert store.scan_docs("alert:") == []


def test_compare_and_set_versions(store: Store) -> None:
    first = store.put_doc("alert:a", {"state": "firing", "ts": "1.1"}, expect_version=None)
    assert first is not None and first.version == 1 and first.doc == {"state": "firing", "ts": "1.1"}
    assert store.put_doc("alert:a", {"state": "other"}, expect_version=None) is None, "create only when absent"
    second = store.put_doc("alert:a", {"state": "resolved", "ts": "1.1"}, expect_version=1)
    assert second is not None and second.version == 2
    assert store.put_doc("alert:a", {"state": "stale"}, expect_version=1) is None, "an old version loses"
    assert store.put_doc("alert:nope", {"x": 1}, expect_version=3) is None, "no document, no update"
    assert store.get_doc("alert:nope") is None
    current = store.get_doc("alert:a")
    assert current is not None and current.version == 2 and current.doc == {"state": "resolved", "ts": "1.1"}
    current.doc["state"] = "changed by the caller"
    again = store.get_doc("alert:a")
    assert again is not None and again.doc["state"] == "resolved", "returned documents are copies"


def test_two_writers_one_wins(backend: Backend, store: Store) -> None:
    one, two = backend.open(), backend.open()
    for round_ in range(15):
        key = f"alert:race:{round_}"
        assert store.put_doc(key, {"n": 0}, expect_version=None) is not None
        results = race(2, lambda i, k=key: (one, two)[i].put_doc(k, {"writer": i}, expect_version=1))
        winners = [r for r in results if r is not None]
        assert len(winners) == 1, results
        final = store.get_doc(key)
        assert final is not None and final.version == 2 and final.doc == winners[0].doc


def test_compare_and_set_loses_no_update(backend: Backend) -> None:
    clients = [backend.open() for _ in range(3)]
    clients[0].put_doc("counter", {"n": 0}, expect_version=None)

    def bump(index: int) -> int:
        done = 0
        while done < 10:
            current = clients[index].get_doc("counter")
            assert current is not None
            if clients[index].put_doc("counter", {"n": current.doc["n"] + 1}, expect_version=current.version):
                done += 1
        return done

    assert sum(race(3, bump)) == 30
    final = clients[0].get_doc("counter")
    assert final is not None and final.doc == {"n": 30} and final.version == 31


def test_scan_docs_by_logical_prefix(store: Store) -> None:
    for key in ("alert:b", "alert:a", "mute:a", "alert*x"):
        store.put_doc(key, {"k": key}, expect_version=None)
    store.put("alert:plain", "not a document")
    assert [k for k, _ in store.scan_docs("alert:")] == ["alert:a", "alert:b"]
    assert [k for k, _ in store.scan_docs("alert*")] == ["alert*x"], "the prefix is literal, not a pattern"
    assert [k for k, _ in store.scan_docs("")] == ["alert*x", "alert:a", "alert:b", "mute:a"]
    found = dict(store.scan_docs("mute:"))
    assert found["mute:a"].doc == {"k": "mute:a"} and found["mute:a"].version == 1
    store.delete("alert:a")
    assert [k for k, _ in store.scan_docs("alert:")] == ["alert:b"]


def test_lock_is_exclusive_and_fences_grow(backend: Backend, store: Store) -> None:
    other = backend.open()
    fences = []
    for _ in range(5):
        lock = store.acquire_lock("scheduler:checks", ttl_seconds=30)
        assert lock is not None and store.holds(lock) and other.holds(lock)
        assert other.acquire_lock("scheduler:checks", ttl_seconds=30) is None
        fences.append(lock.fence)
        store.release_lock(lock)
        assert not store.holds(lock)
    assert fences == sorted(fences) and len(set(fences)) == 5
    assert store.acquire_lock("another", ttl_seconds=30) is not None, "locks are independent"


def test_lock_race_has_one_holder(backend: Backend) -> None:
    clients = [backend.open() for _ in range(4)]
    for round_ in range(10):
        results = race(8, lambda i, r=round_: clients[i % 4].acquire_lock(f"run:{r}", ttl_seconds=30))
        held = [lock for lock in results if lock is not None]
        assert len(held) == 1, results


def test_only_the_holder_releases(backend: Backend, store: Store) -> None:
    lock = store.acquire_lock("run:x", ttl_seconds=30)
    assert lock is not None
    forged = Lock(name="run:x", token="0" * 32, fence=lock.fence)
    backend.open().release_lock(forged)
    assert store.holds(lock) and not store.holds(forged)
    assert not store.renew_lock(forged, ttl_seconds=30)
    store.release_lock(lock)
    assert not store.holds(lock)


def test_lock_expires_when_its_holder_stops_renewing(backend: Backend, store: Store) -> None:
    other = backend.open()
    dead = store.acquire_lock("run:y", ttl_seconds=SHORT)
    assert dead is not None and other.acquire_lock("run:y", ttl_seconds=SHORT) is None
    taken: list[Lock] = []

    def take() -> bool:
        lock = other.acquire_lock("run:y", ttl_seconds=60)
        if lock is not None:
            taken.append(lock)
        return lock is not None

    assert backend.wait_until(take, after=SHORT)
    new = taken[0]
    assert new.fence > dead.fence
    assert not store.holds(dead) and other.holds(new)
    assert not store.renew_lock(dead, ttl_seconds=60), "a stale holder cannot extend someone else's lease"
    store.release_lock(dead)
    assert other.holds(new), "a stale holder's release leaves the new holder alone"


def test_renewed_lock_outlives_its_first_ttl(backend: Backend, store: Store) -> None:
    lock = store.acquire_lock("run:z", ttl_seconds=SHORT)
    assert lock is not None and store.renew_lock(lock, ttl_seconds=60)
    backend.let_pass(SHORT + 0.2)
    assert store.holds(lock) and backend.open().acquire_lock("run:z", ttl_seconds=60) is None


def test_outbox_is_fifo_and_ack_removes_only_the_head(backend: Backend, store: Store) -> None:
    for item in ("post:1", "post:2", "post:3", "post:3"):
        store.push("outbox", item)
    other = backend.open()
    assert store.peek("outbox") == ["post:1"]
    assert other.peek("outbox", 10) == ["post:1", "post:2", "post:3", "post:3"]
    assert not store.ack("outbox", "post:2"), "only the head can be acknowledged"
    assert store.ack("outbox", "post:1")
    assert not other.ack("outbox", "post:1"), "a second delivery of the same item acknowledges nothing"
    assert store.peek("outbox", 2) == ["post:2", "post:3"]
    assert store.ack("outbox", "post:2") and store.ack("outbox", "post:3")
    assert store.peek("outbox", 5) == ["post:3"], "one ack removes one of two equal items"
    assert store.ack("outbox", "post:3") and store.peek("outbox", 5) == []
    assert not store.ack("outbox", "post:3")
    store.push("other", "x")
    assert store.peek("outbox") == [] and store.peek("other") == ["x"]


def test_outbox_order_with_concurrent_producers(backend: Backend) -> None:
    clients = [backend.open() for _ in range(3)]

    def produce(index: int) -> None:
        for n in range(20):
            clients[index].push("outbox", f"{index}:{n:02d}")

    race(3, produce)
    items = clients[0].peek("outbox", 100)
    assert len(items) == 60
    for index in range(3):
        mine = [item for item in items if item.startswith(f"{index}:")]
        assert mine == sorted(mine), "each producer's items stay in the order it pushed them"


def test_bad_arguments_are_refused_in_one_line(store: Store) -> None:
    cases: list[Callable[[], object]] = [
        lambda: store.claim("k", ttl_seconds=0),
        lambda: store.put("k", "v", ttl_seconds=-1),
        lambda: store.acquire_lock("l", ttl_seconds=float("nan")),
        lambda: store.get(""),
        lambda: store.peek("q", 0),
        lambda: store.put_doc("k", {}, expect_version=0),
    ]
    for case in cases:
        with pytest.raises(ValueError) as info:
            case()
        assert "\n" not in str(info.value)
    with pytest.raises(TypeError, match="plain JSON"):
        store.put_doc("k", {"when": object()}, expect_version=None)
    assert store.get_doc("k") is None


def test_a_closed_store_says_so(backend: Backend) -> None:
    extra = backend.open()
    extra.close()
    with pytest.raises(StoreUnavailable, match="closed"):
        extra.get("k")
