"""Inventory bundles for preflight: RLark Nodes, heartbeat Leases, Jobs, Domains and StorageClasses (CONTRACT §2).

`generate(root, clusters=50, nodes=100)` writes a bundle of `clusters` member clusters with `nodes` Nodes each
(8 GPUs, some used), fresh heartbeats, a few hundred existing Jobs, two Domains and each member's StorageClasses.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import yaml

CAPTURED = datetime(2026, 12, 3, 8, 0, 0, tzinfo=UTC)
RCLONE = "rclone.csi.veloxpack.io"
Obj = dict[str, Any]


def rfc3339(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def write_list(path: Path, kind: str, *, items: list[Obj]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"apiVersion": "v1", "kind": f"{kind}List", "items": items}, indent=1) + "\n",
                    encoding="utf-8")


def node(agent: str, name: str, *, labels: dict[str, str] | None = None, phase: str = "Online",
         unschedulable: bool = False, gpus: int = 8, gpus_used: int = 0, cpu: str = "96",
         cpu_used: str = "8", memory: str = "1000Gi", memory_used: str = "64Gi") -> Obj:
    return {"apiVersion": "rlinf.io/v1alpha1", "kind": "Node",
            "metadata": {"name": name, "namespace": f"rlark-{agent}",
                         "labels": {"rlark.io/cluster-id": f"rlark-{agent}", "rlark.io/agent-type": "Kubernetes",
                                    "kubernetes.io/hostname": name, **(labels or {})}},
            "spec": {"unschedulable": unschedulable},
            "status": {"phase": phase,
                       "capacity": {"cpu": cpu, "memory": memory, "nvidia.com/gpu": str(gpus)},
                       "allocatable": {"cpu": cpu, "memory": memory, "nvidia.com/gpu": str(gpus)},
                       "used": {"cpu": cpu_used, "memory": memory_used, "nvidia.com/gpu": str(gpus_used)}}}


def lease(agent: str, *, age_seconds: float) -> Obj:
    return {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
            "metadata": {"name": "heartbeat", "namespace": f"rlark-{agent}"},
            "spec": {"holderIdentity": f"agent-{agent}",
                     "renewTime": rfc3339(CAPTURED - timedelta(seconds=age_seconds))}}


def job(name: str, *, selector: dict[str, str], claim: str | None = None, phase: str = "Running") -> Obj:
    volumes = [{"name": "ckpt", "persistentVolumeClaim": {"claimName": claim}}] if claim else []
    return {"apiVersion": "rlinf.io/v1alpha1", "kind": "Job", "metadata": {"name": name},
            "spec": {"domain": "robotics", "tasks": [{
                "name": "actor", "head": True, "role": "Actor", "agentType": "Kubernetes", "nodeSelector": selector,
                "runScript": "python train.py",
                "kubernetes": {"workload": {"kind": "StatefulSet", "replicas": 1,
                                            "pvcStorageMap": {claim: "rclone-oss"} if claim else {},
                                            "template": {"spec": {"containers": [{"name": "main", "image": "x:1"}],
                                                                  "volumes": volumes}}}}}]},
            "status": {"phase": phase}}


def storage_classes() -> list[Obj]:
    return [{"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "rclone-oss"},
             "provisioner": RCLONE},
            {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "local-path"},
             "provisioner": "rancher.io/local-path"}]


def write_bundle(root: Path, *, nodes: dict[str, list[Obj]], leases: list[Obj], jobs: list[Obj],
                 domains: list[str], storage: dict[str, list[Obj]]) -> None:
    cp = "kcp"
    agents = sorted(nodes)
    (root / cp).mkdir(parents=True, exist_ok=True)
    (root / "snapshot.yaml").write_text(yaml.safe_dump(
        {"capturedAt": rfc3339(CAPTURED), "controlPlane": cp, "clusters": [cp, *agents]}, sort_keys=False),
        encoding="utf-8")
    write_list(root / cp / "jobs.rlinf.io.json", "Job", items=jobs)
    write_list(root / cp / "domains.rlinf.io.json", "Domain", items=[
        {"apiVersion": "rlinf.io/v1alpha1", "kind": "Domain", "metadata": {"name": d}} for d in domains])
    for agent in agents:
        write_list(root / cp / f"rlark-{agent}" / "nodes.rlinf.io.json", "Node", items=nodes[agent])
        write_list(root / cp / f"rlark-{agent}" / "leases.json", "Lease", items=
                   [le for le in leases if le["metadata"]["namespace"] == f"rlark-{agent}"])
        if agent in storage:
            write_list(root / agent / "storageclasses.storage.k8s.io.json", "StorageClass", items=storage[agent])
        else:
            (root / agent).mkdir(parents=True, exist_ok=True)


def generate(root: Path, *, clusters: int = 50, nodes: int = 100, jobs: int = 300) -> None:
    """A large inventory: every cluster's Nodes carry `rlinf.io/pool=<cluster>` and `rlinf.io/gpu=a100`."""
    per: dict[str, list[Obj]] = {}
    for c in range(clusters):
        agent = f"gpu-{c:02d}"
        per[agent] = [node(agent, f"{agent}-node-{i:03d}", labels={"rlinf.io/pool": agent, "rlinf.io/gpu": "a100"},
                           gpus_used=(i % 3) * 2, phase="Offline" if i % 50 == 49 else "Online")
                      for i in range(nodes)]
    existing = [job(f"run-{j:04d}", selector={"rlinf.io/pool": f"gpu-{j % clusters:02d}"}, claim=f"ckpt-{j}")
                for j in range(jobs)]
    write_bundle(root, nodes=per, leases=[lease(a, age_seconds=5) for a in per], jobs=existing,
                 domains=["robotics", "vision"], storage={a: storage_classes() for a in per})
