"""How far each pod, and the job as a whole, got through the stages of CONTRACT §4.

A pod's stage comes from its status (created, scheduled, containers started) and then from the Ray
wrapper's markers in its `main` log. The job's last stage is where the *whole* job got to: the Head's stage,
held back by any worker that has not joined the Ray cluster, because a Head that printed "ready" after a
failed check has not really formed a cluster.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.runbook.schema import STAGES
from bot.scope.logview import LogView
from bot.scope.markers import Markers

if TYPE_CHECKING:
    from bot.scope.target import PodCtx, Scope

INDEX = {name: i for i, name in enumerate(STAGES)}
TRAINING_SIGNAL = re.compile(
    r"(?i)\bglobal[_ ]step\b|\bepoch\s*[=:]?\s*\d|\bstep\s*[=:/]?\s*\d+\b.*\b(loss|reward|lr|return)\b|"
    r"\b(loss|reward|return)\s*[=:]\s*-?\d|\b(train|rollout|actor|critic)/[\w/]+\s*[=:]\s*-?\d|\bIteration\s+\d+|"
    r"\bstep\s*[=:]?\s*\d+\s*/\s*\d+|\b(?:train(?:ing)?|rollout|epoch)\w*\s*:?\s*\d+%\|"
)


def reached_at(markers: Markers, pos: int) -> int:
    """The stage a wrapper-run container had reached when it printed the character at `pos`."""
    reached = INDEX["containers-started"]
    for marker_pos, stage in (
        (markers.rank, "rank-assigned"),
        (markers.prepare, "prepare-script"),
        (markers.connecting, "ray-cli-checked"),
        (markers.waiting, "ray-cli-checked"),
        (markers.reachable, "ray-cluster-ready"),
        (markers.ready if markers.check_failed is None else None, "ray-cluster-ready"),
        (markers.run, "run-script"),
    ):
        if marker_pos is not None and marker_pos <= pos:
            reached = max(reached, INDEX[stage])
    return reached


def has_training_signal(view: LogView, start: int) -> bool:
    """Whether training printed progress after `start`; kept with the view (the survey asks it while it holds
    the text, for the run marker)."""
    key = ("training-signal", start)
    if key not in view.memo:
        view.memo[key] = TRAINING_SIGNAL.search(view.text, start) is not None
    found: bool = view.memo[key]
    return found


def _log_stage(view: LogView) -> int:
    m = view.markers
    reached = INDEX["containers-started"]
    if m.rank is not None:
        reached = INDEX["rank-assigned"]
    if m.prepare is not None:
        reached = INDEX["prepare-script"]
    if m.cli_missing is None and (m.connecting is not None or m.waiting is not None):
        reached = INDEX["ray-cluster-forming"]
    head_ready = m.ready is not None and m.check_failed is None and (
        m.expected_nodes is None or m.last_count is None or m.last_count >= m.expected_nodes)
    if m.reachable is not None or head_ready:
        reached = INDEX["ray-cluster-ready"]
    if m.run is not None and m.check_failed is None:
        reached = INDEX["run-script"]
        if has_training_signal(view, m.run):
            reached = INDEX["training-signal"]
    return reached


def _later_markers(m: Markers) -> bool:
    """A wrapper marker after the rank line: the log's head (with the rank) was rotated away, the rest is there."""
    return any(p is not None for p in (m.prepare, m.connecting, m.waiting, m.ready, m.run))


def pod_stage(ctx: PodCtx) -> int | None:
    """Stage index a pod reached; None when nothing about it is known beyond its existence in a mirror."""
    if "stage" not in ctx.memo:  # asked by the job's last stage, the gaps and the case loop: worked out once
        ctx.memo["stage"] = _pod_stage(ctx)
    stage: int | None = ctx.memo["stage"]
    return stage


def _pod_stage(ctx: PodCtx) -> int | None:
    pod = ctx.pod
    if pod is None:
        if ctx.mirror is None:
            return None
        if ctx.mirror.status.phase in ("Running", "Succeeded", "Failed"):
            return INDEX["containers-started"]
        return INDEX["scheduled"] if ctx.mirror.status.node else INDEX["pod-created"]
    reached = INDEX["pod-created"]
    scheduled = pod.condition("PodScheduled")
    if pod.spec.node_name or (scheduled is not None and scheduled.status == "True"):
        reached = INDEX["scheduled"]
    started = any(s.state.running is not None or s.state.terminated is not None or
                  s.last_state.terminated is not None for s, init in pod.all_statuses() if not init)
    if started:
        reached = INDEX["containers-started"]
    for view in ctx.logs:
        if view.excerpt.source.container not in ("main", "(unnamed)"):
            continue
        if view.markers.any or _later_markers(view.markers):
            reached = max(reached, _log_stage(view))  # a restarted container got this far before
        elif has_training_signal(view, 0):
            # The wrapper's first lines were rotated away, but training is printing progress: it got there.
            reached = max(reached, INDEX["training-signal"])
        elif view.text.strip():
            reached = max(reached, INDEX["containers-started"])
    return reached


def job_last_stage(scope: Scope) -> str:
    if scope.target.kind.value != "Job":
        known = [s for s in (pod_stage(p) for p in scope.pods) if s is not None]
        if not known:
            return "submitted"
        return STAGES[min(max(known), INDEX["containers-started"])]
    if not scope.tasks:
        return "submitted"
    expected = scope.job.spec.tasks if scope.job is not None else []
    if len({t.spec.name or t.name for t in scope.tasks}) < len(expected):
        return "submitted"
    head_stage: int | None = None
    worker_floor = len(STAGES) - 1
    for task in scope.tasks:
        pods = scope.pods_of(task)
        replicas = task.spec.replicas
        if not pods or task.agent_id is None or (replicas is not None and len(pods) < replicas):
            if task.is_head:
                head_stage = INDEX["task-created"]
            worker_floor = min(worker_floor, INDEX["task-created"])
            continue
        for ctx in pods:
            reached = pod_stage(ctx)
            if reached is None:
                continue
            has_markers = ctx.main_log is not None and ctx.main_log.markers.any
            if ctx.is_head:
                head_stage = reached if head_stage is None else min(head_stage, reached)
            elif has_markers or ctx.phase != "Running":
                # A Running worker whose log was not collected is unknown, not behind.
                worker_floor = min(worker_floor, reached)
    if head_stage is None:
        return STAGES[worker_floor]
    if worker_floor < INDEX["ray-cluster-ready"]:
        # The Head may have gone on (a failed check proceeds anyway), but the cluster never formed.
        return STAGES[min(head_stage, INDEX["ray-cluster-forming"])]
    return STAGES[head_stage]
