"""Regenerate every bundle of the fourth blind set deterministically.

    python bench/blind4/build.py            # all scenarios
    python bench/blind4/build.py NAME ...   # only these

Each scenario is `bench/blind4/<name>/bundle/` (CONTRACT §2) plus `bench/blind4/<name>/expect.yaml`. The expected
answers were written from the seeds, the contract and public failure reports, before any run of the engine. The
bundle writers and the build are bench/blind's (gen_*.py, setbuild.py); the situations are new.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.append(str(HERE.parent / "blind"))

from setbuild import Scenario, build  # noqa: E402


def all_scenarios() -> list[Scenario]:
    import b4_ci
    import b4_none_ci
    import b4_none_rlark
    import b4_rlark

    return [*b4_rlark.SCENARIOS, *b4_ci.SCENARIOS, *b4_none_rlark.SCENARIOS, *b4_none_ci.SCENARIOS]


if __name__ == "__main__":
    raise SystemExit(build(HERE, all_scenarios(), sys.argv[1:]))
