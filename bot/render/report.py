"""Build the report (bot.render.model) from a Diagnosis, and the contract JSON of CONTRACT §3 from the report."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import TypedDict, get_args

from bot.diagnose.outcome import describe_outlived
from bot.diagnose.result import Diagnosis, Facts, Finding, FirstError
from bot.diagnose.young import describe
from bot.models import Target
from bot.models.refs import Lang
from bot.models.times import rfc3339
from bot.render.model import (
    EvidenceView,
    FactsView,
    FindingView,
    FirstErrorView,
    Report,
    TargetView,
)
from bot.runbook.schema import STAGES

STAGE_LABELS = {
    "submitted": ("已提交", "submitted"),
    "task-created": ("Task 已创建", "Task created"),
    "pod-created": ("Pod 已创建", "pod created"),
    "scheduled": ("已调度", "scheduled"),
    "containers-started": ("容器已启动", "containers started"),
    "rank-assigned": ("已分配 rank", "rank assigned"),
    "prepare-script": ("执行准备脚本", "prepare script"),
    "ray-cli-checked": ("Ray CLI 检查通过", "Ray CLI checked"),
    "ray-cluster-forming": ("Ray 集群组建中", "Ray cluster forming"),
    "ray-cluster-ready": ("Ray 集群就绪", "Ray cluster ready"),
    "run-script": ("执行运行脚本", "run script"),
    "training-signal": ("出现训练信号", "training signal"),
}
assert set(STAGE_LABELS) == set(STAGES)


class ContractEvidence(TypedDict):
    source: str
    text: str


class ContractFinding(TypedDict):
    case: str
    title: str
    severity: str
    evidence: list[ContractEvidence]
    next_steps: list[str]
    avoid: list[str]
    escalate_to: str


class ContractFirstError(TypedDict):
    source: str
    line: int | None
    text: str


class ContractReport(TypedDict):
    """CONTRACT §3's object, extended with `first_error` (the contract says the report gives it) and
    `not_collected`."""

    target: dict[str, str]
    findings: list[ContractFinding]
    last_stage: str
    incomplete: bool
    redactions: int
    first_error: ContractFirstError | None
    not_collected: list[str]  # what could not be read (lists, logs, clusters): "incomplete" says if it matters
    why_first: list[str]  # additive: why the first finding won (the ranking rule and what it explains)
    starting: bool  # additive: nothing failed and the target is still within the windows of starting


def _finding(f: Finding, lang: str, now: datetime) -> FindingView:
    # A wait still inside its window says so before the case's symptom: a note that the job is on its way.
    title, symptom = f.case.title.pick(lang), f.case.symptom.pick(lang)
    note = describe(f, lang, now) if f.starting else describe_outlived(f, lang)
    if note:
        symptom = f"{note}{'。' if lang == 'zh' else '. '}{symptom}"
    return FindingView(
        case=f.id,
        title=title,
        symptom=symptom,
        severity=f.severity,
        evidence=tuple(EvidenceView(source=e.source, text=e.text, context=e.context) for e in f.evidence),
        next_steps=tuple(s.pick(lang) for s in f.case.next_steps),
        avoid=tuple(s.pick(lang) for s in f.case.avoid),
        escalate_to=f.case.escalate_to,
        sources=tuple(f"{s.page} § {s.section}" for s in f.case.sources),
        stage=STAGES[f.stage],
    )


def _facts(fx: Facts) -> FactsView:
    return FactsView(job_phase=fx.job_phase, started=fx.started, ended=fx.ended, stopped=fx.stopped,
                     tasks=tuple(fx.tasks), pods=tuple(fx.pods), clusters=tuple(fx.clusters), nodes=tuple(fx.nodes),
                     images=tuple(fx.images), storage_classes=tuple(fx.storage_classes))


def _first_error(fe: FirstError | None) -> FirstErrorView | None:
    if fe is None:
        return None
    return FirstErrorView(source=fe.source, line=fe.line, text=fe.text, context=fe.context)


def _target(t: Target, diag: Diagnosis) -> TargetView:
    return TargetView(kind=t.kind.value, name=t.name, namespace=diag.target_namespace, cluster=diag.target_cluster)


def build_report(diag: Diagnosis, lang: str, *, since_last_run: str = "") -> Report:
    """`diag` in `lang` (zh or en): every text picked, every value checked against its vocabulary."""
    if lang not in get_args(Lang):
        raise ValueError(f"unknown language {lang!r}: use zh or en")
    return Report(
        lang=lang,
        target=_target(diag.target, diag),
        target_label=str(diag.target),
        found=diag.found,
        where=diag.where,
        now=rfc3339(diag.now),
        findings=tuple(_finding(f, lang, diag.now) for f in diag.findings),
        healthy=diag.healthy,
        last_stage=diag.last_stage,
        last_stage_label=STAGE_LABELS[diag.last_stage][0 if lang == "zh" else 1],
        incomplete=diag.incomplete,
        problems=tuple(diag.problems),
        not_collected=tuple(diag.not_collected),
        first_error=_first_error(diag.first_error),
        facts=_facts(diag.facts),
        withheld=Counter(e.withheld for f in diag.findings for e in f.evidence if e.withheld),
        since_last_run=since_last_run,
        why_first=tuple(diag.why_first),
        starting=diag.starting,
    )


def _contract_finding(f: FindingView) -> ContractFinding:
    return {"case": f.case, "title": f.title, "severity": f.severity,
            "evidence": [{"source": e.source, "text": e.text} for e in f.evidence],
            "next_steps": list(f.next_steps), "avoid": list(f.avoid), "escalate_to": f.escalate_to}


def contract_json(report: Report) -> ContractReport:
    """The object of CONTRACT §3 (not yet redacted; `redactions` is filled in by the caller that redacts)."""
    fe = report.first_error
    return {
        "target": report.target.fields(),
        "findings": [_contract_finding(f) for f in report.findings],
        "last_stage": report.last_stage,
        "incomplete": report.incomplete,
        "redactions": 0,
        "first_error": None if fe is None else {"source": fe.source, "line": fe.line, "text": fe.text},
        "not_collected": list(report.not_collected),
        "why_first": list(report.why_first),
        "starting": report.starting,
    }
