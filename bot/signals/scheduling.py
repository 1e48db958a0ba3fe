"""Scheduling decided from objects, as the scheduler decides it (`bot.scope.fit`): for a pod that is not placed,
and for a routed Task whose pods never appeared, which nodes could take it and, per reason, how many could not.

The FailedScheduling text is confirmation, not the source: the verdict comes from the nodes' labels, taints,
`unschedulable` and allocatable minus what bound pods request, against the pod's selector, required affinity,
tolerations and requests. One computation, three signals, by what keeps the pod out:

* `schedule.fit-no-node-selected`: no node matches the pod's nodeSelector and required affinity;
* `schedule.fit-nodes-closed`: the nodes it asks for are cordoned, not Online, or carry a taint it does not tolerate;
* `schedule.fit-no-room`: a node it asks for is open to it but lacks what it requests.

Nothing is said when the nodes of the pod's cluster were not collected, or when some node fits (the scheduler may
simply not have tried yet; the event, if any, then speaks for itself).
"""

from __future__ import annotations

import re
from datetime import datetime

from bot.models import Pod
from bot.scope.fit import FitReport, PodShape, fit
from bot.scope.fitobjects import node_shapes, pod_shape, reported_used, rnode_shapes, template_shape
from bot.scope.hits import EvidenceItem, Hit, clip
from bot.scope.target import PodCtx
from bot.signals.base import SignalContext, signal
from bot.signals.stages import INDEX

ROOM_WORDS = re.compile(r"(?i)\binsufficient\b|too many pods|enough resource")
SIGNAL_BY_BLOCKER = {
    "selector": "schedule.fit-no-node-selected",
    "unschedulable": "schedule.fit-nodes-closed",
    "taint": "schedule.fit-nodes-closed",
    "resources": "schedule.fit-no-room",
}


def _confirmed(ctx: PodCtx, pod: Pod, sc: SignalContext) -> tuple[bool, datetime | None, str]:
    """Whether the scheduler already tried (a FailedScheduling event about this instance, or PodScheduled False),
    or the pod has waited longer than state may lag; with since when, and the scheduler's own words."""
    uid = pod.metadata.uid
    for ev in ctx.events:
        io = ev.involved_object
        if ev.reason == "FailedScheduling" and io.kind == "Pod" and (not uid or not io.uid or io.uid == uid):
            return True, ev.when, ev.message
    cond = pod.condition("PodScheduled")
    if cond is not None and cond.status == "False":
        return True, cond.last_transition_time, cond.message
    created = pod.metadata.creation_timestamp
    waited = created is not None and (sc.now - created).total_seconds() > sc.thresholds.sync_grace_seconds
    return waited, created, ""


def _pod_hit(ctx: PodCtx, sc: SignalContext) -> tuple[str, Hit] | None:
    pod = ctx.pod
    if pod is None or pod.status.phase != "Pending" or pod.spec.node_name:
        return None
    ev = sc.scope.evidence
    nodes = [n for n in ev.nodes if n.cluster == ctx.cluster]
    if not nodes or ev.lacks("nodes", cluster=ctx.cluster):
        return None
    tried, since, said = _confirmed(ctx, pod, sc)
    if not tried:
        return None
    shape = pod_shape(pod)
    report = fit(shape, node_shapes(nodes, (p for p in ev.pods if p.cluster == ctx.cluster), exclude=pod,
                                    reported=reported_used(ev.rlark_nodes, ctx.cluster)))
    blocker = report.blocker
    if blocker == "fits" or (blocker == "resources" and said and not ROOM_WORDS.search(said)):
        # Room is the one verdict the objects may get wrong (pods of namespaces not read, inter-pod rules not
        # judged here): when the scheduler tried and does not speak of room, it is not claimed.
        return None
    items = [EvidenceItem(ctx.key, _described(report, shape))]
    if said:
        items.append(EvidenceItem(ctx.key, f"the scheduler says: {clip(said, 300)}"))
    scaling = _scaling_up(ctx, pod)
    if scaling is not None:
        items.append(EvidenceItem(ctx.key, f"the autoscaler answered at {scaling[0]:%Y-%m-%dT%H:%M:%SZ}: "
                                           f"{clip(scaling[1], 200)}"))
    return SIGNAL_BY_BLOCKER[blocker], Hit(items, pod=ctx.key, stage=INDEX["scheduled"], when=since,
                                           instance=pod.metadata.uid, since=scaling[0] if scaling else None)


