"""Benchmark: preflight of a 20-task Job against an inventory of 5,000 RLark Nodes in 50 clusters.

Reproduce with `.venv/bin/python bench/preflight/run.py` (generates the bundle first; `--write` rewrites
bench/preflight/RESULTS.md). Measures the installed command in a fresh process (median of 3) against the bundle
and against the Kubernetes API stand-in serving the same inventory (requests per cluster and kind), and the
in-process split: parsing the YAML, reading the inventory, the rules.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from cluster.standin import StandIn, load_bundle  # noqa: E402

from bench.preflight.gen import generate  # noqa: E402
from bot.bundle.files import load_list  # noqa: E402
from bot.cluster import resources  # noqa: E402

CLUSTERS, NODES, TASKS = 50, 100, 20
RLARK_BOT = str(Path(sys.executable).with_name("rlark-bot"))
NOW = "2026-12-03T08:00:00Z"


def _role(i: int) -> dict[str, Any]:
    head = i == 0
    agent = f"gpu-{i:02d}"
    sel = {"kubernetes.io/hostname": f"{agent}-node-000"} if head else {"rlinf.io/pool": agent, "rlinf.io/gpu": "a100"}
    claim = f"bench-ckpt-{i}"
    main = {"name": "main", "image": "reg.example.com/rlinf:0.4.2",
            "resources": {"requests": {"cpu": "16", "memory": "64Gi", "nvidia.com/gpu": "4"},
                          "limits": {"nvidia.com/gpu": "4"}},
            "volumeMounts": [{"name": "ckpt", "mountPath": "/ckpt"}]}
    volume = {"name": "ckpt", "persistentVolumeClaim": {"claimName": claim}} if head else {"name": "ckpt",
                                                                                            "emptyDir": {}}
    workload = {"kind": "StatefulSet", "replicas": 1 if head else 4,
                "pvcStorageMap": {claim: "rclone-oss"} if head else {},
                "template": {"spec": {"containers": [main], "volumes": [volume]}}}
    out: dict[str, Any] = {"name": "actor" if head else f"rollout-{i:02d}", "head": head,
                           "role": "Actor" if head else "Rollout", "agentType": "Kubernetes", "nodeSelector": sel,
                           "kubernetes": {"workload": workload}}
    if head:
        out["runScript"] = "mkdir -p /ckpt/run && python train.py --output_dir /ckpt/run > /ckpt/run/train.log"
    return out


def job(tasks: int = TASKS) -> dict[str, Any]:
    """A 20-task Job: a Head pinned to one Node, 19 roles on one cluster's pool each, GPUs, a claim, scripts."""
    return {"apiVersion": "rlinf.io/v1alpha1", "kind": "Job", "metadata": {"name": "bench-preflight-0001"},
            "spec": {"domain": "robotics", "tasks": [_role(i) for i in range(tasks)]}}


CPU: dict[str, float] = {}  # median CPU seconds (user + system) of the last measured command, by its first args


def fresh(argv: list[str], runs: int = 3) -> tuple[float, int, str]:
    """Median wall time of the installed command in a fresh process; its median CPU time goes to CPU."""
    times: list[float] = []
    cpu: list[float] = []
    status, out = 0, ""
    for _ in range(runs):
        started = time.perf_counter()
        with subprocess.Popen([RLARK_BOT, *argv], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True) as proc:
            assert proc.stdout is not None
            out = proc.stdout.read()
            _, wait_status, usage = os.wait4(proc.pid, 0)  # this command's own CPU time, nothing else's
            proc.returncode = os.waitstatus_to_exitcode(wait_status)
        times.append(time.perf_counter() - started)
        cpu.append(usage.ru_utime + usage.ru_stime)
        status = proc.returncode
    CPU[" ".join(argv[:2])] = statistics.median(cpu)
    return statistics.median(times), status, out


def in_process(job_file: Path, bundle: Path) -> dict[str, float]:
    from bot.preflight.document import parse, read_input
    from bot.preflight.inventory_bundle import read_inventory
    from bot.preflight.run import preflight
    from bot.redact import Redactor
    from bot.settings import Thresholds

    redactor = Redactor()
    redactor.scan("warm up")  # the prefilter compiles on first use here (the command loads it from its cache)
    t0 = time.process_time()  # CPU time: the machine is shared, so wall time in process says more about the load
    doc = parse(*read_input(str(job_file)))
    t1 = time.process_time()
    inv = read_inventory(bundle)
    t2 = time.process_time()
    report = preflight(doc, inventory=inv, thresholds=Thresholds(), scan=redactor.scan)
    t3 = time.process_time()
    assert report.ready, [f.message for f in report.findings]
    return {"parse": t1 - t0, "inventory": t2 - t1, "rules": t3 - t2}


