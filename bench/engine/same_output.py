"""Every bundled example and scenario diagnosed by the installed command, one output file per bundle and format.

A change meant to make the engine faster must not change one byte of what it says. Run this on the code before
and after the change, then compare the two directories:

    .venv/bin/python bench/engine/same_output.py bench/out/outputs-before
    ... change the code ...
    .venv/bin/python bench/engine/same_output.py bench/out/outputs-after
    diff -r bench/out/outputs-before bench/out/outputs-after

Each bundle is diagnosed in a fresh process (`bot.launch.run`, as `rlark-bot diagnose` does) with `--format json`
and `--format text`; the exit status is written next to the output. `--engine` adds the engine benchmark's
generated bundle (bench/out/engine-bundle).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
LAUNCH = "from bot.launch import run; run()"


def bundles(with_engine: bool) -> list[tuple[str, Path, list[str]]]:
    """(name, bundle directory, diagnose arguments after the target's place) for every bundle with a target."""
    out: list[tuple[str, Path, list[str]]] = []
    for d in sorted((REPO / "examples").iterdir()):
        target = d / "TARGET"
        if target.is_file():
            out.append((f"examples-{d.name}", d, [target.read_text(encoding="utf-8").strip()]))
    for exp_file in sorted((REPO / "tests" / "scenarios").glob("*/expect.yaml")):
        exp = yaml.safe_load(exp_file.read_text(encoding="utf-8"))
        args = [str(exp["target"])]
        if exp.get("namespace"):
            args += ["--namespace", str(exp["namespace"])]
        if exp.get("now"):
            args += ["--now", str(exp["now"])]
        out.append((f"scenario-{exp_file.parent.name}", exp_file.parent / "bundle", args))
    engine = REPO / "bench" / "out" / "engine-bundle"
    if with_engine and (engine / "snapshot.yaml").is_file():
        out.append(("engine-bundle", engine, ["job/ppo-bench-1k"]))
    return out


def diagnose(name: str, bundle: Path, args: list[str], fmt: str, dest: Path) -> None:
    cmd = [sys.executable, "-c", LAUNCH, "diagnose", args[0], "--snapshot", str(bundle), *args[1:], "--format", fmt]
    proc = subprocess.run(cmd, capture_output=True, cwd=REPO, check=False)
    (dest / f"{name}.{fmt}").write_bytes(proc.stdout)
    (dest / f"{name}.{fmt}.status").write_text(f"{proc.returncode}\n{proc.stderr.decode(errors='replace')}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dest", type=Path)
    ap.add_argument("--engine", action="store_true", help="also the engine benchmark's generated bundle")
    ap.add_argument("-j", type=int, default=2, help="processes at once")
    args = ap.parse_args()
    args.dest.mkdir(parents=True, exist_ok=True)
    work = [(n, b, a, fmt) for n, b, a in bundles(args.engine) for fmt in ("json", "text")]
    with ThreadPoolExecutor(args.j) as pool:
        list(pool.map(lambda w: diagnose(*w, args.dest), work))
    print(f"{len(work)} outputs in {args.dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
