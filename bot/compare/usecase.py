"""`compare A B`: read both runs, diagnose each with the same engine as `diagnose`, and compare them.

A is `job/NAME`; B is `job/NAME` or a Job YAML file (a planned run: only its spec is compared). Refused with a
usage error (exit 2): A and B the same Job, and a planned B that reuses A's name (RLark keeps one Job per name).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.compare.model import Comparison, RunRef
from bot.compare.outcome import outcome
from bot.compare.planned import load_job, looks_like_file
from bot.compare.runs import Run, digests, find_run
from bot.compare.sharing import shared, storage
from bot.compare.spec import spec_changes
from bot.compare.verdict import same_stage, still_running, verdict
from bot.diagnose import Diagnosis
from bot.errors import SourceError, UsageError
from bot.models import Evidence, Job, Target, TargetKind
from bot.models.evidence import echo
from bot.redact import Redactor
from bot.service import Service
from bot.sources import BundleSource, EvidenceSource, Gathered


@dataclass(frozen=True)
class Side:
    ref: RunRef
    job: Job
    evidence: Evidence
    run: Run | None = None
    diag: Diagnosis | None = None
    gathered: Gathered | None = None


def _job_target(text: str, which: str) -> Target:
    try:
        target = Target.parse(text)
    except ValueError as exc:
        raise UsageError(f"{which}: {exc}") from exc
    if target.kind is not TargetKind.JOB:
        raise UsageError(f"{which}: compare takes RLark Jobs (job/NAME), not {echo(text, 80)}")
    return target


def _read(target: Target, *, service: Service, source: EvidenceSource, now: datetime | None,
          gathered: Gathered | None = None) -> Side:
    """`gathered`: evidence already read that holds this target too (a bundle holds every Job)."""
    gathered = gathered or source.for_target(target)
    diag = service.diagnose(target, source=source, now=now, gathered=gathered)  # NotFound when it is not there
    evidence = gathered.evidence
    job = next((j for j in evidence.jobs if j.name == target.name), None)
    if job is None:  # found through its Tasks, but the Job object itself was not read
        raise SourceError(f"{target}: the Job object could not be read ({source.label}); compare needs its spec")
    return Side(ref=RunRef(name=job.name, cluster=diag.target_cluster), job=job, evidence=evidence,
                run=find_run(evidence, job), diag=diag, gathered=gathered)


def parse_sides(a_text: str, b_text: str) -> tuple[Target, Target | str]:
    """A's target, and B's target or B's file name; the refusals that need no evidence."""
    if looks_like_file(a_text):
        raise UsageError("A must be a Job (job/NAME); only B may be a planned run's YAML file")
    a = _job_target(a_text, "A")
    if looks_like_file(b_text):
        return a, b_text
    b = _job_target(b_text, "B")
    if b.name == a.name:
        raise UsageError(f"A and B are the same Job ({a}): compare a run with the run resubmitted after it")
    return a, b


def compare_runs(a_text: str, b_text: str, *, service: Service, source: EvidenceSource, now: datetime | None = None,
                 lang: str = "en") -> Comparison:
    a_target, b_spec = parse_sides(a_text, b_text)
    planned = None
    if isinstance(b_spec, str):
        planned = load_job(b_spec)
        if planned.name == a_target.name:
            raise UsageError(f"B ({echo(b_spec, 80)}) reuses A's name {a_target}: resubmit under a new Job name")
    a = _read(a_target, service=service, source=source, now=now)
    if planned is not None:
        b = Side(ref=RunRef(name=planned.name, planned=True, file=str(b_spec)), job=planned, evidence=a.evidence)
    else:
        assert isinstance(b_spec, Target)
        # A bundle is one snapshot of everything: both runs are read from the same one, once.
        again = a.gathered if isinstance(source, BundleSource) else None
        b = _read(b_spec, service=service, source=source, now=now, gathered=again)
    return build(a, b, lang=lang, redactor=service.redactor)


def build(a: Side, b: Side, *, lang: str, redactor: Redactor) -> Comparison:
    assert a.run is not None and a.diag is not None
    dig = (digests(a.run), digests(b.run) if b.run is not None else {})
    changes = spec_changes(a.job.spec, b.job.spec, names=(a.job.name, b.job.name), redactor=redactor,
                           digests=dig)
    out_a = outcome(a.diag, run=a.run, evidence=a.evidence)
    out_b = outcome(b.diag, run=b.run, evidence=b.evidence) if b.diag is not None and b.run is not None else None
    now = a.diag.now.strftime("%Y-%m-%dT%H:%M:%SZ")
    warnings = shared(storage(a.evidence, job=a.job, run=a.run), storage(b.evidence, job=b.job, run=b.run),
                      lang=lang)
    running = still_running(out_b, now=now, lang=lang)
    if running:
        warnings.append(running)
    created = (a.job.metadata.creation_timestamp, b.job.metadata.creation_timestamp)
    if out_b is not None and created[0] and created[1] and created[0] > created[1]:
        warnings.append("A 比 B 更晚创建：通常 B 是重新提交的那次运行" if lang == "zh"
                        else "A was created after B: B is usually the resubmission (the changes read A → B)")
    if out_b is None:
        warnings.append("B 是计划中的运行（YAML 文件）：只比较 spec" if lang == "zh"
                        else "B is a planned run (a YAML file): only its spec is compared")
    for side, name in ((a, "A"), (b, "B")):
        if side.diag is not None and side.diag.incomplete:
            warnings.append(f"{name} 的证据不完整" if lang == "zh"
                            else f"{name}'s evidence is incomplete: the outcome may miss something")
    return Comparison(a=a.ref, b=b.ref, changes=tuple(changes), outcome_a=out_a, outcome_b=out_b,
                      same_stage=same_stage(out_a, out_b), verdict=verdict(changes, a=out_a, b=out_b, lang=lang),
                      warnings=tuple(warnings), now=now)
