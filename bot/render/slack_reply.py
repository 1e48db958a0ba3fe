"""The diagnosis as a Slack thread reply (Block Kit), and the `chat.postMessage` arguments the CLI prints.

The first finding is the answer: title, severity, case id, symptom, its evidence in a code block, the next
steps, what not to do, whom to escalate to and the page it cites. The other findings follow one line each,
then the stage reached, what could not be read, the redaction count and the buttons. Each part has a budget
(bot.render.blocklimits); what does not fit is said, and the whole of it is in the evidence file attached
to the reply. Pure: every string is cleaned and redacted before it is escaped and cut.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from bot.redact import Redactor
from bot.render import blocklimits as lim
from bot.render.doc_links import linked
from bot.render.model import FindingView, Report
from bot.render.slack_actions import reply_buttons, target_value
from bot.render.slack_evidence import (
    evidence_file,
    evidence_file_name,
    evidence_lines,
    redaction_counts,
    redaction_line,
)
from bot.render.slack_labels import escalation, label, lang_index, severity
from bot.render.slack_message import (
    SlackMessage,
    context,
    divider,
    finish,
    header,
    section,
)
from bot.render.slack_text import clean, clean_line, code_line, cut, fit_lines, inline, mrkdwn

CREDENTIALS: Final = "rlark.risk.credentials-exposed"
EVENT_TYPE: Final = "rlark_diagnosis"
EMOJI: Final = {"critical": ":rotating_light:", "error": ":red_circle:", "warning": ":warning:",
                "info": ":information_source:", "none": ":white_check_mark:"}


class _Cuts:
    """The notes on what was left out, and whether there was any, so the reply attaches the file they
    point at."""

    def __init__(self, report: Report, lang: str) -> None:
        self.file = evidence_file_name(report)
        self.lang = lang
        self.any = False

    def note(self, key: str) -> Callable[[int], str]:
        return lambda n: "_" + mrkdwn(label(key, self.lang, n=n, file=self.file)) + "_"

    def clip(self, text: str, limit: int) -> str:
        """`text` cut to `limit`, remembered as a cut when it was one."""
        self.any = self.any or lim.slack_len(text) > limit
        return cut(text, limit)

    def fit(self, lines: Sequence[str], limit: int, *, key: str, max_lines: int | None = None) -> tuple[str, str]:
        """(the lines that fit, joined; the note on what was left out, or "")."""
        kept, left = fit_lines(lines, limit, more=self.note(key), max_lines=max_lines)
        self.any = self.any or left > 0
        return ("\n".join(kept[:-1]), kept[-1]) if left else ("\n".join(kept), "")

    def join(self, lines: Sequence[str], limit: int, *, key: str, max_lines: int | None = None) -> str:
        """The lines that fit with the note below them."""
        shown, note = self.fit(lines, limit, key=key, max_lines=max_lines)
        return f"{shown}\n{note}" if note else shown


def primary(findings: Sequence[FindingView]) -> FindingView | None:
    """The finding metadata reports: the first that is not the credentials case (that one when alone)."""
    for f in findings:
        if f.case != CREDENTIALS:
            return f
    return findings[0] if findings else None


def _target_line(report: Report, redactor: Redactor) -> str:
    where = "/".join(x for x in (report.target.cluster, report.target.namespace) if x)
    text = inline(clean_line(report.target_label, redactor))
    return text + (f" ({mrkdwn(clean_line(where, redactor))})" if where else "")


def _summary(report: Report, f: FindingView, redactor: Redactor, lang: str,
             cuts: _Cuts) -> list[dict[str, Any]]:
    sev = f.severity
    head = f"{EMOJI.get(sev, '')} {clean_line(f.title, redactor)}".strip()
    first = (f"*{mrkdwn(severity(sev, lang))}* · {inline(clean_line(f.case, redactor))} · "
             f"{_target_line(report, redactor)}")
    symptom = mrkdwn(clean(f.symptom, redactor))
    text = f"{first}\n{symptom}".rstrip()
    cuts.clip(head, lim.HEADER_TEXT)
    return [header(head), section(cuts.clip(text, lim.SUMMARY_SECTION))]


def _code_section(title: str, lines: list[str], *, budget: int, cuts: _Cuts) -> dict[str, Any]:
    """A titled code block of already-cleaned `lines`, cut at line ends; the note on what was left out
    goes below the block."""
    escaped = [code_line(line) for line in lines] or [" "]
    fence_cost = lim.slack_len(title) + len("\n```\n\n```\n")
    shown, note = cuts.fit(escaped, budget - fence_cost, key="more_lines")
    return section(f"{title}\n```\n{shown}\n```" + (f"\n{note}" if note else ""))


def _evidence(f: FindingView, redactor: Redactor, lang: str, cuts: _Cuts) -> list[dict[str, Any]]:
    if not f.evidence:
        return []
    lines = clean("\n".join(evidence_lines(f.evidence)), redactor).split("\n")
    return [_code_section(f"*{mrkdwn(label('evidence', lang))}*", lines, budget=lim.EVIDENCE_SECTION,
                          cuts=cuts)]


def _listed(title: str, items: Sequence[str], *, mark: Callable[[int], str], budget: int,
            redactor: Redactor, cuts: _Cuts) -> dict[str, Any] | None:
    if not items:
        return None
    lines = [f"{mark(i)} {mrkdwn(clean_line(s, redactor))}" for i, s in enumerate(items, 1)]
    body = cuts.join(lines, budget - lim.slack_len(title) - 3, key="more_items")
    return section(f"*{mrkdwn(title)}*\n{body}")


def _advice(f: FindingView, redactor: Redactor, lang: str, cuts: _Cuts,
            links: Mapping[str, str]) -> list[dict[str, Any]]:
    steps = _listed(label("next_steps", lang), f.next_steps, mark=lambda i: f"{i}.",
                    budget=lim.STEPS_SECTION, redactor=redactor, cuts=cuts)
    avoid = _listed(label("avoid", lang), f.avoid, mark=lambda i: ":no_entry_sign:",
                    budget=lim.AVOID_SECTION, redactor=redactor, cuts=cuts)
    who = f"*{mrkdwn(label('escalate', lang))}*: {mrkdwn(escalation(f.escalate_to, lang))}"
    sources = "; ".join(linked(s, mrkdwn(clean_line(s, redactor)), links) for s in f.sources)
    cite = f"*{mrkdwn(label('source', lang))}*: {sources}" if sources else ""
    return [b for b in (steps, avoid) if b] + [context([who, cite])]


def _others(findings: Sequence[FindingView], redactor: Redactor, lang: str,
            cuts: _Cuts) -> list[dict[str, Any]]:
    if not findings:
        return []
    lines = []
    for f in findings:
        sev = f.severity
        n = len(f.evidence)
        title = cuts.clip(mrkdwn(clean_line(f.title, redactor)), lim.TITLE_IN_TEXT)
        lines.append(f"• {EMOJI.get(sev, '')} *{mrkdwn(severity(sev, lang))}* "
                     f"{inline(clean_line(f.case, redactor))} — {title}"
                     f" _({mrkdwn(label('n_evidence', lang, n=n))})_")
    title = f"*{mrkdwn(label('others', lang))}*"
    body = cuts.join(lines, lim.OTHERS_SECTION - lim.slack_len(title) - 1, key="more_findings",
                     max_lines=lim.OTHERS_LINES)
    return [divider(), section(f"{title}\n{body}")]


def _quoted(report: Report, finding: FindingView) -> bool:
    """Whether the first finding's evidence already shows the report's first error (its line, from its log)."""
    fe = report.first_error
    if fe is None:
        return True
    head = fe.text.strip()[:80]  # evidence lines are clipped: their start is what both show
    return any(e.source == fe.source and head in e.text for e in finding.evidence)


def _first_error(report: Report, redactor: Redactor, lang: str, cuts: _Cuts) -> list[dict[str, Any]]:
    fe = report.first_error
    if fe is None:
        return []
    where = clean_line(fe.source + (f" line {fe.line}" if fe.line else ""), redactor)
    raw = "\n".join(fe.context) if fe.context else fe.text  # the numbered context holds the line itself
    title = f"*{mrkdwn(label('first_error', lang))}*: {mrkdwn(where)}"
    return [_code_section(title, clean(raw, redactor).split("\n"), budget=lim.FIRST_ERROR_SECTION,
                          cuts=cuts)]


def _names(names: Sequence[str], budget: int, cuts: _Cuts) -> str:
    """A comma-separated list within `budget`, ending with the note on how many were left out."""
    shown: list[str] = []
    for i, name in enumerate(names):
        rest = len(names) - i
        room = budget - lim.slack_len(cuts.note("more_items")(rest)) - 2
        if lim.slack_len(", ".join([*shown, name])) > (room if rest > 1 else budget):
            cuts.any = True
            return ", ".join(shown) + (" " if shown else "") + cuts.note("more_items")(rest)
        shown.append(name)
    return ", ".join(shown)


def _unread(report: Report, redactor: Redactor, lang: str, cuts: _Cuts) -> list[dict[str, Any]]:
    """What could not be read: the problems that make the report incomplete, and what was not collected."""
    parts: list[str] = []
    budget = lim.INCOMPLETE_SECTION
    if report.not_collected:
        title = f"*{mrkdwn(label('not_collected', lang))}*: "
        names = [mrkdwn(clean_line(n, redactor)) for n in report.not_collected]
        parts.append(title + _names(names, budget // 3 - lim.slack_len(title), cuts))
    if report.problems:
        title = f":warning: *{mrkdwn(label('incomplete', lang))}*:"
        lines = [cuts.clip(f"• {mrkdwn(clean_line(p, redactor))}", lim.LIST_LINE) for p in report.problems]
        room = budget - lim.slack_len(title) - sum(lim.slack_len(p) + 1 for p in parts) - 1
        parts.insert(0, f"{title}\n" + cuts.join(lines, room, key="more_items"))
    return [section("\n".join(parts))] if parts else []


def _status(report: Report, counts: Mapping[str, int], redactor: Redactor, lang: str) -> dict[str, Any]:
    stage = (f"*{mrkdwn(label('stage', lang))}*: {inline(clean_line(report.last_stage, redactor))}"
             f" ({mrkdwn(clean_line(report.last_stage_label, redactor))})")
    when = mrkdwn(label("as_of", lang, now=clean_line(report.now, redactor)))
    return context([stage, mrkdwn(redaction_line(counts, lang)), when])


def metadata(report: Report, *, counts: Mapping[str, int], redactor: Redactor) -> dict[str, Any]:
    """CONTRACT §5's `rlark_diagnosis` metadata."""
    findings = report.findings
    main = primary(findings)
    target = {k: clean_line(v, redactor) for k, v in report.target.fields().items()}
    return {"event_type": EVENT_TYPE, "event_payload": {
        "target": target,
        "case": clean_line(main.case, redactor) if main else "none",
        "severity": clean_line(main.severity, redactor) if main else "none",
        "cases": [clean_line(f.case, redactor) for f in findings],
        "last_stage": clean_line(report.last_stage, redactor),
        "incomplete": report.incomplete,
        "redactions": sum(counts.values()),
    }}