def live(job_file: Path, bundle: Path, *, tmp: Path) -> tuple[float, int, Counter[tuple[str, str]], str]:
    clusters = load_bundle(bundle)
    for agent in clusters:
        path = bundle / agent / "storageclasses.storage.k8s.io.json"
        if path.is_file():
            for obj in load_list(path, str(path)):
                clusters[agent].add(resources.STORAGECLASSES, obj)
    with StandIn(clusters) as api:
        kubeconfig = api.write_kubeconfig(tmp / "kubeconfig", {c: c for c in clusters}, current="kcp")
        api.reset_log()
        wall, _, out = fresh(["preflight", str(job_file), "--kubeconfig", str(kubeconfig), "--format", "json",
                                   "--now", NOW], runs=1)
        lists = Counter((r.cluster if r.cluster == "kcp" else "member", r.path.rsplit("/", 1)[-1])
                        for r in api.requests if "continue" not in r.query)
        return wall, len(api.requests), lists, out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--write", action="store_true", help="rewrite bench/preflight/RESULTS.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rlark-preflight-bench-") as tmpdir:
        tmp = Path(tmpdir)
        bundle = tmp / "inventory"
        generate(bundle, clusters=CLUSTERS, nodes=NODES)
        job_file = tmp / "job.yaml"
        job_file.write_text(yaml.safe_dump(job(), sort_keys=False), encoding="utf-8")
        baseline, _, _ = fresh(["redact", "/dev/null"])  # the command's start-up and exit alone
        wall, status, out = fresh(["preflight", str(job_file), "--snapshot", str(bundle), "--format", "json"])
        snap_cpu = CPU[f"preflight {job_file}"]
        offline, st_off, _ = fresh(["preflight", str(job_file), "--offline"])
        off_cpu = CPU[f"preflight {job_file}"]
        doc = json.loads(out)
        split = in_process(job_file, bundle)
        live_wall, requests, lists, live_out = live(job_file, bundle, tmp=tmp)
        live_cpu = CPU[f"preflight {job_file}"]
    assert st_off == 0 and status == 0 and doc["ready"] and doc["inventory"]["nodes"] == CLUSTERS * NODES
    assert json.loads(live_out)["findings"] == doc["findings"]
    rows = [
        ("start-up and exit alone (`rlark-bot redact /dev/null`), fresh process (median of 3): wall / CPU",
         f"{baseline:.2f} s / {CPU['redact /dev/null']:.2f} s", ""),
        ("`rlark-bot preflight` offline, fresh process (median of 3): wall / CPU",
         f"{offline:.2f} s / {off_cpu:.2f} s", ""),
        ("`rlark-bot preflight --snapshot` (5,000 Nodes, 50 clusters), fresh process (median of 3): wall / CPU",
         f"{wall:.2f} s / {snap_cpu:.2f} s", "< 1 s: " + ("met" if wall < 1 else "missed")),
        ("in process, CPU: parse / inventory / rules (all)", " / ".join(f"{split[k] * 1000:.0f} ms" for k in (
            "parse", "inventory", "rules")) + f" ({sum(split.values()) * 1000:.0f} ms)", ""),
        ("live against the API stand-in (its server in this process), fresh process: wall / CPU",
         f"{live_wall:.2f} s / {live_cpu:.2f} s", ""),
        ("live requests (pages included)", str(requests), ""),
        ("live lists: control plane nodes / leases / jobs / domains; StorageClasses per member",
         f"{lists[('kcp', 'nodes')]} / {lists[('kcp', 'leases')]} / {lists[('kcp', 'jobs')]} / "
         f"{lists[('kcp', 'domains')]}; {lists[('member', 'storageclasses')]} for {CLUSTERS}",
         "one list per kind per cluster: " + ("met" if max(lists.values()) == 1 or
                                             lists[("member", "storageclasses")] == CLUSTERS else "missed")),
    ]
    table = "| measure | result | target |\n|---|---|---|\n" + "".join(f"| {a} | {b} | {c} |\n" for a, b, c in rows)
    print(table)
    if args.write:
        load = os.getloadavg()
        (Path(__file__).parent / "RESULTS.md").write_text(
            f"# Preflight benchmark\n\n{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()}, "
            f"{os.cpu_count()} CPUs, load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, Python "
            f"{platform.python_version()}.\n\nA {TASKS}-task Job (bench/preflight/run.py `job()`) against a "
            f"generated bundle of {CLUSTERS} member clusters x {NODES} RLark Nodes, fresh heartbeats, 300 existing "
            "Jobs, two Domains and every member's StorageClasses (bench/preflight/gen.py). The answer is checked: "
            "ready, every Node read, the live answer equal to the bundle's.\n\n" + table, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
