"""Benchmark: the tick cost of 200 watched RLark Jobs on one replica, read live from the Kubernetes API stand-in
(tests/cluster/standin.py) through the real `kubernetes` client, with and without the glance.

One control plane (`kcp`) and one member cluster (`gpu-a`) hold 200 Jobs (a Head and 2 workers each,
tests/cluster/world.py), each request answered after LATENCY seconds. 200 `/rlark watch` asks (one per Job, in
10 channels) are made through the bot's composition root (`bot.process.root.build`) with the real WebClient
against the Slack Web API stand-in; looks run in the ticking process (`LocalEngine`), four at a time in threads.
Then watch ticks, each measured for wall time and Kubernetes requests:

- `RLARK_BOT_WATCH__FULL_LOOK_TICKS=1`: every tick a full look at every Job (what a tick was before the glance;
  the glances' fingerprints were kept when each watch started);
- `RLARK_BOT_WATCH__FULL_LOOK_TICKS=5` (the default): a glance at every Job, a full look at the fifth of them
  whose turn it is; over five ticks, every Job had one full look;
- one Job of the 200 failed (its phase changed): its glance differs, it alone gets a full look out of turn.

    .venv/bin/python bench/slack/watch_live.py      (writes bench/slack/WATCH_LIVE.md)
"""

from __future__ import annotations

