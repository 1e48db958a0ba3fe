"""A run that went on to succeed: what its logs showed on the way is not its failure.

The outcome is read from values, not words: the Job's `status.phase` Succeeded, a runner's own verdict on the job
it ran ("Job lint completed with result: Succeeded", the last such line of the runner container), or a finished
pod whose every container exited 0. A log line before that success (a fetch retried, an error code listed by a
check, a warning) is something that happened on the way: its finding stays, as a warning, and explains nothing. A
container's recorded verdict (terminated OOMKilled, a non-zero exit), a safety or risk case, and a case that says
the reported success is wrong (`overrides_success`: a Ray worker exited 1 behind a wrapper's 0) keep their
severity: the success does not undo them.

Seeds: ci-runner § 正常流程: Pending → Running → Succeeded.
rlark-jobs § 按错误类型排查: 请结合 Pod 阶段、状态消息和应用日志判断，不要只看 Job 颜色。
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from bot.diagnose.result import Finding
from bot.scope.logtime import line_time
from bot.scope.target import PodCtx, Scope
from bot.signals.base import failed

# The runner's own line (actions/runner, Runner.Listener): "2026-12-03 10:02:41Z: Job lint completed with result:
# Succeeded". Its result is one of Succeeded, Failed, Canceled, Skipped, Abandoned.
RESULT = re.compile(r"\bJob .{1,200}? completed with result: (\w+)")
FAILED = ("critical", "error")


@dataclass(frozen=True)
class Success:
    """The target finished well, at `when` (None when the evidence does not say when)."""

    when: datetime | None
    said: str  # what showed it, for the reader


def run_succeeded(scope: Scope, *, year: int) -> Success | None:
    """The success the evidence states for the target, or None (failed, still running, or not said)."""
    if scope.job is not None:
        if scope.job.status.phase == "Succeeded":
            return Success(scope.job.status.end_time, "Job phase Succeeded")
        return None
    pods = [c for c in scope.pods if c.pod is not None]
    if not pods or any(failed(c) for c in pods):
        return None
    verdict = _runner_verdict(pods, year=year)
    if verdict is not None:
        result, when = verdict
        return Success(when, "the runner's job result Succeeded") if result == "Succeeded" else None
    if all(c.pod is not None and c.pod.status.phase == "Succeeded" for c in pods):
        return Success(None, "pod phase Succeeded, every container exited 0")
    return None


def _runner_verdict(pods: list[PodCtx], *, year: int) -> tuple[str, datetime | None] | None:
    """The last job result a runner printed in its current log, and when."""
    last: tuple[str, datetime | None] | None = None
    for ctx in pods:
        for view in ctx.logs:
            if view.excerpt.source.previous:
                continue
            for m in RESULT.finditer(view.text):
                last = (m.group(1), line_time(view.text, m.start(), year=year))
    return last


def mark_outlived(findings: list[Finding], success: Success | None) -> None:
    """A failure seen only in log lines before the target's success: the run went past it (a warning)."""
    if success is None:
        return
    for f in findings:
        if f.case.safety or f.case.category == "risk" or f.case.overrides_success or f.case.severity not in FAILED:
            continue
        if f.hits and all(not h.state and h.at is not None and _before(h.when, success.when) for h in f.hits):
            f.outlived = True


def _before(when: datetime | None, done: datetime | None) -> bool:
    return when is None or done is None or when <= done


OUTLIVED = {"zh": "运行随后成功结束，这是途中出现过的情况，不是失败原因",
            "en": "The run went on to succeed: this showed on the way and is not why anything failed"}


def describe_outlived(f: Finding, lang: str) -> str:
    """The note a finding the run went past carries before its symptom, in `lang` (zh or en)."""
    return OUTLIVED["zh" if lang == "zh" else "en"] if f.outlived else ""
