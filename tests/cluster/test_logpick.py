"""Which logs are read: the Head, a few pods per distinct way of failing, a small healthy sample."""

from __future__ import annotations

from typing import Any

from bot.cluster.logpick import PER_FAILURE, SAMPLE_PODS, failure_signature, pick


def pod(name: str, app: str, *, exit_code: int | None = None, reason: str = "Error") -> dict[str, Any]:
    if exit_code is None:
        state: dict[str, Any] = {"running": {"startedAt": "2026-11-20T07:00:00Z"}}
        last: dict[str, Any] = {}
        restarts = 0
    else:
        state = {"waiting": {"reason": "CrashLoopBackOff"}}
        last = {"terminated": {"exitCode": exit_code, "reason": reason}}
        restarts = 3
    return {"metadata": {"name": name, "namespace": "rlark-system", "labels": {"app": app}},
            "status": {"phase": "Running", "containerStatuses": [
                {"name": "main", "state": state, "lastState": last, "restartCount": restarts}]}}


def test_identical_failures_are_sampled_distinct_ones_kept() -> None:
    pods = [("gpu-a", pod("job-head-0", "job-head"))]
    pods += [("gpu-a", pod(f"job-w-{i}", "job-w", exit_code=1)) for i in range(40)]
    pods += [("gpu-a", pod("job-w-oom", "job-w", exit_code=137, reason="OOMKilled"))]
    pods += [("gpu-a", pod(f"job-w-ok-{i}", "job-w")) for i in range(10)]
    picked = pick(pods, heads={("gpu-a", "job-head-0")}, max_requests=16, max_pods=16, prefer="main")
    names = [r.pod for r in picked]
    assert names[0] == "job-head-0"
    assert sum(n.startswith("job-w-") and n[6:].isdigit() for n in names) == PER_FAILURE
    assert "job-w-oom" in names  # a different way of failing is always read
    assert sum(n.startswith("job-w-ok-") for n in names) == SAMPLE_PODS
    assert failure_signature(pods[1][1]) == failure_signature(pods[2][1]) != failure_signature(pods[41][1])
