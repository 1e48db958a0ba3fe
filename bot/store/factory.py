"""open_store: the one place that turns settings (REDIS_URL, RLARK_BOT_DATA_DIR) into a `Store`.

No URL means the embedded server in `data_dir`; ``redis://`` and ``rediss://`` (TLS) a Redis server;
``redis+sentinel://host:port[,host:port]/service[/db]`` a Sentinel-managed master, followed across failovers.
Connecting is lazy: a dead Redis does not stop the bot from starting (``ping`` and `/readyz` report it), and every
operation waits at most `socket_timeout` for a server that does not answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from bot.store.base import ErrorHook, Store, StoreUnavailable
from bot.store.clients import sentinel_client, socket_client, url_client
from bot.store.embedded import EmbeddedServer
from bot.store.keys import DEFAULT_PREFIX, KeySchema
from bot.store.redis import RedisStore

SCHEMES = "redis://, rediss://, unix:// or redis+sentinel://"


@dataclass(frozen=True)
class SentinelTarget:
    """A parsed ``redis+sentinel://`` URL."""

    sentinels: tuple[tuple[str, int], ...]
    service: str
    db: int = 0
    username: str | None = None
    password: str | None = None


def open_store(*, url: str | None, data_dir: Path, prefix: str = DEFAULT_PREFIX, socket_timeout: float = 2.0,
               on_error: ErrorHook | None = None) -> Store:
    """The store for these settings. A bad URL is a one-line `ValueError` (never echoing a password); an embedded
    server that cannot start is a `StoreUnavailable`."""
    KeySchema(prefix)
    if not socket_timeout > 0:
        raise ValueError(f"socket_timeout must be a positive number of seconds, not {socket_timeout!r}")
    text = (url or "").strip()
    if not text:
        return _embedded(data_dir=data_dir, prefix=prefix, socket_timeout=socket_timeout, on_error=on_error)
    scheme = text.partition("://")[0].lower() if "://" in text else ""
    if scheme == "redis+sentinel":
        target = parse_sentinel_url(text)
        client = sentinel_client(sentinels=list(target.sentinels), service=target.service, db=target.db,
                                 username=target.username, password=target.password, socket_timeout=socket_timeout)
        hosts = ",".join(f"{host}:{port}" for host, port in target.sentinels)
        description = f"redis sentinel service {target.service} via {hosts} (db {target.db})"
    elif scheme in ("redis", "rediss", "unix"):
        description = check_redis_url(text)
        try:
            client = url_client(text, socket_timeout=socket_timeout)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"bad store URL ({description}): {_one_line(exc)}") from None
    else:
        raise ValueError(f"bad store URL: scheme {scheme or 'missing'!r}; use {SCHEMES}")
    return RedisStore(client, prefix=prefix, description=description, on_error=on_error)


def _embedded(*, data_dir: Path, prefix: str, socket_timeout: float, on_error: ErrorHook | None) -> Store:
    server = EmbeddedServer(data_dir)
    server.start()
    client = socket_client(server.socket_path, socket_timeout=socket_timeout)
    store = RedisStore(client, prefix=prefix, description=f"embedded redis in {server.data_dir}",
                       on_error=on_error, on_close=server.stop, revive=server.revive)
    try:
        store.forget_earlier_clients()  # this process owns the directory: whoever held locks in it before is gone
    except StoreUnavailable:
        store.close()
        raise
    return store


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__


def check_redis_url(url: str) -> str:
    """Validate a redis://, rediss:// or unix:// URL; return a description of it without credentials."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise ValueError("bad store URL: the port must be a number from 1 to 65535") from None
    scheme = parts.scheme.lower()
    if scheme == "unix":
        if not parts.path:
            raise ValueError("bad store URL: unix:// needs a socket path, e.g. unix:///run/redis.sock")
        return f"redis at unix://{parts.path}"
    if not parts.hostname:
        raise ValueError(f"bad store URL: {scheme}:// needs a host, e.g. {scheme}://redis:6379/0")
    if port == 0:
        raise ValueError("bad store URL: the port must be a number from 1 to 65535")
    db = parts.path.strip("/")
    if db and not db.isdigit():
        raise ValueError(f"bad store URL: the database must be a number, not {db[:40]!r}")
    shown = f"{parts.hostname}:{port or 6379}/{db or 0}"
    return f"redis at {scheme}://{shown}" + (" (TLS)" if scheme == "rediss" else "")


def parse_sentinel_url(url: str) -> SentinelTarget:
    """``redis+sentinel://[user:password@]host:port[,host:port]/service[/db]``; the credentials are the master's."""
    rest = url.strip().partition("://")[2]
    netloc, _, path = rest.partition("/")
    path = path.split("?", 1)[0].split("#", 1)[0]
    userinfo, at, hostlist = netloc.rpartition("@")
    if not at:
        hostlist, userinfo = netloc, ""
    sentinels = tuple(_host_port(item) for item in hostlist.split(","))
    segments = [unquote(s) for s in path.split("/") if s]
    if not segments or len(segments) > 2:
        raise ValueError("bad store URL: redis+sentinel:// needs /service[/db] after the sentinel hosts, "
                         "e.g. redis+sentinel://sentinel:26379/mymaster")
    db = 0
    if len(segments) == 2:
        if not segments[1].isdigit():
            raise ValueError(f"bad store URL: the database must be a number, not {segments[1][:40]!r}")
        db = int(segments[1])
    username, colon, password = userinfo.partition(":")
    return SentinelTarget(sentinels=sentinels, service=segments[0], db=db, username=unquote(username) or None,
                          password=unquote(password) if colon else None)


def _host_port(item: str) -> tuple[str, int]:
    host, colon, port = item.strip().rpartition(":")
    if not colon:
        host, port = item.strip(), "26379"
    host = host.strip("[]")
    if not host:
        raise ValueError("bad store URL: redis+sentinel:// needs host:port[,host:port] for the sentinels")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"bad store URL: sentinel port {port[:20]!r} is not a number from 1 to 65535")
    return host, int(port)
