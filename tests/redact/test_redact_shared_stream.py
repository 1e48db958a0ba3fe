"""`rlark-bot redact` on several CPUs writes exactly what it writes on one: every piece boundary, wherever it
falls (inside a PEM block, between a key and its value on the next line, inside a YAML block), and a helper that
dies mid-stream.

Each case runs in a fresh interpreter: a test worker has other threads, and no helper is forked then."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

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
text = "".join(rng.choice(PARTS).format(i=i, d=i % 10) for i in range(1500)).encode()
redactor = Redactor()
me = os.getpid()
fed_here = [0]
feed = StreamState.feed

def counted(self, chunk):
    if os.getpid() == me:
        fed_here[0] += 1
    return feed(self, chunk)

StreamState.feed = counted
mode = sys.argv[1]
if mode == "dies":  # every helper dies after its first piece
    serve = shared._Helpers._serve

    def once(self, tasks, answers):
        import pickle
        lead, body = pickle.load(tasks)
        os._exit(9)

    shared._Helpers._serve = once
results = []
for chunk in (37, 64, 250, 1000, 4096):
    alone, together = io.BytesIO(), io.BytesIO()
    fed_here[0] = 0
    counts = redact_stream(io.BytesIO(text), alone, redactor, chunk_size=chunk)
    chunks = fed_here[0]
    fed_here[0] = 0
    counts_shared = shared.redact_stream_shared(io.BytesIO(text), together, redactor, processes=int(sys.argv[2]),
                                                chunk_size=chunk)
    results.append({"chunk": chunk, "same": alone.getvalue() == together.getvalue(),
                    "counts": counts == counts_shared, "masked": sum(counts.values()),
                    "chunks": chunks, "here": fed_here[0]})
try:
    os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    unreaped = True
except ChildProcessError:
    unreaped = False
print(json.dumps({"results": results, "unreaped": unreaped, "bytes": len(text)}))
'''


def _run(*args: str) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-c", SCRIPT, *args], cwd=REPO, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out: dict[str, object] = json.loads(proc.stdout)
    return out


def test_shared_stream_writes_what_one_process_writes_at_every_piece_boundary() -> None:
    out = _run("ok", "2")
    results = out["results"]
    assert isinstance(results, list) and len(results) == 5
    for r in results:
        assert r["same"] and r["counts"], r
        assert r["masked"] > 1000  # the text is full of credentials: the comparison is not of clean text
        assert r["here"] < r["chunks"] / 2, r  # the helpers redacted most of it
    assert out["unreaped"] is False


def test_a_helper_that_dies_costs_only_time() -> None:
    out = _run("dies", "3")
    results = out["results"]
    assert isinstance(results, list)
    for r in results:
        assert r["same"] and r["counts"], r
        assert r["here"] > r["chunks"] / 2, r  # the caller took over
    assert out["unreaped"] is False


def test_one_process_when_the_caller_has_other_threads() -> None:
    code = textwrap.dedent("""
        import io, json, os, threading
        from bot.redact import Redactor
        from bot.redact import shared
        forks = []
        real_fork = os.fork
        os.fork = lambda: forks.append(1) or real_fork()
        stop = threading.Event()
        t = threading.Thread(target=stop.wait)
        t.start()
        dst = io.BytesIO()
        counts = shared.redact_stream_shared(io.BytesIO(b"token=ghp_" + b"a" * 36 + b"\\n"), dst, Redactor(),
                                             processes=2)
        stop.set()
        t.join()
        print(json.dumps({"forks": len(forks), "counts": dict(counts), "out": dst.getvalue().decode()}))
    """)
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout)
    assert out["forks"] == 0 and sum(out["counts"].values()) == 1 and "ghp_" not in out["out"]
