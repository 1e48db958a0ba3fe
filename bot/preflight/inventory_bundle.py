"""The inventory from an evidence bundle (CONTRACT §2): only the files preflight needs are read."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from bot.bundle.errors import BundleError
from bot.bundle.files import find_list_file, load_json_models, load_list
from bot.errors import SourceError, UsageError
from bot.models import Lease, RNode
from bot.models.rlark import AGENT_NAMESPACE_PREFIX, HEARTBEAT_LEASE
from bot.preflight.inventory import DOMAINS, JOBS, LEASES, NODES, STORAGE, Inventory

M = TypeVar("M", bound=BaseModel)
STORAGE_STEMS = ("storageclasses.storage.k8s.io", "storageclasses")


def read_inventory(root: Path, *, now: datetime | None = None) -> Inventory:
    if not str(root).strip():
        raise UsageError("--snapshot needs a directory (got an empty value)")
    if not root.is_dir():
        raise SourceError(f"cannot read snapshot {root}: not a directory")
    try:
        return _read(root, now)
    except BundleError as exc:
        raise SourceError(f"cannot read snapshot {root}: {exc}") from exc
    except RecursionError as exc:
        raise SourceError(f"cannot read snapshot {root}: a file is nested too deeply") from exc


def _index(root: Path) -> dict[str, Any]:
    path = root / "snapshot.yaml"
    if not path.is_file():
        return {}
    try:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise BundleError(f"snapshot.yaml: not valid YAML: {str(exc).splitlines()[0]}") from exc
    return doc if isinstance(doc, dict) else {}


def _time(value: Any) -> datetime | None:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise BundleError(f"snapshot.yaml: capturedAt {value!r} is not a time") from None
    return None


def _models(path: Path, model: type[M], *, display: str) -> list[M]:
    fast = load_json_models(path, model)
    if fast is not None:
        return fast
    out: list[M] = []
    for i, item in enumerate(load_list(path, display)):
        try:
            out.append(model.model_validate(item))
        except ValidationError as exc:
            err = exc.errors()[0]
            raise BundleError(f"{display}: items[{i}].{'.'.join(str(p) for p in err['loc'])}: {err['msg']}") from exc
    return out


def _read(root: Path, now: datetime | None) -> Inventory:
    index = _index(root)
    cp_name = index.get("controlPlane")
    members = [str(c) for c in index.get("clusters") or [] if c != cp_name]
    cp_dir = root / str(cp_name) if cp_name else root
    captured = _time(index.get("capturedAt"))
    inv = Inventory(now=now or captured or datetime.now(UTC))
    cp_label = str(cp_name or "default")
    if not cp_dir.is_dir():
        for kind in (NODES, LEASES, JOBS, DOMAINS):
            inv.gap(kind, f"control plane {cp_label} not in the bundle")
        return inv
    inv.clusters.append(cp_label)
    _read_control_plane(root, cp_dir, inv=inv)
    agents = {n.cluster_id.removeprefix(AGENT_NAMESPACE_PREFIX) for n in inv.nodes}
    agents |= {le.namespace.removeprefix(AGENT_NAMESPACE_PREFIX) for le in inv.leases}
    for agent in sorted(agents | set(members)):
        directory = root / agent
        path = next((p for s in STORAGE_STEMS if (p := find_list_file(directory, s))), None) \
            if directory.is_dir() else None
        if path is None:
            why = f"{agent}/storageclasses.storage.k8s.io.json not in the bundle"
            inv.gap(f"{STORAGE}:{agent}", why)
            continue
        inv.clusters.append(agent)
        inv.storage_classes[agent] = load_list(path, str(path.relative_to(root)))
    return inv


def _read_control_plane(root: Path, cp_dir: Path, *, inv: Inventory) -> None:
    jobs = find_list_file(cp_dir, "jobs.rlinf.io")
    if jobs is None:
        inv.gap(JOBS, "jobs.rlinf.io.json not in the bundle")
    else:
        for obj in load_list(jobs, str(jobs.relative_to(root))):
            name = (obj.get("metadata") or {}).get("name")
            if isinstance(name, str):
                inv.jobs[name] = obj
    domains = find_list_file(cp_dir, "domains.rlinf.io")
    if domains is None:
        inv.gap(DOMAINS, "domains.rlinf.io.json not in the bundle")
    else:
        inv.domains = {str((o.get("metadata") or {}).get("name", "")) for o in load_list(
            domains, str(domains.relative_to(root)))}
    agent_dirs = sorted(p for p in cp_dir.iterdir() if p.is_dir() and p.name.startswith(AGENT_NAMESPACE_PREFIX)
                        and len(p.name) > len(AGENT_NAMESPACE_PREFIX))
    if not agent_dirs:
        inv.gap(NODES, "no rlark-<agent> namespace in the control plane's directory")
        inv.gap(LEASES, "no rlark-<agent> namespace in the control plane's directory")
    for ns_dir in agent_dirs:
        for stem, kind in (("nodes.rlinf.io", NODES), ("leases", LEASES)):
            path = find_list_file(ns_dir, stem)
            display = f"{ns_dir.relative_to(root)}/{stem}.json"
            if path is None:
                inv.gap(kind, f"{display} not in the bundle")
                continue
            if kind == NODES:
                for node in _models(path, RNode, display=display):
                    node.metadata.namespace = node.metadata.namespace or ns_dir.name
                    inv.nodes.append(node)
            else:
                for lease in _models(path, Lease, display=display):
                    lease.metadata.namespace = lease.metadata.namespace or ns_dir.name
                    if lease.name == HEARTBEAT_LEASE:
                        inv.leases.append(lease)
