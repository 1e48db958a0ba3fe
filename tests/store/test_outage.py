"""Redis going away mid-run: operations fail fast with StoreUnavailable, and the same store object works again
once the server is back; a reply lost after the server applied a write never makes it apply twice."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from redis_server import RedisProcess, redis_process

from bot.store.base import Lock, Store, StoreUnavailable
from bot.store.factory import open_store

from .proxy import DroppingProxy

TIMEOUT = 0.5
SLACK = 1.5
"""How much longer than the socket timeout a failing operation may take on a loaded test machine."""


@pytest.fixture(params=["unix", "tcp"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RedisProcess]:
    with redis_process(tmp_path, tcp=request.param == "tcp") as running:
        yield running


def failing(call: Callable[[], object]) -> tuple[str, float]:
    started = time.monotonic()
    with pytest.raises(StoreUnavailable) as info:
        call()
    return str(info.value), time.monotonic() - started


def operations(store: Store) -> dict[str, Callable[[], object]]:
    return {
        "get": lambda: store.get("k"),
        "claim": lambda: store.claim("c", ttl_seconds=30),
        "put_doc": lambda: store.put_doc("d", {"x": 1}, expect_version=None),
        "acquire_lock": lambda: store.acquire_lock("l", ttl_seconds=30),
        "push": lambda: store.push("q", "b"),
        "ping": store.ping,
    }


@pytest.mark.parametrize("how", ["stop", "kill"])
def test_down_then_back_on_the_same_address(server: RedisProcess, tmp_path: Path, store_prefix: str,
                                            how: str) -> None:
    errors: list[str] = []
    store = open_store(url=server.url, data_dir=tmp_path, prefix=store_prefix, socket_timeout=TIMEOUT,
                       on_error=errors.append)
    store.put("k", "v")
    store.push("q", "a")
    getattr(server, how)()
    for op, call in operations(store).items():
        message, took = failing(call)
        assert took < TIMEOUT + SLACK, f"{op} blocked {took:.2f} s"
        assert "\n" not in message and op in message
    assert errors == list(operations(store)), "the hook hears of each failed operation once"
    server.start()
    errors.clear()
    assert store.get("k") == "v", "the same store object reconnects; the server kept its data"
    store.push("q", "b")
    assert store.peek("q", 10) == ["a", "b"]
    assert errors == []
    store.close()


def test_hung_server_costs_one_timeout(tmp_path: Path, store_prefix: str) -> None:
    errors: list[str] = []
    with redis_process(tmp_path, tcp=True) as server:
        store = open_store(url=server.url, data_dir=tmp_path, prefix=store_prefix, socket_timeout=TIMEOUT,
                           on_error=errors.append)
        store.put("k", "v")
        server.pause()
        try:
            message, took = failing(lambda: store.get("k"))
            assert TIMEOUT * 0.8 < took < TIMEOUT + SLACK, f"a hung server took {took:.2f} s, not one timeout"
            assert "timeout" in message.lower() or "timed out" in message.lower(), message
            fresh = open_store(url=server.url, data_dir=tmp_path, prefix=store_prefix, socket_timeout=TIMEOUT)
            _, took = failing(fresh.ping)
            assert took < TIMEOUT + SLACK
        finally:
            server.resume()
        assert errors == ["get"]
        assert store.get("k") == "v" and fresh.get("k") == "v"
        store.close()
        fresh.close()


def test_nothing_listening_is_unavailable_not_a_crash(tmp_path: Path, store_prefix: str) -> None:
    server = RedisProcess(tmp_path / "never", tcp=True)
    store = open_store(url=server.url, data_dir=tmp_path, prefix=store_prefix, socket_timeout=TIMEOUT)
    message, took = failing(store.ping)
    assert took < TIMEOUT + SLACK and "\n" not in message
    server.close()


@pytest.fixture
def proxied(tmp_path: Path, store_prefix: str) -> Iterator[tuple[Store, DroppingProxy]]:
    with redis_process(tmp_path, tcp=True) as server:
        assert server.port is not None
        proxy = DroppingProxy(server.port)
        errors: list[str] = []
        store = open_store(url=proxy.url, data_dir=tmp_path, prefix=store_prefix, socket_timeout=2.0,
                           on_error=errors.append)
        for op in operations(store).values():  # connect and load every script before replies go missing
            op()
        store.ack("q", "none")
        yield store, proxy
        assert errors == [], "a lost reply is retried, not reported"
        store.close()
        proxy.close()


def lose_reply(proxy: DroppingProxy, call: Callable[[], object]) -> object:
    """Run `call` while the server's reply to it is lost once; the store must retry it on a new connection."""
    before = proxy.drops
    proxy.drop_next_reply()
    result = call()
    assert proxy.drops == before + 1, "the reply was really lost"
    return result


def test_lost_reply_to_push_does_not_duplicate_the_item(proxied: tuple[Store, DroppingProxy]) -> None:
    store, proxy = proxied
    lose_reply(proxy, lambda: store.push("outbox", "post:1"))
    assert store.peek("outbox", 10) == ["post:1"]


def test_lost_reply_to_claim_still_reports_the_winner(proxied: tuple[Store, DroppingProxy]) -> None:
    store, proxy = proxied
    assert lose_reply(proxy, lambda: store.claim("slack:retry:9", ttl_seconds=30)) is True
    assert store.claim("slack:retry:9", ttl_seconds=30) is False


def test_lost_reply_to_compare_and_set_still_reports_the_write(proxied: tuple[Store, DroppingProxy]) -> None:
    store, proxy = proxied
    created = lose_reply(proxy, lambda: store.put_doc("alert:z", {"n": 1}, expect_version=None))
    assert created is not None and getattr(created, "version", None) == 1
    updated = lose_reply(proxy, lambda: store.put_doc("alert:z", {"n": 2}, expect_version=1))
    assert updated is not None and getattr(updated, "version", None) == 2
    current = store.get_doc("alert:z")
    assert current is not None and current.version == 2 and current.doc == {"n": 2}


def test_lost_reply_to_acquire_still_hands_over_the_lock(proxied: tuple[Store, DroppingProxy]) -> None:
    store, proxy = proxied
    lock = lose_reply(proxy, lambda: store.acquire_lock("scheduler", ttl_seconds=30))
    assert isinstance(lock, Lock) and store.holds(lock)
    assert store.acquire_lock("scheduler", ttl_seconds=30) is None


def test_lost_reply_to_ack_removes_one_item(proxied: tuple[Store, DroppingProxy]) -> None:
    store, proxy = proxied
    store.push("outbox", "same")
    store.push("outbox", "same")
    assert lose_reply(proxy, lambda: store.ack("outbox", "same")) is True
    assert store.peek("outbox", 10) == ["same"], "the retry did not acknowledge the second copy"
