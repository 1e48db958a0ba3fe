"""mypy's API on a test's snippet, starting from the cache of the last `mypy bot handlers` in this checkout.

Checking a snippet that imports `bot` type-checks the modules it reaches and the standard library's stubs as well
(4-5 s of CPU from nothing). `scripts/test` runs mypy on the package first, so its cache holds all of them: a copy
of it lets mypy read what did not change since and check the snippet alone. mypy compares every cached module with
its source and checks again what differs, so the verdict is the one a cold run gives; without a cache to copy
(mypy not run yet in this checkout) it is a cold run.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path

from mypy import api as mypy_api

ROOT = Path(__file__).resolve().parents[1]
PYTHON = "3.11"  # pyproject's [tool.mypy] python_version: the cache is kept per version
REPO_CACHE = ROOT / ".mypy_cache" / PYTHON / "cache.db"


def copy_repo_cache(cache_dir: Path) -> bool:
    """A consistent copy of the checkout's mypy cache database into `cache_dir` (SQLite's backup, so a mypy run
    writing it meanwhile cannot hand over half a transaction); False when there is none to copy."""
    if not REPO_CACHE.is_file():
        return False
    target = cache_dir / PYTHON
    target.mkdir(parents=True, exist_ok=True)
    try:
        with closing(sqlite3.connect(f"file:{REPO_CACHE}?mode=ro", uri=True)) as source, \
                closing(sqlite3.connect(target / "cache.db")) as copy:
            source.backup(copy)
    except sqlite3.Error:
        (target / "cache.db").unlink(missing_ok=True)
        return False
    return True


def run_mypy(snippet: Path, *, cache_dir: Path, options: Sequence[str] = ()) -> tuple[str, int]:
    """(mypy's report, its exit status) for `snippet` under --strict and the project's mypy settings (the
    pyproject.toml where the tests run, as for `mypy bot handlers`)."""
    copy_repo_cache(cache_dir)
    out, _, status = mypy_api.run(["--strict", "--cache-dir", str(cache_dir), "--python-version", PYTHON,
                                   *options, str(snippet)])
    return out, status
