"""Every label the Slack messages use, in Chinese and English, in one table.

`label(key, lang, **fields)` formats the entry; a missing key or an unknown language is a programming or
input error with a one-line message. Field values are inserted as given: callers pass text that is already
cleaned and escaped for where it goes.
"""

from __future__ import annotations

from typing import Final

LANGS: Final = ("zh", "en")

_LABELS: Final[dict[str, tuple[str, str]]] = {
    # severities
    "sev.critical": ("严重", "CRITICAL"),
    "sev.error": ("错误", "ERROR"),
    "sev.warning": ("警告", "WARNING"),
    "sev.info": ("提示", "INFO"),
    "sev.none": ("无", "NONE"),
    # the diagnosis reply
    "no_case": ("没有匹配到已知案例", "No known case matched"),
    "no_case.healthy": ("没有发现错误级别的问题。", "Nothing at error level was found."),
    "not_found": ("没有找到目标", "Target not found"),
    "evidence": ("证据", "Evidence"),
    "next_steps": ("下一步", "Next steps"),
    "avoid": ("不要这样做", "Do not"),
    "escalate": ("升级给", "Escalate to"),
    "source": ("来源", "Source"),
    "others": ("其他发现", "Other findings"),
    "n_evidence": ("{n} 条证据", "{n} evidence"),
    "stage": ("已到达的阶段", "Last stage reached"),
    "first_error": ("首条错误", "First error"),
    "incomplete": ("证据不完整，以下内容未能读取", "Incomplete evidence: could not read"),
    "incomplete.short": ("证据不完整", "Incomplete evidence"),
    "not_collected": ("未采集", "Not collected"),
    "redactions": ("已脱敏 {n} 处", "Redacted {n} value(s)"),
    "as_of": ("诊断时间 {now}", "as of {now}"),
    "more_lines": ("… 另有 {n} 行，见文件 {file}", "… {n} more line(s), see the file {file}"),
    "more_findings": ("… 另有 {n} 条发现，见文件 {file}", "… {n} more finding(s), see the file {file}"),
    "more_items": ("… 另有 {n} 条，见文件 {file}", "… {n} more, see the file {file}"),
    "more_plain": ("… 另有 {n} 条", "… {n} more"),
    "cut_file": ("… 内容过长，已截断", "… too long, the rest was cut"),
    "escalate.user": ("提交者本人", "the job owner (user)"),
    "escalate.admin": ("平台管理员", "the platform admin"),
    "escalate.ci-infra": ("CI 基础设施团队", "CI infrastructure (ci-infra)"),
    "escalate.operator": ("集群运维", "the cluster operator"),
    # buttons
    "btn.ticket": ("生成管理员工单", "Ticket for the admin"),
    "btn.rerun": ("重新诊断", "Diagnose again"),
    "btn.evidence": ("全部证据（文件）", "All evidence as a file"),
    # files
    "file.evidence": ("证据：{target}", "Evidence: {target}"),
    "file.ticket": ("管理员工单：{target}", "Admin ticket: {target}"),
    "file.none": ("（没有证据摘录）", "(no evidence excerpts)"),
    # root messages
    "root.collecting": ("正在诊断 {target}", "Diagnosing {target}"),
    "root.progress": ("{step} · 集群 {clusters} · Pod {pods} · 日志 {logs} · 请求 {requests}",
                      "{step} · clusters {clusters} · pods {pods} · logs {logs} · requests {requests}"),
    "root.verdict": ("{target} 的诊断结果", "Diagnosis of {target}"),
    "root.thread": ("详情、证据和按钮见本消息的话题 ↓", "Details, evidence and buttons are in the thread ↓"),
    "root.failed": ("无法诊断 {target}", "Could not diagnose {target}"),
    "root.failed_hint": ("这不是诊断结论；稍后可以重试。", "This is not a diagnosis; you can try again later."),
    # ticket
    "ticket.head": ("管理员工单：{target}", "Ticket for the platform admin: {target}"),
    "ticket.back": ("返回诊断话题", "Back to the diagnosis thread"),
}


def label(key: str, lang: str, **fields: object) -> str:
    """The `lang` text of `key`, with `fields` filled in."""
    pair = _LABELS.get(key)
    if pair is None:
        raise KeyError(f"no Slack label {key!r}")
    return pair[lang_index(lang)].format(**fields) if fields else pair[lang_index(lang)]


def lang_index(lang: str) -> int:
    """0 for Chinese, 1 for English; anything else is refused with one line."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: use zh or en")
    return LANGS.index(lang)


def severity(sev: str, lang: str) -> str:
    """The severity's label; an unknown severity is shown as it is, upper-cased."""
    key = f"sev.{sev}"
    return label(key, lang) if key in _LABELS else sev.upper()


def escalation(who: str, lang: str) -> str:
    """Whom to escalate to, in words; an unknown value is shown as it is."""
    key = f"escalate.{who}"
    return label(key, lang) if key in _LABELS else who


def keys() -> list[str]:
    """Every label key (for tests that check both languages are filled)."""
    return list(_LABELS)
