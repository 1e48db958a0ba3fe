"""The benchmark's 64-worker bundle: a Job with a Head and 64 Ray workers, one of which lost the GCS and exited 1.

Built with the scenario builders the tests use (tests/scenariogen), the same failure as the
`rlark-ray-worker-exit-nonzero` scenario on a job twenty times wider, so the diagnosis has a finding to report.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.scenariogen.common import running, terminated  # noqa: E402
from tests.scenariogen.rlark import (  # noqa: E402
    JOB,
    Scenario,
    fill_healthy_logs,
    healthy_worker_log,
    lts,
    main_logs,
    prepare_ok,
    rank_lines,
    standard_job,
    ts,
    worker_connect,
    worker_exit,
    worker_ray_started,
)

WORKERS = 64
FAILING = 41  # the worker whose Ray process exits 1


def build(root: Path) -> tuple[Path, str]:
    """Write the bundle under `root`; (bundle directory, target)."""
    sc = Scenario("slack-bench-64", root=root)
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=WORKERS, age_min=120)
    fill_healthy_logs(job, steps=60)
    p = job.task("rollout").pods[FAILING]
    prev = healthy_worker_log(p) + (
        f"[{lts(46.5, 12)} C 211 211] (raylet) gcs_rpc_client.h:179: Check failed: absl::ToInt64Seconds(absl::Now() "
        "- gcs_last_alive_time_) < ::RayConfig::instance().gcs_rpc_server_reconnect_timeout_s() Failed to connect "
        "to GCS within 60 seconds\n" + worker_exit(1))
    p.prev_logs = {"main": prev}
    p.main_last = terminated(0, "Completed", ts(p.started_min), ts(46.4))
    p.main_restarts = 1
    p.main = running(ts(46.2))
    p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 46) + worker_connect(p) + worker_ray_started(p))
    return sc.write(), f"job/{JOB}"


if __name__ == "__main__":
    out, target = build(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "bench" / "out")
    print(out, target)
