"""RedisStore: the store on a Redis server through redis-py (its clients are made in `bot.store.clients`).

Failures never leak redis-py exceptions: each operation either answers or raises `StoreUnavailable` with one
line, after calling the `on_error` hook once. A connection that broke (the server restarted, a failover) is
retried once at once on a fresh connection, which is what makes a restarted server transparent; every write is
a script that recognises its own earlier effect, so that retry never applies a write twice. Timeouts are not
retried, so a hung server costs one socket timeout, not several.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

import redis
from redis.commands.core import Script

from bot.store import scripts
from bot.store.base import (
    ErrorHook,
    Lock,
    StoreUnavailable,
    Versioned,
    check_name,
    check_ttl,
    check_version,
    decode_doc,
    encode_doc,
)
from bot.store.keys import DEFAULT_PREFIX, KeySchema
from bot.store.liveness import Identity, instance_of

log = logging.getLogger("rlark_bot.store")
ALIVE = "store:alive:"  # + instance id: its Identity, kept while the process lives (ALIVE_TTL_SECONDS)
ALIVE_TTL_SECONDS = 15.0  # how soon other machines take over the locks of a holder that stopped beating

T = TypeVar("T")

MARKER_TTL_MS = 300_000
"""How long a write's replay marker is kept: far longer than one retry takes, short enough not to pile up."""


def _retryable(exc: redis.RedisError) -> bool:
    """A dropped or refused connection is worth one more try; a timeout, bad auth or a loading server is not."""
    return isinstance(exc, redis.ConnectionError) and not isinstance(
        exc, redis.AuthenticationError | redis.BusyLoadingError)


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:300]


