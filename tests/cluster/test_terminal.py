"""The installed command at a terminal (a pseudo-terminal, as a person runs it): it finishes and shows its
progress line only while it reads live clusters. rich's live display stands in for `sys.stderr` while it runs;
the redacting stream under it must not write back into it (it did, forever)."""

from __future__ import annotations

import os
import pty
import re
import select
import sys
import time
from pathlib import Path

from cluster.standin import StandIn

ROOT = Path(__file__).resolve().parents[2]
COMMAND = Path(sys.executable).parent / "rlark-bot"
EXAMPLE = ROOT / "examples" / "healthy-job"


def _at_a_terminal(*argv: str, limit: float = 30.0) -> tuple[int | None, str]:
    """Run the command with stdin, stdout and stderr on a pseudo-terminal; its exit status (None: still running
    after `limit` seconds, then killed) and everything it printed."""
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child becomes the command
        os.execv(str(COMMAND), [str(COMMAND), *argv])
    out = b""
    deadline = time.monotonic() + limit
    status: int | None = None
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:  # the terminal closed: the command is gone
                    chunk = b""
                out += chunk
                if chunk:
                    continue
            done, code = os.waitpid(pid, os.WNOHANG)
            if done:
                status = os.waitstatus_to_exitcode(code)
                break
    finally:
        if status is None:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        os.close(fd)
    return status, out.decode("utf-8", "replace")


def test_a_bundle_at_a_terminal_is_diagnosed_without_a_progress_line() -> None:
    status, out = _at_a_terminal("diagnose", (EXAMPLE / "TARGET").read_text().strip(), "--snapshot", str(EXAMPLE))
    assert status == 0, out[-2000:]
    assert "Last stage reached:" in out and "redacted 0 value(s)" in out
    assert "reading" not in out and "connecting" not in out  # nothing was read from a cluster


def test_live_clusters_at_a_terminal_show_progress_then_the_report(standin: StandIn, kubeconfig: Path) -> None:
    status, out = _at_a_terminal("diagnose", "job/ppo-big", "--kubeconfig", str(kubeconfig))
    assert status == 0, out[-2000:]
    assert "reading" in out  # the live status line, while the clusters were read
    assert re.search(r"read 3 cluster\(s\): \d+ requests", out)  # the summary that replaced it
    assert "Last stage reached:" in out