def fallback_text(report: Report, *, redactor: Redactor, lang: str) -> str:
    """The notification text: the first finding's case id and title, or that no known case matched."""
    target = clean_line(report.target_label, redactor)
    if report.findings:
        f = report.findings[0]
        title = cut(clean_line(f.title, redactor), lim.TITLE_IN_TEXT)
        text = f"{clean_line(f.case, redactor)} — {title} · {target} ({severity(f.severity, lang)})"
    else:
        stage = clean_line(report.last_stage, redactor)
        text = f"{label('no_case', lang)} · {target} · {label('stage', lang)}: {stage}"
    return cut(mrkdwn(text), lim.FALLBACK_TEXT)


def _no_case(report: Report, redactor: Redactor, lang: str) -> list[dict[str, Any]]:
    if not report.found:
        where = mrkdwn(clean(report.where, redactor))
        return [header(f":grey_question: {label('not_found', lang)}"),
                section(cut(f"{_target_line(report, redactor)}\n{where}", lim.SUMMARY_SECTION))]
    hint = label("no_case.healthy", lang) if report.healthy else ""
    return [header(f"{EMOJI['none']} {label('no_case', lang)}"),
            section(f"{_target_line(report, redactor)}\n{mrkdwn(hint)}".rstrip())]


def diagnosis_reply(report: Report, *, redactor: Redactor, lang: str,
                    counts: Mapping[str, int] | None = None, links: Mapping[str, str] | None = None) -> SlackMessage:
    """The thread reply for a diagnosis report (`bot.render.report.build_report`). `counts`: the report's
    redaction counts when the caller already has them (`redaction_counts` redacts the whole report once).
    `links`: `RLARK_BOT_DOC_URLS`, which make the sources links to their sections."""
    lang_index(lang)
    cuts = _Cuts(report, lang)
    counts = redaction_counts(report, redactor) if counts is None else counts
    findings = report.findings
    blocks: list[dict[str, Any]] = []
    if findings:
        f = findings[0]
        blocks += _summary(report, f, redactor, lang, cuts)
        blocks += _evidence(f, redactor, lang, cuts)
        if not _quoted(report, f):  # the earliest error line is the answer's own: say it when not already shown
            blocks += _first_error(report, redactor, lang, cuts)
        blocks += _advice(f, redactor, lang, cuts, links or {})
        blocks += _others(findings[1:], redactor, lang, cuts)
    else:
        blocks += _no_case(report, redactor, lang)
        blocks += _first_error(report, redactor, lang, cuts)
    blocks += _unread(report, redactor, lang, cuts)
    blocks.append(_status(report, counts, redactor, lang))
    main = primary(findings)
    blocks += reply_buttons(value=clean_line(target_value(report.target), redactor),
                            case=clean_line(main.case, redactor) if main else "none", lang=lang)
    return SlackMessage(text=fallback_text(report, redactor=redactor, lang=lang), blocks=finish(blocks),
                        metadata=metadata(report, counts=counts, redactor=redactor),
                        files=[evidence_file(report, redactor=redactor, counts=counts)] if cuts.any else [])


def slack_payload(report: Report, *, redactor: Redactor, lang: str) -> dict[str, Any]:
    """What `diagnose --format slack` prints: the `chat.postMessage` arguments of the diagnosis reply."""
    msg = diagnosis_reply(report, redactor=redactor, lang=lang)
    return {"text": msg.text, "blocks": msg.blocks, "metadata": msg.metadata}