class _Failed(Exception):
    """An attempt failed; `cause` is the client's error."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause


def _attempt(body: Callable[[], T], *, retry: bool) -> T:
    """Call `body`; with `retry`, once more at once when the connection broke (scripts make that safe)."""
    try:
        return body()
    except redis.RedisError as exc:
        if not (retry and _retryable(exc)):
            raise _Failed(exc) from None
    except OSError as exc:
        raise _Failed(exc) from None
    try:
        return body()
    except (redis.RedisError, OSError) as exc:
        raise _Failed(exc) from None


class RedisStore:
    """A `Store` over a redis-py client created with ``decode_responses=True``."""

    def __init__(self, client: redis.Redis, *, prefix: str = DEFAULT_PREFIX, description: str = "redis",
                 on_error: ErrorHook | None = None, on_close: Callable[[], None] | None = None,
                 revive: Callable[[], bool] | None = None) -> None:
        """`on_close` runs after disconnecting (the embedded server stops there); `revive` is asked, after an
        operation failed, to bring a dead server back and says whether it did, so the operation runs once more."""
        self._client = client
        self._keys = KeySchema(prefix)
        self._description = description
        self._on_error = on_error
        self._on_close = on_close
        self._revive = revive
        self._closed = False
        self.identity = Identity.here()
        self._beating = threading.Event()
        self._wake = threading.Event()
        self._beat_lock = threading.Lock()
        self._claim = self._script(scripts.CLAIM)
        self._put_doc = self._script(scripts.PUT_DOC)
        self._delete = self._script(scripts.DELETE)
        self._acquire = self._script(scripts.ACQUIRE)
        self._renew = self._script(scripts.RENEW)
        self._release = self._script(scripts.RELEASE)
        self._push = self._script(scripts.PUSH)
        self._ack = self._script(scripts.ACK)

    def _script(self, source: str) -> Script:
        return self._client.register_script(source)

    @property
    def prefix(self) -> str:
        return self._keys.prefix

    def describe(self) -> str:
        """Where the data lives (never a password), for logs and readiness messages."""
        return self._description

    def _run(self, op: str, body: Callable[[], T]) -> T:
        """Run one operation: one immediate retry on a broken connection, one more after reviving a dead embedded
        server; otherwise `StoreUnavailable`, after telling the error hook."""
        if self._closed:
            raise StoreUnavailable(f"store {op}: the store is closed")
        try:
            return _attempt(body, retry=True)
        except _Failed as first:
            failure = first.cause
        if self._revive is not None and self._revive():
            try:
                return _attempt(body, retry=False)
            except _Failed as again:
                failure = again.cause
        if self._on_error is not None:
            with contextlib.suppress(Exception):  # counting a failure must never change what the caller sees
                self._on_error(op)
        raise StoreUnavailable(f"store {op} failed ({self._description}): {_reason(failure)}") from None

    def ping(self) -> None:
        self._run("ping", self._client.ping)

    def claim(self, key: str, *, ttl_seconds: float) -> bool:
        name = self._keys.value(check_name("key", key))
        args: list[str | int] = [uuid.uuid4().hex, check_ttl(ttl_seconds)]
        return bool(self._run("claim", lambda: self._claim(keys=[name], args=args)))

    def get(self, key: str) -> str | None:
        name = self._keys.value(check_name("key", key))
        return _text(self._run("get", lambda: self._client.get(name)))

    def put(self, key: str, value: str, *, ttl_seconds: float | None = None) -> None:
        name = self._keys.value(check_name("key", key))
        px = None if ttl_seconds is None else check_ttl(ttl_seconds)
        self._run("put", lambda: self._client.set(name, value, px=px))

    def delete(self, key: str) -> None:
        check_name("key", key)
        names = [self._keys.value(key), self._keys.doc(key), self._keys.doc_index()]
        self._run("delete", lambda: self._delete(keys=names, args=[key]))

    def ttl(self, key: str) -> float | None:
        name = self._keys.value(check_name("key", key))
        millis: int = self._run("ttl", lambda: self._client.pttl(name))
        return None if millis < 0 else millis / 1000

    def get_doc(self, key: str) -> Versioned | None:
        name = self._keys.doc(check_name("key", key))
        text, version = self._run("get_doc", lambda: self._client.hmget(name, ["doc", "v"]))
        if text is None or version is None:
            return None
        return Versioned(decode_doc(_as_str(text)), int(version))

    def put_doc(self, key: str, doc: dict[str, Any], *, expect_version: int | None) -> Versioned | None:
        check_name("key", key)
        text = encode_doc(doc)
        check_version(expect_version)
        names = [self._keys.doc(key), self._keys.doc_index()]
        args = ["" if expect_version is None else str(expect_version), text, uuid.uuid4().hex, key]
        version = int(self._run("put_doc", lambda: self._put_doc(keys=names, args=args)))
        return Versioned(decode_doc(text), version) if version else None

    def scan_docs(self, prefix: str) -> list[tuple[str, Versioned]]:
        def body() -> list[tuple[str, Versioned]]:
            index = self._keys.doc_index()
            wanted = sorted(k for k in self._client.sscan_iter(index, count=500) if k.startswith(prefix))
            if not wanted:
                return []
            pipe = self._client.pipeline(transaction=False)
            for key in wanted:
                pipe.hmget(self._keys.doc(key), ["doc", "v"])
            found: list[tuple[str, Versioned]] = []
            for key, (text, version) in zip(wanted, pipe.execute(), strict=True):
                if text is not None and version is not None:
                    found.append((key, Versioned(decode_doc(_as_str(text)), int(version))))
            return found

        return self._run("scan_docs", body)

    def acquire_lock(self, name: str, *, ttl_seconds: float) -> Lock | None:
        """The lease, or None while a live holder has it. A holder known dead (`bot.store.liveness`) is replaced
        at once, not after its TTL; the new fence tells its stale writes apart."""
        check_name("lock name", name)
        self.start_heartbeat()  # a process that holds locks says it lives
        token = self.identity.token()
        names = [self._keys.lock(name), self._keys.fence(name)]
        args: list[str | int] = [token, check_ttl(ttl_seconds)]
        fence = int(self._run("acquire_lock", lambda: self._acquire(keys=names, args=args)))
        if not fence:
            holder = _text(self._run("acquire_lock", lambda: self._client.get(names[0])))
            if holder is None or not self._dead(holder):
                return None
            stale = [*args, holder]
            fence = int(self._run("acquire_lock", lambda: self._acquire(keys=names, args=stale)))
            if fence:
                log.info("lock %s taken over from a holder known dead", name)
        return Lock(name=name, token=token, fence=fence) if fence else None

    def _dead(self, holder: str) -> bool:
        """Whether the process holding `holder` (a lock's value) is known dead."""
        instance = instance_of(holder.rsplit(":", 1)[0])
        if instance is None or instance == self.identity.instance:
            return False
        record = _text(self._run("acquire_lock", lambda: self._client.get(self._keys.value(ALIVE + instance))))
        if record is None:
            return True  # it stopped beating longer ago than ALIVE_TTL_SECONDS
        other = Identity.from_text(record)
        return other is not None and self.identity.sees_dead(other)

    def forget_earlier_clients(self) -> int:
        """Drop every liveness record: called by the sole owner of an embedded store's data directory when it takes
        the directory, since every process that wrote one before is gone (the directory's lock is released only
        when its owner ends). Their locks are then known dead at once, wherever they ran (a replica restarted in a
        new pod on the same volume has another host name). Returns how many records were dropped."""
        pattern = self._keys.pattern(self._keys.value(ALIVE).removeprefix(self.prefix))

        def body() -> int:
            names = list(self._client.scan_iter(match=pattern, count=500))
            return int(self._client.delete(*names)) if names else 0

        dropped = self._run("forget_earlier_clients", body)
        if dropped:
            log.info("store: %d liveness record(s) of the data directory's earlier owner dropped", dropped)
        return dropped

    def start_heartbeat(self, *, alive_ttl: float = ALIVE_TTL_SECONDS) -> None:
        """Keep this process's liveness record fresh (every third of `alive_ttl`) until `stop_heartbeat`. The
        first record is written before this returns (raising StoreUnavailable if it cannot be): a lock is never
        held by an instance others would find no record of."""
        key, text = ALIVE + self.identity.instance, self.identity.to_text()
        name, px = self._keys.value(key), check_ttl(alive_ttl)

        def write() -> None:
            self._client.set(name, text, px=px)

        def beat() -> None:
            while self._beating.is_set() and not self._closed:
                # Not through `_run`: a beat missed while the store is down is no operation failing (nobody
                # can take a lock over meanwhile either), and it must not count as one or revive a server.
                with contextlib.suppress(_Failed):
                    _attempt(write, retry=False)
                self._wake.wait(alive_ttl / 3)

        with self._beat_lock:
            if self._beating.is_set():
                return
            self._run("acquire_lock", write)
            self._wake.clear()
            self._beating.set()
        threading.Thread(target=beat, name="store-heartbeat", daemon=True).start()

    def stop_heartbeat(self) -> None:
        """Stop beating, leaving the record to lapse (a clean close deletes it: its locks are released too)."""
        self._beating.clear()
        self._wake.set()

    def renew_lock(self, lock: Lock, *, ttl_seconds: float) -> bool:
        args: list[str | int] = [_holder(lock), check_ttl(ttl_seconds)]
        name = self._keys.lock(lock.name)
        return bool(self._run("renew_lock", lambda: self._renew(keys=[name], args=args)))

    def release_lock(self, lock: Lock) -> None:
        name = self._keys.lock(lock.name)
        self._run("release_lock", lambda: self._release(keys=[name], args=[_holder(lock)]))

    def holds(self, lock: Lock) -> bool:
        name = self._keys.lock(lock.name)
        return _text(self._run("holds", lambda: self._client.get(name))) == _holder(lock)

    def push(self, queue: str, item: str) -> None:
        names = [self._keys.queue(check_name("queue name", queue)), self._keys.op(uuid.uuid4().hex)]
        self._run("push", lambda: self._push(keys=names, args=[item, MARKER_TTL_MS]))

    def peek(self, queue: str, count: int = 1) -> list[str]:
        name = self._keys.queue(check_name("queue name", queue))
        if count < 1:
            raise ValueError(f"count must be at least 1, not {count!r}")
        return [_as_str(item) for item in self._run("peek", lambda: self._client.lrange(name, 0, count - 1))]

    def ack(self, queue: str, item: str) -> bool:
        names = [self._keys.queue(check_name("queue name", queue)), self._keys.op(uuid.uuid4().hex)]
        return bool(self._run("ack", lambda: self._ack(keys=names, args=[item, MARKER_TTL_MS])))

    def close(self) -> None:
        """Disconnect; then stop the embedded server when this store started one. Safe to call twice."""
        if self._closed:
            return
        if self._beating.is_set():
            self.stop_heartbeat()
            with contextlib.suppress(StoreUnavailable):
                self.delete(ALIVE + self.identity.instance)
        self._closed = True
        try:
            self._client.close()
        finally:
            if self._on_close is not None:
                self._on_close()


def _holder(lock: Lock) -> str:
    return f"{lock.token}:{lock.fence}"


def _as_str(value: bytes | str) -> str:
    """Replies are text (the client decodes responses); bytes would mean a misconfigured client."""
    return value if isinstance(value, str) else value.decode()


def _text(value: bytes | str | None) -> str | None:
    return None if value is None else _as_str(value)
