"""Shared pieces for writing evidence bundles in the `kubectl cluster-info dump` layout.

Objects are plain dicts shaped like the API server returns them, so the bundles exercise the
reader exactly as a real dump would.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

Obj = dict[str, Any]


def stable_uid(*parts: str) -> str:
    """A deterministic UID so regenerated bundles do not churn."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "/".join(parts)))


def k8s_list(kind: str, items: Iterable[Obj], api_version: str = "v1") -> Obj:
    return {"kind": kind, "apiVersion": api_version, "metadata": {"resourceVersion": "1"}, "items": list(items)}


def meta(name: str, namespace: str | None = None, *, created: str, labels: Mapping[str, str] | None = None,
         annotations: Mapping[str, str] | None = None, uid: str | None = None) -> Obj:
    m: Obj = {"name": name, "uid": uid or stable_uid(namespace or "", name), "creationTimestamp": created,
              "resourceVersion": "1"}
    if namespace is not None:
        m["namespace"] = namespace
    if labels:
        m["labels"] = dict(labels)
    if annotations:
        m["annotations"] = dict(annotations)
    return m


def running(started: str) -> Obj:
    return {"running": {"startedAt": started}}


def waiting(reason: str, message: str = "") -> Obj:
    w: Obj = {"reason": reason}
    if message:
        w["message"] = message
    return {"waiting": w}


def terminated(exit_code: int, reason: str, started: str, finished: str, message: str = "") -> Obj:
    t: Obj = {"exitCode": exit_code, "reason": reason, "startedAt": started, "finishedAt": finished,
              "containerID": "containerd://" + stable_uid(reason, started, finished).replace("-", "")}
    if message:
        t["message"] = message
    return {"terminated": t}


def container_status(name: str, image: str, state: Obj, *, last_state: Obj | None = None, restarts: int = 0,
                     ready: bool | None = None) -> Obj:
    is_running = "running" in state
    return {
        "name": name,
        "image": image,
        "imageID": "" if "waiting" in state and restarts == 0 else f"{image.split(':')[0]}@sha256:{'ab' * 32}",
        "state": state,
        "lastState": last_state or {},
        "ready": is_running if ready is None else ready,
        "restartCount": restarts,
        "started": is_running,
    }


def condition(ctype: str, status: str, when: str, reason: str = "", message: str = "") -> Obj:
    c: Obj = {"type": ctype, "status": status, "lastTransitionTime": when, "lastProbeTime": None}
    if reason:
        c["reason"] = reason
    if message:
        c["message"] = message
    return c


def event(namespace: str, *, kind: str, name: str, uid: str, reason: str, message: str, first: str,
          last: str | None = None, etype: str = "Normal", count: int = 1, component: str = "kubelet",
          host: str = "") -> Obj:
    source: Obj = {"component": component}
    if host:
        source["host"] = host
    return {
        "kind": "Event",
        "apiVersion": "v1",
        "metadata": meta(f"{name}.{stable_uid(reason, message, first)[:16]}", namespace, created=first),
        "involvedObject": {"kind": kind, "namespace": namespace, "name": name, "uid": uid, "apiVersion": "v1"},
        "reason": reason,
        "message": message,
        "source": source,
        "firstTimestamp": first,
        "lastTimestamp": last or first,
        "count": count,
        "type": etype,
        "reportingComponent": component,
        "reportingInstance": host,
    }


def logs_txt(namespace: str, pod: str, containers: Mapping[str, str]) -> str:
    """One section per container between kubectl's START/END markers."""
    out: list[str] = []
    for cname, text in containers.items():
        out.append(f"==== START logs for container {cname} of pod {namespace}/{pod} ====\n")
        body = text if text.endswith("\n") or not text else text + "\n"
        out.append(body)
        out.append(f"==== END logs for container {cname} of pod {namespace}/{pod} ====\n")
    return "".join(out)


class BundleWriter:
    """Writes one bundle directory; call `cluster(...)` per cluster directory."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)

    def snapshot_yaml(self, captured_at: str, control_plane: str | None, clusters: list[str]) -> None:
        doc: Obj = {"capturedAt": captured_at, "clusters": clusters}
        if control_plane is not None:
            doc["controlPlane"] = control_plane
        (self.root / "snapshot.yaml").write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")

    def write_list(self, rel: str, kind: str, items: Iterable[Obj], api_version: str = "v1") -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(k8s_list(kind, items, api_version), indent=2, ensure_ascii=False) + "\n",
                        encoding="utf-8")

    def write_logs(self, rel_dir: str, namespace: str, pod: str, containers: Mapping[str, str], *,
                   previous: bool = False) -> None:
        path = self.root / rel_dir / namespace / pod
        path.mkdir(parents=True, exist_ok=True)
        fname = "previous-logs.txt" if previous else "logs.txt"
        (path / fname).write_text(logs_txt(namespace, pod, containers), encoding="utf-8")
