"""Regenerate every bundle of the third blind set deterministically.

    python bench/blind3/build.py            # all scenarios
    python bench/blind3/build.py NAME ...   # only these

Each scenario is `bench/blind3/<name>/bundle/` (CONTRACT §2) plus `bench/blind3/<name>/expect.yaml`. The expected
answers were written from the seeds, the contract and public failure reports, before any run of the engine. The
bundle writers are those of bench/blind (gen_k8s, gen_logs, gen_rlark, gen_ci); the situations are new.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.append(str(HERE.parent / "blind"))

from b3_common import Scenario  # noqa: E402


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


def all_scenarios() -> list[Scenario]:
    import b3_ci
    import b3_none_ci
    import b3_none_rlark
    import b3_rlark

    out: list[Scenario] = [*b3_rlark.SCENARIOS, *b3_ci.SCENARIOS, *b3_none_rlark.SCENARIOS, *b3_none_ci.SCENARIOS]
    names = [s.name for s in out]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise SystemExit(f"duplicate scenario names: {sorted(dup)}")
    return out


def table(scenarios: list[Scenario]) -> str:
    rows = ["| scenario | kind | target | first | also | last_stage | why |", "|---|---|---|---|---|---|---|"]
    for s in scenarios:
        why = s.why.replace("|", "\\|")
        also = ", ".join(f"`{a}`" for a in s.also)
        rows.append(f"| `{s.name}` | {s.kind} | `{s.target}` | `{s.first}` | {also} | {s.last_stage or ''} | {why} |")
    return "\n".join(rows) + "\n"


def write_readme_table(scenarios: list[Scenario]) -> None:
    readme = HERE / "README.md"
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


def check(s: Scenario) -> None:
    """Without running the engine: every .json is a List and the target object is in the bundle."""
    bundle = HERE / s.name / "bundle"
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


def main(argv: list[str]) -> int:
    wanted = set(argv)
    scenarios = all_scenarios()
    for s in scenarios:
        if wanted and s.name not in wanted:
            continue
        d = HERE / s.name
        bundle = d / "bundle"
        if bundle.exists():
            shutil.rmtree(bundle)
        bundle.mkdir(parents=True)
        s.write(bundle)
        compact(bundle)
        (d / "expect.yaml").write_text(expect_yaml(s), encoding="utf-8")
        check(s)
    if not wanted:
        write_readme_table(scenarios)
    print(f"wrote {len(wanted) or len(scenarios)} scenario(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
