"""Code that runs in child processes of the store tests (importable by a spawned interpreter)."""

from __future__ import annotations

import os
import time
from multiprocessing.queues import Queue
from pathlib import Path

from bot.store.factory import open_store


def take_turns(url: str, prefix: str, rounds: int, results: Queue[tuple[str, object]]) -> None:
    """Acquire the shared lock `rounds` times; inside, a read-modify-write of a counter that only exclusive
    access keeps exact, and a claim that fails if anyone else is inside at the same moment."""
    store = open_store(url=url, data_dir=Path("."), prefix=prefix)
    fences: list[int] = []
    overlaps = 0
    try:
        done = 0
        while done < rounds:
            lock = store.acquire_lock("critical", ttl_seconds=10)
            if lock is None:
                time.sleep(0.001)
                continue
            if not store.claim("inside", ttl_seconds=10):
                overlaps += 1
            counter = int(store.get("counter") or "0")
            time.sleep(0.002)  # widen the window a lost update would need
            store.put("counter", str(counter + 1))
            store.delete("inside")
            fences.append(lock.fence)
            store.release_lock(lock)
            done += 1
        results.put(("fences", fences))
        results.put(("overlaps", overlaps))
    finally:
        store.close()


def hold_and_die(url: str, prefix: str, ttl: float, results: Queue[tuple[str, object]]) -> None:
    """Take the lock and exit without releasing it, as a crashed replica would."""
    store = open_store(url=url, data_dir=Path("."), prefix=prefix)
    lock = store.acquire_lock("critical", ttl_seconds=ttl)
    results.put(("lock", None if lock is None else (lock.name, lock.token, lock.fence)))
    results.close()
    results.join_thread()  # the report is out; now vanish without releasing anything
    os._exit(0)


def hold_until_killed(url: str, prefix: str, ttl: float, results: Queue[tuple[str, object]]) -> None:
    """Take the lock, say so, and wait to be killed (SIGKILL: nothing released, nothing said)."""
    store = open_store(url=url, data_dir=Path("."), prefix=prefix)
    lock = store.acquire_lock("alerts:deliver", ttl_seconds=ttl)
    results.put(("lock", None if lock is None else (lock.name, lock.token, lock.fence)))
    while True:
        time.sleep(1)


def own_and_hold_until_killed(data_dir: str, prefix: str, host: str, ttl: float,
                              results: Queue[tuple[str, object]]) -> None:
    """Own an embedded store's data directory from a process on `host` (another pod, say), take the outbox lock,
    say so, and wait to be killed (SIGKILL: nothing released, its liveness record still fresh)."""
    import dataclasses

    from bot.store.redis import RedisStore

    store = open_store(url=None, data_dir=Path(data_dir), prefix=prefix)
    assert isinstance(store, RedisStore)
    store.identity = dataclasses.replace(store.identity, host=host)
    lock = store.acquire_lock("alerts:deliver", ttl_seconds=ttl)
    results.put(("lock", None if lock is None else (lock.name, lock.token, lock.fence)))
    while True:
        time.sleep(1)
