"""`rlark-bot redact` on several CPUs writes exactly what it writes on one: every piece boundary, wherever it
falls (inside a PEM block, between a key and its value on the next line, inside a YAML block), and a helper that
dies mid-stream.

The cases run in one fresh interpreter: a test worker has other threads, and no helper is forked then."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

SCRIPT = r'''
import io, json, os, random, sys
from bot.redact import Redactor, redact_stream
from bot.redact import shared
from bot.redact.stream import StreamState

PEM = ("-----BEGIN RSA PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n"
       "Qx9pZ2hlcnNlY3JldGtleW1hdGVyaWFsMTIzNDU2Nzg5MA==\n-----END RSA PRIVATE KEY-----\n")
PARTS = [
    "step {i} loss=0.{i} lr=3e-4 throughput=812 samples/s\n",
    "export GITHUB_TOKEN=ghp_{i:04d}456789abcdefghijABCDEFGHIJ0123\n",
    PEM,
    "        - name: WANDB_API_KEY\n          value: {i:04d}456789abcdef0123456789abcdef01234567\n",
    "password: |\n  correct horse battery staple {i}\n  second line\ndone: 1\n",
    "HF_TOKEN:\n  hf_{i:04d}abcdefghijklmnopqrstuvwxyzABCDEF\n",
    "url https://b.obs.cn-north-4.myhuaweicloud.com/o?AccessKeyId=HPUA1234567890ABCDEF&Signature=abc%2B{i}\n",
    "2026-11-20T08:00:0{d}Z INFO ray worker {i} joined; no secret here\n",
]
rng = random.Random(7)
text = "".join(rng.choice(PARTS).format(i=i, d=i % 10) for i in range(1000)).encode()
redactor = Redactor()
me = os.getpid()
fed_here = [0]
feed = StreamState.feed

def counted(self, chunk):
    if os.getpid() == me:
        fed_here[0] += 1
    return feed(self, chunk)

StreamState.feed = counted
def compare(processes, chunks=(37, 250, 4096)):
    results = []
    for chunk in chunks:
        alone, together = io.BytesIO(), io.BytesIO()
        fed_here[0] = 0
        counts = redact_stream(io.BytesIO(text), alone, redactor, chunk_size=chunk)
        chunks = fed_here[0]
        fed_here[0] = 0
        counts_shared = shared.redact_stream_shared(io.BytesIO(text), together, redactor, processes=processes,
                                                    chunk_size=chunk)
        results.append({"chunk": chunk, "same": alone.getvalue() == together.getvalue(),
                        "counts": counts == counts_shared, "masked": sum(counts.values()),
                        "chunks": chunks, "here": fed_here[0]})
    return results


def unreaped():
    try:
        os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        return True
    except ChildProcessError:
        return False


report = {"bytes": len(text), "ok": compare(2), "ok_unreaped": unreaped()}
serve = shared._Helpers._serve


def once(self, tasks, answers):  # a helper that dies after taking its first piece
    import pickle
    pickle.load(tasks)
    os._exit(9)


shared._Helpers._serve = once
report["dies"], report["dies_unreaped"] = compare(3, (250, 4096)), unreaped()


def stuck(self, tasks, answers):  # a helper that takes its first piece and never answers
    import pickle, time
    pickle.load(tasks)
    time.sleep(3600)


import time
from bot import forked
forked.PATIENCE = 0.3
shared._Helpers._serve = stuck
started = time.monotonic()
report["hangs"], report["hangs_unreaped"] = compare(3, (4096,)), unreaped()
report["hangs_seconds"] = time.monotonic() - started
forked.PATIENCE = 30.0
shared._Helpers._serve = serve
import threading
forks = []
real_fork = os.fork
os.fork = lambda: forks.append(1) or real_fork()
stop = threading.Event()
t = threading.Thread(target=stop.wait)
t.start()
report["threads"] = compare(2, (4096,))
stop.set()
t.join()
os.fork = real_fork
report["threads_forks"] = len(forks)
print(json.dumps(report))
'''


@pytest.fixture(scope="module")
def report() -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-c", SCRIPT], cwd=REPO, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out: dict[str, object] = json.loads(proc.stdout)
    return out


def _results(report: dict[str, object], mode: str) -> list[dict[str, object]]:
    results = report[mode]
    assert isinstance(results, list) and results
    return results


def test_shared_stream_writes_what_one_process_writes_at_every_piece_boundary(report: dict[str, object]) -> None:
    for r in _results(report, "ok"):
        assert r["same"] and r["counts"], r
        assert isinstance(r["masked"], int) and r["masked"] > 600  # full of credentials, not clean text
        assert isinstance(r["here"], int) and isinstance(r["chunks"], int)
        assert r["here"] < r["chunks"] / 2, r  # the helpers redacted most of it
    assert report["ok_unreaped"] is False


def test_a_helper_that_dies_costs_only_time(report: dict[str, object]) -> None:
    for r in _results(report, "dies"):
        assert r["same"] and r["counts"], r
        assert r["here"] == r["chunks"], r  # the caller redacted it all
    assert report["dies_unreaped"] is False


def test_a_helper_that_hangs_is_killed_after_the_patience(report: dict[str, object]) -> None:
    for r in _results(report, "hangs"):
        assert r["same"] and r["counts"], r
        assert r["here"] == r["chunks"], r  # the caller redacted it all
    seconds = report["hangs_seconds"]
    assert isinstance(seconds, float) and 0.6 <= seconds < 30  # waited its patience for each helper, not an hour
    assert report["hangs_unreaped"] is False


def test_one_process_when_the_caller_has_other_threads(report: dict[str, object]) -> None:
    for r in _results(report, "threads"):
        assert r["same"] and r["counts"] and r["here"] == r["chunks"], r
    assert report["threads_forks"] == 0