SCALE_UP = frozenset({"Nominated", "TriggeredScaleUp"})  # Karpenter nominated a NodeClaim; cluster-autoscaler scales
SCALE_UP_REFUSED = frozenset({"NotTriggerScaleUp", "FailedScaleUp"})


def _scaling_up(ctx: PodCtx, pod: Pod) -> tuple[datetime, str] | None:
    """When an autoscaler first answered this pod instance by bringing up a node for it (and what it said), unless
    it later said it would not: the pod then waits for that node, within the trigger's window (young.py), not for
    a fix. Without such an answer no window applies: nothing is on its way."""
    uid = pod.metadata.uid
    mine = [e for e in ctx.events if e.involved_object.kind == "Pod" and e.when is not None
            and (not uid or not e.involved_object.uid or e.involved_object.uid == uid)]
    answers = sorted((e for e in mine if e.reason in SCALE_UP), key=lambda e: e.when or datetime.min)
    if not answers:
        return None
    first = answers[0]
    assert first.when is not None
    refused = [e for e in mine if e.reason in SCALE_UP_REFUSED and e.when is not None and e.when >= first.when]
    return None if refused else (first.when, first.message)


def _described(report: FitReport, shape: PodShape) -> str:
    asks = [f"selector {shape.describe_selection()}"]
    if shape.requests:
        asks.append("requests " + ", ".join(f"{k}={v.normalize():f}" for k, v in sorted(shape.requests.items())))
    n = len(report.verdicts)
    return f"0/{n} node{'s' if n != 1 else ''} can take it ({'; '.join(asks)}): {report.summary()}"


def _task_hits(sc: SignalContext) -> list[tuple[str, Hit]]:
    """Routed Tasks with no pod at all, judged against the RLark Node objects of their cluster."""
    out: list[tuple[str, Hit]] = []
    rnodes = sc.scope.evidence.rlark_nodes
    if not rnodes:
        return out
    with_pods = {id(c.task) for c in sc.scope.pods if c.task is not None}
    for task in sc.scope.tasks:
        if task.agent_id is None or id(task) in with_pods:
            continue
        shape = template_shape(task)
        nodes = [n for n in rnodes if n.of_agent(task.agent_id)]
        if shape is None or not nodes:
            continue
        report = fit(shape, rnode_shapes(nodes))
        if report.blocker == "fits":
            continue
        item = EvidenceItem(task.ref(), f"Task has no pods; RLark Nodes of cluster {task.agent_id}: "
                                        + _described(report, shape))
        out.append((SIGNAL_BY_BLOCKER[report.blocker],
                    Hit([item], stage=INDEX["pod-created"], when=task.metadata.creation_timestamp,
                        instance=task.metadata.uid)))
    return out


def _all(sc: SignalContext, name: str) -> list[Hit]:
    """Compute every pod's and Task's verdict once; each of the three signals takes its share."""
    found: dict[str, list[Hit]] = {n: [] for n in set(SIGNAL_BY_BLOCKER.values())}
    for ctx in sc.scope.pods:
        got = _pod_hit(ctx, sc)
        if got is not None:
            found[got[0]].append(got[1])
    for key, hit in _task_hits(sc):
        found[key].append(hit)
    for key, hits in found.items():
        sc.cache.setdefault(key, hits)
    return found[name]


@signal("schedule.fit-no-node-selected")
def no_node_selected(sc: SignalContext) -> list[Hit]:
    return _all(sc, "schedule.fit-no-node-selected")


@signal("schedule.fit-nodes-closed")
def nodes_closed(sc: SignalContext) -> list[Hit]:
    return _all(sc, "schedule.fit-nodes-closed")


@signal("schedule.fit-no-room")
def no_room(sc: SignalContext) -> list[Hit]:
    return _all(sc, "schedule.fit-no-room")
