"""Read one Job YAML document with the line of every field, and refuse anything else in one line.

Bounded: the input is capped in bytes, aliases are refused while the document is composed (an alias bomb never
expands), nesting and node count are capped, and every YAML error is one line naming where it is.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import yaml
from yaml.composer import ComposerError
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from bot.errors import UsageError
from bot.models.evidence import echo

MAX_BYTES = 1 << 20  # a Job YAML is a few KiB; the creator's largest are far below this
MAX_DEPTH = 64
MAX_NODES = 50_000
API_VERSION = "rlinf.io/v1alpha1"
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


class DocumentError(UsageError):
    """The input is not one RLark Job document (exit 2)."""


def join(path: str, key: str | int) -> str:
    """`spec.tasks[0].nodeSelector["kubernetes.io/hostname"]`: a YAML path as the findings show it."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    if _PLAIN_KEY.fullmatch(key):
        return f"{path}.{key}" if path else key
    return f'{path}["{key}"]'


@dataclass
class JobDocument:
    """The Job as a plain tree, the 1-based line of each path (empty when it did not come from a file), and the
    text it was read from (scanned for credentials)."""

    data: dict[str, Any]
    origin: str
    text: str = ""
    lines: dict[str, int] = field(default_factory=dict)
    duplicates: list[tuple[str, int]] = field(default_factory=list)

    @property
    def name(self) -> str:
        meta = self.data.get("metadata")
        name = meta.get("name") if isinstance(meta, dict) else None
        return name if isinstance(name, str) else ""

    def line(self, path: str) -> int | None:
        """The line of `path`, else of its nearest parent that has one."""
        while path:
            if path in self.lines:
                return self.lines[path]
            cut = max(path.rfind("."), path.rfind("["))
            path = path[:cut] if cut > 0 else ""
        return None


_FAST = getattr(yaml, "CSafeLoader", None)  # libyaml's parser and composer, when PyYAML was built with it
_OPEN = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_CLOSE = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
_NODE = (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)


def _line(event: yaml.Event) -> str:
    mark = event.start_mark
    return f"line {mark.line + 1}: " if mark is not None else ""


def _alias(event: yaml.AliasEvent) -> DocumentError:
    return DocumentError(f"{_line(event)}the alias *{event.anchor} is not accepted: write the "
                         "value out (aliases can expand without bound, and RLark's creator never writes them)")


def _prescan(text: str) -> None:
    """Refuse aliases, deep nesting and too many nodes from the event stream, before anything is composed."""
    depth = count = 0
    for event in yaml.parse(text, Loader=_FAST or yaml.SafeLoader):
        if isinstance(event, yaml.AliasEvent):
            raise _alias(event)
        if isinstance(event, _NODE):
            count += 1
            if count > MAX_NODES:
                raise DocumentError(f"more than {MAX_NODES} YAML nodes: not a Job a person wrote; not read")
        if isinstance(event, _OPEN):
            depth += 1
            if depth > MAX_DEPTH:
                raise DocumentError(f"{_line(event)}nested more than {MAX_DEPTH} levels deep; not read")
        elif isinstance(event, _CLOSE):
            depth -= 1


def read_input(arg: str, *, stdin: BinaryIO | None = None) -> tuple[str, str]:
    """(text, origin) of FILE or `-` (stdin), at most MAX_BYTES, UTF-8."""
    if arg == "-":
        stream = stdin if stdin is not None else sys.stdin.buffer
        data = stream.read(MAX_BYTES + 1)
        origin = "stdin"
    else:
        path = Path(arg)
        origin = arg
        try:
            if not path.is_file():
                raise DocumentError(f"{echo(arg)}: no such file (give a Job YAML file, - for stdin, or job/NAME)")
            if path.stat().st_size > MAX_BYTES:
                raise DocumentError(f"{echo(arg)}: {path.stat().st_size / (1 << 20):.0f} MiB, more than the "
                                    f"{MAX_BYTES >> 20} MiB a Job YAML may have; not read")
            with path.open("rb") as f:
                data = f.read(MAX_BYTES + 1)
        except OSError as exc:
            raise DocumentError(f"{echo(arg)}: cannot read: {exc.strerror or exc}") from exc
    if len(data) > MAX_BYTES:
        raise DocumentError(f"{origin}: more than the {MAX_BYTES >> 20} MiB a Job YAML may have; not read")
    try:
        return data.decode("utf-8-sig"), origin
    except UnicodeDecodeError as exc:
        raise DocumentError(f"{origin}: not UTF-8 text (byte {exc.start}): a Job YAML is text") from exc


