"""Render through jinja2, then redact: nothing leaves as a plain str."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import jinja2

from bot.checks.alerts import Alert
from bot.diagnose.result import Diagnosis
from bot.models.times import rfc3339
from bot.redact import Redactor, SafeText, dump_json, seal
from bot.redact.masks import MASK
from bot.render.plain import plain
from bot.render.report import build_report, contract_json
from bot.render.slack_labels import escalation

FORMATS = ("text", "markdown", "json", "ticket")
_MARK = MASK


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("bot.render", "templates"), autoescape=False,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined)
    env.filters["dt"] = lambda d: rfc3339(d) if d else "-"
    env.filters["who"] = lambda who, zh: escalation(who, "zh" if zh else "en")  # whom to escalate to, in words
    return env


def _scrub(value: Any, redactor: Redactor) -> Any:
    """Redact every string inside a JSON-able structure, before it is serialised."""
    if isinstance(value, str):  # terminal escapes from logs never reach a script either
        return str(redactor.redact(plain(value)).text)
    if isinstance(value, list):
        return [_scrub(v, redactor) for v in value]
    if isinstance(value, dict):
        return {k: _scrub(v, redactor) for k, v in value.items()}
    return value


def redaction_counts(text: str) -> Counter[str]:
    """How many values the shown text has masked, by kind (masked upstream or here, counted once). Values
    the report points at without quoting them at all (credentials found in the evidence) are added apart."""
    return Counter(_MARK.findall(text))


def _summary(counts: Mapping[str, int], lang: str) -> str:
    total = sum(counts.values())
    kinds = ", ".join(f"{k} x{n}" for k, n in sorted(counts.items()))
    if lang == "zh":
        return f"已脱敏 {total} 处" + (f"（{kinds}）" if total else "")
    return f"redacted {total} value(s)" + (f" ({kinds})" if total else "")


def render_diagnosis(diag: Diagnosis, fmt: str, *, lang: str = "en", redactor: Redactor,
                     since_last_run: str = "") -> SafeText:
    """Text, markdown and ticket are for people: escapes and control characters from logs are dropped.
    `since_last_run`: the ticket's line on the change since the predecessor run, when one is known."""
    report = build_report(diag, lang, since_last_run=since_last_run)
    if fmt == "json":
        doc = _scrub(contract_json(report), redactor)
        shown = redaction_counts(json.dumps(doc, ensure_ascii=False))
        doc["redactions"] = sum((shown + report.withheld).values())
        return redactor.redact(json.dumps(doc, ensure_ascii=False, indent=2) + "\n").text
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    body = plain(_env().get_template(f"{fmt}.j2").render(r=report))
    safe = redactor.redact(body).text
    footer = redactor.redact(_summary(redaction_counts(safe) + report.withheld, lang) + "\n").text
    return redactor.safe_join([safe, footer])


def render_checks(alerts: list[Alert], fmt: str, *, redactor: Redactor) -> SafeText:
    """Alert keys and object references are identifiers the bot builds (CONTRACT §6): never masked. Every other
    string is redacted on its own, so a field name such as `key` cannot make its value look like a secret."""
    if fmt == "json":
        doc = {"alerts": [{"check": a.check, "key": a.key, "case": a.case, "object": str(a.object),
                           "severity": a.severity, "since": rfc3339(a.since) if a.since else None,
                           "summary": plain(a.described)} for a in alerts]}
        ids = [s for a in alerts for s in (a.key, str(a.object))]
        return dump_json(seal(doc, redactor, verbatim=ids), indent=2)
    body = plain(_env().get_template("checks.j2").render(alerts=alerts))
    return redactor.redact(body).text
