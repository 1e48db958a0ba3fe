"""Slack's message limits as the Web API enforces them, so a message Slack would refuse is refused here too.

Only the limits a diagnosis bot can run into are checked: message text length, block count, section and
header text lengths, fields, context and actions element counts, button label/action_id/value lengths,
unique block ids and action ids, and the shape of message metadata. Errors carry JSON pointers the way
Slack's `invalid_blocks` answers do.
"""

from __future__ import annotations

import re
from typing import Any

MAX_TEXT = 40_000
MAX_BLOCKS = 50
MAX_VIEW_BLOCKS = 100
MAX_SECTION_TEXT = 3_000
MAX_FIELD_TEXT = 2_000
MAX_FIELDS = 10
MAX_HEADER_TEXT = 150
MAX_CONTEXT_ELEMENTS = 10
MAX_ACTIONS_ELEMENTS = 25
MAX_BUTTON_TEXT = 75
MAX_ACTION_ID = 255
MAX_BUTTON_VALUE = 2_000
MAX_BLOCK_ID = 255
EVENT_TYPE = re.compile(r"^[A-Za-z0-9_]+$")


class ApiError(Exception):
    """An `ok: false` answer: `error` is Slack's error string, `errors` the details Slack lists with it."""

    def __init__(self, error: str, errors: list[str] | None = None) -> None:
        super().__init__(error)
        self.error = error
        self.errors = errors or []

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": False, "error": self.error}
        if self.errors:
            out["errors"] = self.errors
            out["response_metadata"] = {"messages": [f"[ERROR] {e}" for e in self.errors]}
        return out


def _text_object(obj: Any, where: str, *, limit: int, plain_only: bool = False) -> list[str]:
    if not isinstance(obj, dict) or obj.get("type") not in ("plain_text", "mrkdwn"):
        return [f"must provide a text object of type plain_text or mrkdwn [json-pointer:{where}]"]
    if plain_only and obj["type"] != "plain_text":
        return [f"must be a plain_text object [json-pointer:{where}/type]"]
    text = obj.get("text")
    if not isinstance(text, str) or not text:
        return [f"must be more than 0 characters [json-pointer:{where}/text]"]
    if len(text) > limit:
        return [f"must be less than {limit + 1} characters [json-pointer:{where}/text]"]
    return []


def _button(element: dict[str, Any], where: str) -> list[str]:
    errors = _text_object(element.get("text"), f"{where}/text", limit=MAX_BUTTON_TEXT, plain_only=True)
    for key, limit in (("action_id", MAX_ACTION_ID), ("value", MAX_BUTTON_VALUE)):
        value = element.get(key)
        if value is not None and (not isinstance(value, str) or len(value) > limit):
            errors.append(f"must be less than {limit + 1} characters [json-pointer:{where}/{key}]")
    return errors


def _block(block: dict[str, Any], where: str) -> list[str]:
    kind = block.get("type")
    errors: list[str] = []
    if kind == "section":
        if "text" not in block and "fields" not in block:
            errors.append(f"must provide text or fields [json-pointer:{where}]")
        if "text" in block:
            errors += _text_object(block["text"], f"{where}/text", limit=MAX_SECTION_TEXT)
        fields = block.get("fields", [])
        if len(fields) > MAX_FIELDS:
            errors.append(f"must be at most {MAX_FIELDS} items [json-pointer:{where}/fields]")
        for i, item in enumerate(fields):
            errors += _text_object(item, f"{where}/fields/{i}", limit=MAX_FIELD_TEXT)
    elif kind == "header":
        errors += _text_object(block.get("text"), f"{where}/text", limit=MAX_HEADER_TEXT, plain_only=True)
    elif kind in ("context", "actions"):
        limit = MAX_CONTEXT_ELEMENTS if kind == "context" else MAX_ACTIONS_ELEMENTS
        elements = block.get("elements")
        if not isinstance(elements, list) or not 0 < len(elements) <= limit:
            errors.append(f"must have 1 to {limit} items [json-pointer:{where}/elements]")
            return errors
        action_ids: set[str] = set()
        for i, element in enumerate(elements):
            if kind == "actions" and isinstance(element, dict) and element.get("type") == "button":
                errors += _button(element, f"{where}/elements/{i}")
            action_id = element.get("action_id") if isinstance(element, dict) else None
            if action_id is not None and action_id in action_ids:
                errors.append(f"action_id must be unique [json-pointer:{where}/elements/{i}/action_id]")
            if isinstance(action_id, str):
                action_ids.add(action_id)
    return errors


def check_blocks(blocks: Any, *, limit: int = MAX_BLOCKS) -> None:
    """Raise `ApiError("invalid_blocks")` when `blocks` is not something Slack would accept in a message (`limit`:
    50 blocks in a message, 100 in a modal or Home view)."""
    if not isinstance(blocks, list):
        raise ApiError("invalid_blocks", ["must be an array [json-pointer:/blocks]"])
    errors: list[str] = []
    if len(blocks) > limit:
        errors.append(f"must be at most {limit} items [json-pointer:/blocks]")
    block_ids: set[str] = set()
    for i, block in enumerate(blocks):
        where = f"/blocks/{i}"
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            errors.append(f"must provide a type [json-pointer:{where}]")
            continue
        block_id = block.get("block_id")
        if block_id is not None:
            if not isinstance(block_id, str) or len(block_id) > MAX_BLOCK_ID:
                errors.append(f"must be less than {MAX_BLOCK_ID + 1} characters [json-pointer:{where}/block_id]")
            elif block_id in block_ids:
                errors.append(f"block_id must be unique [json-pointer:{where}/block_id]")
            else:
                block_ids.add(block_id)
        errors += _block(block, where)
    if errors:
        raise ApiError("invalid_blocks", errors)


def check_metadata(metadata: Any) -> None:
    """Raise `ApiError("invalid_metadata_format")` unless metadata is `{"event_type": str, "event_payload": {}}`."""
    if (not isinstance(metadata, dict) or not isinstance(metadata.get("event_type"), str)
            or not EVENT_TYPE.match(metadata["event_type"]) or not isinstance(metadata.get("event_payload"), dict)):
        raise ApiError("invalid_metadata_format")


def check_message(params: dict[str, Any], *, need_content: bool = True) -> None:
    """Check a message's text, blocks, attachments and metadata as `chat.postMessage` would."""
    text, blocks, attachments = params.get("text"), params.get("blocks"), params.get("attachments")
    if text is not None and not isinstance(text, str):
        raise ApiError("invalid_arguments", ["text must be a string [json-pointer:/text]"])
    if need_content and not text and not blocks and not attachments:
        raise ApiError("no_text")
    if isinstance(text, str) and len(text) > MAX_TEXT:
        raise ApiError("msg_too_long")
    if blocks is not None:
        check_blocks(blocks)
    if attachments is not None and (not isinstance(attachments, list)
                                    or not all(isinstance(a, dict) for a in attachments)):
        raise ApiError("invalid_attachments")
    if params.get("metadata") is not None:
        check_metadata(params["metadata"])
