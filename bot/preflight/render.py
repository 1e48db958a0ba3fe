"""Preflight and nodes output: text (one line per finding, worst first) and JSON (CONTRACT §8), redacted."""

from __future__ import annotations

from typing import Any

from bot.preflight.catalog import RULES
from bot.preflight.findings import ERROR
from bot.preflight.run import PreflightReport
from bot.redact import Redactor, SafeText, dump_json, seal


def report_json(report: PreflightReport) -> dict[str, Any]:
    inv = report.inventory
    return {
        "job": report.job,
        "ready": report.ready,
        "findings": [{"rule": f.rule, "name": f.name, "severity": f.severity, "task": f.task, "field": f.field,
                      "line": f.line, "message": f.message, "source": f.source} for f in report.findings],
        "not_checked": [{"rule": s.rule, "name": RULES[s.rule].name, "why": s.why} for s in report.not_checked],
        "inventory": {"clusters": list(inv.clusters) if inv else [], "nodes": len(inv.nodes) if inv else 0,
                      "complete": inv.complete if inv else False},
    }


def report_text(report: PreflightReport) -> str:
    zh = report.lang == "zh"
    errors = sum(1 for f in report.findings if f.severity == ERROR)
    warnings = len(report.findings) - errors
    job = f"job/{report.job}" if report.job else report.origin
    origin = "" if report.origin == job else (f"（{report.origin}）" if zh else f" ({report.origin})")
    if zh:
        verdict = "可以提交" if report.ready else "不可提交"
        head = f"preflight {job}{origin}：{verdict}——{errors} 个错误，{warnings} 个警告"
    else:
        verdict = "READY" if report.ready else "NOT READY"
        head = f"preflight {job}{origin}: {verdict}, {errors} error(s), {warnings} warning(s)"
    lines = [head]
    for f in report.findings:
        where = f.field + (f" (line {f.line})" if f.line else "") if not zh else \
            f.field + (f"（第 {f.line} 行）" if f.line else "")
        task = f.task if f.task is not None else "(job)"
        lines.append(f"{'ERROR' if f.severity == ERROR else 'WARN '} {f.rule} {task}: {where}: {f.message} "
                     f"({f.source})")
    label = "未检查" if zh else "not checked"
    by_why: dict[str, list[str]] = {}
    for s in report.not_checked:
        by_why.setdefault(s.why, []).append(s.rule)
    for why, rules in by_why.items():
        lines.append(f"{label} {', '.join(dict.fromkeys(rules))}{'：' if zh else ': '}{why}")
    inv = report.inventory
    if inv is not None:
        state = ("完整" if zh else "complete") if inv.complete else ("不完整" if zh else "incomplete")
        clusters = ", ".join(inv.clusters) or "-"
        lines.append(f"清单：{len(inv.nodes)} 个 Node，已读集群 {clusters}（{state}）" if zh else
                     f"inventory: {len(inv.nodes)} Nodes, clusters read {clusters} ({state})")
    return "\n".join(lines) + "\n"


def render(report: PreflightReport, *, fmt: str, redactor: Redactor) -> SafeText:
    if fmt == "json":
        return dump_json(seal(report_json(report), redactor), indent=2)
    return redactor.redact(report_text(report)).text
