
"""Kubernetes and RLark object builders for the blind evaluation bundles.

Everything is deterministic: UIDs are uuid5 of a name, times are derived from one scenario clock.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

NS_UUID = uuid.UUID("6f1c2d2e-8a4b-4c1e-9a57-0b1e5c0d7a11")
Obj = dict[str, Any]


def uid(*parts: str) -> str:
    return str(uuid.uuid5(NS_UUID, "/".join(parts)))


def at(year: int, month: int, day: int, hour: int, minute: int = 0, second: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=UTC)


def ts(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def sec(n: float) -> timedelta:
    return timedelta(seconds=n)


def mins(n: float) -> timedelta:
    return timedelta(minutes=n)


def k8s_list(kind: str, api: str, items: list[Obj]) -> Obj:
    return {"kind": f"{kind}List", "apiVersion": api, "metadata": {"resourceVersion": "1"}, "items": items}


def write_json(path: Path, data: Obj) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def meta(name: str, created: datetime, namespace: str | None = None, **extra: Any) -> Obj:
    m: Obj = {"name": name, "uid": uid(namespace or "", name, ts(created)), "creationTimestamp": ts(created),
              "resourceVersion": "1"}
    if namespace is not None:
        m["namespace"] = namespace
    m.update({k: v for k, v in extra.items() if v})
    return m


# ---------------------------------------------------------------- container states

def running(t: datetime) -> Obj:
    return {"running": {"startedAt": ts(t)}}


def waiting(reason: str, message: str | None = None) -> Obj:
    w: Obj = {"reason": reason}
    if message:
        w["message"] = message
    return {"waiting": w}


def terminated(reason: str, code: int, start: datetime, end: datetime, message: str | None = None) -> Obj:
    t: Obj = {"exitCode": code, "reason": reason, "startedAt": ts(start), "finishedAt": ts(end),
              "containerID": "containerd://" + uid("ctr", reason, ts(start)).replace("-", "")[:32]}
    if message:
        t["message"] = message
    return {"terminated": t}


def cstatus(name: str, image: str, state: Obj, *, last: Obj | None = None, restarts: int = 0,
            pulled: bool = True) -> Obj:
    ready = "running" in state
    digest = "sha256:" + uid("img", image).replace("-", "")[:32] * 2
    return {
        "name": name, "image": image,
        "imageID": (image.split(":")[0] + "@" + digest) if pulled else "",
        "state": state, "lastState": last or {}, "ready": ready, "restartCount": restarts,
        "started": ready,
    }


def event(obj_kind: str, ns: str, name: str, obj_uid: str, reason: str, message: str, first: datetime,
          *, last: datetime | None = None, count: int = 1, etype: str = "Normal",
          component: str = "kubelet", host: str | None = None) -> Obj:
    last = last or first
    src: Obj = {"component": component}
    if host:
        src["host"] = host
    return {
        "kind": "Event", "apiVersion": "v1",
        "metadata": {"name": f"{name}.{uid(name, reason, ts(first)).replace('-', '')[:16]}",
                     "uid": uid("ev", name, reason, ts(first)), "creationTimestamp": ts(first),
                     "resourceVersion": "1", "namespace": ns},
        "involvedObject": {"kind": obj_kind, "namespace": ns, "name": name, "uid": obj_uid, "apiVersion": "v1"},
        "reason": reason, "message": message, "source": src,
        "firstTimestamp": ts(first), "lastTimestamp": ts(last), "count": count, "type": etype,
        "reportingComponent": component, "reportingInstance": host or "",
    }


def log_sections(ns: str, pod: str, sections: dict[str, str]) -> str:
    out = []
    for container, text in sections.items():
        out.append(f"==== START logs for container {container} of pod {ns}/{pod} ====")
        body = text.rstrip("\n")
        if body:
            out.append(body)
        out.append(f"==== END logs for container {container} of pod {ns}/{pod} ====")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- nodes

@dataclass
class NodeSpec:
    name: str
    labels: dict[str, str] = field(default_factory=dict)
    arch: str = "amd64"
    device: tuple[str, int] | None = ("nvidia.com/gpu", 8)
    used_device: int = 0
    cpu: str = "128"
    memory: str = "2113464612Ki"
    used_cpu: str = "2"
    used_memory: str = "4Gi"
    unschedulable: bool = False
    phase: str = "Online"          # RLark Node phase
    ready: bool = True              # member Node Ready condition
    not_ready_reason: str = "NodeStatusUnknown"
    not_ready_message: str = "Kubelet stopped posting node status."
    not_ready_since: datetime | None = None
    taints: list[Obj] = field(default_factory=list)
    ip: str = "10.0.1.11"
    created: datetime = field(default_factory=lambda: at(2026, 3, 2, 9, 16, 3))
    rlark_events: list[Obj] = field(default_factory=list)
    in_member: bool = True
    kernel: str = "5.15.0-119-generic"
    os_image: str = "Ubuntu 22.04.4 LTS"

    def all_labels(self) -> dict[str, str]:
        base = {"beta.kubernetes.io/arch": self.arch, "beta.kubernetes.io/os": "linux",
                "kubernetes.io/arch": self.arch, "kubernetes.io/hostname": self.name,
                "kubernetes.io/os": "linux"}
        base.update(self.labels)
        return base

    def resources(self) -> tuple[Obj, Obj]:
        cap: Obj = {"cpu": self.cpu, "memory": self.memory, "ephemeral-storage": "3750570088Ki", "pods": "110"}
        alloc: Obj = {"cpu": str(int(self.cpu) - 2), "memory": self.memory, "ephemeral-storage": "3456499955442",
                      "pods": "110"}
        if self.device:
            cap[self.device[0]] = str(self.device[1])
            alloc[self.device[0]] = str(self.device[1])
        return cap, alloc


def rlark_node(n: NodeSpec, agent: str) -> Obj:
    cap, alloc = n.resources()
    labels = n.all_labels()
    labels.update({"rlark.io/cluster-id": f"rlark-{agent}", "rlark.io/agent-type": "Kubernetes"})
    used: Obj = {"cpu": n.used_cpu, "memory": n.used_memory}
    if n.device:
        used[n.device[0]] = str(n.used_device)
    spec: Obj = {"agentType": "Kubernetes"}
    if n.unschedulable:
        spec["unschedulable"] = True
    status: Obj = {
        "phase": n.phase,
        "nodeInfo": {"architecture": n.arch, "kernelVersion": n.kernel, "agentVersion": "v0.4.2",
                     "operatingSystem": "linux"},
        "addresses": [{"type": "InternalIP", "address": n.ip}, {"type": "Hostname", "address": n.name}],
        "diskPressure": False, "capacity": cap, "allocatable": alloc, "used": used,
    }
    if n.rlark_events:
        status["events"] = n.rlark_events
    return {"kind": "Node", "apiVersion": "rlinf.io/v1alpha1",
            "metadata": meta(n.name, n.created, f"rlark-{agent}", labels=labels), "spec": spec, "status": status}


def member_node(n: NodeSpec, now: datetime) -> Obj:
    cap, alloc = n.resources()
    hb = ts(now - sec(24))
    since = ts(n.not_ready_since or n.created + timedelta(days=3))
    conds = [
        {"type": "MemoryPressure", "status": "False", "reason": "KubeletHasSufficientMemory",
         "message": "kubelet has sufficient memory available"},
        {"type": "DiskPressure", "status": "False", "reason": "KubeletHasNoDiskPressure",
         "message": "kubelet has no disk pressure"},
        {"type": "PIDPressure", "status": "False", "reason": "KubeletHasSufficientPID",
         "message": "kubelet has sufficient PID available"},
    ]
    if n.ready:
        conds.append({"type": "Ready", "status": "True", "reason": "KubeletReady",
                      "message": "kubelet is posting ready status"})
        for c in conds:
            c.update({"lastHeartbeatTime": hb, "lastTransitionTime": since})
    else:
        for c in conds:
            c.update({"status": "Unknown", "reason": n.not_ready_reason, "message": n.not_ready_message,
                      "lastHeartbeatTime": since, "lastTransitionTime": since})
        conds.append({"type": "Ready", "status": "Unknown", "reason": n.not_ready_reason,
                      "message": n.not_ready_message, "lastHeartbeatTime": since, "lastTransitionTime": since})
    spec: Obj = {"podCIDR": f"10.42.{int(n.ip.split('.')[-1]) % 250}.0/24"}
    taints = list(n.taints)
    if n.unschedulable:
        spec["unschedulable"] = True
        taints.append({"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule",
                       "timeAdded": ts(n.not_ready_since or now - timedelta(hours=5))})
    if taints:
        spec["taints"] = taints
    return {
        "kind": "Node", "apiVersion": "v1",
        "metadata": meta(n.name, n.created - sec(70), None, labels=n.all_labels(),
                         annotations={"node.alpha.kubernetes.io/ttl": "0",
                                      "volumes.kubernetes.io/controller-managed-attach-detach": "true"}),
        "spec": spec,
        "status": {
            "capacity": cap, "allocatable": alloc, "conditions": conds,
            "addresses": [{"type": "InternalIP", "address": n.ip}, {"type": "Hostname", "address": n.name}],
            "nodeInfo": {"architecture": n.arch, "kernelVersion": n.kernel, "osImage": n.os_image,
                         "containerRuntimeVersion": "containerd://1.7.22", "kubeletVersion": "v1.30.6",
                         "kubeProxyVersion": "v1.30.6", "operatingSystem": "linux"},
        },
    }


def lease(agent: str, renew: datetime) -> Obj:
    return {"kind": "Lease", "apiVersion": "coordination.k8s.io/v1",
            "metadata": meta("heartbeat", at(2026, 3, 2, 9, 15, 40), f"rlark-{agent}"),
            "spec": {"holderIdentity": uid("agent", agent), "leaseDurationSeconds": 30,
                     "acquireTime": ts(renew - timedelta(days=2, hours=3)),
                     "renewTime": renew.strftime("%Y-%m-%dT%H:%M:%S.000000Z"), "leaseTransitions": 7}}


@dataclass
class Scenario:
    name: str
    write: Callable[[Path], None]
    description: str
    source: str
    target: str
    first: str
    namespace: str | None = None
    last_stage: str | None = None
    healthy: bool = False
