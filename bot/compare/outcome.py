"""One run's outcome, read from the diagnosis engine's answer (the same `Diagnosis` `diagnose` renders)."""

from __future__ import annotations

from bot.compare.durations import timed
from bot.compare.model import ErrorLines, Outcome
from bot.compare.runs import Run, placement
from bot.diagnose import Diagnosis, Finding
from bot.models import Evidence

CREDENTIALS = "rlark.risk.credentials-exposed"
LINES = 3


def first_case(findings: list[Finding]) -> str:
    """As the diagnosis reply's metadata: the first finding that is not the credentials warning (that one when it
    is the only finding), "none" when nothing matched."""
    for f in findings:
        if f.id != CREDENTIALS:
            return f.id
    return findings[0].id if findings else "none"


def _lines(f: Finding) -> ErrorLines | None:
    if not f.evidence:
        return None
    lines = tuple(dict.fromkeys(e.text for e in f.evidence))[:LINES]  # the same line from every pod: once
    return ErrorLines(source=f.evidence[0].source, lines=lines)


def stage_errors(findings: list[Finding]) -> dict[int, ErrorLines]:
    """For each stage a failure kept the run from reaching, the first finding's lines (ranked order)."""
    out: dict[int, ErrorLines] = {}
    for f in findings:
        if f.id == CREDENTIALS or f.stage in out:
            continue
        lines = _lines(f)
        if lines is not None:
            out[f.stage] = lines
    return out


def outcome(diag: Diagnosis, *, run: Run, evidence: Evidence) -> Outcome:
    fe = diag.first_error
    first = None if fe is None else ErrorLines(source=fe.source if fe.line is None else f"{fe.source}:{fe.line}",
                                               lines=(fe.text,))
    seconds, sources = timed(evidence, run, last_stage=diag.last_stage)
    return Outcome(
        phase=run.job.status.phase or diag.facts.job_phase,
        last_stage=diag.last_stage,
        first_error=first,
        case=first_case(diag.findings),
        cases=tuple(f.id for f in diag.findings),
        placement=placement(run),
        durations=seconds,
        stage_errors=stage_errors(diag.findings),
        stopped=run.job.spec.stopped,
        duration_sources=sources,
    )
