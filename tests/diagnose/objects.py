"""Small builders of evidence objects for the engine's unit tests: the shapes the API server sends."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from bot.models import Evidence, LogExcerpt, LogSource, Pod, Target
from bot.models.k8s import Event, Node
from bot.redact import Redactor
from bot.runbook import Runbook

NOW = datetime(2026, 11, 20, 8, 0, tzinfo=UTC)
CLUSTER = "ci-a"
NS = "runners"


def stamp(minutes_ago: float) -> str:
    return (NOW - timedelta(minutes=minutes_ago)).strftime("%Y-%m-%dT%H:%M:%SZ")


def node(name: str, *, labels: dict[str, str] | None = None, taints: list[dict[str, str]] | None = None,
         unschedulable: bool = False, allocatable: dict[str, str] | None = None, arch: str = "amd64") -> Node:
    n = Node.model_validate({
        "metadata": {"name": name, "labels": {"kubernetes.io/arch": arch, **(labels or {})}},
        "spec": {"unschedulable": unschedulable, "taints": taints or []},
        "status": {"allocatable": allocatable or {"cpu": "32", "memory": "128Gi", "pods": "110"},
                   "conditions": [{"type": "Ready", "status": "True"}], "nodeInfo": {"architecture": arch}}})
    n.cluster = CLUSTER
    return n


def pod(name: str, *, selector: dict[str, str] | None = None, requests: dict[str, str] | None = None,
        tolerations: list[dict[str, str]] | None = None, affinity: dict[str, Any] | None = None,
        node_name: str = "", phase: str = "Pending", created_minutes_ago: float = 20, uid: str = "",
        statuses: list[dict[str, Any]] | None = None) -> Pod:
    spec: dict[str, Any] = {"nodeName": node_name, "nodeSelector": selector or {},
                            "containers": [{"name": "main", "image": "busybox",
                                            "resources": {"requests": requests or {}}}]}
    if tolerations is not None:
        spec["tolerations"] = tolerations
    if affinity is not None:
        spec["affinity"] = affinity
    p = Pod.model_validate({
        "metadata": {"name": name, "namespace": NS, "uid": uid or f"uid-{name}",
                     "creationTimestamp": stamp(created_minutes_ago)},
        "spec": spec, "status": {"phase": phase, "containerStatuses": statuses or []}})
    p.cluster = CLUSTER
    return p


def event(obj: str, reason: str, message: str, *, kind: str = "Pod", minutes_ago: float = 10,
          uid: str = "", etype: str = "Warning", host: str = "") -> Event:
    e = Event.model_validate({
        "metadata": {"name": f"{obj}.{reason}", "namespace": NS},
        "involvedObject": {"kind": kind, "name": obj, "namespace": NS if kind != "Node" else "", "uid": uid},
        "reason": reason, "message": message, "type": etype, "count": 1,
        "firstTimestamp": stamp(minutes_ago), "lastTimestamp": stamp(minutes_ago), "source": {"host": host}})
    e.cluster = CLUSTER
    return e


def log(pod_name: str, text: str, *, container: str = "main", previous: bool = False) -> LogExcerpt:
    return LogExcerpt(source=LogSource(cluster=CLUSTER, namespace=NS, pod=pod_name, container=container,
                                       previous=previous), text=text)


def evidence(*objects: object) -> Evidence:
    ev = Evidence(captured_at=NOW, clusters=[CLUSTER])
    for o in objects:
        if isinstance(o, LogExcerpt):
            ev.logs.append(o)
        elif isinstance(o, Pod):
            ev.pods.append(o)
        elif isinstance(o, Node):
            ev.nodes.append(o)
        elif isinstance(o, Event):
            ev.events.append(o)
    return ev


def diagnose_pod(runbook: Runbook, ev: Evidence, name: str) -> Any:
    from bot.diagnose import diagnose

    return diagnose(ev, runbook, now=NOW, target=Target.parse(f"pod/{name}"), redactor=Redactor())
