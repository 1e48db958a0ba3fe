"""The shared Redis fixtures other packages' tests use."""

from __future__ import annotations

from pathlib import Path

from redis_server import delete_prefix

from bot.store.factory import open_store


def test_redis_url_is_a_working_server(redis_url: str, store_prefix: str, tmp_path: Path) -> None:
    store = open_store(url=redis_url, data_dir=tmp_path, prefix=store_prefix)
    neighbour = open_store(url=redis_url, data_dir=tmp_path, prefix=store_prefix + "other:")
    try:
        assert store.claim("k", ttl_seconds=30) and neighbour.claim("k", ttl_seconds=30), "prefixes isolate"
        store.push("q", "x")
        assert delete_prefix(redis_url, store_prefix + "other:") == 1
        assert store.get("k") is not None and neighbour.get("k") is None
        assert store.peek("q") == ["x"]
    finally:
        store.close()
        neighbour.close()


def test_store_prefix_is_unique(store_prefix: str) -> None:
    assert store_prefix.startswith("rlark-bot-test:") and store_prefix.endswith(":")
