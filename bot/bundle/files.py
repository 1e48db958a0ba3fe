"""Reading one List file (`.json` or `.yaml`) with one-line errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Generic, TypeVar

import pydantic_core
import yaml
from pydantic import BaseModel, ConfigDict

from bot.bundle.errors import BundleError

M = TypeVar("M", bound=BaseModel)

MAX_LIST_BYTES = 512 << 20  # a List file larger than this is refused, not parsed into memory
MAX_DEPTH = 200  # JSON deeper than this is refused by the parser (its fixed limit); YAML is held to the same


def find_list_file(directory: Path, stem: str) -> Path | None:
    for suffix in (".json", ".yaml", ".yml"):
        candidate = directory / f"{stem}{suffix}"
        if candidate.is_file():
            return candidate
    return None


class _ListDocument(BaseModel, Generic[M]):
    """A Kubernetes List: its `kind` and `items`, nothing else of the document."""

    model_config = ConfigDict(extra="ignore")

    kind: Any = ""
    items: list[M]


def load_json_models(path: Path, model: type[M]) -> list[M] | None:
    """The items of a `.json` List validated straight from the file's bytes, in one pass of pydantic-core (no
    intermediate dicts). None when the file is anything but a well-formed List of valid items: `load_list` and
    the caller's own validation then say what is wrong, one line, exactly as without this path."""
    try:
        if path.suffix != ".json" or path.stat().st_size > MAX_LIST_BYTES:
            return None
        doc = _ListDocument[model].model_validate_json(path.read_bytes())  # type: ignore[valid-type]
    except (OSError, ValueError):  # ValidationError is a ValueError; so is the parser's depth limit
        return None
    if doc.kind and not str(doc.kind).endswith("List"):
        return None
    items: list[M] = doc.items
    return items


def load_list(path: Path, display: str) -> list[dict[str, Any]]:
    """Items of a Kubernetes List; raises BundleError naming `display` and the defect."""
    doc = _parse(path, display)
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


def _parse(path: Path, display: str) -> Any:
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise BundleError(f"{display}: cannot read: {exc}") from exc
    if size > MAX_LIST_BYTES:
        raise BundleError(f"{display}: {size / (1 << 20):.0f} MiB, more than the {MAX_LIST_BYTES >> 20} MiB "
                          "a list file may have; not read")
    too_deep = BundleError(f"{display}: nested more than {MAX_DEPTH} levels deep; not read")
    if path.suffix == ".json":
        try:
            # One parse, in the JSON parser of pydantic-core: faster than `json`, and bounded in depth.
            return pydantic_core.from_json(path.read_bytes())
        except OSError as exc:
            raise BundleError(f"{display}: cannot read: {exc}") from exc
        except ValueError as exc:
            if "recursion limit" in str(exc):
                raise too_deep from exc
            # Anything else: the standard parser says what is wrong (or reads what this one refused).
    try:
        raw = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise BundleError(f"{display}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})") \
            from exc
    except OSError as exc:
        raise BundleError(f"{display}: cannot read: {exc}") from exc
    try:
        doc: Any = json.loads(raw) if path.suffix == ".json" else yaml.safe_load(raw)
    except RecursionError as exc:
        raise too_deep from exc
    except json.JSONDecodeError as exc:
        raise BundleError(f"{display}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from exc
    except yaml.YAMLError as exc:
        raise BundleError(f"{display}: not valid YAML: {str(exc).splitlines()[0]}") from exc
    if deeper_than(doc, MAX_DEPTH):
        raise too_deep
    return doc


def _kids(node: Any) -> Iterator[Any]:
    values = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    return (v for v in values if isinstance(v, dict | list))


def deeper_than(doc: Any, limit: int) -> bool:
    """Whether containers in `doc` nest more than `limit` deep, or in a cycle (YAML aliases can make one).
    Iterative, and each shared object (an alias) is measured once: no recursion, no blow-up on hostile input."""
    height: dict[int, int] = {}
    stack: list[tuple[Any, Iterator[Any]]] = [(doc, _kids(doc))]
    on_path = {id(doc)}
    while stack:
        node, kids = stack[-1]
        for kid in kids:
            if id(kid) in on_path:
                return True
            if id(kid) not in height:
                if len(stack) >= limit:
                    return True
                stack.append((kid, _kids(kid)))
                on_path.add(id(kid))
                break
        else:
            stack.pop()
            on_path.discard(id(node))
            height[id(node)] = 1 + max((height[id(k)] for k in _kids(node)), default=0)
            if height[id(node)] > limit:
                return True
    return False
