"""`kubectl logs -f POD | rlark-bot redact`: each line comes out, redacted, while the input is still open, as soon
as nothing after it can change it (the installed command, on a pipe): an ordinary line at once; a line ending in a
value that could go on in the next line (a wrapped token, a key whose value is on the next line) with that next
line. A file is redacted the same way, only in larger pieces."""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
import sys
import time
from pathlib import Path

COMMAND = Path(sys.executable).parent / "rlark-bot"
TOKEN = "ghp_" + "Zq8Lm3Nv7Bx2Kc9Wd4Rf6Tg1Hy5Uj0Io3Pa"
LINES = [
    "2026-11-20T07:49:36Z INFO step 1 loss=0.41\n",
    f"2026-11-20T07:49:37Z INFO cloning with GITHUB_TOKEN={TOKEN}\n",
    "2026-11-20T07:49:38Z INFO step 2 loss=0.39\n",
]


def _line(fd: int, *, within: float) -> bytes:
    """One line from `fd`, waiting at most `within` seconds for it."""
    got = b""
    deadline = time.monotonic() + within
    while not got.endswith(b"\n"):
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"no complete line within {within} s (got {got!r}): the output waits for more input"
        part = os.read(fd, 1)
        assert part, f"the output ended early: {got!r}"
        got += part
    return got


def test_each_line_of_a_pipe_comes_out_redacted_while_the_pipe_is_open() -> None:
    proc = subprocess.Popen([str(COMMAND), "redact"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    fd = proc.stdout.fileno()
    try:
        proc.stdin.write(LINES[0].encode())
        proc.stdin.flush()
        first = _line(fd, within=10.0).decode()  # alone in the pipe, and out
        proc.stdin.write((LINES[1] + LINES[2]).encode())  # the token line waits for the line after it
        proc.stdin.flush()
        token, after = _line(fd, within=10.0).decode(), _line(fd, within=10.0).decode()
        proc.stdin.close()
        assert proc.wait(timeout=20) == 0, proc.stderr.read().decode()[-2000:]
        assert proc.stdout.read() == b""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        with contextlib.suppress(OSError):
            proc.stdin.close()
        proc.stdout.close()
        proc.stderr.close()
    assert first == LINES[0] and after == LINES[2]
    assert TOKEN not in token and token.startswith("2026-11-20T07:49:37Z INFO cloning with GITHUB_TOKEN=[REDACTED:")


def test_a_file_and_a_pipe_give_the_same_text(tmp_path: Path) -> None:
    path = tmp_path / "pod.log"
    path.write_text("".join(LINES * 200), encoding="utf-8")
    from_file = subprocess.run([str(COMMAND), "redact", str(path)], capture_output=True, timeout=60, check=True)
    with path.open("rb") as src:
        from_pipe = subprocess.run([str(COMMAND), "redact"], input=src.read(), capture_output=True, timeout=60,
                                   check=True)
    assert from_file.stdout == from_pipe.stdout
    assert TOKEN.encode() not in from_file.stdout and from_file.stdout.count(b"[REDACTED:") == 200


def test_a_reader_that_stops_early_is_normal_use(tmp_path: Path) -> None:
    """`rlark-bot redact FILE | head -1`: the reader closing the pipe is exit 0 and says nothing, from a file (which
    is read in pieces shared out over the CPUs) and from stdin alike."""
    path = tmp_path / "big.log"
    path.write_text(LINES[1] + LINES[0] * 120_000, encoding="utf-8")  # 5 MB: more than one piece
    for argv, stdin in (([str(COMMAND), "redact", str(path)], None), ([str(COMMAND), "redact"], path)):
        with contextlib.ExitStack() as stack:
            src = stack.enter_context(path.open("rb")) if stdin else subprocess.DEVNULL
            proc = subprocess.Popen(argv, stdin=src, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            assert proc.stdout is not None and proc.stderr is not None
            first = proc.stdout.readline()
            proc.stdout.close()  # what `head -1` does after its line
            status = proc.wait(timeout=60)
            err = proc.stderr.read().decode()
            proc.stderr.close()
        assert TOKEN.encode() not in first and first.startswith(b"2026-11-20T07:49:37Z INFO cloning")
        assert status == 0 and err == "", (argv, status, err)
