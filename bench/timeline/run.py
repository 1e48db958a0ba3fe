"""Timeline benchmark: `rlark-bot timeline` on the diagnosis benchmark's 1,001-pod job, PNG and text.

Input: the bundle `bench/engine/gen.py` writes (bench/out/engine-bundle: Job ppo-bench-1k, a Head and two
500-replica worker Tasks, ~205 MiB of logs, one worker restarted). Generated on first use (~2 min).

Measured, each in a fresh interpreter (median of RUNS):
  * the command end to end: `rlark-bot timeline ppo-bench-1k --snapshot DIR --output FILE.png`, wall time and
    peak RSS from `os.wait4`'s rusage of that child (its forked helpers included: the largest process's RSS);
  * the same with `--diagnose` (the engine runs too, for its first error);
  * its phases in one child that does what the command does (`bot.cli`'s imports and `build_runtime()`, then
    `read_bundle` of the kinds a timeline draws, each log visited as it is read (`StageVisitor`), `timeline_of`,
    `render_svg`, `rasterise`, `render_text`), with this process's peak RSS after reading the bundle and after
    the PNG, and the largest forked reader's.

Usage: .venv/bin/python bench/timeline/run.py [--runs 3]   (rewrites bench/timeline/RESULTS.md)
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BUNDLE = REPO / "bench" / "out" / "engine-bundle"
RESULTS = HERE / "RESULTS.md"
JOB = "ppo-bench-1k"
TARGET_S, TARGET_MIB = 2.0, 200.0
CLI = [sys.executable, "-m", "bot.cli"]  # what the installed `rlark-bot` runs, from this checkout
sys.path.insert(0, str(REPO))


def child(bundle: Path, out: Path) -> None:
    """In a fresh interpreter: what the command does, timed per phase."""
    import resource

    gc.disable()  # as `bot.launch` runs a bounded command
    t0 = time.perf_counter()
    import bot.cli  # noqa: F401  what the installed command imports before it parses its arguments
    from bot.bundle import read_bundle
    from bot.commands.common import build_runtime
    from bot.models import Target
    from bot.timeline import TIMELINE_KINDS, StageVisitor, render_svg, render_text, timeline_of, visits_of
    from bot.timeline.raster import rasterise

    rt = build_runtime()
    t1 = time.perf_counter()
    evidence = read_bundle(bundle, processes=rt.service.processes, kinds=TIMELINE_KINDS, visitor=StageVisitor())
    visits = visits_of(evidence.logs)
    t2 = time.perf_counter()
    rss_read = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rss_helpers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    assert evidence.captured_at is not None
    tl = timeline_of(evidence, Target.parse(JOB), now=evidence.captured_at, redactor=rt.redactor,
                     processes=rt.service.processes, visits=visits)
    t3 = time.perf_counter()
    svg = render_svg(tl, redactor=rt.redactor)
    t4 = time.perf_counter()
    png = rasterise(svg)
    t5 = time.perf_counter()
    rss_png = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    text = render_text(tl, redactor=rt.redactor)
    t6 = time.perf_counter()
    out.write_bytes(png)
    json.dump({"startup": t1 - t0, "read": t2 - t1, "build": t3 - t2, "svg": t4 - t3, "png": t5 - t4,
               "text": t6 - t5, "rss_read": rss_read, "rss_png": rss_png, "rss_helpers": rss_helpers,
               "svg_chars": len(svg),
               "png_bytes": len(png), "rows": len(tl.rows), "text_lines": len(text.splitlines()),
               "text_tail": text.splitlines()[-4:]}, sys.stdout)
    sys.stdout.flush()


def worst_case() -> dict[str, Any]:
    """The largest picture: 1,001 pods that all restarted (none folds for being healthy), drawn from model rows,
    in this process (fresh: nothing else ran in it yet). Best of 3."""
    import resource
    from datetime import timedelta

    from bot.commands.common import build_runtime
    from bot.timeline import render_svg
    from bot.timeline.model import Mark, MarkKind, Phase, Row, Segment, Span, Timeline
    from bot.timeline.raster import rasterise

    t0 = datetime(2026, 11, 20, 3, 0, tzinfo=UTC)
    end = t0 + timedelta(hours=5)
    rows = []
    for i in range(1001):
        up, gone = t0 + timedelta(seconds=40 + i % 90), t0 + timedelta(minutes=60 + i % 180)
        seg = Segment(uid=f"u{i}", restarts=1, node=f"gpu-a-node-{i:03d}",
                      spans=[Span(Phase.CREATING, t0, up), Span(Phase.RUNNING, up, gone),
                             Span(Phase.WAITING, gone, gone + timedelta(seconds=20)),
                             Span(Phase.RUNNING, gone + timedelta(seconds=20), end)],
                      marks=[Mark(MarkKind.RESTART, gone, "exit 1 Error"), Mark(MarkKind.STAGE, up, "run-script")])
        rows.append(Row(name=f"{JOB}-rollout-{i}", role="head" if i == 0 else f"rollout-{'ab'[i % 2]}",
                        segments=[seg]))
    tl = Timeline(target=f"job/{JOB}", start=t0, end=end, rows=rows)
    redactor = build_runtime().redactor  # as the command's: its rules' database from the on-disk cache
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    times, cpu = [], []
    for _ in range(3):
        s0, c0 = time.perf_counter(), time.process_time()
        png = rasterise(render_svg(tl, redactor=redactor))
        times.append(time.perf_counter() - s0)
        cpu.append(time.process_time() - c0)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"seconds": min(times), "cpu": min(cpu), "added_mib": after - before, "size": png_size(png),
            "png_bytes": len(png)}


def _wait(cmd: list[str]) -> tuple[float, float, bytes, float]:
    """(wall seconds, peak RSS MiB, stdout, CPU seconds: user + system, the helpers it waited for included)."""
    with tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        proc = subprocess.Popen(cmd, stdout=out, cwd=REPO, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{cmd[0]} failed with exit status {os.waitstatus_to_exitcode(status)}")
        out.seek(0)
        return wall, usage.ru_maxrss / 1024, out.read(), usage.ru_utime + usage.ru_stime


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--worst", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.child, args.out)
        return 0
    if args.worst:
        json.dump(worst_case(), sys.stdout)
        return 0
    if not (BUNDLE / "snapshot.yaml").exists():
        subprocess.run([sys.executable, str(REPO / "bench" / "engine" / "gen.py"), str(BUNDLE)], check=True)
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        png_file = Path(tmp) / "timeline.png"
        _wait([*CLI, "timeline", JOB, "--snapshot", str(BUNDLE), "--output", str(png_file)])  # warm the cache
        ends = [_wait([*CLI, "timeline", JOB, "--snapshot", str(BUNDLE), "--output", str(png_file)])
                for _ in range(args.runs)]
        size = png_size(png_file.read_bytes())
        diagnosed = [_wait([*CLI, "timeline", JOB, "--snapshot", str(BUNDLE), "--output", str(png_file),
                            "--diagnose"]) for _ in range(args.runs)]
        phases = [json.loads(_wait([sys.executable, str(Path(__file__)), "--child", str(BUNDLE), "--out",
                                    str(png_file)])[2]) for _ in range(args.runs)]
        worst = json.loads(_wait([sys.executable, str(Path(__file__)), "--worst"])[2])
    load_after = os.getloadavg()[0]
    write(ends, phases, size=size, load=(load_before, load_after), worst=worst, diagnosed=diagnosed)
    sys.stdout.write(RESULTS.read_text(encoding="utf-8"))
    return 0


def _med(values: list[float]) -> float:
    return statistics.median(values)


def write(ends: list[tuple[float, float, bytes, float]], phases: list[dict[str, Any]], *, size: tuple[int, int],
          load: tuple[float, float], worst: dict[str, Any], diagnosed: list[tuple[float, float, bytes, float]]) -> None:
    wall, rss = _med([e[0] for e in ends]), max(e[1] for e in ends)
    ph = {k: _med([p[k] for p in phases]) for k in ("startup", "read", "build", "svg", "png", "text", "rss_read",
                                                      "rss_png", "rss_helpers")}
    picture_s = ph["build"] + ph["svg"] + ph["png"]
    added = max(p["rss_png"] - p["rss_read"] for p in phases)
    met = {True: "met", False: "**MISSED**"}
    p0 = phases[0]
    rows = [
        ("`rlark-bot timeline ... --output FILE.png`, end to end (median)", f"{wall:.2f} s", f"< {TARGET_S:.0f} s",
         met[wall < TARGET_S]),
        ("runs (wall); CPU, user + system, median", ", ".join(f"{e[0]:.2f}" for e in ends) + " s; "
         f"{_med([e[3] for e in ends]):.2f} s CPU", "", ""),
        ("the same with `--diagnose` (the diagnosis's first error): median, peak RSS",
         f"{_med([e[0] for e in diagnosed]):.2f} s ({_med([e[3] for e in diagnosed]):.2f} s CPU), "
         f"{max(e[1] for e in diagnosed):.0f} MiB", "", ""),
        ("peak RSS of the command (max of runs)", f"{rss:.0f} MiB", f"< {TARGET_MIB:.0f} MB", met[rss < TARGET_MIB]),
        ("of which the evidence (peak after reading the kinds a timeline draws); the largest forked reader",
         f"{ph['rss_read']:.0f} MiB; {ph['rss_helpers']:.0f} MiB", "", ""),
        ("the picture: build + SVG + PNG from the evidence in memory (median)", f"{picture_s:.2f} s",
         f"< {TARGET_S:.0f} s", met[picture_s < TARGET_S]),
        ("memory the picture adds to the peak (max of runs)", f"{added:.0f} MiB", f"< {TARGET_MIB:.0f} MB",
         met[added < TARGET_MIB]),
        ("start-up / read / build / SVG / PNG / text", " / ".join(f"{ph[k]:.2f}" for k in
                                                                   ("startup", "read", "build", "svg", "png", "text"))
         + " s", "", ""),
        ("PNG", f"{size[0]} x {size[1]} px, {p0['png_bytes'] / 1024:.0f} KiB (SVG {p0['svg_chars'] / 1024:.0f} KiB)",
         ">= 800 wide, <= 4000 px", met[size[0] >= 800 and max(size) <= 4000]),
        ("the largest picture: 1,001 pods all restarted (model rows; 100 drawn, the rest folded): SVG + PNG, best "
         "of 3", f"{worst['seconds']:.2f} s ({worst['cpu']:.2f} s CPU), adds {worst['added_mib']:.0f} MiB, "
         f"{worst['size'][0]} x {worst['size'][1]} px, {worst['png_bytes'] / 1024:.0f} KiB",
         f"< {TARGET_S:.0f} s, < {TARGET_MIB:.0f} MB",
         met[worst["seconds"] < TARGET_S and worst["added_mib"] < TARGET_MIB]),
    ]
    table = "\n".join(f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows)
    tail = "\n".join(p0["text_tail"])
    RESULTS.write_text(f"""# Timeline benchmark

Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by `bench/timeline/run.py` (this file is rewritten by it).

Input: the diagnosis benchmark's bundle (`bench/engine/gen.py`, seed 1): Job `{JOB}`, {p0['rows']} pods (a Head,
two 500-replica worker Tasks), ~205 MiB of logs; one worker restarted. Machine: {os.cpu_count()} CPUs,
Python {platform.python_version()}; 1-minute load average {load[0]:.1f} before, {load[1]:.1f} after (a shared
machine: wall times grow with the load).

| measure | value | target | |
|---|---|---|---|
{table}

The command reads only the kinds a timeline is drawn from (the Job, Tasks, Pod mirrors, Pods and events: not the
Nodes, claims, leases or pools) and each log once, in the bundle reader: a log's wrapper stages are found (one
Hyperscan pass for which markers it holds) while the reader holds its text, in forked helpers forked before the
objects are read when the logs pass 32 MiB (largest first), so no large log is held next to every object; only the
first error of the few failing pods is read again. `--diagnose` reads everything, as `diagnose` does. The picture
draws the Head and the eventful pods one row each and folds the healthy ones into one row per role and phase; the
text form ends:

```
{tail}
```
""", encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
