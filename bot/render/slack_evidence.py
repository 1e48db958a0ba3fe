"""Evidence for Slack: the excerpt lines of a finding, the one evidence file, and the redaction count.

The file holds everything the reply may have cut (every finding with all its evidence, next steps and what not
to do, the first error, what could not be read), so "see the file" is always true. The count is the one
`--format json` reports for the same diagnosis: masks in the contract object, each string redacted on its own,
plus credentials the report points at without quoting them.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence

from bot.redact import Redactor, seal
from bot.redact.masks import MASK
from bot.render import blocklimits as lim
from bot.render.model import EvidenceView, FindingView, Report, TargetView
from bot.render.report import contract_json
from bot.render.slack_labels import escalation, label, severity
from bot.render.slack_message import SlackFile
from bot.render.slack_text import clean, clean_line, cut

_MARK = MASK
_FILE_NAME = re.compile(r"[^a-z0-9.-]+")


def evidence_lines(evidence: Sequence[EvidenceView]) -> list[str]:
    """Raw (not yet redacted) lines: each source once per run of items from it, then each item's text and
    the log lines around it, indented."""
    lines: list[str] = []
    last: str | None = None
    for item in evidence:
        source = item.source
        if source and source != last:
            lines.append(source)
        last = source
        lines.append("  " + item.text)
        lines += ["    " + c for c in item.context]
    return lines


def redaction_counts(report: Report, redactor: Redactor) -> Counter[str]:
    """Values masked in the report, by kind, counted as `--format json` counts them."""
    shown = json.dumps(seal(contract_json(report), redactor).value, ensure_ascii=False)
    return Counter(_MARK.findall(shown)) + report.withheld


def redaction_line(counts: Mapping[str, int], lang: str) -> str:
    total = sum(counts.values())
    kinds = ", ".join(f"{k} x{n}" for k, n in sorted(counts.items()))
    return label("redactions", lang, n=total) + (f" ({kinds})" if kinds else "")


def file_name(what: str, target: TargetView) -> str:
    """`rlark-<what>-<kind>-<name>.txt`, lower-case letters, digits, dots and hyphens only."""
    stem = _FILE_NAME.sub("-", f"{target.kind}-{target.name}".lower()).strip("-")
    return f"rlark-{what}-{stem[:120] or 'target'}.txt"


def evidence_file_name(report: Report) -> str:
    return file_name("evidence", report.target)


def _finding_text(index: int, finding: FindingView, lang: str) -> list[str]:
    out = [f"{index}. [{severity(finding.severity, lang)}] {finding.case} — {finding.title}"]
    if finding.symptom:
        out.append(f"   {finding.symptom}")
    out += ["   " + line for line in evidence_lines(finding.evidence)]
    if finding.next_steps:
        out.append(f"   {label('next_steps', lang)}:")
        out += [f"     * {s}" for s in finding.next_steps]
    if finding.avoid:
        out.append(f"   {label('avoid', lang)}:")
        out += [f"     x {s}" for s in finding.avoid]
    who = escalation(finding.escalate_to, lang)
    cited = "; ".join(finding.sources)
    out.append(f"   {label('escalate', lang)}: {who} · {label('source', lang)}: {cited}")
    return [*out, ""]


def _tail_text(report: Report, lang: str) -> list[str]:
    out: list[str] = []
    fe = report.first_error
    if fe is not None:
        where = fe.source + (f" line {fe.line}" if fe.line else "")
        out += [f"{label('first_error', lang)}: {where}", "  " + fe.text]
        out += ["    " + c for c in fe.context]
        out.append("")
    if report.problems:
        out.append(f"{label('incomplete', lang)}:")
        out += [f"  ! {p}" for p in report.problems]
    if report.not_collected:
        out.append(f"{label('not_collected', lang)}: {', '.join(report.not_collected)}")
    return out


def evidence_file(report: Report, *, redactor: Redactor,
                  counts: Mapping[str, int] | None = None) -> SlackFile:
    """Every evidence excerpt with its source, in one redacted text file; `counts` (the report's
    `redaction_counts`) when the caller has them already."""
    lang = report.lang
    head = [f"{label('file.evidence', lang, target=report.target_label)} · {label('as_of', lang, now=report.now)}",
            f"{label('stage', lang)}: {report.last_stage} ({report.last_stage_label})", ""]
    body: list[str] = []
    for i, finding in enumerate(report.findings, 1):
        body += _finding_text(i, finding, lang)
    if not body:
        body = [label("file.none", lang), ""]
    content = clean("\n".join(head + body + _tail_text(report, lang)), redactor)
    content = cut(content, lim.FILE_CHARS - 80, mark="\n" + label("cut_file", lang))
    content += "\n" + redaction_line(redaction_counts(report, redactor) if counts is None else counts, lang) + "\n"
    return SlackFile(name=evidence_file_name(report), title=clean_line(head[0], redactor), content=content)
