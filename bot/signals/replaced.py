"""One worker name, several pod instances (rlark.worker.replaced).

A StatefulSet recreates an evicted or deleted pod under the same name, with a new UID and often a new node
and IP. The console does not link the instances, so logs and states may come from different ones. Signs
of a replacement, any of which is enough:

* the control plane holds several Pod mirrors for the name (mirrors are named by member UID), or a mirror's
  node or IP differs from the member pod's;
* events about the pod name carry an older UID than the pod's (the kubelet, the taint manager or the
  eviction manager wrote them about the previous instance), or an eviction (`NodeNotReady`,
  `TaintManagerEviction`, `Evicted`, `Preempted`) was reported from another node than the pod's;
* the Head's Ray marked a node dead at an address no pod has any more, and a worker was created after that.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING

from bot.scope.hits import EvidenceItem, Hit, clip
from bot.scope.logtime import line_time
from bot.scope.logview import DEAD_NODE_LITERALS
from bot.signals.base import SignalContext, signal

if TYPE_CHECKING:
    from bot.scope.target import PodCtx

EVICTION_REASONS = ("NodeNotReady", "TaintManagerEviction", "Evicted", "Preempted", "Preempting", "NodeShutdown")
DEAD_WORDS = DEAD_NODE_LITERALS
ADDRESS = re.compile(r"(?i)address:? (\d{1,3}(?:\.\d{1,3}){3})\b")


def _from_mirrors(sc: SignalContext) -> dict[str, list[str]]:
    seen: dict[str, list[tuple[str, str, str]]] = {}
    tasks = {t.name for t in sc.scope.tasks}
    for mirror in sc.scope.evidence.pod_mirrors:
        if mirror.task_name in tasks:
            seen.setdefault(mirror.local_name or mirror.name, []).append(
                (mirror.metadata.uid or mirror.name, mirror.status.ip, mirror.status.node))
    out: dict[str, list[str]] = {}
    for name, instances in seen.items():
        uids = {u for u, _, _ in instances}
        ips = sorted({ip for _, ip, _ in instances if ip})
        nodes = sorted({n for _, _, n in instances if n})
        if len(uids) > 1 or len(ips) > 1 or len(nodes) > 1:
            out[name] = [f"worker {name} seen as {len(uids)} pods with IPs {', '.join(ips) or '(none)'}"
                         + (f" on nodes {', '.join(nodes)}" if len(nodes) > 1 else "")]
    return out


def _mirror_drift(ctx: PodCtx) -> list[str]:
    pod, mirror = ctx.pod, ctx.mirror
    if pod is None or mirror is None:
        return []
    out = []
    if pod.status.pod_ip and mirror.status.ip and pod.status.pod_ip != mirror.status.ip:
        out.append(f"Pod mirror shows IP {mirror.status.ip}, the member pod has {pod.status.pod_ip}")
    if pod.spec.node_name and mirror.status.node and pod.spec.node_name != mirror.status.node:
        out.append(f"Pod mirror shows node {mirror.status.node}, the member pod runs on {pod.spec.node_name}")
    return out


def _from_events(ctx: PodCtx) -> list[str]:
    pod = ctx.pod
    if pod is None:
        return []
    uid, node, created = pod.metadata.uid, pod.spec.node_name, pod.metadata.creation_timestamp
    out: list[str] = []
    for ev in ctx.events:
        io = ev.involved_object
        if io.kind != "Pod" or io.name != ctx.name:
            continue
        older = bool(uid and io.uid and io.uid != uid)
        evicted = ev.reason in EVICTION_REASONS
        if not (older or evicted):  # the current instance's own event, no eviction: nothing about an earlier one
            continue
        elsewhere = evicted and bool(node and ev.source.host and ev.source.host != node)
        # An eviction reported before this pod existed was about the instance it replaced.
        before = evicted and created is not None and ev.when is not None and ev.when < created
        if older or elsewhere or before:
            where = f" on {ev.source.host}" if ev.source.host else ""
            about = f"UID {io.uid}, now {uid}" if older else f"before this pod was created at {created:%H:%M:%SZ}" \
                if before and created is not None else f"its node was {ev.source.host}, now {node}"
            out.append(f"{ev.reason}{where} about an earlier instance ({about}): {clip(ev.message, 200)}")
            if len(out) >= 2:
                break
    return out


def _from_head_log(sc: SignalContext) -> dict[str, list[str]]:
    """Workers created after the Head's Ray marked a node dead at an address no pod holds any more."""
    current = {ip for c in sc.scope.pods if c.pod is not None for ip in (c.pod.status.pod_ip, c.pod.status.host_ip)}
    out: dict[str, list[str]] = {}
    for head in (c for c in sc.scope.pods if c.is_head):
        for view in head.logs:
            if not any(view.holds(word) for word in DEAD_WORDS):
                continue  # known from the survey: the log is not read again
            for start, ip in _dead_addresses(view.text):
                if ip in current:
                    continue
                when = line_time(view.text, start, year=sc.now.year)
                later = [c for c in sc.scope.pods if not c.is_head and c.pod is not None and when is not None
                         and _created(c) is not None and (_created(c) or when) > when]
                line = view.line_at(start)
                for c in later:
                    out.setdefault(c.name, []).append(
                        f"the Head's Ray marked the node at {ip} dead (line {line.number}); {c.name} was created "
                        f"after that with IP {c.pod.status.pod_ip if c.pod else '?'}")
    return out


def _dead_addresses(text: str) -> list[tuple[int, str]]:
    """(line start, address) of each line where Ray says a node at an address is dead: found by the words
    first (str.find over the log), the address then read from that one line."""
    out: list[tuple[int, str]] = []
    for word in DEAD_WORDS:
        pos = text.find(word)
        while pos >= 0:
            start = text.rfind("\n", 0, pos) + 1
            end = text.find("\n", pos)
            end = len(text) if end < 0 else end
            m = ADDRESS.search(text, start, pos)
            if m is not None:
                out.append((start, m.group(1)))
            pos = text.find(word, end)
    return sorted(set(out))


def _created(ctx: PodCtx) -> datetime | None:
    return ctx.pod.metadata.creation_timestamp if ctx.pod is not None else None


@signal("worker.replaced")
def worker_replaced(sc: SignalContext) -> list[Hit]:
    found: dict[str, list[str]] = {name: list(texts) for name, texts in _from_mirrors(sc).items()}
    for name, texts in _from_head_log(sc).items():
        found.setdefault(name, []).extend(texts)
    for ctx in sc.scope.pods:
        extra = _mirror_drift(ctx) + _from_events(ctx)
        if extra:
            found.setdefault(ctx.name, []).extend(extra)
    keys = {c.name: c.key for c in sc.scope.pods}
    return [Hit([EvidenceItem(keys.get(name, name), text) for text in dict.fromkeys(texts)], pod=keys.get(name))
            for name, texts in sorted(found.items())]
