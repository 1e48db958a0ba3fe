"""The `[REDACTED:<kind>]` mask is written and read only in bot/redact (`bot.redact.masks`)."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.redact import Redactor
from bot.redact.masks import OPEN, kinds, mask

ROOT = Path(__file__).resolve().parents[2]


def test_the_mask_round_trips_and_is_what_the_redactor_writes() -> None:
    assert mask("github-token") == "[REDACTED:github-token]"
    assert kinds(f"a {mask('x')} b {mask('aws-secret')}") == ["x", "aws-secret"]
    assert kinds("nothing here") == [] and kinds("[REDACTED:] [REDACTED:Upper]") == []
    out = str(Redactor().redact("token ghp_" + "a1B2" * 9))
    assert OPEN in out and kinds(out), out


def _code_strings(tree: ast.AST) -> list[str]:
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_no_module_outside_the_redactor_spells_the_mask() -> None:
    offenders = []
    for path in sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "handlers").rglob("*.py")]):
        if path.is_relative_to(ROOT / "bot" / "redact"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any("[REDACTED:" in s for s in _code_strings(tree)):
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
