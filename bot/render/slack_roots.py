"""The root message of a diagnosis thread (progress, verdict, failure) and the admin ticket message.

The root names the target and is updated in place: first the collection progress, then the verdict (the
answer itself is the thread reply, bot.render.slack_reply), or why collection failed. The ticket is §3's admin
ticket as a code block, or a file when it is long, with a link back to the thread when posted elsewhere.
"""

from __future__ import annotations

import re
from typing import Final

from bot.redact import Redactor
from bot.redact.allow import REDACTED_PREFIX
from bot.render import blocklimits as lim
from bot.render.model import Report, TargetView
from bot.render.slack_actions import target_label
from bot.render.slack_evidence import file_name
from bot.render.slack_labels import label, lang_index, severity
from bot.render.slack_message import SlackFile, SlackMessage, context, finish, section
from bot.render.slack_reply import EMOJI
from bot.render.slack_text import clean, clean_line, code_line, cut, fit_lines, inline, mrkdwn

TICKET_EVENT: Final = "rlark_ticket"
TICKET_PREVIEW: Final = 2500  # of the ticket shown in the message when the whole goes to a file
_URL: Final = re.compile(r"https://[^\s<>|`]+")


def _titled(key: str, lang: str, target: str) -> str:
    """The label `key` with its words in bold and the (already formatted) target where the label puts it."""
    before, _, after = label(key, lang, target="\x00").partition("\x00")
    words = [f"*{mrkdwn(x.strip())}*" if x.strip() else "" for x in (before, after)]
    return " ".join(p for p in (words[0], target, words[1]) if p)


def root_progress(*, target_label: str, step: str, clusters: int, pods: int, logs: int, requests: int,
                  redactor: Redactor, lang: str) -> SlackMessage:
    """The root while evidence is collected; the app updates it in place as the counters grow."""
    lang_index(lang)
    target = clean_line(target_label, redactor)
    step_text = clean_line(step, redactor)
    line = label("root.progress", lang, step=mrkdwn(step_text), clusters=clusters, pods=pods, logs=logs,
                 requests=requests)
    blocks = [section(f":mag: {_titled('root.collecting', lang, inline(target))}"),
              context([line])]
    text = cut(mrkdwn(f"{label('root.collecting', lang, target=target)} · {step_text}"), lim.FALLBACK_TEXT)
    return SlackMessage(text=text, blocks=finish(blocks))


def root_verdict(report: Report, *, thread_hint: bool, redactor: Redactor, lang: str) -> SlackMessage:
    """The root once the answer is in the thread: the first finding's case and title, or that none matched."""
    lang_index(lang)
    target = clean_line(report.target_label, redactor)
    stage = clean_line(report.last_stage, redactor)
    if report.findings:
        f = report.findings[0]
        sev = f.severity
        title = cut(clean_line(f.title, redactor), lim.TITLE_IN_TEXT)
        case = clean_line(f.case, redactor)
        head = f"{EMOJI.get(sev, '')} *{mrkdwn(title)}* · {mrkdwn(severity(sev, lang))} · {inline(case)}"
        text = f"{target}: {case} — {title}"
    else:
        head = f"{EMOJI['none']} *{mrkdwn(label('no_case', lang))}*"
        text = f"{target}: {label('no_case', lang)}"
    lines = [_titled("root.verdict", lang, inline(target)), cut(head, lim.SUMMARY_SECTION)]
    notes = [f"*{mrkdwn(label('stage', lang))}*: {inline(stage)}"]
    if report.incomplete:
        notes.append(f":warning: {mrkdwn(label('incomplete.short', lang))}")
    if thread_hint:
        notes.append(mrkdwn(label("root.thread", lang)))
    blocks = [section("\n".join(lines)), context(notes)]
    return SlackMessage(text=cut(mrkdwn(text), lim.FALLBACK_TEXT), blocks=finish(blocks))


def root_failed(*, target_label: str, reason: str, redactor: Redactor, lang: str) -> SlackMessage:
    """The root when collection failed: which target, the one-line reason, and that it is no verdict."""
    lang_index(lang)
    target = clean_line(target_label, redactor)
    why = clean_line(reason, redactor)
    title = _titled("root.failed", lang, inline(target))
    blocks = [section(cut(f":x: {title}\n{mrkdwn(why)}", lim.SUMMARY_SECTION)),
              context([mrkdwn(label("root.failed_hint", lang))])]
    text = cut(mrkdwn(f"{label('root.failed', lang, target=target)}: {why}"), lim.FALLBACK_TEXT)
    return SlackMessage(text=text, blocks=finish(blocks))


def _link(permalink: str | None, redactor: Redactor, lang: str) -> str:
    """A mrkdwn link back to the thread; an address that is not a plain https URL is shown as text."""
    if not permalink:
        return ""
    url = clean_line(permalink, redactor)
    words = mrkdwn(label("ticket.back", lang))
    if _URL.fullmatch(url) and REDACTED_PREFIX not in url:
        return f":leftwards_arrow_with_hook: <{url.replace('&', '&amp;')}|{words}>"
    return f":leftwards_arrow_with_hook: {words}: {mrkdwn(url)}"


def ticket_message(ticket_text: str, *, target: TargetView, permalink: str | None, redactor: Redactor,
                   lang: str) -> SlackMessage:
    """§3's admin ticket (what `render_diagnosis(diag, "ticket", ...)` gives) for the thread or the admin
    channel: a code block, or, when it does not fit one section, a preview and the whole ticket as a file."""
    lang_index(lang)
    who = clean_line(target_label(target), redactor)
    body = clean(str(ticket_text), redactor).rstrip("\n")
    head = f":ticket: {_titled('ticket.head', lang, inline(who))}"
    link = _link(permalink, redactor, lang)
    blocks = [section(head + (f"\n{link}" if link else ""))]
    lines = [code_line(line) for line in body.split("\n")]
    files: list[SlackFile] = []
    fence = len("```\n\n```")
    if sum(lim.slack_len(x) + 1 for x in lines) + fence <= lim.SECTION_TEXT:
        blocks.append(section("```\n" + "\n".join(lines) + "\n```"))
    else:
        name = file_name("ticket", target)
        kept, _ = fit_lines(lines, TICKET_PREVIEW, more=lambda n: label("more_lines", lang, n=n, file=name))
        blocks.append(section("```\n" + "\n".join(kept[:-1]) + "\n```\n_" + mrkdwn(kept[-1]) + "_"))
        content = cut(body, lim.FILE_CHARS, mark="\n" + label("cut_file", lang)) + "\n"
        files.append(SlackFile(name=name, title=clean_line(label("file.ticket", lang, target=who), redactor),
                               content=content))
    payload_target = {k: clean_line(v, redactor) for k, v in target.fields().items()}
    text = cut(mrkdwn(label("ticket.head", lang, target=who)), lim.FALLBACK_TEXT)
    return SlackMessage(text=text, blocks=finish(blocks),
                        metadata={"event_type": TICKET_EVENT, "event_payload": {"target": payload_target}},
                        files=files)
