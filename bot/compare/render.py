"""A comparison as text, markdown or JSON, in Chinese or English; everything shown passes the redactor."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable

from bot.compare.document import document
from bot.compare.durations import FALLBACKS
from bot.compare.model import Comparison, ErrorLines, Outcome
from bot.redact import Redactor, SafeText, seal
from bot.render.output import redaction_counts
from bot.render.plain import plain
from bot.render.report import STAGE_LABELS

FORMATS = ("text", "markdown", "json")
WIDTH = 34
MAX_WIDTH = 56  # a longer A cell pushes only its own row's B cell

LABELS = {
    "title": ("比较", "compare"),
    "as_of": ("截至", "as of"),
    "verdict": ("结论", "verdict"),
    "warnings": ("警告", "warnings"),
    "changes": ("spec 变更", "spec changes"),
    "no_changes": ("提交的 spec 没有变化", "no change in the submitted spec"),
    "outcome": ("结果", "outcome"),
    "phase": ("阶段状态", "phase"),
    "last_stage": ("到达的阶段", "last stage"),
    "case": ("首个案例", "first case"),
    "clusters": ("集群", "clusters"),
    "nodes": ("节点", "nodes"),
    "first_error": ("首个错误", "first error"),
    "durations": ("各阶段耗时（秒）", "durations per stage (s)"),
    "only_a": ("仅 A 出现的案例", "cases only in A"),
    "only_b": ("仅 B 出现的案例", "cases only in B"),
    "same_stage": ("两者都到达的最远阶段", "the furthest stage both reached"),
    "no_error": ("（此阶段无错误）", "(no error at this stage)"),
    "planned": ("（计划中，尚未运行）", "(planned, not run)"),
    "job": ("Job 级", "job"),
    "redacted": ("已脱敏 {n} 处", "redacted {n} value(s)"),
    "from_objects": ("* 取自对象时间（Head 日志中没有带时间的 wrapper 标记）：是下限，不是测量值",
                     "* from object times (no timed wrapper marker in the Head's log): a bound, not a measurement"),
}


def _width(text: str) -> int:
    """Columns the text takes in a terminal: Chinese characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(2, width - _width(text))


def _table(rows: list[tuple[str, str, str]]) -> list[str]:
    label = max((_width(k) for k, _, _ in rows), default=0) + 2
    col = max(WIDTH, min(MAX_WIDTH, max((_width(a) for _, a, _ in rows), default=0) + 2))
    return [f"  {_pad(k, label)}{_pad(a, col)}{b}" for k, a, b in rows]


def _t(key: str, lang: str) -> str:
    return LABELS[key][0 if lang == "zh" else 1]


def _cell(o: Outcome | None, get: Callable[[Outcome], str], *, lang: str) -> str:
    return _t("planned", lang) if o is None else (get(o) or "-")


def _error(o: Outcome | None, lang: str) -> str:
    if o is None:
        return _t("planned", lang)
    fe = o.first_error
    return f"{fe.source}: {fe.lines[0]}" if fe is not None and fe.lines else "-"


def _rows(c: Comparison, lang: str) -> list[tuple[str, str, str]]:
    getters: list[tuple[str, Callable[[Outcome], str]]] = [
        ("phase", lambda o: o.phase),
        ("last_stage", lambda o: _stage(o.last_stage, lang)),
        ("case", lambda o: o.case),
        ("clusters", lambda o: ", ".join(o.placement.clusters)),
        ("nodes", lambda o: _some(o.placement.nodes)),
    ]
    return [(_t(k, lang), _cell(c.outcome_a, g, lang=lang), _cell(c.outcome_b, g, lang=lang)) for k, g in getters]


def _some(items: tuple[str, ...], limit: int = 3) -> str:
    """A long list (a thousand Nodes) shown by its first few and a count; JSON keeps all of them."""
    shown = ", ".join(items[:limit])
    return shown + (f", … +{len(items) - limit}" if len(items) > limit else "")


def _stage(stage: str, lang: str) -> str:
    """A stage id, with its name in Chinese for Chinese readers."""
    return f"{stage}（{STAGE_LABELS[stage][0]}）" if lang == "zh" and stage in STAGE_LABELS else stage


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def _timed(o: Outcome | None, stage: str) -> str:
    """A stage's seconds, with `*` when object times stood in for the wrapper's marker."""
    if o is None:
        return "-"
    value = o.durations.get(stage)
    return _seconds(value) + ("*" if value is not None and o.duration_sources.get(stage) in FALLBACKS else "")


def _durations(c: Comparison, lang: str) -> list[tuple[str, str, str]]:
    return [(_stage(stage, lang), _timed(c.outcome_a, stage), _timed(c.outcome_b, stage))
            for stage in c.outcome_a.durations]


def _bounds(c: Comparison) -> bool:
    """Whether a duration shown came from object times standing in for a marker."""
    return any(o is not None and o.durations.get(stage) is not None and src in FALLBACKS
               for o in (c.outcome_a, c.outcome_b) for stage, src in (o.duration_sources if o else {}).items())


def _side(e: ErrorLines | None, lang: str) -> list[str]:
    return [_t("no_error", lang)] if e is None else [e.source, *e.lines]


