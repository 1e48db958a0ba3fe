"""What the entry points beyond the slash command show: the pick-a-target menu of the message shortcut, the
global shortcut's modal, and their one-line notes. Nothing here holds anything but the bot's own words and
targets a person typed (every string goes through the redactor when sealed)."""

from __future__ import annotations

import json
from typing import Any, Final

from bot.redact import Redactor
from bot.render.slack_labels import label
from bot.render.slack_message import SlackMessage, section
from bot.render.slack_text import clean_line, cut, inline

PICK_ACTION: Final = "rlark_target_pick"
MODAL_CALLBACK: Final = "rlark_diagnose_submit"
MENU_OPTIONS: Final = 25
OPTION_TEXT: Final = 75



def text(key: str, lang: str) -> str:
    return label(f"entry.{key}", lang)


def note(key: str, *, lang: str) -> SlackMessage:
    body = text(key, lang)
    return SlackMessage(text=body, blocks=[section(body)])


def pick_value(target: str, thread: str) -> str:
    return json.dumps({"target": target, "thread": thread}, separators=(",", ":"))


def pick_menu(targets: list[str], *, thread: str, redactor: Redactor, lang: str) -> SlackMessage:
    """An ephemeral menu of the targets a message named; the choice diagnoses into that message's thread."""
    options = [{"text": {"type": "plain_text", "text": cut(clean_line(t, redactor), OPTION_TEXT), "emoji": False},
                "value": pick_value(t, thread)} for t in targets[:MENU_OPTIONS]]
    select = {"type": "static_select", "action_id": PICK_ACTION, "options": options,
              "placeholder": {"type": "plain_text", "text": text("pick.placeholder", lang)}}
    head = text("pick", lang)
    listed = ", ".join(inline(clean_line(t, redactor)) for t in targets[:MENU_OPTIONS])
    return SlackMessage(text=f"{head} {listed}", blocks=[{**section(head), "accessory": select}])


def _input(block_id: str, label: str, element: dict[str, Any], *, optional: bool = False) -> dict[str, Any]:
    return {"type": "input", "block_id": block_id, "optional": optional,
            "label": {"type": "plain_text", "text": label}, "element": element}


def diagnose_modal(*, lang: str) -> dict[str, Any]:
    """The global shortcut's modal: where to answer, the target, its namespace and the language."""
    langs = [{"text": {"type": "plain_text", "text": name}, "value": value}
             for value, name in (("en", "English"), ("zh", "中文"))]
    initial = langs[0] if lang == "en" else langs[1]
    return {
        "type": "modal", "callback_id": MODAL_CALLBACK,
        "title": {"type": "plain_text", "text": text("modal.title", lang)},
        "submit": {"type": "plain_text", "text": text("modal.submit", lang)},
        "blocks": [
            _input("channel", text("modal.channel", lang),
                   {"type": "conversations_select", "action_id": "channel", "default_to_current_conversation": True,
                    "filter": {"include": ["public", "private"], "exclude_bot_users": True}}),
            _input("target", text("modal.target", lang),
                   {"type": "plain_text_input", "action_id": "target", "max_length": 300}),
            _input("namespace", text("modal.namespace", lang),
                   {"type": "plain_text_input", "action_id": "namespace", "max_length": 63}, optional=True),
            _input("lang", text("modal.lang", lang),
                   {"type": "static_select", "action_id": "lang", "options": langs, "initial_option": initial},
                   optional=True),
        ],
    }
