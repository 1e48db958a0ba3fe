"""`rlark-bot serve` as the image runs it: the installed console script in a child process.

The command is the Deployment's (`command: ["rlark-bot", "serve"]` plus the overlay's `args`), the settings come
only through the environment variable names the deploy/ manifests set (or the image's own ENV), and stderr is
collected line by line so a test can read the process's JSON log while it runs and after it has exited.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
EXAMPLES = ROOT / "examples"
# The console script `pip install .` put next to the interpreter running the tests (the image's `rlark-bot`).
ENTRYPOINT = Path(sys.executable).parent / "rlark-bot"
# Set by the image (Dockerfile ENV) rather than by a manifest: the process basics.
IMAGE_ENV = frozenset({"PATH", "HOME", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PORT", "RLARK_BOT_DATA_DIR"})
# Nothing here goes through a proxy, whatever the environment running the tests says.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))
T = TypeVar("T")


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _container(deployment: Any) -> dict[str, Any]:
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    return dict(container)


def entry_command(overlay: str) -> list[str]:
    """The container's command and the overlay's args, with the installed script in place of `rlark-bot`."""
    base = _container(_load(DEPLOY / "base" / "deployment.yaml"))
    patch = _container(_load(DEPLOY / "overlays" / overlay / "deployment.yaml"))
    command = list(base["command"])
    assert command[0] == "rlark-bot", command
    return [str(ENTRYPOINT), *command[1:], *patch.get("args", base.get("args", []))]


def manifest_env_names() -> frozenset[str]:
    """Every variable the Deployment sets itself or takes from its ConfigMap (the base's and the overlays')."""
    names = {str(e["name"]) for e in _container(_load(DEPLOY / "base" / "deployment.yaml")).get("env", [])}
    for configmap in [DEPLOY / "base" / "configmap.yaml", *sorted(DEPLOY.glob("overlays/*/configmap.yaml"))]:
        names |= set(_load(configmap).get("data", {}))
    return frozenset(names)


def configmap_settings() -> dict[str, str]:
    """The base ConfigMap's settings, as the pod's environment gets them (empty values left out)."""
    data = _load(DEPLOY / "base" / "configmap.yaml")["data"]
    return {str(k): str(v) for k, v in data.items() if str(v) != ""}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def http_get(url: str, *, timeout: float = 5.0) -> tuple[int, str, dict[str, str]]:
    """(status, body, headers), for error statuses too."""
    try:
        with _OPENER.open(url, timeout=timeout) as response:
            return response.status, response.read().decode("utf-8"), dict(response.headers.items())
    except urllib.error.HTTPError as e:
        with e:
            return e.code, e.read().decode("utf-8"), dict(e.headers.items())


def http_post(url: str, body: bytes, headers: Mapping[str, str], *,
              timeout: float = 10.0) -> tuple[int, dict[str, str], bytes]:
    """POST `body`; (status, headers, body), also for 4xx/5xx answers."""
    request = urllib.request.Request(url, data=body, headers=dict(headers), method="POST")
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            return response.status, dict(response.headers.items()), response.read()
    except urllib.error.HTTPError as e:
        with e:
            return e.code, dict(e.headers.items()), e.read()


def wait_until(predicate: Callable[[], T], *, timeout: float, what: str, every: float = 0.05) -> T:
    """Poll `predicate` until it returns something truthy; AssertionError naming `what` after `timeout` s.

    Only for what a test cannot be notified of (another process's HTTP answers); the Slack stand-in has its
    own `wait_for`, which sleeps on a condition instead."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        threading.Event().wait(every)


class ServedBot:
    """One `rlark-bot serve` child process on `port`, with its stderr read in the background."""

    def __init__(self, argv: list[str], *, env: Mapping[str, str], port: int, cwd: Path) -> None:
        self.argv = argv
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self._lines: list[str] = []
        self._lock = threading.Lock()
        self.proc = subprocess.Popen(argv, env=dict(env), cwd=cwd, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self._reader = threading.Thread(target=self._read, name=f"stderr-{self.proc.pid}", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        with self.proc.stderr:
            for raw in self.proc.stderr:
                with self._lock:
                    self._lines.append(raw.decode("utf-8", errors="replace").rstrip("\n"))

    # ---- what it says

    def lines(self) -> list[str]:
        with self._lock:
            return list(self._lines)

    def records(self) -> list[dict[str, Any]]:
        """Every stderr line as the JSON object it must be; AssertionError quoting the first line that is not."""
        out: list[dict[str, Any]] = []
        for line in self.lines():
            try:
                record = json.loads(line)
            except ValueError:
                raise AssertionError(f"a stderr line is not JSON: {line[:300]!r}") from None
            assert isinstance(record, dict), line
            out.append(record)
        return out

    def messages(self) -> list[str]:
        return [str(r.get("message")) for r in self.records()]

    def tail(self, n: int = 15) -> str:
        return "\n".join(self.lines()[-n:])

    # ---- talking to it

    def get(self, path: str) -> tuple[int, str]:
        status, body, _ = http_get(self.base + path)
        return status, body

    def post(self, path: str, body: bytes, headers: Mapping[str, str]) -> tuple[int, dict[str, str], bytes]:
        return http_post(self.base + path, body, headers)

    def wait_listening(self, *, timeout: float = 20.0) -> float:
        """Wait for the first HTTP answer on the port; seconds since start. Fails if the process exits first."""
        started = time.monotonic()

        def answered() -> bool:
            if self.proc.poll() is not None:
                raise AssertionError(f"serve exited with {self.proc.returncode} before listening:\n{self.tail()}")
            try:
                http_get(self.base + "/healthz", timeout=1.0)
            except OSError:
                return False
            return True

        wait_until(answered, timeout=timeout, what=f"serve listening on {self.port}")
        return time.monotonic() - started

    def wait_status(self, path: str, status: int, *, timeout: float) -> str:
        """Poll `path` until it answers `status`; the body of that answer."""
        seen: list[tuple[int, str]] = []

        def hit() -> str | None:
            if self.proc.poll() is not None:
                raise AssertionError(f"serve exited with {self.proc.returncode}:\n{self.tail()}")
            got = self.get(path)
            seen.append(got)
            return got[1] if got[0] == status else None

        try:
            return wait_until(hit, timeout=timeout, what=f"{path} answering {status}", every=0.1)
        except AssertionError as exc:
            raise AssertionError(f"{exc}; last answer {seen[-1:]}\n{self.tail()}") from None

    # ---- stopping it

    def terminate(self, *, timeout: float) -> int:
        """SIGTERM, as the kubelet sends it; the exit code, or AssertionError if it outlives `timeout` s."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"serve still running {timeout} s after SIGTERM:\n{self.tail()}") from None
        self._reader.join(timeout=5)
        return code

    def kill(self) -> None:
        """Cleanup after a failed test, this process only, by its own pid: SIGTERM first, so it stops the
        embedded Redis it started (a SIGKILL would leave that server behind), SIGKILL if it does not go."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        self._reader.join(timeout=5)
