"""Regenerate every bundle of the second blind set deterministically.

    python bench/blind2/build.py            # all scenarios
    python bench/blind2/build.py NAME ...   # only these

Each scenario is `bench/blind2/<name>/bundle/` (CONTRACT §2) plus `bench/blind2/<name>/expect.yaml`. The expected
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
    import b2_ci
    import b2_none
    import b2_rlark

    return [*b2_rlark.SCENARIOS, *b2_ci.SCENARIOS, *b2_none.SCENARIOS]


if __name__ == "__main__":
    raise SystemExit(build(HERE, all_scenarios(), sys.argv[1:]))
