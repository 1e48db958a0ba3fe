"""Do the two runs share storage? A claim of the same name in the same cluster, or a hostPath of the same path on
overlapping Nodes, while neither Job is stopped (a planned run counts as about to run)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bot.compare.runs import Run
from bot.models import Evidence, Job
from bot.models.rlark import TaskSpec

ENDED = ("Succeeded", "Failed", "Stopped")


@dataclass
class Storage:
    active: bool
    claims: dict[str, set[str]] = field(default_factory=dict)  # claim name -> clusters of the tasks using it
    host_paths: dict[str, set[str]] = field(default_factory=dict)  # path -> Nodes of the tasks using it


def _volumes(task: TaskSpec) -> Iterable[dict[str, Any]]:
    wl = task.kubernetes.workload if task.kubernetes else None
    spec = wl.template.get("spec") if wl is not None and isinstance(wl.template, dict) else None
    volumes = spec.get("volumes") if isinstance(spec, dict) else None
    return [v for v in volumes if isinstance(v, dict)] if isinstance(volumes, list) else []


def _matching(evidence: Evidence, task: TaskSpec) -> tuple[set[str], set[str]]:
    """(clusters, Nodes) of the RLark Nodes whose labels carry every pair of the task's selector."""
    selector = task.node_selector or {}
    if not selector:
        return set(), set()
    hits = [n for n in evidence.rlark_nodes if all(n.metadata.labels.get(k) == v for k, v in selector.items())]
    return {n.cluster_id.removeprefix("rlark-") for n in hits}, {n.name for n in hits}


def storage(evidence: Evidence, *, job: Job, run: Run | None) -> Storage:
    active = not job.spec.stopped and job.status.phase not in ENDED
    out = Storage(active=active)
    for task in job.spec.tasks:
        cluster, nodes = run.placement_of(task.name) if run is not None else ("", ())
        clusters = {cluster} if cluster else set()
        where = set(nodes)
        if not where or not clusters:
            matched_clusters, matched_nodes = _matching(evidence, task)
            where = where or matched_nodes
            clusters = clusters or matched_clusters
        for v in _volumes(task):
            claim = v.get("persistentVolumeClaim")
            if isinstance(claim, dict) and isinstance(claim.get("claimName"), str):
                out.claims.setdefault(claim["claimName"], set()).update(clusters)
            host = v.get("hostPath")
            if isinstance(host, dict) and isinstance(host.get("path"), str):
                out.host_paths.setdefault(host["path"].rstrip("/") or "/", set()).update(where)
        wl = task.kubernetes.workload if task.kubernetes else None
        for claim_name in (wl.pvc_storage_map if wl is not None else {}):
            out.claims.setdefault(claim_name, set()).update(clusters)
    return out


def shared(a: Storage, b: Storage, *, lang: str) -> list[str]:
    if not (a.active and b.active):
        return []
    zh = lang == "zh"
    out = []
    for claim in sorted(set(a.claims) & set(b.claims)):
        ca, cb = a.claims[claim], b.claims[claim]
        if ca and cb and not ca & cb:
            continue
        out.append(f"A 与 B 使用同一个 PVC {claim}：两个运行会读写同一份数据" if zh
                   else f"both runs use the claim {claim}: they read and write the same data")
    for path in sorted(set(a.host_paths) & set(b.host_paths)):
        common = a.host_paths[path] & b.host_paths[path]
        if not common:
            continue
        nodes = ", ".join(sorted(common)[:5]) + (" …" if len(common) > 5 else "")
        out.append(f"A 与 B 在相同节点（{nodes}）上使用同一个 hostPath {path}" if zh
                   else f"both runs use the hostPath {path} on the same Nodes ({nodes})")
    return out
