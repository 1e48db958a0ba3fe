"""Benchmark: 200 watched RLark Jobs on one replica. The bot's composition root (`bot.process.root.build`) over a
bundle of 200 Jobs (tests/scenariogen: a Head and 2 workers each), the real WebClient against the Slack Web API
stand-in, the store on the local Redis when 127.0.0.1:6379 answers (else in memory). Diagnoses run in the
ticking process (`LocalEngine`), four at a time in threads: one interpreter, where `serve` uses worker processes.

200 `/rlark watch` asks make 200 watches (each: one first look, one root). Then three watch ticks: nothing
changed; every Job's stage advanced; every Job succeeded. Each tick: wall time, looks (target reads), Slack Web
API calls by method, replies posted. Writes bench/slack/WATCH.md.

    .venv/bin/python bench/slack/watch.py
"""

from __future__ import annotations

import gc
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

from slack.apphost import EVERYWHERE, CountingPool, make_settings  # noqa: E402
from slack.scripted import ScriptedEngine  # noqa: E402
from slack.standin import SlackStandIn  # noqa: E402

from bot.conversations.diagnosis import Ask  # noqa: E402
from bot.conversations.watch import run_watch  # noqa: E402
from bot.conversations.watching import WatchTicker  # noqa: E402
from bot.diagnose import Diagnosis  # noqa: E402
from bot.models import Target  # noqa: E402
from bot.obs.metrics import Metrics  # noqa: E402
from bot.process.root import build  # noqa: E402
from bot.redact import Redactor  # noqa: E402
from bot.runbook import load_runbook  # noqa: E402
from bot.service import Service  # noqa: E402
from bot.signals.names import SIGNALS  # noqa: E402
from bot.sources import BundleSource, Location  # noqa: E402
from bot.store.base import Store  # noqa: E402
from bot.store.factory import open_store  # noqa: E402
from bot.store.memory import MemoryStore  # noqa: E402
from bot.workers.local import LocalEngine  # noqa: E402
from tests.scenariogen.rlark import Scenario, fill_healthy_logs, standard_job  # noqa: E402

JOBS = int(os.environ.get("WATCH_BENCH_JOBS", "200"))
CHANNELS = [f"C0WATCH{i:02d}" for i in range(10)]  # 20 watches per channel: the default bound


class CollectingEngine(ScriptedEngine):
    """Garbage collected after each look, as each diagnosis worker process does after each task."""

    def diagnose(self, target: Target) -> Diagnosis:
        try:
            return super().diagnose(target)
        finally:
            gc.collect()


def bundles(root: Path) -> dict[str, Path]:
    """One bundle per Job (a Head and 2 workers): a look reads that Job's objects only, as a live read does."""
    out: dict[str, Path] = {}
    for i in range(JOBS):
        name = f"ppo-watch-{i:03d}"
        sc = Scenario(name, root=root)
        sc.cluster("gpu-a")
        fill_healthy_logs(standard_job(sc, name, workers=2, age_min=60), steps=5)
        out[name] = sc.write()
    return out


class Router:
    """The engine of each Job's own bundle, by the target's name."""

    def __init__(self, engines: dict[str, LocalEngine]) -> None:
        self.engines = engines

    def locate(self, target: Target) -> Location:
        return self.engines[target.name].locate(target)

    def diagnose(self, target: Target) -> Diagnosis:
        return self.engines[target.name].diagnose(target)

    def glance(self, target: Target) -> str:
        return self.engines[target.name].glance(target)


