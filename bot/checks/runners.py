"""EphemeralRunners that hold a runner slot without doing work (infra.arc.stale-runner)."""

from __future__ import annotations

from datetime import datetime

from bot.checks.alerts import Alert, object_ref
from bot.models import EphemeralRunner, Evidence, Pod
from bot.models.base import parse_time
from bot.settings import Thresholds

FAILED_PHASES = ("Failed",)


def failed_since(runner: EphemeralRunner, pod: Pod | None = None) -> datetime | None:
    """When a failed runner last failed: the newest pod failure ARC recorded or its pod's containers finished,
    else its creation."""
    times = [t for t in (parse_time(v) for v in runner.status.failures.values()) if t is not None]
    if pod is not None:
        times += [s.state.terminated.finished_at for s, _ in pod.all_statuses()
                  if s.state.terminated is not None and s.state.terminated.finished_at is not None]
    return max(times) if times else runner.metadata.creation_timestamp


def _pods_collected(ev: Evidence, runner: EphemeralRunner) -> bool:
    """Without the namespace's pod list, "no pod" cannot be told from "not collected"."""
    return not ev.lacks("pods", cluster=runner.cluster, namespace=runner.namespace)


def stale_runners(ev: Evidence, *, now: datetime, thresholds: Thresholds,
                  runners: list[EphemeralRunner] | None = None) -> list[Alert]:
    alerts: list[Alert] = []
    pods = {(p.cluster, p.namespace, p.name): p for p in ev.pods}
    for er in ev.ephemeral_runners if runners is None else runners:
        st = er.status
        created = er.metadata.creation_timestamp
        ref = object_ref(er, "EphemeralRunner")
        if st.phase == "Running" and (er.cluster, er.namespace, er.name) not in pods and _pods_collected(ev, er):
            if created is not None and (now - created).total_seconds() < thresholds.stale_runner_seconds:
                continue
            job = f" for {st.job_repository_name} run {st.workflow_run_id}" if st.job_repository_name else ""
            alerts.append(Alert(check="stale-runner", case="infra.arc.stale-runner", object=ref, severity="warning",
                                since=created, summary=f"Running{job} but its pod {er.name} is gone"))
        elif st.phase in FAILED_PHASES or st.reason == "TooManyPodFailures":
            since = failed_since(er, pods.get((er.cluster, er.namespace, er.name)))
            if since is not None and (now - since).total_seconds() < thresholds.stale_runner_seconds:
                continue  # failed a moment ago: ARC may still clean it up; "left behind" only past the threshold
            detail = st.reason or st.message or "failed"
            failures = f", {len(st.failures)} pod failures" if st.failures else ""
            alerts.append(Alert(check="stale-runner", case="infra.arc.stale-runner", object=ref, severity="warning",
                                since=created, summary=f"{st.phase or 'Failed'} ({detail}{failures}) and left behind"))
    return alerts
