"""A lock whose holder was killed (SIGKILL, for real) does not wait out its TTL: a process on the same machine
(the restarted replica) takes it over at once, and a replica elsewhere once the holder's liveness record lapses,
long before the lease's TTL. A live holder keeps its lock, and the dead one is fenced out."""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import signal
import time
from pathlib import Path
from typing import Any

from bot.store.base import Lock
from bot.store.factory import open_store
from bot.store.liveness import Identity
from bot.store.redis import RedisStore

from .conftest import Backend
from .workers import hold_until_killed, own_and_hold_until_killed

CTX = multiprocessing.get_context("spawn")
TTL = 120.0  # the outbox drain's lease


def _killed_holder(backend: Backend) -> Lock:
    assert backend.url is not None
    results: Any = CTX.Queue()
    child = CTX.Process(target=hold_until_killed, args=(backend.url, backend.prefix, TTL, results))
    child.start()
    kind, value = results.get(timeout=60)
    assert kind == "lock" and value is not None
    assert child.pid is not None
    os.kill(child.pid, signal.SIGKILL)
    child.join(timeout=30)
    assert child.exitcode == -signal.SIGKILL
    return Lock(*value)


def test_a_restart_on_the_same_machine_takes_over_at_once(server_backend: Backend) -> None:
    dead = _killed_holder(server_backend)
    assert server_backend.url is not None
    restarted = open_store(url=server_backend.url, data_dir=Path("."), prefix=server_backend.prefix)
    try:
        started = time.monotonic()
        lock = restarted.acquire_lock("alerts:deliver", ttl_seconds=TTL)
        assert lock is not None, "the killed holder's lease still blocks"
        assert time.monotonic() - started < 1.0
        assert lock.fence > dead.fence and not restarted.holds(dead)
        assert not restarted.renew_lock(dead, ttl_seconds=TTL), "the dead holder is fenced out"
    finally:
        restarted.close()


def test_a_replica_elsewhere_takes_over_once_the_holder_stops_beating(server_backend: Backend) -> None:
    assert server_backend.url is not None
    alive_ttl = 2.0
    elsewhere = dataclasses.replace(Identity.here(), host="another-node")
    holder = open_store(url=server_backend.url, data_dir=Path("."), prefix=server_backend.prefix)
    other = open_store(url=server_backend.url, data_dir=Path("."), prefix=server_backend.prefix)
    assert isinstance(holder, RedisStore) and isinstance(other, RedisStore)
    holder.start_heartbeat(alive_ttl=alive_ttl)
    other.identity = elsewhere
    try:
        lock = holder.acquire_lock("alerts:deliver", ttl_seconds=TTL)
        assert lock is not None
        time.sleep(alive_ttl * 1.5)
        assert other.acquire_lock("alerts:deliver", ttl_seconds=TTL) is None, "a live holder keeps its lock"
        holder.stop_heartbeat()  # as if the holder's node vanished: no more liveness, no release
        started = time.monotonic()
        taken = None
        while taken is None and time.monotonic() - started < alive_ttl * 3:
            taken = other.acquire_lock("alerts:deliver", ttl_seconds=TTL)
            time.sleep(0.1)
        assert taken is not None and taken.fence > lock.fence
        assert time.monotonic() - started < alive_ttl * 2 + 1
    finally:
        holder.close()
        other.close()


def test_the_next_owner_of_an_embedded_store_takes_over_its_locks_at_once(tmp_path: Path, store_prefix: str) -> None:
    """A single replica with the embedded store, killed and started again elsewhere (a new pod on the same volume:
    another host name, the old liveness record still fresh): the data directory's new owner knows that every
    earlier client is gone, and delivers at once instead of waiting for the liveness record or the lease."""
    data_dir = tmp_path / "data"
    results: Any = CTX.Queue()
    child = CTX.Process(target=own_and_hold_until_killed,
                        args=(str(data_dir), store_prefix, "old-pod", TTL, results))
    child.start()
    kind, value = results.get(timeout=60)
    assert kind == "lock" and value is not None
    assert child.pid is not None
    os.kill(child.pid, signal.SIGKILL)
    child.join(timeout=30)
    dead = Lock(*value)
    restarted = open_store(url=None, data_dir=data_dir, prefix=store_prefix)
    try:
        started = time.monotonic()
        lock = restarted.acquire_lock("alerts:deliver", ttl_seconds=TTL)
        assert lock is not None, "the previous owner's lease still blocks"
        assert time.monotonic() - started < 1.0
        assert lock.fence > dead.fence and not restarted.renew_lock(dead, ttl_seconds=TTL)
    finally:
        restarted.close()
