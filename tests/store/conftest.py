"""Backends the store's behavioural suite runs against: MemoryStore, the local Redis, the embedded store.

A `Backend` opens any number of clients onto the same data (several replicas), and lets time pass: a fake clock
for MemoryStore, a bounded wait for the Redis backends (Redis itself decides when a TTL is over).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from redis_server import delete_prefix, local_redis_url

from bot.store.base import Store
from bot.store.embedded import socket_path_for
from bot.store.factory import open_store
from bot.store.memory import MemoryStore

WAIT_MARGIN = 3.0
"""How much longer than a TTL a real server may take to expire a key before the test gives up."""


class FakeClock:
    """Seconds that pass only when the test says so."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Backend:
    """One kind of store, opened as many times as a test needs clients."""

    def __init__(self, name: str, opener: Callable[[], Store], *, clock: FakeClock | None = None,
                 url: str | None = None, prefix: str = "") -> None:
        self.name = name
        self._opener = opener
        self.clock = clock
        self.url = url
        self.prefix = prefix
        self.opened: list[Store] = []

    @property
    def shared_by_processes(self) -> bool:
        return self.url is not None

    def open(self) -> Store:
        store = self._opener()
        self.opened.append(store)
        return store

    def wait_until(self, condition: Callable[[], bool], *, after: float) -> bool:
        """Let `after` seconds pass, then report whether `condition` holds (a real server gets a margin)."""
        if self.clock is not None:
            self.clock.advance(after)
            return condition()
        deadline = time.monotonic() + after + WAIT_MARGIN
        while not condition():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True

    def let_pass(self, seconds: float) -> None:
        """Let time pass: the fake clock moves, or the test waits for the real server's clock."""
        if self.clock is not None:
            self.clock.advance(seconds)
        else:
            time.sleep(seconds)

    def close(self) -> None:
        for store in reversed(self.opened):
            store.close()


def _memory() -> Backend:
    clock = FakeClock()
    shared = MemoryStore(now=clock)
    return Backend("memory", lambda: shared, clock=clock)


def _local(prefix: str, tmp_path: Path) -> Backend:
    url = local_redis_url()
    if url is None:
        pytest.skip("no Redis server answers on 127.0.0.1:6379")
    return Backend("local", lambda: open_store(url=url, data_dir=tmp_path, prefix=prefix), url=url, prefix=prefix)


def _embedded(prefix: str, tmp_path: Path) -> Backend:
    data_dir = tmp_path / "embedded"
    first = open_store(url=None, data_dir=data_dir, prefix=prefix)
    url = f"unix://{socket_path_for(data_dir.resolve())}"
    opened = iter([first])

    def opener() -> Store:
        return next(opened, None) or open_store(url=url, data_dir=data_dir, prefix=prefix)

    return Backend("embedded", opener, url=url, prefix=prefix)


@pytest.fixture(params=["memory", "local", "embedded"])
def backend(request: pytest.FixtureRequest, store_prefix: str, tmp_path: Path) -> Iterator[Backend]:
    if request.param == "memory":
        chosen = _memory()
    elif request.param == "local":
        chosen = _local(store_prefix, tmp_path)
    else:
        chosen = _embedded(store_prefix, tmp_path)
    chosen.open()  # the first client; for the embedded store this starts the server
    try:
        yield chosen
    finally:
        if request.param == "local" and chosen.url is not None:
            delete_prefix(chosen.url, store_prefix)
        chosen.close()


@pytest.fixture
def store(backend: Backend) -> Store:
    """The backend's first client."""
    return backend.opened[0]


@pytest.fixture(params=["local", "embedded"])
def server_backend(request: pytest.FixtureRequest, store_prefix: str, tmp_path: Path) -> Iterator[Backend]:
    """Only the backends that several processes can share."""
    chosen = _local(store_prefix, tmp_path) if request.param == "local" else _embedded(store_prefix, tmp_path)
    chosen.open()
    try:
        yield chosen
    finally:
        if request.param == "local" and chosen.url is not None:
            delete_prefix(chosen.url, store_prefix)
        chosen.close()
