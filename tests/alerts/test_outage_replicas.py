"""Two replicas through a store outage: each steps its own in-memory copy meanwhile; when the store answers
again, a copy derived from an older revision than the stored one is never written back over it, so no second
"resolved" follows. On a real Redis (the outage: every call refused, as a dead server's) and in memory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from alerts.fakes import RecordingSink
from alerts.helpers import T0, at, pool, settings
from bot.alerts.notifier import Notifier
from bot.store.base import Store, StoreUnavailable
from bot.store.factory import open_store
from bot.store.memory import MemoryStore


class Outage:
    """A store that refuses every call while `down` (the shared server is gone for every replica)."""

    def __init__(self, inner: Store) -> None:
        self.inner, self.down = inner, False

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            if self.down:
                raise StoreUnavailable("connection refused")
            return attr(*args, **kwargs)

        return call


@pytest.fixture(params=["memory", "redis"])
def shared(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Outage]:
    if request.param == "memory":
        yield Outage(MemoryStore(now=lambda: T0))
        return
    url: str = request.getfixturevalue("redis_url")
    prefix: str = request.getfixturevalue("store_prefix")
    store = open_store(url=url, data_dir=tmp_path, prefix=prefix)
    try:
        yield Outage(store)
    finally:
        store.close()


def _resolved(sink: RecordingSink) -> list[Any]:
    return [s for s in sink.sent if s.method == "post" and s.thread_ts and s.state == "resolved"]


def test_a_stale_copy_is_not_written_back_and_nothing_resolves_twice(shared: Outage) -> None:
    sink = RecordingSink()
    a = Notifier(store=shared, sink=sink, settings=settings())  # type: ignore[arg-type]
    b = Notifier(store=shared, sink=sink, settings=settings())  # type: ignore[arg-type]

    def tick(n: Notifier, alerts: list[Any], i: int) -> None:
        n.tick(alerts, now=at(T0 + 60 * i))

    tick(a, [pool("a3")], 0)
    tick(b, [pool("a3")], 0)
    assert len(sink.roots()) == 1
    shared.down = True
    tick(a, [], 1)
    tick(b, [], 1)  # b's copy: missing once
    tick(a, [], 2)  # a's copy: resolved, said (marked as possibly repeated)
    assert len(_resolved(sink)) == 1
    shared.down = False
    for i in (3, 4, 5):
        tick(a, [], i)
        tick(b, [], i)
    assert len(_resolved(sink)) == 1, [s.text[:80] for s in _resolved(sink)]
    assert len(sink.roots()) == 1