def _text(c: Comparison, lang: str) -> str:
    out = [f"{_t('title', lang)} {c.a.label} → {c.b.label}  ({_t('as_of', lang)} {c.now})",
           f"{_t('verdict', lang)}: {c.verdict}"]
    if c.warnings:
        out.append(f"{_t('warnings', lang)}:")
        out.extend(f"  ! {w}" for w in c.warnings)
    out.append(f"{_t('changes', lang)} ({', '.join(c.categories) or '-'}):" if c.changes
               else f"{_t('changes', lang)}: {_t('no_changes', lang)}")
    for x in c.changes:
        task = x.task or _t("job", lang)
        if x.diff:
            out.append(f"  {task}  {x.category}  {x.field}:")
            out.extend(f"      {line}" for line in x.diff.splitlines())
        else:
            out.append(f"  {task}  {x.category}  {x.field}: {x.a if x.a is not None else '-'} → "
                       f"{x.b if x.b is not None else '-'}")
    out.append(f"{_t('outcome', lang)}:")
    out.extend(_table([("", "A", "B"), *_rows(c, lang)]))
    out.append(f"  {_t('first_error', lang)} A: {_error(c.outcome_a, lang)}")
    out.append(f"  {_t('first_error', lang)} B: {_error(c.outcome_b, lang)}")
    out.append(f"{_t('durations', lang)}:")
    out.extend(_table(_durations(c, lang)))
    if _bounds(c):
        out.append(f"  {_t('from_objects', lang)}")
    if c.outcome_b is not None:
        out.append(f"{_t('only_a', lang)}: {', '.join(c.only_a) or '-'}")
        out.append(f"{_t('only_b', lang)}: {', '.join(c.only_b) or '-'}")
    if c.same_stage is not None:
        out.append(f"{_t('same_stage', lang)}: {_stage(c.same_stage.stage, lang)}")
        for name, e in (("A", c.same_stage.a), ("B", c.same_stage.b)):
            lines = _side(e, lang)
            out.append(f"  {name}  {lines[0]}")
            out.extend(f"     {line}" for line in lines[1:])
    return "\n".join(out) + "\n"


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ") or "-"


def _markdown(c: Comparison, lang: str) -> str:
    out = [f"### {_t('title', lang)} `{c.a.label}` → `{c.b.label}`", "",
           f"**{_t('verdict', lang)}:** {c.verdict}", "", f"_{_t('as_of', lang)} {c.now}_", ""]
    if c.warnings:
        out += [f"**{_t('warnings', lang)}**", "", *(f"- ⚠️ {w}" for w in c.warnings), ""]
    out += [f"**{_t('changes', lang)}**", ""]
    if not c.changes:
        out += [_t("no_changes", lang), ""]
    else:
        out += ["| task | category | field | A | B |", "|---|---|---|---|---|"]
        for x in c.changes:
            a, b = ("diff ↓", "diff ↓") if x.diff else (x.a or "-", x.b or "-")
            out.append(f"| {_md_cell(x.task or _t('job', lang))} | {x.category} | {_md_cell(x.field)} | "
                       f"{_md_cell(a)} | {_md_cell(b)} |")
        out.append("")
        for x in c.changes:
            if x.diff:
                out += ["```diff", x.diff.replace("```", "ʼʼʼ"), "```", ""]
    out += [f"**{_t('outcome', lang)}**", "", "| | A | B |", "|---|---|---|"]
    errors = [(_t("first_error", lang), _error(c.outcome_a, lang), _error(c.outcome_b, lang))]
    out += [f"| {k} | {_md_cell(a)} | {_md_cell(b)} |" for k, a, b in [*_rows(c, lang), *errors, *_durations(c, lang)]]
    out.append("")
    if _bounds(c):
        out += [f"_{_md_cell(_t('from_objects', lang))}_", ""]
    if c.outcome_b is not None:
        out += [f"- {_t('only_a', lang)}: {', '.join(c.only_a) or '-'}",
                f"- {_t('only_b', lang)}: {', '.join(c.only_b) or '-'}", ""]
    if c.same_stage is not None:
        out += [f"**{_t('same_stage', lang)}: {_stage(c.same_stage.stage, lang)}**", ""]
        for name, e in (("A", c.same_stage.a), ("B", c.same_stage.b)):
            lines = _side(e, lang)
            out += [f"{name}: {lines[0]}", *(["```", *(x.replace("```", "ʼʼʼ") for x in lines[1:]), "```"]
                                             if len(lines) > 1 else []), ""]
    return "\n".join(out).rstrip("\n") + "\n\n"


def render_comparison(c: Comparison, fmt: str, *, lang: str, redactor: Redactor) -> SafeText:
    if fmt == "json":
        sealed = seal(_plain_tree(document(c)), redactor)
        doc = sealed.value
        doc["redactions"] = sum(redaction_counts(json.dumps(doc, ensure_ascii=False)).values())
        return redactor.redact(json.dumps(doc, ensure_ascii=False, indent=2) + "\n").text
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    body = redactor.redact(plain(_text(c, lang) if fmt == "text" else _markdown(c, lang))).text
    n = sum(redaction_counts(body).values())
    footer = redactor.redact(_t("redacted", lang).format(n=n) + "\n").text
    return redactor.safe_join([body, footer])


def _plain_tree(value: object) -> object:
    if isinstance(value, str):
        return plain(value)
    if isinstance(value, list):
        return [_plain_tree(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain_tree(v) for k, v in value.items()}
    return value
