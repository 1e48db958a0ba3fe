"""`nodes SELECTOR`: every RLark Node whose labels carry all pairs, with cluster, phase, schedulable, free devices."""

from __future__ import annotations

import re
from typing import Any

from bot.errors import UsageError
from bot.models import RNode
from bot.models.evidence import echo
from bot.preflight.inventory import NODES, Inventory, agent_of_node
from bot.preflight.quantity import free, show
from bot.preflight.view import is_gpu_key
from bot.signals.selectors import usable

_KEY = re.compile(r"(?:[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?/)?[A-Za-z0-9](?:[A-Za-z0-9._-]{0,61}[A-Za-z0-9])?")
_VALUE = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9._-]{0,61}[A-Za-z0-9])?)?")


def parse_selector(text: str) -> dict[str, str]:
    """`k=v[,k2=v2]` (AND); raises UsageError (exit 2) naming the malformed pair."""
    if not text.strip():
        raise UsageError("empty selector: give key=value pairs, e.g. kubernetes.io/hostname=gpu-node-1")
    out: dict[str, str] = {}
    for pair in text.split(","):
        key, sep, value = pair.strip().partition("=")
        value = value[1:] if value.startswith("=") else value  # k==v, as kubectl allows
        if not sep or key.endswith("!"):
            raise UsageError(f"selector pair {echo(pair.strip(), 80)} is not key=value (only equality, AND-ed "
                             "with commas)")
        if not _KEY.fullmatch(key) or not _VALUE.fullmatch(value):
            raise UsageError(f"selector pair {echo(pair.strip(), 80)}: not a Kubernetes label key and value")
        if key in out:
            raise UsageError(f"selector names {key} twice: a Node label has one value")
        out[key] = value
    return out


def free_devices(node: RNode) -> dict[str, str]:
    st = node.status
    keys = sorted(k for k in st.allocatable if is_gpu_key(k))
    return {k: show(free(st.allocatable, st.used, key=k)) for k in keys}


def nodes_json(selector: dict[str, str], inv: Inventory) -> dict[str, Any]:
    matched = sorted(inv.matching(selector), key=lambda n: (agent_of_node(n), n.name))
    clusters = sorted({agent_of_node(n) for n in matched})
    return {
        "selector": selector,
        "nodes": [{"name": n.name, "cluster": agent_of_node(n), "phase": n.status.phase or "",
                   "schedulable": not n.spec.unschedulable, "usable": usable(n), "free": free_devices(n)}
                  for n in matched],
        "clusters": clusters,
        "one_cluster": len(clusters) == 1,
        "one_node": len(matched) == 1,
        "complete": not inv.lacks(NODES),
        "not_read": inv.gaps.get(NODES, []),
    }


def nodes_text(data: dict[str, Any]) -> str:
    rows = [("CLUSTER", "NODE", "PHASE", "SCHEDULABLE", "FREE")]
    for n in data["nodes"]:
        rows.append((n["cluster"], n["name"], n["phase"] or "?", "yes" if n["schedulable"] else "no",
                     ", ".join(f"{k}={v}" for k, v in n["free"].items()) or "-"))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r[:4], widths, strict=True)) + "  " + r[4] for r in rows]
    if not data["nodes"]:
        lines = []
    sel = ",".join(f"{k}={v}" for k, v in data["selector"].items())
    for why in data["not_read"]:
        lines.append(f"not read: {why} (the match below may be missing Nodes)")
    count, clusters = len(data["nodes"]), data["clusters"]
    lines.append(f"{sel}: {count} Node(s) in {len(clusters)} cluster(s)"
                 + (f" ({', '.join(clusters)})" if clusters else "")
                 + f"; exactly one cluster: {'yes' if data['one_cluster'] else 'no'}; "
                 f"exactly one Node: {'yes' if data['one_node'] else 'no'}")
    return "\n".join(lines) + "\n"
