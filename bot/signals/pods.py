"""Signals about member pods that status fields alone do not state: slow pulls and long Pending."""

from __future__ import annotations

from bot.checks.pending import long_pending
from bot.scope.hits import EvidenceItem, Hit, age_text
from bot.signals.base import SignalContext, signal
from bot.signals.stages import INDEX

STILL_STARTING = ("ContainerCreating", "PodInitializing", "")


@signal("pod.pull-slow")
def pull_slow(sc: SignalContext) -> list[Hit]:
    hits: list[Hit] = []
    limit = sc.thresholds.pull_slow_seconds
    for ctx in sc.scope.pods:
        pod = ctx.pod
        if pod is None or pod.status.phase != "Pending":
            continue
        waiting = [s for s, _ in pod.all_statuses() if s.state.waiting is not None]
        if any(s.state.waiting is not None and s.state.waiting.reason not in STILL_STARTING for s in waiting):
            continue  # an error reason is its own case
        pulls = sorted((e for e in ctx.events if e.reason == "Pulling" and e.when), key=lambda e: e.when or sc.now)
        pulled = {e.message.split('"')[1] for e in ctx.events if e.reason == "Pulled" and e.message.count('"') >= 2}
        pending = [e for e in pulls if e.message.count('"') >= 2 and e.message.split('"')[1] not in pulled]
        if not pending:
            continue
        first = pending[0]
        assert first.when is not None
        age = (sc.now - first.when).total_seconds()
        if age <= limit:
            continue
        items = [EvidenceItem(ctx.key, f"{first.reason}: {first.message} — no Pulled event after {age_text(age)}")]
        if ctx.task is not None and ctx.task.status.pull_progress:
            prog = ctx.task.status.pull_progress[0]
            items.append(EvidenceItem(ctx.task.ref(), f"pullProgress: {prog.get('downloaded')}/{prog.get('total')} "
                                                      f"bytes, status {prog.get('status')}"))
        hits.append(Hit(items, pod=ctx.key, stage=INDEX["containers-started"], when=first.when))
    return hits


@signal("pod.pending-long")
def pending_long(sc: SignalContext) -> list[Hit]:
    pods = [c.pod for c in sc.scope.pods if c.pod is not None]
    alerts = long_pending(pods, now=sc.now, thresholds=sc.thresholds)
    by_ref = {f"{c.cluster}/{c.namespace}/Pod/{c.name}": c.key for c in sc.scope.pods}
    return [Hit([EvidenceItem(by_ref[str(a.object)], a.described)], pod=by_ref[str(a.object)],
                stage=INDEX["scheduled"], when=a.since) for a in alerts]


@signal("pod.pvc-pending")
def pvc_pending(sc: SignalContext) -> list[Hit]:
    """A pod the scheduler has not placed, mounting a claim that is still Pending: what a PVC that cannot bind
    looks like when its events have aged out or say nothing."""
    hits: list[Hit] = []
    for ctx in sc.scope.pods:
        pod = ctx.pod
        if pod is None or pod.status.phase != "Pending" or pod.spec.node_name:
            continue
        waiting = [c for c in ctx.pvcs if c.status.phase in ("Pending", "Lost")]
        if not waiting:
            continue
        items = [EvidenceItem(f"{c.cluster}/{c.namespace}/{c.name}",
                              f"PersistentVolumeClaim {c.name} is {c.status.phase}"
                              + (f" (StorageClass {c.spec.storage_class_name})" if c.spec.storage_class_name else ""))
                 for c in waiting]
        # A Pending claim of an unplaced pod may be waiting for that pod (WaitForFirstConsumer): a wait, which a
        # concrete reason the pod cannot be placed explains; alone, it is still the answer.
        # It waits from the claims' creation: a volume is provisioned within the trigger's window (young.py).
        created = [c.metadata.creation_timestamp for c in waiting if c.metadata.creation_timestamp is not None]
        hits.append(Hit(items, pod=ctx.key, stage=INDEX["scheduled"], concrete=False,
                        since=max(created) if created and len(created) == len(waiting) else None))
    return hits
