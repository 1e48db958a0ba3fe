"""Reading one List file (`.json` or `.yaml`) with one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from bot.bundle.errors import BundleError


def find_list_file(directory: Path, stem: str) -> Path | None:
    for suffix in (".json", ".yaml", ".yml"):
        candidate = directory / f"{stem}{suffix}"
        if candidate.is_file():
            return candidate
    return None


def load_list(path: Path, display: str) -> list[dict[str, Any]]:
    """Items of a Kubernetes List; raises BundleError naming `display` and the defect."""
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BundleError(f"{display}: cannot read: {exc}") from exc
    try:
        doc: Any = json.loads(raw) if path.suffix == ".json" else yaml.safe_load(raw)
    except json.JSONDecodeError as exc:
        raise BundleError(f"{display}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from exc
    except yaml.YAMLError as exc:
        raise BundleError(f"{display}: not valid YAML: {str(exc).splitlines()[0]}") from exc
    if not isinstance(doc, dict) or not isinstance(doc.get("items"), list):
        raise BundleError(f"{display}: not a Kubernetes List (expected an object with an 'items' array)")
    kind = doc.get("kind", "")
    if kind and not str(kind).endswith("List"):
        raise BundleError(f"{display}: kind {kind!r} is not a List")
    items: list[dict[str, Any]] = doc["items"]
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise BundleError(f"{display}: items[{i}] is not an object")
    return items
