"""Locks across processes: three replicas on one Redis never overlap; a replica that dies loses its lease."""

from __future__ import annotations

import dataclasses
import multiprocessing
from typing import Any

from bot.store.base import Lock
from bot.store.redis import RedisStore

from .conftest import Backend
from .workers import hold_and_die, take_turns

CTX = multiprocessing.get_context("spawn")  # no fork of a threaded test process


def test_three_processes_take_turns_under_one_lock(server_backend: Backend) -> None:
    assert server_backend.url is not None
    results: Any = CTX.Queue()
    rounds = 10
    workers = [CTX.Process(target=take_turns, args=(server_backend.url, server_backend.prefix, rounds, results))
               for _ in range(3)]
    for worker in workers:
        worker.start()
    reports = [results.get(timeout=60) for _ in range(2 * len(workers))]
    for worker in workers:
        worker.join(timeout=30)
        assert worker.exitcode == 0
    fences = [f for kind, value in reports if kind == "fences" for f in value]
    overlaps = sum(value for kind, value in reports if kind == "overlaps")
    store = server_backend.opened[0]
    assert overlaps == 0
    assert store.get("counter") == str(3 * rounds), "exclusive access loses no read-modify-write"
    assert len(fences) == 3 * rounds and len(set(fences)) == 3 * rounds, "every acquisition has its own fence"
    for kind, value in reports:
        if kind == "fences":
            assert value == sorted(value), "each process sees its fences grow"


def test_a_dead_holder_loses_the_lock_after_its_ttl(server_backend: Backend) -> None:
    assert server_backend.url is not None
    results: Any = CTX.Queue()
    ttl = 1.0  # the parent checks the lease within milliseconds of the child leaving: ample on a loaded machine
    child = CTX.Process(target=hold_and_die, args=(server_backend.url, server_backend.prefix, ttl, results))
    child.start()
    kind, value = results.get(timeout=60)
    child.join(timeout=30)
    assert kind == "lock" and value is not None and child.exitcode == 0
    dead = Lock(*value)
    store = server_backend.opened[0]
    # Seen from another machine, a holder that still has its liveness record is not known dead: only its TTL
    # frees the lock (on the same machine it would be taken over at once: test_dead_holder.py).
    assert isinstance(store, RedisStore)
    store.identity = dataclasses.replace(store.identity, host="another-node")
    assert store.holds(dead), "the lease outlives its holder until the TTL"
    assert store.acquire_lock("critical", ttl_seconds=30) is None
    taken: list[Lock] = []

    def take() -> bool:
        lock = store.acquire_lock("critical", ttl_seconds=30)
        taken.extend([lock] if lock else [])
        return lock is not None

    assert server_backend.wait_until(take, after=ttl)
    assert taken[0].fence > dead.fence and not store.holds(dead)
