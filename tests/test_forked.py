"""Work shared out over forked helpers (`bot.forked.Shared`) gives what the same work gives in one process: for the
building block itself, and for the two users of it (a bundle's log files read for their sections, and the
engine's one visit per log) on real bundles.

Each case runs in a fresh interpreter: a test worker has other threads, and `Shared` forks no helper then (a
thread could hold a lock a helper would wait on forever), so in-process it would only test the serial path."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = sorted(p / "bundle" for p in (REPO / "tests" / "scenarios").iterdir() if (p / "expect.yaml").is_file())
# Every example, and every sixth scenario: bundles of every shape (several clusters, previous logs, cut files).
BUNDLES = sorted(p for p in (REPO / "examples").iterdir() if (p / "TARGET").is_file()) + SCENARIOS[::6]


# In the scripts: whether any child is left unwaited for (a helper not reaped).
UNREAPED = """
import os

def unreaped():
    try:
        return os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:  # no child at all
        return False
"""


def _run(script: str) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-c", UNREAPED + textwrap.dedent(script)], cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out: dict[str, object] = json.loads(proc.stdout)
    return out


def test_results_in_item_order_whichever_process_did_them() -> None:
    out = _run("""
        import json, os, time
        from bot.forked import Shared
        me = os.getpid()

        def work(n):
            time.sleep(0.002)  # long enough for every process to take some
            return n * n, os.getpid()

        with Shared(list(range(300)), work, processes=3) as shared:
            results = shared.results()
        print(json.dumps({"values": [v for v, _ in results], "pids": sorted({p for _, p in results}),
                          "me": me, "zombies": unreaped()}))
    """)
    assert out["values"] == [n * n for n in range(300)]
    pids = out["pids"]
    assert isinstance(pids, list) and len(pids) == 3 and out["me"] in pids  # the caller took part, and two helpers
    assert out["zombies"] is False


def test_what_a_dead_helper_took_is_done_by_the_caller() -> None:
    out = _run("""
        import json, os
        from bot.forked import Shared
        me = os.getpid()

        def work(n):
            if os.getpid() != me and n == 7:
                os._exit(9)  # a helper killed in the middle of its share
            return n + 1

        with Shared(list(range(50)), work, processes=2) as shared:
            print(json.dumps({"values": shared.results()}))
    """)
    assert out["values"] == [n + 1 for n in range(50)]


def test_a_hung_helper_is_killed_after_the_patience_and_its_item_done_by_the_caller() -> None:
    out = _run("""
        import json, os, time
        from bot import forked
        from bot.forked import Shared
        forked.PATIENCE = 0.5
        me = os.getpid()

        def work(n):
            if os.getpid() != me and n == 7:
                time.sleep(3600)  # stuck, never answering
            if os.getpid() == me:
                time.sleep(0.01)  # let the helper reach item 7 first
            return n + 1

        started = time.monotonic()
        with Shared(list(range(50)), work, processes=2) as shared:
            values = shared.results()
        print(json.dumps({"values": values, "seconds": time.monotonic() - started, "zombies": unreaped()}))
    """)
    assert out["values"] == [n + 1 for n in range(50)]
    # It waited for the helper (which did take item 7) as long as its patience, not the helper's hour.
    assert isinstance(out["seconds"], float) and 0.5 <= out["seconds"] < 30
    assert out["zombies"] is False  # killed and reaped


def test_a_helper_that_dies_holding_the_queue_stops_nothing() -> None:
    out = _run("""
        import json, os, time
        from bot import forked
        from bot.forked import Shared
        forked.PATIENCE = 0.5
        me = os.getpid()
        box = {}

        def work(n):
            if os.getpid() != me and n == 3:
                box["shared"]._queue._lock.acquire()
                os._exit(9)  # gone with the lock held: nobody can take a slot any more
            if os.getpid() == me:
                time.sleep(0.01)  # let the helper reach item 3 first
            return n * 3

        started = time.monotonic()
        box["shared"] = Shared(list(range(40)), work, processes=3)  # what the helpers will see when forked
        with box["shared"] as shared:
            values = shared.results()
        print(json.dumps({"values": values, "seconds": time.monotonic() - started, "zombies": unreaped()}))
    """)
    assert out["values"] == [n * 3 for n in range(40)]
    assert isinstance(out["seconds"], float) and 0.5 <= out["seconds"] < 30  # it waited on the lock, then went on
    assert out["zombies"] is False


def test_an_error_is_raised_in_the_caller_as_without_helpers() -> None:
    out = _run("""
        import json, os
        from bot.forked import Shared

        def work(n):
            if n == 33:
                raise ValueError(f"item {n} is bad")
            return n

        try:
            with Shared(list(range(60)), work, processes=2, order=list(range(59, -1, -1))) as shared:
                shared.results()
            print(json.dumps({"raised": None}))
        except ValueError as exc:
            print(json.dumps({"raised": str(exc),
                              "zombies": unreaped()}))
    """)
    assert out == {"raised": "item 33 is bad", "zombies": False}


def test_no_helper_when_the_process_has_other_threads() -> None:
    out = _run("""
        import json, os, threading
        from bot.forked import Shared
        stop = threading.Event()
        t = threading.Thread(target=stop.wait)
        t.start()
        with Shared(list(range(20)), lambda n: os.getpid(), processes=4) as shared:
            pids = set(shared.results())
        stop.set()
        t.join()
        print(json.dumps({"pids": len(pids)}))
    """)
    assert out == {"pids": 1}


def test_shared_reading_and_surveying_diagnose_every_bundle_exactly_as_one_process() -> None:
    """Every bundle read and diagnosed with its logs shared out (thresholds lowered to zero so that small bundles
    are shared too), against one process: the same evidence and the same JSON report, byte for byte."""
    out = _run("""
        import json
        from pathlib import Path
        import yaml
        import bot.bundle.reader as reader
        import bot.diagnose.survey as survey
        from bot.bundle import read_bundle
        from bot.diagnose import diagnose
        from bot.models import Target
        from bot.redact import Redactor
        from bot.render import render_diagnosis
        from bot.service import shipped_runbook
        from bot.diagnose.engine import prepare

        from bot.cache import FileCache, default_cache_dir

        redactor, runbook = Redactor(), shipped_runbook()
        prepare(runbook, cache=FileCache(default_cache_dir()))

        def report(bundle, processes):
            evidence = read_bundle(bundle, processes=processes)
            target = Target.parse((bundle / "TARGET").read_text().strip() if (bundle / "TARGET").is_file()
                                  else yaml.safe_load((bundle.parent / "expect.yaml").read_text())["target"])
            diag = diagnose(evidence, runbook, now=evidence.captured_at, target=target, redactor=redactor,
                            processes=processes)
            logs = [(x.source.model_dump_json(), x.size, x.truncated, x.text) for x in evidence.logs]
            return str(render_diagnosis(diag, "json", redactor=redactor)), logs, evidence.problems

        import os, time
        me, here = os.getpid(), {"visits": 0, "files": 0}

        def mine(count, work):  # counts what this process does; slower here, so that the helper takes its share
            def run(*args):
                if os.getpid() == me:
                    here[count] += 1
                    time.sleep(0.001)
                return work(*args)
            return run

        survey.visit = mine("visits", survey.visit)
        reader._sections_of = mine("files", reader._sections_of)
        bundles = BUNDLES
        differ, alone_did, shared_did = [], {"visits": 0, "files": 0}, {"visits": 0, "files": 0}
        for b in map(Path, bundles):
            here.update(visits=0, files=0)
            alone = report(b, 1)
            alone_did = {k: alone_did[k] + here[k] for k in here}
            here.update(visits=0, files=0)
            reader.MIN_SHARED_BYTES = survey.MIN_SHARED_BYTES = 0
            shared = report(b, 2)
            reader.MIN_SHARED_BYTES = survey.MIN_SHARED_BYTES = 32 << 20
            shared_did = {k: shared_did[k] + here[k] for k in here}
            if alone != shared:
                differ.append(b.name)
        print(json.dumps({"bundles": len(bundles), "differ": differ, "alone": alone_did, "shared": shared_did}))
    """.replace("BUNDLES", json.dumps([str(b) for b in BUNDLES])))
    assert out["bundles"] == len(BUNDLES) and out["differ"] == []
    alone, shared = out["alone"], out["shared"]
    assert isinstance(alone, dict) and isinstance(shared, dict)
    for work in ("visits", "files"):  # the helpers did part of it: this process did less than alone
        assert 0 < shared[work] < alone[work], (work, shared, alone)
