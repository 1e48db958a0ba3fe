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

from tests.scenariogen.rlark import (  # noqa: E402
    JOB,
    Scenario,
    fill_healthy_logs,
    restarted_after_gcs_loss,
    standard_job,
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
    restarted_after_gcs_loss(p)
    return sc.write(), f"job/{JOB}"


if __name__ == "__main__":
    out, target = build(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "bench" / "out")
    print(out, target)
