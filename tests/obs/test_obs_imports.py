"""bot.obs is pure: the standard library, prometheus_client and the bot's redaction and sinks, nothing else."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

OBS = Path(__file__).resolve().parents[2] / "bot" / "obs"
ALLOWED_BOT = {"bot.obs", "bot.redact", "bot.sinks", "bot.errors"}


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_obs_imports_only_stdlib_prometheus_and_the_redaction_path() -> None:
    files = sorted(OBS.glob("*.py"))
    assert {p.name for p in files} >= {"__init__.py", "metrics.py", "logs.py"}
    for path in files:
        for name in imported(path):
            top = name.split(".")[0]
            if top == "bot":
                assert any(name == a or name.startswith(a + ".") for a in ALLOWED_BOT), (path.name, name)
            else:
                assert top in sys.stdlib_module_names or top in ("__future__", "prometheus_client"), \
                    (path.name, name)
