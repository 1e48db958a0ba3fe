"""open_store: which store a URL gives, and bad URLs as one-line errors that never echo a password."""

from __future__ import annotations

from pathlib import Path

import pytest
from redis_server import RedisProcess, redis_process

from bot.store.base import Store, StoreUnavailable
from bot.store.factory import SentinelTarget, open_store, parse_sentinel_url
from bot.store.memory import MemoryStore
from bot.store.redis import RedisStore


def describe(store: Store) -> str:
    assert isinstance(store, RedisStore)
    return store.describe()


BAD = [
    ("http://cache:6379", "scheme 'http'"),
    ("localhost:6379", "scheme"),
    ("redis://", "needs a host"),
    ("rediss://:s3cret@:6380/0", "needs a host"),
    ("redis://:s3cret@cache:99999/0", "port"),
    ("redis://cache:port/0", "port"),
    ("redis://cache:6379/zero", "database must be a number"),
    ("unix://", "socket path"),
    ("redis+sentinel://", "sentinels"),
    ("redis+sentinel://:s3cret@sentinel:26379", "/service"),
    ("redis+sentinel://sentinel:26379/", "/service"),
    ("redis+sentinel://a:26379,b:x/mymaster", "sentinel port"),
    ("redis+sentinel://a:26379,,b:1/mymaster", "sentinels"),
    ("redis+sentinel://a:26379/mymaster/one", "database must be a number"),
    ("redis+sentinel://a:26379/mymaster/0/extra", "/service"),
]


@pytest.mark.parametrize(("url", "says"), BAD)
def test_bad_urls_are_one_line_value_errors(url: str, says: str, tmp_path: Path) -> None:
    with pytest.raises(ValueError) as info:
        open_store(url=url, data_dir=tmp_path, prefix="p:")
    message = str(info.value)
    assert says in message and "\n" not in message and "s3cret" not in message
    assert not (tmp_path / "redis.sock").exists(), "a bad URL never falls back to the embedded store"


def test_bad_prefix_and_timeout_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="prefix"):
        open_store(url="redis://cache:6379/0", data_dir=tmp_path, prefix="")
    with pytest.raises(ValueError, match="socket_timeout"):
        open_store(url="redis://cache:6379/0", data_dir=tmp_path, socket_timeout=0)


def test_sentinel_urls() -> None:
    assert parse_sentinel_url("redis+sentinel://s1:26379,s2:26380/mymaster/2") == SentinelTarget(
        sentinels=(("s1", 26379), ("s2", 26380)), service="mymaster", db=2)
    assert parse_sentinel_url("redis+sentinel://bot:p%40ss@s1/mymaster") == SentinelTarget(
        sentinels=(("s1", 26379),), service="mymaster", db=0, username="bot", password="p@ss")
    assert parse_sentinel_url("redis+sentinel://:pw@[::1]:26379/m").sentinels == (("::1", 26379),)


def test_connecting_is_lazy_and_describes_without_secrets(tmp_path: Path) -> None:
    store = open_store(url="rediss://user:s3cret@127.0.0.1:1/3", data_dir=tmp_path, socket_timeout=0.5)
    assert describe(store) == "redis at rediss://127.0.0.1:1/3 (TLS)"
    errors: list[str] = []
    sentinel = open_store(url="redis+sentinel://:s3cret@127.0.0.1:1/mymaster", data_dir=tmp_path,
                          socket_timeout=0.5, on_error=errors.append)
    with pytest.raises(StoreUnavailable) as info:
        sentinel.get("k")
    assert "s3cret" not in str(info.value) and errors == ["get"]
    assert "s3cret" not in describe(sentinel)
    store.close()
    sentinel.close()


def test_no_url_means_the_embedded_store(tmp_path: Path) -> None:
    for url in (None, "", "  "):
        store = open_store(url=url, data_dir=tmp_path / "data", prefix="p:")
        try:
            assert describe(store) == f"embedded redis in {(tmp_path / 'data').resolve()}"
            store.put("k", "v")
            assert store.get("k") == "v"
        finally:
            store.close()


def test_rediss_speaks_tls(tmp_path: Path, store_prefix: str) -> None:
    with redis_process(tmp_path, tcp=True) as server:
        plain = open_store(url=server.url, data_dir=tmp_path, prefix=store_prefix, socket_timeout=1)
        plain.ping()
        # The plain server waits for a command that never comes: the handshake ends at the client's timeout.
        tls = open_store(url=server.url.replace("redis://", "rediss://"), data_dir=tmp_path, prefix=store_prefix,
                         socket_timeout=0.25)
        with pytest.raises(StoreUnavailable):  # a plain server cannot answer a TLS handshake
            tls.ping()
        plain.close()
        tls.close()


def test_sentinel_finds_the_master(tmp_path: Path, store_prefix: str) -> None:
    with redis_process(tmp_path, tcp=True, name="master") as master:
        monitor = (f"sentinel monitor svc 127.0.0.1 {master.port} 1",)
        with redis_process(tmp_path, tcp=True, name="sentinel", extra=monitor, args=("--sentinel",)) as sentinel:
            store = open_store(url=f"redis+sentinel://127.0.0.1:{sentinel.port}/svc", data_dir=tmp_path,
                               prefix=store_prefix, socket_timeout=1)
            assert store.claim("k", ttl_seconds=30)
            direct = open_store(url=master.url, data_dir=tmp_path, prefix=store_prefix, socket_timeout=1)
            assert direct.claim("k", ttl_seconds=30) is False, "the sentinel pointed at the master"
            unknown = open_store(url=f"redis+sentinel://127.0.0.1:{sentinel.port}/nope", data_dir=tmp_path,
                                 prefix=store_prefix, socket_timeout=1)
            with pytest.raises(StoreUnavailable, match="nope"):
                unknown.ping()
            for each in (store, direct, unknown):
                each.close()


def test_memory_store_can_play_a_dead_server() -> None:
    errors: list[str] = []
    store = MemoryStore(on_error=errors.append)
    store.put("k", "v")
    store.set_unavailable("connection refused")
    with pytest.raises(StoreUnavailable, match="connection refused"):
        store.get("k")
    store.set_unavailable(None)
    assert store.get("k") == "v" and errors == ["get"]


def test_unused_process_helper_cleans_up(tmp_path: Path) -> None:
    server = RedisProcess(tmp_path / "idle")
    server.close()
    assert not server.socket_path.parent.exists()
