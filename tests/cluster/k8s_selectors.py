"""Label and field selectors as the Kubernetes API server parses and applies them (for the stand-in)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Obj = dict[str, Any]
Predicate = Callable[[Obj], bool]


class SelectorError(ValueError):
    """Becomes a 400 Bad Request, as on a real API server."""


def _split_top_level(text: str) -> list[str]:
    """Split on commas that are not inside `in (...)` / `notin (...)` value sets."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


_SET = re.compile(r"^(?P<key>[^\s!=()]+)\s+(?P<op>in|notin)\s*\((?P<values>[^()]*)\)$")
_EQ = re.compile(r"^(?P<key>[^\s!=()]+)\s*(?P<op>==|=|!=)\s*(?P<value>[^\s!=(),]*)$")
_EXISTS = re.compile(r"^(?P<neg>!?)\s*(?P<key>[^\s!=(),]+)$")


def label_selector(text: str) -> Predicate:
    """`a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x,y)`, `a`, `!a`, comma-separated (all must hold)."""
    checks: list[Callable[[dict[str, str]], bool]] = []
    for req in _split_top_level(text):
        if m := _SET.match(req):
            key, values = m["key"], {v.strip() for v in m["values"].split(",") if v.strip()}
            if m["op"] == "in":
                checks.append(lambda labels, k=key, vs=values: labels.get(k) in vs)
            else:
                checks.append(lambda labels, k=key, vs=values: labels.get(k) not in vs)
        elif m := _EQ.match(req):
            key, value = m["key"], m["value"]
            if m["op"] == "!=":
                checks.append(lambda labels, k=key, v=value: labels.get(k) != v)
            else:
                checks.append(lambda labels, k=key, v=value: labels.get(k) == v)
        elif m := _EXISTS.match(req):
            key = m["key"]
            if m["neg"]:
                checks.append(lambda labels, k=key: k not in labels)
            else:
                checks.append(lambda labels, k=key: k in labels)
        else:
            raise SelectorError(f"unable to parse requirement: {req!r}")

    def match(obj: Obj) -> bool:
        labels = (obj.get("metadata") or {}).get("labels") or {}
        return all(check(labels) for check in checks)

    return match


COMMON_FIELDS = ("metadata.name", "metadata.namespace")
# Fields each core resource lets you select on (the ones the bot or a person's kubectl walk would use).
SELECTABLE: dict[str, tuple[str, ...]] = {
    "pods": (*COMMON_FIELDS, "spec.nodeName", "status.phase", "spec.restartPolicy", "status.podIP"),
    "events": (*COMMON_FIELDS, "involvedObject.kind", "involvedObject.name", "involvedObject.namespace",
               "involvedObject.uid", "involvedObject.apiVersion", "reason", "type"),
    "nodes": (*COMMON_FIELDS, "spec.unschedulable"),
}


def _field_value(obj: Obj, path: str) -> str:
    cur: Any = obj
    for part in path.split("."):
        cur = cur.get(part) if isinstance(cur, dict) else None
    if isinstance(cur, bool):
        return "true" if cur else "false"
    return "" if cur is None else str(cur)


def field_selector(text: str, plural: str, *, core: bool) -> Predicate:
    allowed = SELECTABLE.get(plural, COMMON_FIELDS) if core else COMMON_FIELDS
    checks: list[tuple[str, bool, str]] = []
    for req in (p.strip() for p in text.split(",") if p.strip()):
        m = re.match(r"^(?P<key>[^=!]+?)\s*(?P<op>==|=|!=)\s*(?P<value>.*)$", req)
        if not m:
            raise SelectorError(f"invalid field selector: {req!r}")
        if m["key"] not in allowed:
            raise SelectorError(f'field label not supported: {m["key"]}')
        checks.append((m["key"], m["op"] != "!=", m["value"]))

    def match(obj: Obj) -> bool:
        return all((_field_value(obj, key) == value) is equal for key, equal, value in checks)

    return match
