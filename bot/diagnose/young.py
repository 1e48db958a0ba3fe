"""Still starting: a wait whose window has not yet expired is a job on its way, not a failure.

A signal says when the wait it reports began (`Hit.since`: when the Head printed "Waiting for 4 nodes", when a
Task without a pod was created; for an event trigger, when the event was first seen); the runbook trigger says
how long that step may take while a job starts (`window:`, e.g. Ray's node check gives up after 15 minutes).
While `now` is inside the window the hit is "starting": its finding is reported as a note (severity info,
"still starting"), ranks after every failure, and explains nothing. Once the window has passed, the same
evidence is the failure the case describes.

A hit whose evidence names a failure (a quota refusal, replicas 0, no usable node) carries no `since`: no window
applies to it, whatever the job's age. Seed: rlark-jobs § Job 与 Worker 状态不一致: 刚完成以下操作时，短暂不一致是
正常的：创建 Job ... 先等待状态完成一次同步，再比较 Job、Task 和 Pod 阶段。
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from bot.diagnose.result import Finding
from bot.runbook.schema import Trigger
from bot.scope.hits import Hit, age_text
from bot.scope.target import Scope

STARTING = {"zh": "仍在启动", "en": "Still starting"}
FAILED = ("critical", "error")


def still_open(since: datetime | None, window: float | None, now: datetime) -> bool:
    """Whether a wait that began at `since` is less than `window` seconds old at `now`. A start stamped after
    `now` (a clock ahead of the capture's) has only just begun."""
    if since is None or window is None:
        return False
    return (now - since).total_seconds() < window


def within(trigger: Trigger, hits: list[Hit], *, now: datetime, fallback: float) -> list[Hit]:
    """Copies of a trigger's `hits` (a signal's are shared between cases) with their window - the deadline the
    evidence itself states (Ray's check prints its own), else the trigger's, else `fallback` seconds - and whether
    it is still open. A hit without a start keeps its own verdict."""
    if all(h.since is None for h in hits):
        return hits
    default = trigger.window if trigger.window is not None else fallback
    out = []
    for h in hits:
        if h.since is None:
            out.append(h)
            continue
        window = h.window if h.window is not None else default  # a deadline the evidence states comes first
        out.append(replace(h, window=window, starting=still_open(h.since, window, now)))
    return out


def mark_starting(findings: list[Finding]) -> None:
    """A finding every hit of which is still inside its window is still starting (a note, not yet a failure)."""
    for f in findings:
        f.starting = bool(f.hits) and all(h.starting for h in f.hits)
        if f.starting:
            f.opened = min((h.since for h in f.hits if h.since is not None), default=None)
            f.window = max((h.window for h in f.hits if h.window is not None), default=None)


def job_starting(scope: Scope, findings: list[Finding], *, now: datetime, young_seconds: float,
                 reached_training: bool) -> bool:
    """Whether the target is still starting: nothing failed, and either a finding is a wait inside its window or
    the target (Job, pod, runner) is younger than `young_seconds` and has not yet shown a training signal."""
    if any(f.severity in FAILED for f in findings):
        return False
    if any(f.starting for f in findings):
        return True
    if reached_training:
        return False
    created = _created(scope)
    return created is not None and (now - created).total_seconds() < young_seconds


def _created(scope: Scope) -> datetime | None:
    if scope.job is not None:
        return scope.job.metadata.creation_timestamp
    if scope.runners:
        return scope.runners[0].metadata.creation_timestamp
    pods = [c.pod for c in scope.pods if c.pod is not None]
    if len(pods) == 1 and pods[0].status.phase in ("Pending", "Running"):
        return pods[0].metadata.creation_timestamp
    return None


def describe(f: Finding, lang: str, now: datetime) -> str:
    """"still starting: waiting for 4m of its 15m window" in `lang` (zh or en)."""
    if not f.starting:
        return ""
    waited = age_text((now - f.opened).total_seconds()) if f.opened is not None else ""
    window = age_text(f.window) if f.window is not None else ""
    if lang == "zh":
        detail = f"已等待 {waited}，窗口 {window} 尚未结束；到期后仍如此才算故障" if waited and window else ""
        return f"{STARTING['zh']}：{detail}" if detail else STARTING["zh"]
    detail = (f"waiting for {waited} of its {window} window; a failure only if it still shows once the window has "
              "passed") if waited and window else ""
    return f"{STARTING['en']}: {detail}" if detail else STARTING["en"]
