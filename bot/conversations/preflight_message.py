"""The message shortcut "Preflight this Job" (`rlark_preflight_message`, CONTRACT §11): the first YAML code block
of a message is checked by preflight (offline rules and the inventory), in a worker, and answered in that
message's thread with `rlark_preflight` metadata.

The channel must be bound and the Job's `spec.domain` within its scope, else the §5 refusal (the same words,
nothing in the channel). A message without a code block, or YAML that is not one Job, gets one ephemeral line.
Slack's retries and double clicks act once (the shortcut's trigger id, then a minute per message).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.conversations.access import binding_for
from bot.conversations.analyses import Request, first_in_a_minute
from bot.conversations.audit import Audit
from bot.conversations.deps import Deps
from bot.conversations.diagnosis import post_patiently
from bot.conversations.requests import first_time, hand_off
from bot.errors import UserError
from bot.render.ephemeral import ephemeral
from bot.render.slack_commands import command_failed, command_reply
from bot.workers.api import WorkerLost
from bot.workers.command_tasks import CommandTask

CALLBACK_ID = "rlark_preflight_message"
_BLOCK = re.compile(r"```[ \t]*(?:ya?ml[ \t]*)?\n?(.*?)```", re.DOTALL | re.IGNORECASE)
_NO_YAML = ("这条消息里没有 ``` 代码块中的 Job YAML。", "This message holds no Job YAML in a ``` code block.")


@dataclass(frozen=True)
class Shortcut:
    """A click on the shortcut: where, by whom, on which message (its text as Slack sent it)."""

    channel: str
    user: str
    message_ts: str
    thread_ts: str  # the thread to answer in: the message's own thread, or the message itself
    text: str
    trigger: str | None = None
    response_url: str | None = None


def yaml_of(text: str) -> str | None:
    """The first code block's text, with Slack's three escapes undone; None when there is none."""
    m = _BLOCK.search(text)
    if m is None or not m.group(1).strip():
        return None
    return m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def preflight_message(deps: Deps, sc: Shortcut, *, audit: Audit, lang: str) -> None:
    """Acknowledged already: on the bounded pool, answered in the message's thread."""
    req = Request(verb="preflight_yaml", channel=sc.channel, user=sc.user, lang=lang, what="YAML",
                  response_url=sc.response_url)
    audit.about(command="preflight", target="message")

    def work() -> str:
        if not first_time(deps, sc.trigger):
            return "duplicate_request"
        return _run(deps, sc, req)

    hand_off(deps, work=work, lang=lang, tell=lambda message: req.say(deps, message), audit=audit)


def _run(deps: Deps, sc: Shortcut, req: Request) -> str:
    binding = binding_for(deps.settings, sc.channel)
    if binding is None:
        req.say(deps, ephemeral("refusal", lang=req.lang, redactor=deps.redactor))
        return "refused"
    text = yaml_of(sc.text)
    if text is None:
        reason = _NO_YAML[0] if req.lang == "zh" else _NO_YAML[1]
        req.say(deps, command_failed(req.verb, "", reason=reason, lang=req.lang, redactor=deps.redactor))
        return "usage"
    try:
        result = deps.engine.command(CommandTask(verb="preflight_yaml", args=(text,), lang=req.lang))
    except UserError as exc:  # not YAML, not one Job, an alias bomb: one line
        req.say(deps, command_failed(req.verb, "", reason=str(exc), lang=req.lang, redactor=deps.redactor))
        return "usage"
    except WorkerLost:
        req.say(deps, ephemeral("error", lang=req.lang, redactor=deps.redactor))
        return "worker_lost"
    if not binding.domain_ok(result.domain):
        req.say(deps, ephemeral("refusal", lang=req.lang, redactor=deps.redactor))
        return "refused"
    if not first_in_a_minute(deps, req, f"{sc.channel}:preflight_yaml:{sc.message_ts}"):
        return "duplicate"
    reply = command_reply(req.verb, "", text=result.text, data=result.data, lang=req.lang, redactor=deps.redactor)
    post_patiently(deps, channel=sc.channel, message=reply, thread_ts=sc.thread_ts)
    return "answered"
