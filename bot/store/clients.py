"""redis-py clients for the store: a URL (``redis://``, TLS ``rediss://``, ``unix://``), a unix socket, a
Sentinel-managed master; and the embedded server's probe and shutdown on its socket.

Every client here waits at most its socket timeout and never retries inside redis-py: the store retries once
itself (see `bot.store.redis`), knowing which writes are safe to repeat.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry
from redis.sentinel import Sentinel

HEALTH_CHECK_SECONDS = 5
"""A pooled connection idle this long is pinged before use, so a restarted server is reconnected at once."""


def client_options(socket_timeout: float) -> dict[str, Any]:
    """Short timeouts, text replies, a health check, and no retries inside redis-py (whose default retries with
    backoff would hold a caller for seconds): the store retries once itself, knowing which writes are safe."""
    return {
        "socket_timeout": socket_timeout,
        "socket_connect_timeout": socket_timeout,
        "health_check_interval": HEALTH_CHECK_SECONDS,
        "retry": Retry(NoBackoff(), 0),
        "decode_responses": True,
    }


def url_client(url: str, *, socket_timeout: float) -> redis.Redis:
    """A client for a ``redis://``, ``rediss://`` or ``unix://`` URL (not connected yet)."""
    return redis.Redis.from_url(url, **client_options(socket_timeout))


def socket_client(path: Path, *, socket_timeout: float) -> redis.Redis:
    """A client for a server on a unix socket (not connected yet)."""
    return redis.Redis(unix_socket_path=str(path), **client_options(socket_timeout))


def sentinel_client(*, sentinels: list[tuple[str, int]], service: str, db: int, username: str | None,
                    password: str | None, socket_timeout: float) -> redis.Redis:
    """A client for the current master of `service`; redis-py asks the sentinels again after a failover."""
    quick: dict[str, Any] = {"socket_timeout": socket_timeout, "socket_connect_timeout": socket_timeout,
             "retry": Retry(NoBackoff(), 0)}
    sentinel = Sentinel(sentinels, sentinel_kwargs=quick, **quick)  # type: ignore[no-untyped-call,unused-ignore]
    master: redis.Redis = sentinel.master_for(  # type: ignore[no-untyped-call,unused-ignore]
        service, db=db, username=username, password=password, **client_options(socket_timeout))
    return master


def probe_socket(path: Path, *, timeout: float) -> Literal["up", "loading", "down"]:
    """Whether a server answers on the unix socket `path` (``loading``: it is reading its data back)."""
    client = redis.Redis(unix_socket_path=str(path), socket_timeout=timeout, socket_connect_timeout=timeout,
                         retry=Retry(NoBackoff(), 0))
    try:
        client.ping()
        return "up"
    except redis.BusyLoadingError:
        return "loading"
    except (redis.RedisError, OSError):
        return "down"
    finally:
        client.close()


def shutdown_socket(path: Path, *, timeout: float) -> None:
    """Ask the server on `path` to exit (it syncs its AOF first); a server already gone is fine."""
    client = redis.Redis(unix_socket_path=str(path), socket_timeout=timeout, socket_connect_timeout=timeout,
                         retry=Retry(NoBackoff(), 0))
    try:
        client.shutdown()
    except (redis.RedisError, OSError):
        pass
    finally:
        client.close()
