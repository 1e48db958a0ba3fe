"""EphemeralRunners that hold a runner slot without doing work (infra.arc.stale-runner), and runners older than
the platform's age limit (infra.arc.runner-too-old).

A runner is stale when it says Running although its pod is gone, or although every container of its pod
finished longer ago than the threshold (the job is over; ARC did not notice), or when it failed and was left
behind. A runner already being deleted (deletionTimestamp set) is on its way out: never stale, never too old.
"""

from __future__ import annotations

from datetime import datetime

from bot.checks.alerts import Alert, object_ref
from bot.models import EphemeralRunner, Evidence, Pod
from bot.models.base import parse_time
from bot.settings import Thresholds

FAILED_PHASES = ("Failed",)


def age_text(seconds: float) -> str:
    """`45 min`, `13 h`, `3 d`: an age as an alert's summary says it."""
    seconds = int(seconds)
    if seconds < 7200:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h" if seconds < 172800 else f"{seconds // 86400} d"


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


def pod_finished_at(pod: Pod) -> datetime | None:
    """When the last container of a pod whose containers have all terminated finished; None while one runs."""
    statuses = [s for s, init in pod.all_statuses() if not init]
    if not statuses or any(s.state.terminated is None for s in statuses):
        return None
    times = [s.state.terminated.finished_at for s in statuses
             if s.state.terminated is not None and s.state.terminated.finished_at is not None]
    return max(times) if times else None


def stale_runners(ev: Evidence, *, now: datetime, thresholds: Thresholds,
                  runners: list[EphemeralRunner] | None = None) -> list[Alert]:
    alerts: list[Alert] = []
    pods = {(p.cluster, p.namespace, p.name): p for p in ev.pods}
    limit = thresholds.stale_runner_seconds
    for er in ev.ephemeral_runners if runners is None else runners:
        if er.metadata.deletion_timestamp is not None:
            continue  # already being deleted: ARC is removing it
        st = er.status
        created = er.metadata.creation_timestamp
        ref = object_ref(er, "EphemeralRunner")
        pod = pods.get((er.cluster, er.namespace, er.name))
        job = f" for {st.job_repository_name} run {st.workflow_run_id}" if st.job_repository_name else ""
        if st.phase == "Running" and pod is None and _pods_collected(ev, er):
            if created is not None and (now - created).total_seconds() < limit:
                continue
            alerts.append(Alert(check="stale-runner", case="infra.arc.stale-runner", object=ref, severity="warning",
                                since=created, summary=f"Running{job} but its pod {er.name} is gone"))
        elif st.phase == "Running" and pod is not None and (done := pod_finished_at(pod)) is not None:
            if (now - done).total_seconds() < limit:
                continue  # the pod finished a moment ago: ARC may not have caught up yet
            alerts.append(Alert(check="stale-runner", case="infra.arc.stale-runner", object=ref, severity="warning",
                                since=done, summary=f"Running{job} but every container of its pod {er.name} "
                                f"finished {age_text((now - done).total_seconds())} ago"))
        elif st.phase in FAILED_PHASES or st.reason == "TooManyPodFailures":
            since = failed_since(er, pods.get((er.cluster, er.namespace, er.name)))
            if since is not None and (now - since).total_seconds() < thresholds.stale_runner_seconds:
                continue  # failed a moment ago: ARC may still clean it up; "left behind" only past the threshold
            detail = st.reason or st.message or "failed"
            failures = f", {len(st.failures)} pod failures" if st.failures else ""
            alerts.append(Alert(check="stale-runner", case="infra.arc.stale-runner", object=ref, severity="warning",
                                since=created, summary=f"{st.phase or 'Failed'} ({detail}{failures}) and left behind"))
    return alerts


def old_runners(ev: Evidence, *, now: datetime, thresholds: Thresholds,
                runners: list[EphemeralRunner] | None = None) -> list[Alert]:
    """EphemeralRunners older than `runner_max_age_seconds`, whatever their phase (the age alert of the runner
    page): a job that long is stuck or a runner nobody cleaned up. A runner the stale check reports is left to it:
    one alert per runner."""
    alerts: list[Alert] = []
    candidates = ev.ephemeral_runners if runners is None else runners
    stale = {a.object for a in stale_runners(ev, now=now, thresholds=thresholds, runners=candidates)}
    for er in candidates:
        created = er.metadata.creation_timestamp
        if er.metadata.deletion_timestamp is not None or created is None or object_ref(er, "EphemeralRunner") in stale:
            continue  # being deleted, or already reported as stale (its age is that staleness)
        age = (now - created).total_seconds()
        if age <= thresholds.runner_max_age_seconds:
            continue
        phase = er.status.phase or "no phase"
        alerts.append(Alert(check="runner-too-old", case="infra.arc.runner-too-old",
                            object=object_ref(er, "EphemeralRunner"), severity="warning", since=created,
                            summary=f"{phase} for {age_text(age)}, older than the "
                            f"{age_text(thresholds.runner_max_age_seconds)} limit"))
    return alerts
