"""A plain, language-resolved view of a Diagnosis: the one shape every format renders from."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.diagnose.result import Diagnosis, Finding
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


def _finding(f: Finding, lang: str) -> dict[str, Any]:
    return {
        "case": f.id,
        "title": f.case.title.pick(lang),
        "symptom": f.case.symptom.pick(lang),
        "severity": f.severity,
        "evidence": [{"source": e.source, "text": e.text, "context": list(e.context)} for e in f.evidence],
        "next_steps": [s.pick(lang) for s in f.case.next_steps],
        "avoid": [s.pick(lang) for s in f.case.avoid],
        "escalate_to": f.case.escalate_to,
        "sources": [f"{s.page} § {s.section}" for s in f.case.sources],
        "stage": STAGES[f.stage],
    }


def build_report(diag: Diagnosis, lang: str) -> dict[str, Any]:
    t = diag.target
    fe = diag.first_error
    return {
        "lang": lang,
        "target": {"kind": t.kind.value, "name": t.name, "namespace": diag.target_namespace,
                   "cluster": diag.target_cluster},
        "target_label": str(t),
        "found": diag.found,
        "where": diag.where,
        "now": diag.now.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "findings": [_finding(f, lang) for f in diag.findings],
        "healthy": diag.healthy,
        "last_stage": diag.last_stage,
        "last_stage_label": STAGE_LABELS[diag.last_stage][0 if lang == "zh" else 1],
        "incomplete": diag.incomplete,
        "problems": diag.problems,
        "not_collected": diag.not_collected,
        "first_error": None if fe is None else {"source": fe.source, "line": fe.line, "text": fe.text,
                                                "context": list(fe.context)},
        "facts": diag.facts,
        "withheld": Counter(e.withheld for f in diag.findings for e in f.evidence if e.withheld),
    }


def contract_json(report: dict[str, Any]) -> dict[str, Any]:
    """The object of CONTRACT §3, extended with `first_error` (the contract says the report gives it)."""
    return {
        "target": report["target"],
        "findings": [{k: f[k] for k in ("case", "title", "severity", "evidence", "next_steps", "avoid", "escalate_to")}
                     | {"evidence": [{"source": e["source"], "text": e["text"]} for e in f["evidence"]]}
                     for f in report["findings"]],
        "last_stage": report["last_stage"],
        "incomplete": report["incomplete"],
        "redactions": 0,
        "first_error": report["first_error"] and {k: report["first_error"][k] for k in ("source", "line", "text")},
    }
