"""The embedded store keeps its data in the data directory across restarts of the bot, clean or not."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import redis

from bot.store.base import StoreUnavailable
from bot.store.embedded import SOCKET_PATH_MAX, server_binary, server_config, socket_path_for
from bot.store.factory import open_store

REPO = Path(__file__).resolve().parents[2]

WRITE = """
store = open_store(url=None, data_dir=DATA, prefix="rlark-bot:v1:")
assert store.claim("slack:retry:1", ttl_seconds=3600)
store.put("cooldown:C1:job/x", "C1/1700000000.1", ttl_seconds=3600)
store.put("permanent", "kept")
assert store.put_doc("alert:a", {"state": "firing", "ts": "1.1"}, expect_version=None)
assert store.put_doc("alert:a", {"state": "resolved", "ts": "1.1"}, expect_version=1)
store.push("outbox", "post:1")
store.push("outbox", "post:2")
lock = store.acquire_lock("scheduler", ttl_seconds=3600)
store.release_lock(lock)
print(json.dumps({"fence": lock.fence, "server": server_pid()}), flush=True)
"""

READ = """
store = open_store(url=None, data_dir=DATA, prefix="rlark-bot:v1:")
doc = store.get_doc("alert:a")
lock = store.acquire_lock("scheduler", ttl_seconds=60)
print(json.dumps({
    "claim_taken": not store.claim("slack:retry:1", ttl_seconds=60),
    "cooldown": store.get("cooldown:C1:job/x"), "cooldown_ttl": store.ttl("cooldown:C1:job/x"),
    "permanent": store.get("permanent"), "doc": doc.doc, "version": doc.version,
    "outbox": store.peek("outbox", 10), "fence": lock.fence, "server": server_pid(),
}))
store.close()
"""

ENDINGS = {
    "clean": "",
    "close": "store.close()",
    # the bot is killed without a chance to clean up: the watchdog still stops its server
    "bot-crash": "os.kill(os.getpid(), signal.SIGKILL)",
    # the bot and its server die at once (OOM kill of the container): only what is on disk survives
    "both-crash": "os.kill(server_pid(), signal.SIGKILL); os._exit(1)",
}


def run(data_dir: Path, body: str) -> subprocess.CompletedProcess[str]:
    prologue = f"""
        import json, os, signal
        from pathlib import Path
        import redis
        from bot.store.embedded import socket_path_for
        from bot.store.factory import open_store
        DATA = Path({str(data_dir)!r})
        def server_pid():
            client = redis.Redis(unix_socket_path=str(socket_path_for(DATA.resolve())))
            try:
                return int(client.info("server")["process_id"])
            finally:
                client.close()
    """
    code = textwrap.dedent(prologue) + textwrap.dedent(body)
    return subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, timeout=60,
                          cwd=REPO)


def answers(data_dir: Path) -> bool:
    client = redis.Redis(unix_socket_path=str(socket_path_for(data_dir.resolve())), socket_timeout=0.5,
                         socket_connect_timeout=0.5, retry=None)
    try:
        return bool(client.ping())
    except (redis.RedisError, OSError):
        return False
    finally:
        client.close()


def gone(data_dir: Path, within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while answers(data_dir):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.mark.parametrize("ending", sorted(ENDINGS))
def test_data_survives_a_restart_of_the_bot(tmp_path: Path, ending: str) -> None:
    data_dir = tmp_path / "data"
    first = run(data_dir, WRITE + ENDINGS[ending])
    expected = {"clean": 0, "close": 0, "bot-crash": -signal.SIGKILL, "both-crash": 1}[ending]
    assert first.returncode == expected, first.stderr
    written = json.loads(first.stdout)
    assert gone(data_dir), "the embedded server never outlives the bot"
    second = run(data_dir, READ)
    assert second.returncode == 0, second.stderr
    seen = json.loads(second.stdout)
    assert seen["claim_taken"] and seen["permanent"] == "kept"
    assert seen["cooldown"] == "C1/1700000000.1" and 3500 < seen["cooldown_ttl"] <= 3600
    assert seen["doc"] == {"state": "resolved", "ts": "1.1"} and seen["version"] == 2
    assert seen["outbox"] == ["post:1", "post:2"]
    assert seen["fence"] == written["fence"] + 1, "fences keep growing across restarts"
    assert seen["server"] != written["server"]
    assert not answers(data_dir), "closing the store stops the server"


def test_a_server_left_running_is_adopted_not_doubled(tmp_path: Path) -> None:
    data_dir = (tmp_path / "data").resolve()
    data_dir.mkdir()
    config = data_dir / "left.conf"
    config.write_text(server_config(data_dir, socket_path_for(data_dir)))
    left = subprocess.Popen([str(server_binary()), str(config)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not answers(data_dir):
            assert time.monotonic() < deadline and left.poll() is None, "the stray server did not start"
            time.sleep(0.02)
        store = open_store(url=None, data_dir=data_dir, prefix="p:")
        store.put("k", "v")
        assert server_pid(data_dir) == left.pid, "the running server was adopted"
        store.close()
        assert left.wait(timeout=10) == 0, "closing the store shut the adopted server down"
    finally:
        if left.poll() is None:
            left.kill()
            left.wait()


def test_one_process_per_data_directory(tmp_path: Path) -> None:
    store = open_store(url=None, data_dir=tmp_path / "data", prefix="p:")
    try:
        with pytest.raises(StoreUnavailable, match="in use by another rlark-bot process") as info:
            open_store(url=None, data_dir=tmp_path / "data", prefix="p:")
        assert "\n" not in str(info.value)
        store.put("k", "still fine")
        assert store.get("k") == "still fine"
    finally:
        store.close()
    again = open_store(url=None, data_dir=tmp_path / "data", prefix="p:")
    try:
        assert again.get("k") == "still fine"
    finally:
        again.close()


def test_an_unusable_data_directory_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(StoreUnavailable, match="cannot use") as info:
        open_store(url=None, data_dir=blocker / "data", prefix="p:")
    assert "\n" not in str(info.value)


def test_long_data_directories_get_a_short_stable_socket(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    path = socket_path_for(deep)
    assert len(str(path)) <= SOCKET_PATH_MAX and path == socket_path_for(deep)
    assert socket_path_for(deep / "other") != path
    assert socket_path_for(tmp_path) == tmp_path / "redis.sock"
    store = open_store(url=None, data_dir=deep, prefix="p:")
    try:
        store.put("k", "v")
        assert store.get("k") == "v"
    finally:
        store.close()


def test_server_config_is_durable_and_private(tmp_path: Path) -> None:
    config = server_config(tmp_path / 'with "quote" and space', tmp_path / "s.sock").splitlines()
    assert "appendonly yes" in config and "appendfsync always" in config
    assert "port 0" in config, "no TCP listener: only this machine's unix socket"
    assert f'dir "{tmp_path}/with \\"quote\\" and space"' in config


def server_pid(data_dir: Path) -> int:
    client = redis.Redis(unix_socket_path=str(socket_path_for(data_dir.resolve())), socket_timeout=1, retry=None)
    try:
        return int(client.info("server")["process_id"])
    finally:
        client.close()


def kill_server(data_dir: Path) -> None:
    """SIGKILL the embedded server and wait until the kernel has ended it (a zombie until its parent reaps it)."""
    pid = server_pid(data_dir)
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return
        if state in ("Z", "X"):
            return
        time.sleep(0.01)
    raise AssertionError("the server did not die")


def test_a_dead_embedded_server_is_started_again(tmp_path: Path) -> None:
    errors: list[str] = []
    data_dir = tmp_path / "data"
    store = open_store(url=None, data_dir=data_dir, prefix="p:", socket_timeout=0.5, on_error=errors.append)
    try:
        store.put("k", "v")
        store.push("q", "a")
        first = server_pid(data_dir)
        kill_server(data_dir)
        assert store.get("k") == "v", "the same store restarted its server and found its data"
        assert server_pid(data_dir) != first and errors == []
        store.push("q", "b")
        assert store.peek("q", 10) == ["a", "b"]
        kill_server(data_dir)
        with pytest.raises(StoreUnavailable):  # a second death right after: no restart loop
            store.get("k")
        assert errors == ["get"]
    finally:
        store.close()
