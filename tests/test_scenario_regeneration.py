"""Re-running the scenario generators reproduces tests/scenarios/ and examples/ exactly, and deletes nothing
that another generator wrote (the generators are run on a copy, in a temporary tree)."""

from __future__ import annotations

import filecmp
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The RLark generator runs again at the end: a second run must not delete the CI generator's healthy-ci-*.
ORDER = ("rlark", "ci", "accuracy", "calm", "young", "rlark")


def _differences(cmp: filecmp.dircmp[str], where: str = "") -> list[str]:
    out = [f"{where}{n}: only in one tree" for n in cmp.left_only + cmp.right_only]
    out += [f"{where}{n}: differs" for n in cmp.diff_files + cmp.funny_files]
    for name, sub in cmp.subdirs.items():
        out += _differences(sub, f"{where}{name}/")
    return out


def test_regeneration_reproduces_scenarios_and_examples(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "__init__.py").touch()
    shutil.copytree(ROOT / "tests" / "scenariogen", tmp_path / "tests" / "scenariogen",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for module in ORDER:
        done = subprocess.run([sys.executable, "-m", f"tests.scenariogen.{module}"], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
    for rel in ("tests/scenarios", "examples"):
        # examples/preflight (Job YAMLs and an inventory, bench/preflight/gen.py) is not a generated scenario.
        ignore = ["__pycache__", "preflight"] if rel == "examples" else ["__pycache__"]
        cmp = filecmp.dircmp(str(tmp_path / rel), str(ROOT / rel), ignore=ignore)
        assert _differences(cmp) == [], rel
    assert any((tmp_path / "tests" / "scenarios").glob("healthy-ci-*"))
