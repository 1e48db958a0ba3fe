"""Order findings so the first one answers "what is wrong, and what do I do next".

Safety first, always. Then real failures before informational notes, specific cases before catch-alls
(the Head waiting for nodes is what any worker failure looks like from the Head), a restarted container's
earlier failure before what its new instance shows, the earliest failing stage before
later ones (a worker that cannot reach the Head is explained by the Head that never scheduled), a case that
another matched case explains after it, catch-alls after specific cases, then severity and time. A
credential found in the evidence goes right after the failure cause, or first when nothing failed.
"""

from __future__ import annotations

from datetime import UTC, datetime

from bot.diagnose.result import SEVERITY_ORDER, Finding

FAILURE_SEVERITIES = ("critical", "error", "warning")
_NEVER = datetime.max.replace(tzinfo=UTC)


def _key(f: Finding) -> tuple[int, int, int, int, int, int, int, int, int, datetime, str]:
    return (
        0 if f.case.safety else 1,
        0 if f.severity in FAILURE_SEVERITIES else 1,
        1 if f.case.category == "alert" and not f.explains else 0,  # alerts describe; causes explain
        1 if f.explained_by else 0,  # a consequence after the earlier failure that explains it (explain.py)
        1 if f.case.generic else 0,  # "something failed here" after "this is what failed"
        1 if f.demoted else 0,  # explained by another matched case: after its explanation
        0 if f.earlier_instance else 1,  # a restarted container failed before everything its new instance shows
        f.stage,
        SEVERITY_ORDER[f.severity],
        f.when or _NEVER,
        f.id,
    )


def rank(findings: list[Finding]) -> list[Finding]:
    present = {f.id for f in findings}
    for f in findings:
        # Explained by a matched case (`supersedes`), unless that case is itself this one's consequence.
        f.demoted = any(f.id in g.case.supersedes and f.id not in g.explained_by for g in findings if g is not f)
        # An alert that explains a matched cause (an unhealthy NodePool behind "Insufficient") is the cause.
        f.explains = bool(present & set(f.case.supersedes))
    risks = sorted((f for f in findings if f.case.category == "risk"), key=_key)
    others = sorted((f for f in findings if f.case.category != "risk"), key=_key)
    lead = [f for f in others[:1] if f.case.safety]
    rest = others[len(lead):]
    if rest and rest[0].severity in FAILURE_SEVERITIES:
        return lead + rest[:1] + risks + rest[1:]
    return lead + risks + rest
