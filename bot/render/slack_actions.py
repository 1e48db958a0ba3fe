"""The diagnosis reply's buttons: action ids, and the target as a button value the app parses back.

The value is the target's string form: `job/<name>` for a RLark Job, `pod/<namespace>/<name>` or
`runner/<namespace>/<name>` for pods and EphemeralRunners (`pod/<name>` when the namespace is unknown).
Kubernetes names contain no `/`, so the form is unambiguous; `parse_target_value` turns it back into the
TARGET text and namespace a `/rlark diagnose TARGET --namespace NS` command would carry.
"""

from __future__ import annotations

from typing import Any, Final

from bot.render.model import TargetKindName, TargetView
from bot.render.slack_labels import label
from bot.render.slack_message import actions, button

ACTION_TICKET: Final = "rlark_ticket"
ACTION_RERUN: Final = "rlark_rerun"
ACTION_EVIDENCE: Final = "rlark_evidence"
ACTION_TIMELINE: Final = "rlark_timeline"
ACTION_FEEDBACK: Final = "rlark_feedback"
ACTION_IDS: Final = (ACTION_TICKET, ACTION_RERUN, ACTION_EVIDENCE, ACTION_TIMELINE)
ACTIONS_BLOCK: Final = "rlark_diagnosis_actions"

_PREFIX: Final[dict[TargetKindName, str]] = {"Job": "job", "Pod": "pod", "EphemeralRunner": "runner"}
_MAX_VALUE: Final = 330  # "runner/" + a 63-character namespace + a 253-character name, with room to spare


def target_value(target: TargetView) -> str:
    """The button value of §3's target object."""
    prefix = _PREFIX[target.kind]
    if prefix == "job" or not target.namespace:
        return f"{prefix}/{target.name}"
    return f"{prefix}/{target.namespace}/{target.name}"


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


def target_label(target: TargetView) -> str:
    """How people write the target: `job/<name>`, `pod/<name>`, `runner/<name>`."""
    return f"{_PREFIX[target.kind]}/{target.name}"


def reply_buttons(*, value: str, case: str, lang: str) -> list[dict[str, Any]]:
    """Ticket, Re-run, Evidence, Timeline (value: the target, cleaned); then 👍 and 👎 (`rlark_feedback`, value
    `up|<case>` / `down|<case>`), each in a block of its own since one block's action ids must differ."""
    return [actions([button(action_id=ACTION_TICKET, text=label("btn.ticket", lang), value=value, style="primary"),
                     button(action_id=ACTION_RERUN, text=label("btn.rerun", lang), value=value),
                     button(action_id=ACTION_EVIDENCE, text=label("btn.evidence", lang), value=value),
                     button(action_id=ACTION_TIMELINE, text=label("btn.timeline", lang), value=value)],
                    block_id=ACTIONS_BLOCK),
            actions([button(action_id=ACTION_FEEDBACK, text=label("btn.helpful", lang), value=f"up|{case}")],
                    block_id=f"{ACTION_FEEDBACK}_up"),
            actions([button(action_id=ACTION_FEEDBACK, text=label("btn.wrong", lang), value=f"down|{case}")],
                    block_id=f"{ACTION_FEEDBACK}_down")]
