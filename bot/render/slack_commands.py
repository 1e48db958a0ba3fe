"""The Slack forms of preflight, nodes, compare and timeline (CONTRACT §11): a root naming the command, the
thread reply with the command's text form and its CLI JSON as message metadata, and short notes.

The text and the JSON come from the command already redacted; they are cleaned and redacted once more here
(the app seals every message again before it goes out). A text form longer than one section goes whole into
a file in the thread and the reply shows its first lines.
"""

from __future__ import annotations

from typing import Any, Final

from bot.redact import Redactor
from bot.render.slack_message import SlackFile, SlackMessage, context, finish, section
from bot.render.slack_text import clean, clean_line, code, cut, inline, mrkdwn

SHOWN_CHARS: Final = 2800  # of the text form in the reply's code block (a section holds 3,000)

EVENTS: Final = {"preflight": "rlark_preflight", "preflight_yaml": "rlark_preflight", "nodes": "rlark_preflight",
                 "compare": "rlark_compare", "timeline": "rlark_timeline"}
_TITLE: Final = {
    "preflight": ("预检 {what}", "Preflight of {what}"),
    "preflight_yaml": ("预检消息中的 Job YAML", "Preflight of the Job YAML in this message"),
    "nodes": ("匹配 {what} 的 Node", "Nodes matching {what}"),
    "compare": ("对比 {what}", "Comparison of {what}"),
    "timeline": ("{what} 的时间线", "Timeline of {what}"),
}
_WORKING: Final = ("正在处理，结果见本消息的讨论串。", "Working on it; the answer comes in this thread.")
_IN_FILE: Final = ("全文见讨论串中的文件。", "The whole text is in the file in this thread.")
_PICTURE: Final = ("{what} 的时间线（标签已脱敏）", "Timeline of {what} (labels redacted)")
_FAILED: Final = ("{what}：{reason}", "{what}: {reason}")


def _pick(pair: tuple[str, str], lang: str) -> str:
    return pair[0] if lang == "zh" else pair[1]


def title(verb: str, what: str, *, lang: str, redactor: Redactor) -> str:
    return _pick(_TITLE[verb], lang).format(what=clean_line(what, redactor))


def command_root(verb: str, what: str, *, lang: str, redactor: Redactor) -> SlackMessage:
    """The channel message the answer threads under."""
    head = title(verb, what, lang=lang, redactor=redactor)
    return SlackMessage(text=head, blocks=[section(f"*{mrkdwn(head)}*"), context([mrkdwn(_pick(_WORKING, lang))])])


def command_summary(verb: str, what: str, *, summary: str, lang: str, redactor: Redactor) -> SlackMessage:
    """The root once answered: the title and the text form's first line."""
    head = title(verb, what, lang=lang, redactor=redactor)
    line = clean_line(summary, redactor)
    return SlackMessage(text=f"{head}: {line}", blocks=[section(f"*{mrkdwn(head)}*\n{inline(line)}")])


def command_reply(verb: str, what: str, *, text: str, data: dict[str, Any], lang: str,
                  redactor: Redactor) -> SlackMessage:
    """The thread reply: the text form (whole, or its head and a file), the CLI JSON as metadata."""
    body = clean(text, redactor).rstrip("\n")
    first = body.splitlines()[0] if body else title(verb, what, lang=lang, redactor=redactor)
    files: list[SlackFile] = []
    shown = body
    blocks = []
    if len(body) > SHOWN_CHARS:
        shown = cut(body[: body.rfind("\n", 0, SHOWN_CHARS) if "\n" in body[:SHOWN_CHARS] else SHOWN_CHARS],
                    SHOWN_CHARS)
        name = f"{EVENTS[verb].removeprefix('rlark_')}.txt"
        files.append(SlackFile(name=name, title=title(verb, what, lang=lang, redactor=redactor), content=body + "\n"))
    if shown:
        blocks.append(section(code(shown)))
    if files:
        blocks.append(context([mrkdwn(_pick(_IN_FILE, lang))]))
    metadata = {"event_type": EVENTS[verb], "event_payload": data}
    return SlackMessage(text=cut(first, 300), blocks=finish(blocks), metadata=metadata, files=files)


def picture_title(what: str, *, lang: str, redactor: Redactor) -> str:
    return _pick(_PICTURE, lang).format(what=clean_line(what, redactor))


def command_failed(verb: str, what: str, *, reason: str, lang: str, redactor: Redactor) -> SlackMessage:
    """One ephemeral line: the command could not be answered (bad YAML, a cluster unreadable), and why."""
    line = _pick(_FAILED, lang).format(what=title(verb, what, lang=lang, redactor=redactor),
                                       reason=clean_line(reason, redactor))
    return SlackMessage(text=line, blocks=[section(mrkdwn(line))])
