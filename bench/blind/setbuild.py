"""What every blind set shares: the scenario record, the seed labels, and the build (bundles, expect.yaml, checks,
the README table). A set's own `build.py` names its directory and its scenarios and calls `build`.

Bundle writers come from this directory (gen_k8s, gen_logs, gen_rlark, gen_ci); only the situations are each set's.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

S0 = "seeds/000_cc0ff76fc137d550.txt (RLark 训练任务与 Worker 排障)"
S1 = "seeds/001_133afc7681d5fa58.txt (RLark 首次运行问题排查)"
S3 = "seeds/003_c40242c02c0bfd09.txt (runner pod 任务失败案例参考)"


@dataclass
class Scenario:
    """One situation: how to write its bundle and what the right answer is."""

    name: str
    kind: str                      # rlark | ci | none
    write: Callable[[Path], None]
    description: str
    why: str                       # one line: the seed section or public report the answer follows
    target: str
    first: str
    namespace: str | None = None
    last_stage: str | None = None
    also: list[str] = field(default_factory=list)   # alternates the contract genuinely allows
    healthy: bool = False


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def expect_yaml(s: Scenario) -> str:
    lines = [f"description: {_q(' '.join(s.description.split()))}", f"why: {_q(s.why)}", f"kind: {s.kind}",
             f"target: {s.target}"]
    if s.namespace:
        lines.append(f"namespace: {s.namespace}")
    lines.append(f"first: {s.first}")
    if s.also:
        lines.append("also: [" + ", ".join(s.also) + "]")
    if s.last_stage:
        lines.append(f"last_stage: {s.last_stage}")
    if s.healthy:
        lines.append("healthy: true")
    return "\n".join(lines) + "\n"


def unique(scenarios: list[Scenario]) -> list[Scenario]:
    """`scenarios`, refused when two share a name."""
    names = [x.name for x in scenarios]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise SystemExit(f"duplicate scenario names: {sorted(dup)}")
    return scenarios


def table(scenarios: list[Scenario]) -> str:
    rows = ["| scenario | kind | target | first | also | last_stage | why |", "|---|---|---|---|---|---|---|"]
    for s in scenarios:
        why = s.why.replace("|", "\\|")
        also = ", ".join(f"`{a}`" for a in s.also)
        rows.append(f"| `{s.name}` | {s.kind} | `{s.target}` | `{s.first}` | {also} | {s.last_stage or ''} | {why} |")
    return "\n".join(rows) + "\n"


def write_readme_table(here: Path, scenarios: list[Scenario]) -> None:
    readme = here / "README.md"
    if not readme.exists():
        return
    text = readme.read_text(encoding="utf-8")
    head, sep, _ = text.partition("## Scenarios\n")
    if sep:
        counts = Counter(s.kind for s in scenarios)
        summary = (f"{len(scenarios)} scenarios: {counts['rlark']} RLark jobs with a failure, {counts['ci']} CI runner "
                   f"pods or EphemeralRunners with a failure, {counts['none']} healthy or still-starting targets.\n\n")
        readme.write_text(head + sep + "\n" + summary + table(scenarios), encoding="utf-8")


def _items(path: Path) -> list[dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not str(data.get("kind", "")).endswith("List") or not isinstance(data.get("items"), list):
        raise SystemExit(f"{path}: not a Kubernetes List")
    items: list[dict[str, Any]] = data["items"]
    return items


def compact(bundle: Path) -> None:
    """Store the Lists without indentation: the same objects in about half the bytes."""
    for path in bundle.rglob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


def check(here: Path, s: Scenario) -> None:
    """Without running the engine: every .json is a List and the target object is in the bundle."""
    bundle = here / s.name / "bundle"
    names: set[str] = set()
    for path in bundle.rglob("*.json"):
        items = _items(path)
        if path.name in ("jobs.rlinf.io.json", "pods.json", "ephemeralrunners.actions.github.com.json"):
            names |= {f"{path.name}:{i['metadata']['name']}" for i in items}
    kind, _, name = s.target.partition("/")
    wanted = {"job": "jobs.rlinf.io.json", "pod": "pods.json", "runner": "ephemeralrunners.actions.github.com.json"}
    if f"{wanted[kind]}:{name}" not in names:
        raise SystemExit(f"{s.name}: target {s.target} is not in its bundle")
    if not (bundle / "snapshot.yaml").is_file():
        raise SystemExit(f"{s.name}: no snapshot.yaml")


def build(here: Path, scenarios: list[Scenario], argv: list[str]) -> int:
    """Write the bundles and expect.yaml of `scenarios` (those named in `argv`, else all) under `here`, check them,
    and, for a whole build, refresh the README's table."""
    wanted = set(argv)
    unique(scenarios)
    for s in scenarios:
        if wanted and s.name not in wanted:
            continue
        d = here / s.name
        bundle = d / "bundle"
        if bundle.exists():
            shutil.rmtree(bundle)
        bundle.mkdir(parents=True)
        s.write(bundle)
        compact(bundle)
        (d / "expect.yaml").write_text(expect_yaml(s), encoding="utf-8")
        check(here, s)
    if not wanted:
        write_readme_table(here, scenarios)
    print(f"wrote {len(wanted) or len(scenarios)} scenario(s)")
    return 0
