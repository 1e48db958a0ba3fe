"""Load and cross-check every runbook file; errors name the file and the path inside it.

The runbooks ship inside the package as `bot/runbook/data/*.yaml` (package data, so a plain `pip install .`
carries them); in the repository that directory is a link to `runbooks/`, the one copy that is edited.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import resources
from pathlib import Path

import yaml
from pydantic import ValidationError

from bot.runbook.schema import Case, Runbook, RunbookFile

# libyaml's safe loader when PyYAML was built with it (same documents, several times faster), else the Python one.
_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# Found through importlib.resources, wherever the package is installed (a wheel in site-packages, an editable
# checkout); a package on the file system yields a real directory.
DEFAULT_DIR = Path(str(resources.files("bot.runbook") / "data"))


class RunbookError(ValueError):
    """A runbook file is malformed; the message is one line naming file and path."""


def _location(loc: tuple[int | str, ...], data: object) -> str:
    parts: list[str] = []
    node = data
    for key in loc:
        if isinstance(key, int) and isinstance(node, list) and key < len(node):
            item = node[key]
            case_id = item.get("id") if isinstance(item, dict) else None
            parts.append(f"[{key}]" + (f"({case_id})" if case_id else ""))
            node = item
        else:
            parts.append(f".{key}")
            node = node.get(key) if isinstance(node, dict) else None
    return "".join(parts).lstrip(".")


def load_file(path: Path) -> list[Case]:
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    except yaml.YAMLError as exc:
        raise RunbookError(f"{path.name}: not valid YAML: {str(exc).splitlines()[0]}") from exc
    try:
        return RunbookFile.model_validate(data).cases
    except ValidationError as exc:
        first = exc.errors()[0]
        where = _location(tuple(first["loc"]), data)
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise RunbookError(f"{path.name}: {where}: {first['msg']}{more}") from exc


def load_runbook(directory: Path | None = None, *, known_signals: Iterable[str] | None = None) -> Runbook:
    """Load `*.yaml` under `directory`; ids must be unique, references and signals must exist."""
    root = directory or DEFAULT_DIR
    files = sorted(root.glob("*.yaml"))
    if not files:
        raise RunbookError(f"{root}: no runbook files (*.yaml)")
    cases: dict[str, Case] = {}
    origin: dict[str, str] = {}
    for path in files:
        for case in load_file(path):
            if case.id in cases:
                raise RunbookError(f"{path.name}: {case.id}: duplicate id (first defined in {origin[case.id]})")
            cases[case.id] = case
            origin[case.id] = path.name
    signals = set(known_signals) if known_signals is not None else None
    for case in cases.values():
        for ref in case.supersedes:
            if ref not in cases:
                raise RunbookError(f"{origin[case.id]}: {case.id}.supersedes: unknown case id {ref!r}")
        if signals is None:
            continue
        for i, trig in enumerate(case.when):
            if trig.signal is not None and trig.signal not in signals:
                raise RunbookError(f"{origin[case.id]}: {case.id}.when[{i}].signal: unknown signal {trig.signal!r}")
    return Runbook(cases=cases)
