"""A pasted RLark UI job link's preview (`chat.unfurl`): the Job, its phase, the stage it reached and the
first finding, in one section. Pure: every string is cleaned and redacted before it is escaped."""

from __future__ import annotations

from bot.redact import Redactor
from bot.render.model import Report
from bot.render.slack_labels import label, lang_index
from bot.render.slack_message import SlackMessage, section
from bot.render.slack_reply import primary
from bot.render.slack_text import clean_line, inline, mrkdwn


def unfurl_message(report: Report, *, redactor: Redactor, lang: str) -> SlackMessage:
    lang_index(lang)
    target = inline(clean_line(report.target_label, redactor))
    phase = mrkdwn(clean_line(report.facts.job_phase or "-", redactor))
    stage = (f"{inline(clean_line(report.last_stage, redactor))} "
             f"({mrkdwn(clean_line(report.last_stage_label, redactor))})")
    main = primary(report.findings)
    finding = (f"{inline(clean_line(main.case, redactor))} {mrkdwn(clean_line(main.title, redactor))}" if main
               else mrkdwn(label("no_case", lang)))
    text = (f"*{target}* · {mrkdwn(label('unfurl.phase', lang))}: {phase} · "
            f"{mrkdwn(label('stage', lang))}: {stage}\n{finding}")
    return SlackMessage(text=text, blocks=[section(text)])
