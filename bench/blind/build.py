"""Regenerate every blind evaluation bundle deterministically.

    python bench/blind/build.py            # all scenarios
    python bench/blind/build.py NAME ...   # only these

Each scenario is `bench/blind/<name>/bundle/` (CONTRACT §2) plus `bench/blind/<name>/expect.yaml`. The expected
answers were written from the seeds, CONTRACT and public failure reports only, before any run of the engine.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gen_k8s import Scenario  # noqa: E402


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def expect_yaml(s: Scenario) -> str:
    lines = [f"description: {_q(' '.join(s.description.split()))}", f"source: {_q(s.source)}",
             f"target: {s.target}"]
    if s.namespace:
        lines.append(f"namespace: {s.namespace}")
    lines.append(f"first: {s.first}")
    if s.last_stage:
        lines.append(f"last_stage: {s.last_stage}")
    if s.healthy:
        lines.append("healthy: true")
    return "\n".join(lines) + "\n"


def all_scenarios() -> list[Scenario]:
    import scenarios_ci
    import scenarios_none
    import scenarios_rlark
    import scenarios_rlark2
    import scenarios_rlark3

    out: list[Scenario] = []
    for mod in (scenarios_rlark, scenarios_rlark2, scenarios_rlark3, scenarios_ci, scenarios_none):
        out += mod.SCENARIOS
    names = [s.name for s in out]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise SystemExit(f"duplicate scenario names: {sorted(dup)}")
    return out


def table(scenarios: list[Scenario]) -> str:
    rows = ["| scenario | target | first | last_stage | source |", "|---|---|---|---|---|"]
    for s in scenarios:
        src = s.source.replace("|", "\\|")
        rows.append(f"| `{s.name}` | `{s.target}` | `{s.first}` | {s.last_stage or ''} | {src} |")
    return "\n".join(rows) + "\n"


def write_readme_table(scenarios: list[Scenario]) -> None:
    readme = HERE / "README.md"
    text = readme.read_text(encoding="utf-8")
    head, sep, _ = text.partition("## Scenarios\n")
    if sep:
        readme.write_text(head + sep + "\n" + table(scenarios), encoding="utf-8")


def main(argv: list[str]) -> int:
    wanted = set(argv)
    for s in all_scenarios():
        if wanted and s.name not in wanted:
            continue
        d = HERE / s.name
        bundle = d / "bundle"
        if bundle.exists():
            shutil.rmtree(bundle)
        bundle.mkdir(parents=True)
        s.write(bundle)
        (d / "expect.yaml").write_text(expect_yaml(s), encoding="utf-8")
    if not wanted:
        write_readme_table(all_scenarios())
    print(f"wrote {len(wanted) or len(all_scenarios())} scenario(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
