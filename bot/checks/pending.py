"""Pods Pending longer than the threshold (infra.pending.long), with the runbook cause when the evidence says it.

The cause comes from what the pod itself carries (container waiting reasons, the PodScheduled condition) and its
events (FailedScheduling, FailedBinding, FailedMount, OffloadingBackOff). Each alert also names the object its
pods share, so the alert lifecycle can fold 200 pods of one cause into one thread: the Task (RLark member pods,
label `app`), else the Karpenter NodePool that serves the pod's selector, else the selector itself.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime

from bot.checks.alerts import Alert, cluster_ref, object_ref
from bot.models import Event, NodePool, Pod, Task
from bot.models.refs import ObjectGroup
from bot.settings import Thresholds

# (cause case, pattern over "<reason>: <message>" of an event or condition), most specific first.
_CAUSES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("pod.storage.pvc-unbound", re.compile(
        r"unbound (immediate )?PersistentVolumeClaims|persistentvolumeclaim \S+ not found|^FailedBinding|"
        r"storageclass\S* \S+ not found|waiting for first consumer.*provision", re.I)),
    ("pod.storage.hostpath-missing", re.compile(r"^FailedMount: .*(hostPath|is not a directory|type check failed)",
                                                re.I)),
    ("pod.liqo.offloading-backoff", re.compile(r"OffloadingBackOff", re.I)),
    ("pod.image.pull-unauthorized", re.compile(r"401 Unauthorized|failed to authorize|: unauthorized", re.I)),
    ("pod.image.invalid-name", re.compile(r"^InvalidImageName")),
    ("pod.container.config-error", re.compile(r"^CreateContainerConfigError")),
    ("pod.image.pull-failed", re.compile(r"^(ErrImagePull|ImagePullBackOff)|Failed to pull image", re.I)),
    ("pod.schedule.insufficient-resources", re.compile(r"Insufficient [\w./-]+|OutOf\w+|Too many pods", re.I)),
    ("pod.schedule.node-unschedulable", re.compile(
        r"node\(s\) were unschedulable|node\.kubernetes\.io/(unschedulable|not-ready|unreachable)", re.I)),
    ("pod.schedule.selector-mismatch", re.compile(
        r"didn't match (Pod's )?node (affinity|selector)|MatchNodeSelector", re.I)),
)
_EVENT_REASONS = ("FailedScheduling", "FailedBinding", "FailedMount", "OffloadingBackOff", "NotTriggerScaleUp",
                  "Failed", "BackOff")
NODEPOOL_LABEL = "karpenter.sh/nodepool"


def classify(texts: Iterable[str]) -> tuple[str, str]:
    """(cause case, the text that says it) for the first text a cause pattern matches; ("", "") otherwise."""
    return _classify(tuple(texts))


@functools.lru_cache(maxsize=4096)  # 5,000 pods Pending for one reason carry the same few messages
def _classify(seen: tuple[str, ...]) -> tuple[str, str]:
    for case, pattern in _CAUSES:
        for text in seen:
            if pattern.search(text):
                return case, text
    return "", ""


def _events_by_pod(events: Iterable[Event]) -> dict[tuple[str, str, str], list[Event]]:
    out: dict[tuple[str, str, str], list[Event]] = defaultdict(list)
    for e in events:
        io = e.involved_object
        if e.reason in _EVENT_REASONS and (io.kind in ("", "Pod")):
            out[(e.cluster, io.namespace or e.namespace, io.name)].append(e)
    return out


def _cause(pod: Pod, events: Sequence[Event]) -> tuple[str, str]:
    """(cause case, why) for one Pending pod, from its containers' waiting states, its events and PodScheduled."""
    waiting = [f"{w.reason}: {w.message}".rstrip(": ") for w in
               (s.state.waiting for s, _ in pod.all_statuses()) if w is not None and w.reason]
    texts = waiting + [f"{e.reason}: {e.message}" for e in sorted(events, key=lambda e: e.when is None)]
    cond = pod.condition("PodScheduled")
    unscheduled = cond is not None and cond.status == "False"
    if unscheduled and cond is not None:
        texts.append(f"{cond.reason}: {cond.message}")
    case, text = classify(texts)
    if case:
        return case, text
    named = next((f"container {s.name}: {s.state.waiting.reason}" for s, _ in pod.all_statuses()
                  if s.state.waiting is not None and s.state.waiting.reason), None)
    if named:
        return "", named
    if unscheduled and cond is not None:
        return "", f"not scheduled: {cond.reason or ''} {cond.message or ''}".strip()
    return "", pod.status.reason or "no reason reported"


class _Groups:
    """What the Pending pods of one cause share: their Task, NodePool or selector."""

    def __init__(self, tasks: Iterable[Task], pools: Iterable[NodePool]) -> None:
        self.tasks = {t.name: t for t in tasks}
        self.pools: dict[str, list[NodePool]] = defaultdict(list)
        for pool in pools:
            self.pools[pool.cluster].append(pool)
        self._by_selector: dict[tuple[str, tuple[tuple[str, str], ...]], ObjectGroup] = {}  # few selectors

    def of(self, pod: Pod) -> ObjectGroup | None:
        app = pod.metadata.labels.get("app", "")
        task = self.tasks.get(app) if app else None
        if task is not None:
            return ObjectGroup.owned_by(object_ref(task, "Task"))
        sel = pod.spec.node_selector
        if not sel:
            return None
        cache_key = (f"{pod.cluster}/{pod.namespace}", tuple(sorted(sel.items())))
        found = self._by_selector.get(cache_key)
        if found is None:
            found = self._by_selector[cache_key] = self._serving(pod, sel)
        return found

    def _serving(self, pod: Pod, sel: dict[str, str]) -> ObjectGroup:
        named = sel.get(NODEPOOL_LABEL)
        if named:
            return ObjectGroup.owned_by(cluster_ref(pod.cluster, kind="NodePool", name=named))
        pools = sorted((p for p in self.pools.get(pod.cluster, []) if p.serves(sel)), key=lambda p: p.name)
        if pools:
            return ObjectGroup.owned_by(cluster_ref(pod.cluster, kind="NodePool", name=pools[0].name))
        return ObjectGroup.selecting(pod.cluster, pod.namespace, sel)


def long_pending(pods: Iterable[Pod], *, now: datetime, thresholds: Thresholds, events: Iterable[Event] = (),
                 tasks: Iterable[Task] = (), pools: Iterable[NodePool] = ()) -> list[Alert]:
    alerts: list[Alert] = []
    by_pod: dict[tuple[str, str, str], list[Event]] | None = None
    groups: _Groups | None = None
    for pod in pods:
        created = pod.metadata.creation_timestamp
        if pod.status.phase != "Pending" or created is None or pod.metadata.deletion_timestamp is not None:
            continue
        age = (now - created).total_seconds()
        if age <= thresholds.pending_seconds:
            continue
        if by_pod is None or groups is None:  # built on the first long-Pending pod only
            by_pod, groups = _events_by_pod(events), _Groups(tasks, pools)
        cause, why = _cause(pod, by_pod.get((pod.cluster, pod.namespace, pod.name), ()))
        minutes = int(age // 60)
        alerts.append(Alert(check="long-pending", case="infra.pending.long", object=object_ref(pod, "Pod"),
                            severity="warning", since=created, summary=f"Pending for {minutes} min ({why})",
                            cause=cause, group=groups.of(pod)))
    return alerts
