"""A planned run: one RLark Job document in a YAML file (`-` for stdin), read safely.

Not YAML, several documents, a List, another kind, anchors and aliases (an alias bomb costs nothing to write and
everything to expand) and files past a size limit are usage errors with one line.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml
from pydantic import ValidationError

from bot.errors import UsageError
from bot.models import Job
from bot.models.evidence import echo

MAX_BYTES = 1 << 20
API_GROUP = "rlinf.io/"


def looks_like_file(text: str) -> bool:
    """B names a file rather than a Job: `-`, a .yaml/.yml/.json name, or a path that exists."""
    return text == "-" or text.lower().endswith((".yaml", ".yml", ".json")) or Path(text).is_file()


def _read(path: str) -> str:
    if path == "-":
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
    else:
        p = Path(path)
        if not p.is_file():
            raise UsageError(f"{echo(path)}: no such file (B is job/NAME or a Job YAML file)")
        try:
            with p.open("rb") as fh:
                data = fh.read(MAX_BYTES + 1)
        except OSError as exc:
            raise UsageError(f"{echo(path)}: cannot read: {exc.strerror or exc}") from exc
    if len(data) > MAX_BYTES:
        raise UsageError(f"{echo(path)}: larger than {MAX_BYTES // 1024} KiB; a Job YAML is much smaller")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{echo(path)}: not UTF-8 text") from exc


def load_job(path: str) -> Job:
    text = _read(path)
    try:
        events = list(yaml.parse(text, Loader=yaml.SafeLoader))
        if any(isinstance(e, yaml.AliasEvent) for e in events):
            raise UsageError(f"{echo(path)}: YAML anchors and aliases are not accepted in a Job file")
        docs = [d for d in yaml.safe_load_all(text) if d is not None]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise UsageError(f"{echo(path)}: not valid YAML{where}") from exc
    if len(docs) != 1:
        raise UsageError(f"{echo(path)}: holds {len(docs)} documents; give exactly one Job")
    doc = docs[0]
    if not isinstance(doc, dict) or doc.get("kind") != "Job" or not str(doc.get("apiVersion", "")).startswith(
            API_GROUP):
        kind = doc.get("kind") if isinstance(doc, dict) else type(doc).__name__
        raise UsageError(f"{echo(path)}: not an RLark Job (rlinf.io/v1alpha1 kind Job), got {echo(str(kind), 40)}")
    try:
        return Job.model_validate(doc)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(x) for x in first.get("loc", ()))
        raise UsageError(f"{echo(path)}: {loc}: {first.get('msg', 'invalid')}") from exc