def parse(text: str, origin: str) -> JobDocument:
    """One Job document, or DocumentError (one line)."""
    if not text.strip():
        raise DocumentError(f"{origin}: empty: expected one RLark Job (apiVersion: {API_VERSION}, kind: Job)")
    loader = (_FAST or yaml.SafeLoader)(text)
    try:
        _prescan(text)
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except DocumentError as exc:
        raise DocumentError(f"{origin}: {exc}") from exc
    except ComposerError as exc:
        if "another document" in str(exc.problem) or "single document" in str(exc.context):
            line = exc.problem_mark.line + 1 if exc.problem_mark else 0
            raise DocumentError(f"{origin}: several YAML documents (another starts at line {line}): preflight "
                                "checks one Job at a time") from exc
        raise DocumentError(_yaml_error(exc, text=text, origin=origin)) from exc
    except yaml.YAMLError as exc:
        raise DocumentError(_yaml_error(exc, text=text, origin=origin)) from exc
    except RecursionError as exc:
        raise DocumentError(f"{origin}: nested too deeply; not read") from exc
    finally:
        loader.dispose()
    job = _require_job(data, origin)
    doc = JobDocument(data=job, origin=origin, text=text)
    if node is not None:
        _index(node, "", doc=doc)
    return doc


def _yaml_error(exc: yaml.YAMLError, *, text: str, origin: str) -> str:
    mark = getattr(exc, "problem_mark", None)
    problem = str(getattr(exc, "problem", "") or exc).splitlines()[0]
    if mark is None:
        return f"{origin}: not valid YAML: {problem}"
    lines = text.splitlines()
    for at in (mark.line, mark.line - 1):  # the scanner may stop on the line after the tab
        if 0 <= at < len(lines):
            indent = lines[at][: len(lines[at]) - len(lines[at].lstrip(" \t"))]
            if "\t" in indent:
                return f"{origin}: line {at + 1}: a tab in the indentation: YAML indents with spaces only"
    return f"{origin}: not valid YAML at line {mark.line + 1}, column {mark.column + 1}: {problem}"


def _require_job(data: Any, origin: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        what = "list" if isinstance(data, list) else "plain value"
        raise DocumentError(f"{origin}: a YAML {what}, not a Job object "
                            f"(apiVersion: {API_VERSION}, kind: Job)")
    kind, version = data.get("kind"), data.get("apiVersion")
    if (isinstance(kind, str) and kind.endswith("List")) or "items" in data:
        raise DocumentError(f"{origin}: a List: preflight checks one Job; save each Job to its own file")
    if kind != "Job":
        raise DocumentError(f"{origin}: kind {echo(str(kind), 40)}, not an RLark Job (apiVersion: {API_VERSION}, "
                            "kind: Job)")
    if version != API_VERSION:
        raise DocumentError(f"{origin}: apiVersion {echo(str(version), 40)}: an RLark Job is {API_VERSION} "
                            "(a batch/v1 Job is a plain Kubernetes Job)")
    return data


def _index(node: Node, path: str, *, doc: JobDocument) -> None:
    """Record the line of every path below `node`; note keys given twice (YAML keeps only the last)."""
    if isinstance(node, MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            key = str(key_node.value) if isinstance(key_node, ScalarNode) else "?"
            sub = join(path, key)
            if key in seen:
                doc.duplicates.append((sub, key_node.start_mark.line + 1))
            seen.add(key)
            doc.lines[sub] = key_node.start_mark.line + 1
            _index(value_node, sub, doc=doc)
    elif isinstance(node, SequenceNode):
        for i, item in enumerate(node.value):
            sub = join(path, i)
            doc.lines[sub] = item.start_mark.line + 1
            _index(item, sub, doc=doc)
