"""The diagnosis reply's buttons: action ids, and the target as a button value the app parses back.

The value is the target's string form: `job/<name>` for a RLark Job, `pod/<namespace>/<name>` or
`runner/<namespace>/<name>` for pods and EphemeralRunners (`pod/<name>` when the namespace is unknown).
Kubernetes names contain no `/`, so the form is unambiguous; `parse_target_value` turns it back into the
TARGET text and namespace a `/rlark diagnose TARGET --namespace NS` command would carry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

ACTION_TICKET: Final = "rlark_ticket"
ACTION_RERUN: Final = "rlark_rerun"
ACTION_EVIDENCE: Final = "rlark_evidence"
ACTION_IDS: Final = (ACTION_TICKET, ACTION_RERUN, ACTION_EVIDENCE)
ACTIONS_BLOCK: Final = "rlark_diagnosis_actions"

_PREFIX: Final = {"Job": "job", "Pod": "pod", "EphemeralRunner": "runner"}
_MAX_VALUE: Final = 330  # "runner/" + a 63-character namespace + a 253-character name, with room to spare


def target_value(target: Mapping[str, Any]) -> str:
    """The button value of §3's target object."""
    kind = str(target.get("kind", ""))
    prefix = _PREFIX.get(kind)
    if prefix is None:
        raise ValueError(f"unknown target kind {kind!r}")
    name = str(target.get("name", ""))
    namespace = str(target.get("namespace") or "")
    if prefix == "job" or not namespace:
        return f"{prefix}/{name}"
    return f"{prefix}/{namespace}/{name}"


def parse_target_value(value: str) -> tuple[str, str]:
    """(TARGET text, namespace) from a button value; a malformed value is refused with one line."""
    if len(value) > _MAX_VALUE:
        raise ValueError("button value too long to be a target")
    parts = value.split("/")
    if len(parts) == 2 and parts[0] in _PREFIX.values() and parts[1]:
        return value, ""
    if len(parts) == 3 and parts[0] in ("pod", "runner") and parts[1] and parts[2]:
        return f"{parts[0]}/{parts[2]}", parts[1]
    raise ValueError(f"not a target button value: {value[:80]!r}")


def target_label(target: Mapping[str, Any]) -> str:
    """How people write the target: `job/<name>`, `pod/<name>`, `runner/<name>`."""
    prefix = _PREFIX.get(str(target.get("kind", "")), str(target.get("kind", "")).lower() or "target")
    return f"{prefix}/{target.get('name', '')}"