def store() -> tuple[Store, str]:
    with socket.socket() as s:
        s.settimeout(0.3)
        if s.connect_ex(("127.0.0.1", 6379)) == 0:
            prefix = f"rlark-bench-watch:{os.getpid()}:"
            return open_store(url="redis://127.0.0.1:6379/0", data_dir=Path("."), prefix=prefix), \
                "the local Redis (redis://127.0.0.1:6379/0)"
    return MemoryStore(), "in memory (no Redis on 127.0.0.1:6379)"


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def calls(slack: SlackStandIn, since: int) -> tuple[int, str]:
    made = slack.calls()[since:]
    by = Counter(c.method for c in made)
    return len(made), ", ".join(f"{m} {n}" for m, n in sorted(by.items())) or "none"


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp, SlackStandIn() as slack:
        paths = bundles(Path(tmp))
        print(f"bundle written, peak RSS {rss_mb():.0f} MB", flush=True)
        settings = make_settings(channels={c: EVERYWHERE for c in CHANNELS}, base_url=slack.base_url,
                                 bot_token=slack.token)
        redactor = Redactor(settings.redaction_with_own_secrets())
        service = Service(settings=settings, redactor=redactor, runbook=load_runbook(known_signals=SIGNALS))
        router = Router({name: LocalEngine(service=service, source=BundleSource(path), redactor=redactor)
                         for name, path in paths.items()})
        engine = CollectingEngine(router, cache=False)  # type: ignore[arg-type]
        kv, where = store()
        first = router.engines["ppo-watch-000"].source
        process = build(settings=settings, redactor=redactor, service=service, source=first, store=kv,
                        metrics=Metrics(process=False), pool=CountingPool(4), socket_mode=False, host="127.0.0.1",
                        port=0, engine=engine)
        deps = process.deps
        rows: list[str] = []
        start, before = time.perf_counter(), len(slack.calls())
        for i in range(JOBS):
            ask = Ask(channel=CHANNELS[i % len(CHANNELS)], user="U0BENCH",
                      target=Target.parse(f"job/ppo-watch-{i:03d}"), lang="en")
            assert run_watch(deps, ask) == "watching"
        made, by = calls(slack, before)
        rows.append(f"| {JOBS} `/rlark watch` (first look + root each) | {time.perf_counter() - start:.1f} | {JOBS} | "
                    f"{made} ({by}) | {JOBS} roots | {rss_mb():.0f} |")
        ticker = WatchTicker(deps)
        t0 = time.time()
        for label, move in (("tick: nothing changed", {}), ("tick: every stage advanced", {"stage": "run-script"}),
                            ("tick: every Job succeeded", {"stage": "training-signal", "phase": "Succeeded"})):
            engine.move(**move)  # type: ignore[arg-type]
            before = len(slack.calls())
            report = ticker.run(t0)
            t0 += ticker.interval
            made, by = calls(slack, before)
            per = report.seconds / max(1, report.looks) * 1000
            rows.append(f"| {label} | {report.seconds:.1f} ({per:.0f} ms per look, amortized) | {report.looks} | "
                        f"{made} ({by}) | {report.replies} replies | {rss_mb():.0f} |")
        kv.close()
    header = ("| step | wall s | full looks | Slack Web API calls | posted | peak RSS MB |\n"
              "|---|---|---|---|---|---|")
    out = (f"# Watch benchmark\n\nMachine: {platform.machine()}, {os.cpu_count()} cores, Python "
           f"{platform.python_version()}, load average {os.getloadavg()[0]:.1f} at the end (the machine is shared). "
           f"Store: {where}. Run `.venv/bin/python bench/slack/watch.py`.\n\n"
           f"Method: {JOBS} RLark Jobs (a Head and 2 workers each), each in a bundle of its own; {JOBS} watches in "
           f"{len(CHANNELS)} channels; each tick glances at every Job (its bundle's files, and the stage and phase "
           f"the benchmark set) and takes a full look, a diagnosis of the Job (its objects and logs read from "
           f"its bundle), where the glance moved or on the Job's turn (`RLARK_BOT_WATCH__FULL_LOOK_TICKS`, 5), in the "
           f"ticking process, four at a time in threads (`serve` runs them in its worker "
           f"processes), garbage collected after each look as the worker processes do. The "
           f"stage and phase each tick sees are set by the benchmark over the bundle's real diagnosis.\n\n"
           f"{header}\n" + "\n".join(rows) + "\n")
    (REPO / "bench" / "slack" / "WATCH.md").write_text(out, encoding="utf-8")
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
