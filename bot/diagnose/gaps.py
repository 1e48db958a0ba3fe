"""What the target needed that the evidence does not hold, said plainly.

A missing file already means "not collected" (CONTRACT §2); this goes further, from what the target itself
implies: a Task routed to a member cluster of which nothing at all was collected (an empty or absent
directory, an unreadable context), pods whose containers ran but whose logs are absent. Such a bundle is
not a healthy job. A gap is decisive - the report is then incomplete - when the answer could depend on it:
a whole member cluster missing, no log of any pod that ran, or the Head's log missing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.models import TargetKind
from bot.scope.target import PodCtx, Scope
from bot.signals.stages import INDEX, pod_stage

MAX_NAMES = 5


@dataclass
class Gaps:
    missing: list[str] = field(default_factory=list)  # every gap, one line each
    decisive: list[str] = field(default_factory=list)  # those the answer could depend on


def _names(pods: list[PodCtx]) -> str:
    shown = ", ".join(p.name for p in pods[:MAX_NAMES])
    return shown + (f" and {len(pods) - MAX_NAMES} more" if len(pods) > MAX_NAMES else "")


def _ran(ctx: PodCtx) -> bool:
    stage = pod_stage(ctx)
    return stage is not None and stage >= INDEX["containers-started"]


def _member_clusters(scope: Scope, gaps: Gaps) -> None:
    ev = scope.evidence
    seen = {p.cluster for p in ev.pods} | {n.cluster for n in ev.nodes} | {x.source.cluster for x in ev.logs}
    for agent in sorted({t.agent_id for t in scope.tasks if t.agent_id}):
        if agent in seen:
            continue
        tasks = ", ".join(sorted(t.name for t in scope.tasks if t.agent_id == agent))
        line = (f"member cluster {agent}: no nodes, pods, events or logs were collected "
                f"(Tasks {tasks} run there)")
        gaps.missing.append(line)
        gaps.decisive.append(line)


def _logs(scope: Scope, gaps: Gaps) -> None:
    ran = [p for p in scope.pods if p.pod is not None and _ran(p)]
    silent = [p for p in ran if not p.logs]
    if not silent:
        return
    line = f"logs of {len(silent)} of {len(ran)} pods whose containers ran: {_names(silent)}"
    gaps.missing.append(line)
    if len(silent) == len(ran):
        gaps.decisive.append(f"no container log was collected for any of the {len(ran)} pods that ran")
    elif any(p.is_head for p in silent):
        gaps.decisive.append("the Head's log was not collected")


def find_gaps(scope: Scope) -> Gaps:
    gaps = Gaps()
    if scope.target.kind is TargetKind.JOB:
        _member_clusters(scope, gaps)
    _logs(scope, gaps)
    return gaps
