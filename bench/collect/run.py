"""Benchmark: live collection of a 512-worker RLark job on two member clusters, 20 ms per request,
`rlark-bot diagnose` side by side with the walk a person does with kubectl, both against the same API stand-in.

Run from the repository root:  .venv/bin/python bench/collect/run.py  (writes bench/collect/RESULTS.md)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from cluster.standin import StandIn  # noqa: E402
from cluster.world import build_world  # noqa: E402

from bot.cluster.resources import PODS  # noqa: E402

JOB = "ppo-big"
WORKERS = {"gpu-a": 255, "gpu-b": 256}  # plus the Head: 512 pods
FAILING = {"gpu-b": 64}  # one node group's workers crash-looping (NCCL)
LATENCY = 0.020
KUBECTL = shutil.which("kubectl") or "/usr/bin/kubectl"


@dataclass
class Run:
    name: str
    seconds: float
    requests: int
    log_requests: int
    discovery: int
    nbytes: int
    commands: int = 0


def measure(api: StandIn, name: str, fn: Callable[[], object], commands: int = 0) -> Run:
    api.reset_log()
    started = time.monotonic()
    fn()
    seconds = time.monotonic() - started
    reqs = list(api.requests)
    discovery = [r for r in reqs if _is_discovery(r.path)]
    logs = [r for r in reqs if r.path.endswith("/log")]
    return Run(name, seconds, len(reqs), len(logs), len(discovery), sum(r.nbytes for r in reqs), commands)


def _is_discovery(path: str) -> bool:
    return path in ("/api", "/apis", "/version", "/api/v1") or (path.startswith("/apis/") and path.count("/") == 3)


def bot_diagnose(kubeconfig: Path) -> None:
    out = subprocess.run([str(REPO / ".venv" / "bin" / "rlark-bot"), "diagnose", f"job/{JOB}", "--kubeconfig",
                          str(kubeconfig), "--format", "json"], capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise SystemExit(f"rlark-bot diagnose failed ({out.returncode}): {out.stderr.strip()}")


def bot_collect_in_process(kubeconfig: Path) -> None:
    from bot.models import Target
    from bot.settings import Settings
    from bot.sources import LiveSource

    LiveSource(kubeconfig=str(kubeconfig), context=None, settings=Settings()).for_target(Target.parse(f"job/{JOB}"))


def kubectl_walk(kubeconfig: Path, home: Path) -> int:
    """What the runbook tells a person to do: the job, its tasks, pods by label, events, logs of failing pods."""
    env = {**os.environ, "KUBECONFIG": str(kubeconfig), "HOME": str(home)}
    commands = 0

    def k(*args: str) -> str:
        nonlocal commands
        commands += 1
        res = subprocess.run([KUBECTL, *args], env=env, capture_output=True, text=True, timeout=120)
        return res.stdout

    k("--context", "kcp", "get", "jobs.rlinf.io", JOB, "-o", "yaml")
    k("--context", "kcp", "get", "tasks.rlinf.io", "-A", "-l", f"rlinf.io/job={JOB}", "-o", "wide")
    tasks = {"gpu-a": [f"{JOB}-head", f"{JOB}-worker-gpu-a"], "gpu-b": [f"{JOB}-worker-gpu-b"]}
    for cluster, names in tasks.items():
        failing: list[str] = []
        for task in names:
            out = k("--context", cluster, "-n", "rlark-system", "get", "pods", "-l", f"app={task}",
                    "-o", "custom-columns=NAME:.metadata.name,RESTARTS:.status.containerStatuses[0].restartCount",
                    "--no-headers")
            failing += [line.split()[0] for line in out.splitlines() if line.split()[1:] and line.split()[1] != "0"]
        k("--context", cluster, "-n", "rlark-system", "get", "events", "--field-selector", "type=Warning")
        if cluster == "gpu-a":
            k("--context", cluster, "-n", "rlark-system", "logs", f"{JOB}-head-0", "-c", "main", "--tail", "2000")
        for pod in failing:
            k("--context", cluster, "-n", "rlark-system", "logs", pod, "-c", "main", "--previous", "--tail", "2000")
    return commands


def main() -> None:
    world = build_world(job=JOB, workers=WORKERS, failing=FAILING)
    pods = sum(len(world[c].objects.get(PODS, [])) for c in WORKERS)
    with StandIn(world) as api, tempfile.TemporaryDirectory() as tmp:
        kc = api.write_kubeconfig(Path(tmp) / "kubeconfig", {"kcp": "kcp", "gpu-a": "gpu-a", "gpu-b": "gpu-b"},
                                  current="kcp")
        home = Path(tmp) / "home"
        home.mkdir()
        api.latency = 0.0
        kubectl_walk(kc, home)  # warm kubectl's discovery cache and the page cache: fair to kubectl
        bot_diagnose(kc)
        api.latency = LATENCY
        runs = [measure(api, "`rlark-bot diagnose` (process, end to end)", lambda: bot_diagnose(kc)),
                measure(api, "live collection only (in process)", lambda: bot_collect_in_process(kc))]
        n_cmds = [0]
        walk = measure(api, "kubectl walk (warm discovery cache)",
                       lambda: n_cmds.__setitem__(0, kubectl_walk(kc, home)))
        walk.commands = n_cmds[0]
        runs.append(walk)
    write_results(runs, pods)


def write_results(runs: list[Run], pods: int) -> None:
    bot, walk = runs[0], runs[-1]
    bot_objects = bot.requests - bot.log_requests - bot.discovery
    lines = [
        "# Live collection benchmark",
        "",
        f"A RLark job of {pods} pods (Head + {sum(WORKERS.values())} workers) on two member clusters, "
        f"{sum(FAILING.values())} workers crash-looping, {int(LATENCY * 1000)} ms latency on every request of the "
        "API stand-in (`tests/cluster/standin.py`). Same stand-in, same run, for both sides. "
        f"kubectl: `{KUBECTL}`. Re-run: `.venv/bin/python bench/collect/run.py`.",
        "",
        "| run | wall time | requests (list/get) | log requests | discovery | bytes read | kubectl commands |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in runs:
        lines.append(f"| {r.name} | {r.seconds:.2f} s | {r.requests - r.log_requests - r.discovery} | "
                     f"{r.log_requests} | {r.discovery} | {r.nbytes / 1024 / 1024:.1f} MiB | {r.commands or ''} |")
    lines += [
        "",
        "Targets: under 2 s; at most 25 list/get requests plus at most 16 log requests whatever the worker "
        "count; at least 5x fewer requests and 3x less wall time than the kubectl walk.",
        "",
        f"- bot wall time: {bot.seconds:.2f} s ({'met' if bot.seconds < 2 else 'NOT met'})",
        f"- bot list/get requests: {bot_objects} (<= 25: {'met' if bot_objects <= 25 else 'NOT met'}); "
        f"log requests: {bot.log_requests} (<= 16: {'met' if bot.log_requests <= 16 else 'NOT met'})",
        f"- requests, kubectl walk / bot: {walk.requests / max(1, bot.requests):.1f}x "
        f"({'met' if walk.requests >= 5 * bot.requests else 'NOT met'}); without kubectl's discovery "
        f"requests: {(walk.requests - walk.discovery) / max(1, bot.requests):.1f}x",
        f"- wall time, kubectl walk / bot: {walk.seconds / max(0.001, bot.seconds):.1f}x "
        f"({'met' if walk.seconds >= 3 * bot.seconds else 'NOT met'})",
        "",
        "The kubectl walk: get the Job, its Tasks, pods by label per Task, Warning events per cluster, the Head's "
        "log and the previous `main` log of every crash-looping worker (what the runbook asks a person to look at). "
        "Discovery counts kubectl's `/api`, `/apis` and group-version requests, which it repeats per command against "
        "this server even with a warm cache directory.",
        "",
    ]
    (Path(__file__).parent / "RESULTS.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