import os
import platform
import resource
import socket
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
for p in (REPO, REPO / "tests"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from cluster.standin import ClusterData, StandIn  # noqa: E402
from cluster.world import build_world  # noqa: E402
from slack.apphost import EVERYWHERE, CountingPool, make_settings  # noqa: E402
from slack.standin import SlackStandIn  # noqa: E402

from bot.cluster import resources as R  # noqa: E402
from bot.conversations.diagnosis import Ask  # noqa: E402
from bot.conversations.watch import run_watch  # noqa: E402
from bot.conversations.watching import WatchTicker  # noqa: E402
from bot.models import Target  # noqa: E402
from bot.obs.metrics import Metrics  # noqa: E402
from bot.process.root import build  # noqa: E402
from bot.redact import Redactor  # noqa: E402
from bot.runbook import load_runbook  # noqa: E402
from bot.service import Service  # noqa: E402
from bot.signals.names import SIGNALS  # noqa: E402
from bot.sources import LiveSource  # noqa: E402
from bot.store.base import Store  # noqa: E402
from bot.store.factory import open_store  # noqa: E402
from bot.store.memory import MemoryStore  # noqa: E402
from bot.workers.local import LocalEngine  # noqa: E402

JOBS = int(os.environ.get("WATCH_BENCH_JOBS", "200"))
LATENCY = float(os.environ.get("WATCH_BENCH_LATENCY", "0.005"))
CHANNELS = [f"C0WATCH{i:02d}" for i in range(10)]  # 20 watches per channel: the default bound
EVERY = 5


def world() -> dict[str, ClusterData]:
    """200 Jobs on one control plane and one member cluster; the shared Nodes and agent Lease once each."""
    out = {"kcp": ClusterData(), "gpu-a": ClusterData()}
    seen: set[tuple[str, str, str]] = set()
    for i in range(JOBS):
        for cluster, data in build_world(job=f"ppo-w-{i:03d}", workers={"gpu-a": 2}).items():
            for res, objs in data.objects.items():
                for obj in objs:
                    meta = obj.get("metadata") or {}
                    key = (res.stem, str(meta.get("namespace", "")), str(meta.get("name", "")))
                    if res in (R.NODES, R.RLARK_NODES, R.LEASES) and key in seen:
                        continue
                    seen.add(key)
                    out[cluster].add(res, obj)
            out[cluster].logs.update(data.logs)
    for lease in out["kcp"].objects[R.LEASES]:  # the agent stays connected however long the benchmark runs
        lease["spec"]["renewTime"] = "2099-01-01T00:00:00.000000Z"
    return out


def store() -> tuple[Store, str]:
    with socket.socket() as s:
        s.settimeout(0.3)
        if s.connect_ex(("127.0.0.1", 6379)) == 0:
            prefix = f"rlark-bench-watch-live:{os.getpid()}:"
            return open_store(url="redis://127.0.0.1:6379/0", data_dir=Path("."), prefix=prefix), \
                "the local Redis (redis://127.0.0.1:6379/0)"
    return MemoryStore(), "in memory (no Redis on 127.0.0.1:6379)"


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    rows: list[str] = []
    clusters = world()
    with tempfile.TemporaryDirectory() as tmp, SlackStandIn() as slack, StandIn(clusters, latency=LATENCY) as api:
        kubeconfig = api.write_kubeconfig(Path(tmp) / "kubeconfig", {"kcp": "kcp", "gpu-a": "gpu-a"}, current="kcp")
        settings = make_settings(channels={c: EVERYWHERE for c in CHANNELS}, base_url=slack.base_url,
                                 bot_token=slack.token,
                                 extra={"control_plane_context": "kcp", "watch": {"full_look_ticks": EVERY}})
        redactor = Redactor(settings.redaction_with_own_secrets())
        service = Service(settings=settings, redactor=redactor, runbook=load_runbook(known_signals=SIGNALS))
        source = LiveSource(kubeconfig=str(kubeconfig), context=None, settings=settings)
        engine = LocalEngine(service=service, source=source, redactor=redactor)
        kv, where = store()
        process = build(settings=settings, redactor=redactor, service=service, source=source, store=kv,
                        metrics=Metrics(process=False), pool=CountingPool(4), socket_mode=False, host="127.0.0.1",
                        port=0, engine=engine)
        deps = process.deps
        api.reset_log()
        start = time.perf_counter()
        for i in range(JOBS):
            ask = Ask(channel=CHANNELS[i % len(CHANNELS)], user="U0BENCH",
                      target=Target.parse(f"job/ppo-w-{i:03d}"), lang="en")
            assert run_watch(deps, ask) == "watching"
        rows.append(f"| {JOBS} `/rlark watch` (first full look + root each) | {time.perf_counter() - start:.1f} | "
                    f"{JOBS} | 0 | {len(api.requests)} | |")
        ticker = WatchTicker(deps)
        t0 = time.time()

        def tick(label: str) -> tuple[float, int]:
            nonlocal t0
            api.reset_log()
            report = ticker.run(t0)
            t0 += ticker.interval
            assert report.ran and not report.failed, report
            reqs = list(api.requests)
            logs = sum(1 for r in reqs if r.path.endswith("/log"))
            by = Counter(r.cluster for r in reqs)
            rows.append(f"| {label} | {report.seconds:.2f} | {report.looks} | {report.glances} | {len(reqs)} "
                        f"({logs} logs; " + ", ".join(f"{c} {n}" for c, n in sorted(by.items())) + ") | "
                        f"{report.replies} |")
            return report.seconds, len(reqs)

        deps.settings.watch.full_look_ticks = 1
        tick("first tick (stage and cases as at the watch's start: nothing to say)")
        before = [tick("nothing changed, `FULL_LOOK_TICKS=1`: a full look at every Job") for _ in range(2)]
        deps.settings.watch.full_look_ticks = EVERY
        after = [tick(f"nothing changed, `FULL_LOOK_TICKS={EVERY}`: glances, full looks on their turn")
                 for _ in range(EVERY)]
        job = next(o for o in clusters["kcp"].objects[R.JOBS] if o["metadata"]["name"] == "ppo-w-007")
        job["status"]["phase"] = "Failed"
        tick("one Job failed: its glance differs, its full look out of turn, the ending posted")
        kv.close()
        per_before = sum(s for s, _ in before) / len(before), sum(n for _, n in before) / len(before)
        per_after = sum(s for s, _ in after) / len(after), sum(n for _, n in after) / len(after)
    header = ("| tick | wall s | full looks | glances | Kubernetes requests | replies |\n"
              "|---|---|---|---|---|---|")
    out = (f"# Watch benchmark, live reads\n\nMachine: {platform.machine()}, {os.cpu_count()} cores, Python "
           f"{platform.python_version()}, load average {os.getloadavg()[0]:.1f} at the end (the machine is shared). "
           f"Store: {where}. Run `.venv/bin/python bench/slack/watch_live.py`.\n\n"
           f"Method: {JOBS} RLark Jobs (a Head and 2 workers each) on a control plane and one member cluster "
           f"served by the Kubernetes API stand-in ({LATENCY * 1000:.0f} ms per request), read through the real "
           f"`kubernetes` client; {JOBS} watches in {len(CHANNELS)} channels, one replica, looks in the ticking "
           f"process, four at a time.\n\n{header}\n" + "\n".join(rows) + "\n\n"
           f"A nothing-changed tick, averaged: {per_before[0]:.2f} s and {per_before[1]:.0f} requests with a full "
           f"look every tick; {per_after[0]:.2f} s and {per_after[1]:.0f} requests with `FULL_LOOK_TICKS={EVERY}` "
           f"(over {EVERY} ticks, so each Job's one full look is included). Peak RSS {rss_mb():.0f} MB.\n")
    (REPO / "bench" / "slack" / "WATCH_LIVE.md").write_text(out, encoding="utf-8")
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
