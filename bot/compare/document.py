"""The comparison as the JSON object of CONTRACT §9 (not yet redacted: `render` seals it)."""

from __future__ import annotations

from typing import Any

from bot.compare.model import Comparison, ErrorLines, Outcome, SpecChange

OUTCOME_KEYS = ("phase", "last_stage", "first_error", "case", "cases", "placement", "durations", "duration_sources")


def _lines(e: ErrorLines | None) -> dict[str, Any] | None:
    return None if e is None else {"source": e.source, "lines": list(e.lines)}


def _change(c: SpecChange) -> dict[str, Any]:
    out: dict[str, Any] = {"task": c.task, "category": c.category, "field": c.field, "a": c.a, "b": c.b}
    if c.diff:
        out["diff"] = c.diff
    return out


def outcome_json(o: Outcome | None) -> dict[str, Any]:
    if o is None:  # a planned run: the keys are there, nothing is known yet
        return {**dict.fromkeys(OUTCOME_KEYS), "cases": [], "planned": True}
    fe = o.first_error
    return {
        "phase": o.phase,
        "last_stage": o.last_stage,
        "first_error": None if fe is None else {"source": fe.source, "text": fe.lines[0] if fe.lines else ""},
        "case": o.case,
        "cases": list(o.cases),
        "placement": {"clusters": list(o.placement.clusters), "nodes": list(o.placement.nodes),
                      "tasks": {t: {"cluster": c, "nodes": list(n)} for t, (c, n) in o.placement.tasks.items()}},
        "durations": dict(o.durations),
        "duration_sources": dict(o.duration_sources),  # stage -> where its time came from (durations.SOURCES)
    }


def document(c: Comparison) -> dict[str, Any]:
    ss = c.same_stage
    return {
        "a": c.a.fields(),
        "b": c.b.fields(),
        "spec_changes": [_change(x) for x in c.changes],
        "categories_changed": list(c.categories),
        "outcome": {"a": outcome_json(c.outcome_a), "b": outcome_json(c.outcome_b),
                    "cases_only_in_a": list(c.only_a), "cases_only_in_b": list(c.only_b)},
        "same_stage": None if ss is None else {"stage": ss.stage, "a": _lines(ss.a), "b": _lines(ss.b)},
        "verdict": c.verdict,
        "warnings": list(c.warnings),
        "now": c.now,
    }
