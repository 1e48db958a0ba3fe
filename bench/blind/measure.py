"""First-answer rate of `rlark-bot diagnose` on the held-out blind scenarios (bench/blind/*/expect.yaml).

Each scenario is diagnosed in a fresh process, exactly as a user would run it (`rlark-bot diagnose TARGET --snapshot
BUNDLE --format json`). The first answer is the case a Slack reply leads with (CONTRACT §5): the first finding that is
not `rlark.risk.credentials-exposed`, or that one when it is the only finding; `none` when nothing matched. A scenario
whose `first` is `none` (a healthy or still-starting job) is right when no finding is at error level or above.

    .venv/bin/python bench/blind/measure.py [--set DIR] [--json FILE] [--only SUBSTRING]

`--set DIR` measures another blind set of the same layout (e.g. bench/blind2); the default is bench/blind.

Nobody changes the engine to pass these scenarios: they measure what users will meet, not what the engine was shown.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
CREDENTIALS = "rlark.risk.credentials-exposed"
ERRORS = ("critical", "error")


@dataclass(frozen=True)
class Outcome:
    name: str
    expected: str
    answered: str
    right: bool
    healthy_expected: bool
    error_on_healthy: bool
    stage_expected: str | None
    stage: str | None
    failure: str = ""


def first_answer(findings: list[dict[str, object]]) -> str:
    cases = [str(f["case"]) for f in findings]
    others = [c for c in cases if c != CREDENTIALS]
    if others:
        return others[0]
    return cases[0] if cases else "none"


def run_one(directory: Path) -> Outcome:
    expect = yaml.safe_load((directory / "expect.yaml").read_text(encoding="utf-8"))
    expected = str(expect.get("first") or "none")
    healthy = bool(expect.get("healthy", False)) or expected == "none"
    command = [sys.executable, "-m", "bot.cli", "diagnose", str(expect["target"]),
               "--snapshot", str(directory / "bundle"), "--format", "json"]
    if expect.get("namespace"):
        command += ["--namespace", str(expect["namespace"])]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    stage_expected = expect.get("last_stage")
    if done.returncode != 0:
        return Outcome(directory.name, expected, f"(exit {done.returncode})", False, healthy, False,
                       stage_expected, None, done.stderr.strip()[:200])
    report = json.loads(done.stdout)
    findings: list[dict[str, object]] = report.get("findings", [])
    answered = first_answer(findings)
    errors = [f for f in findings if f.get("severity") in ERRORS]
    if expected == "none":
        right = not errors
    elif expected == CREDENTIALS:
        right = answered == expected or (bool(findings) and findings[0]["case"] == expected)
    else:
        right = answered == expected
    return Outcome(directory.name, expected, answered, right, healthy, healthy and bool(errors),
                   stage_expected, report.get("last_stage"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write every outcome to this file")
    parser.add_argument("--only", default="", help="only scenarios whose name holds this")
    parser.add_argument("--set", type=Path, default=HERE, metavar="DIR",
                        help="the blind set to measure: a directory of <scenario>/expect.yaml + bundle/ "
                             "(default: bench/blind)")
    args = parser.parse_args()
    dirs = sorted(p.parent for p in args.set.resolve().glob("*/expect.yaml") if args.only in p.parent.name)
    outcomes = [run_one(d) for d in dirs]
    width = max((len(o.name) for o in outcomes), default=10)
    for o in outcomes:
        mark = "ok  " if o.right else "MISS"
        extra = f"  [{o.failure}]" if o.failure else ""
        print(f"{mark} {o.name:<{width}}  expected {o.expected:<40} got {o.answered}{extra}")
    right = sum(o.right for o in outcomes)
    healthy = [o for o in outcomes if o.healthy_expected]
    staged = [o for o in outcomes if o.stage_expected]
    stage_right = sum(o.stage == o.stage_expected for o in staged)
    print()
    print(f"first answer right: {right}/{len(outcomes)} ({100 * right / max(len(outcomes), 1):.0f}%)")
    print(f"healthy or still starting given an error: {sum(o.error_on_healthy for o in healthy)}/{len(healthy)}")
    print(f"last stage right: {stage_right}/{len(staged)}")
    missed = Counter(o.expected for o in outcomes if not o.right)
    if missed:
        print("missed, by expected case: " + ", ".join(f"{c} x{n}" for c, n in missed.most_common()))
    if args.json:
        args.json.write_text(json.dumps([asdict(o) for o in outcomes], indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
