"""The diagnosis as it happens in a channel: locate, authorize, root with progress, thread reply, verdict.

Runs on the bounded worker pool, never on the ack path. Nothing is posted in the channel until the channel
is known to be allowed to see the target; a refusal reads the same whether the target is out of scope or
missing. Slack failing mid-way never crashes the process: the reply is retried for a while, then the asker
gets an ephemeral error if Slack takes that.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass

from bot.diagnose import Diagnosis
from bot.errors import NotFound, UserError
from bot.models import Target
from bot.render.blocks import diagnosis_reply
from bot.render.ephemeral import ephemeral
from bot.render.report import build_report
from bot.render.slack_evidence import redaction_counts
from bot.render.slack_message import SlackMessage
from bot.render.slack_roots import root_failed, root_progress, root_verdict
from bot.slack.authz import allows, binding_for
from bot.slack.deps import Deps
from bot.slack.progress import SlackProgress
from bot.slack.sink import SlackDown, seal_message
from bot.sources import Location
from bot.store.base import StoreUnavailable

COOLDOWN_SECONDS = 60
THREAD_MEMORY_SECONDS = 24 * 3600
REPLY_ATTEMPTS = 4


@dataclass(frozen=True)
class Ask:
    """One request to diagnose, from a slash command or a button."""

    channel: str
    user: str
    target: Target
    lang: str
    response_url: str | None = None
    thread_ts: str | None = None  # set for a re-run: answer into this thread, no cooldown
    then_ticket: bool = False


def canonical(target: Target, where: Location) -> str:
    """One spelling per object (`x` and `job/x` are the same Job), for the cooldown and thread keys."""
    if target.kind.value == "Job":
        return f"job/{target.name}"
    return f"{target.kind.value.lower()}/{where.namespace}/{target.name}"


def tell(deps: Deps, ask: Ask, *, message: SlackMessage) -> None:
    tell_user(deps, channel=ask.channel, user=ask.user, message=message, thread_ts=ask.thread_ts,
              response_url=ask.response_url)


def tell_user(deps: Deps, *, channel: str, user: str, message: SlackMessage, thread_ts: str | None = None,
              response_url: str | None = None) -> None:
    """An ephemeral answer only the asker sees: the response_url when there is one, else chat.postEphemeral."""
    sealed = seal_message(message, deps.redactor)
    try:
        if response_url:
            deps.sink.respond(response_url=response_url, message=sealed)
        else:
            deps.sink.ephemeral(channel=channel, user=user, message=sealed, thread_ts=thread_ts)
    except SlackDown as exc:
        deps.log.warning("ephemeral reply not delivered", extra={"channel": channel, "reason": str(exc)})


def _refuse(deps: Deps, ask: Ask) -> str:
    tell(deps, ask, message=ephemeral("refusal", lang=ask.lang, redactor=deps.redactor))
    return "refused"


def locate_allowed(deps: Deps, ask: Ask) -> Location | str:
    """The target's location if this channel may see it, else the outcome after telling the asker."""
    binding = binding_for(deps.settings, ask.channel)
    if binding is None:
        return _refuse(deps, ask)
    try:
        where = deps.source.locate(ask.target)
    except NotFound as exc:
        if not binding.everywhere:
            return _refuse(deps, ask)
        tell(deps, ask, message=ephemeral("not_found", lang=ask.lang, redactor=deps.redactor, target=str(ask.target),
                                  where=str(exc).split(": ", 1)[-1]))
        return "not_found"
    if not allows(binding, ask.target, where=where):
        return _refuse(deps, ask)
    return where


def _cooldown(deps: Deps, ask: Ask, key: str) -> bool:
    """True when this ask may go ahead; else the asker got a link to the thread already under way."""
    try:
        if deps.store.claim(f"cooldown:{key}", ttl_seconds=COOLDOWN_SECONDS):
            return True
        ts = deps.store.get(f"thread:{key}")
    except StoreUnavailable as exc:
        deps.log.warning("store unavailable: the 60 s cooldown is off", extra={"reason": str(exc)})
        return True
    link = deps.sink.permalink(channel=ask.channel, ts=ts) if ts else None
    tell(deps, ask, message=ephemeral("duplicate", lang=ask.lang, redactor=deps.redactor, target=str(ask.target),
                              permalink=link or "-"))
    return False


def _remember(deps: Deps, key: str, ts: str) -> None:
    with contextlib.suppress(StoreUnavailable):  # the cooldown link is a convenience
        deps.store.put(f"thread:{key}", ts, ttl_seconds=THREAD_MEMORY_SECONDS)


def post_patiently(deps: Deps, *, channel: str, message: SlackMessage, thread_ts: str | None) -> str:
    """Post, and if Slack is down keep trying for a while (the answer matters more than the moment)."""
    sealed = seal_message(message, deps.redactor)
    delay = 2.0
    for attempt in range(REPLY_ATTEMPTS):
        try:
            return deps.sink.post(channel=channel, message=sealed, thread_ts=thread_ts)
        except SlackDown:
            if attempt == REPLY_ATTEMPTS - 1:
                raise
            time.sleep(delay)
            delay *= 2
    raise AssertionError("unreachable")


def _edit(deps: Deps, channel: str, ts: str, message: SlackMessage) -> None:
    try:
        deps.sink.update(channel=channel, ts=ts, message=seal_message(message, deps.redactor))
    except SlackDown as exc:
        deps.log.warning("root message not updated", extra={"channel": channel, "reason": str(exc)})


def _progress_editor(deps: Deps, ask: Ask, root: str) -> SlackProgress:
    def edit(state: dict[str, int | str]) -> None:
        msg = root_progress(target_label=str(ask.target), step=str(state["step"]), clusters=int(state["clusters"]),
                            pods=int(state["pods"]), logs=int(state["logs"]), requests=int(state["requests"]),
                            redactor=deps.redactor, lang=ask.lang)
        deps.sink.update(channel=ask.channel, ts=root, message=seal_message(msg, deps.redactor))

    return SlackProgress(edit)


def run_diagnosis(deps: Deps, ask: Ask) -> str:
    """The whole flow for one ask; returns the outcome for the audit line and the metric."""
    where = locate_allowed(deps, ask)
    if isinstance(where, str):
        return where
    key = f"{ask.channel}:{canonical(ask.target, where)}"
    if ask.thread_ts is None and not _cooldown(deps, ask, key):
        return "duplicate"
    start = root_progress(target_label=str(ask.target), step="…", clusters=0, pods=0, logs=0, requests=0,
                          redactor=deps.redactor, lang=ask.lang)
    if ask.thread_ts:
        root = ask.thread_ts
        _edit(deps, ask.channel, root, start)
    else:
        root = post_patiently(deps, channel=ask.channel, message=start, thread_ts=None)
        _remember(deps, key, root)
    started = time.monotonic()
    try:
        with deps.metrics.diagnosing():
            diag = deps.service.diagnose(ask.target, source=deps.source, progress=_progress_editor(deps, ask, root),
                                         gathered=where.gathered)
    except UserError as exc:
        _edit(deps, ask.channel, root, root_failed(target_label=str(ask.target), reason=str(exc),
                                                   redactor=deps.redactor, lang=ask.lang))
        return "source_error"
    finally:
        deps.metrics.observe_diagnosis(time.monotonic() - started)  # collection included, failed ones too
    answer(deps, ask, diag=diag, root=root)
    return "answered"


def answer(deps: Deps, ask: Ask, *, diag: Diagnosis, root: str) -> None:
    """The thread reply, its files, the root's verdict; the diagnosis kept for the buttons."""
    report = build_report(diag, ask.lang)
    counts = redaction_counts(report, deps.redactor)
    reply = diagnosis_reply(report, redactor=deps.redactor, lang=ask.lang, counts=counts)
    deps.metrics.count_redactions(counts)
    post_patiently(deps, channel=ask.channel, message=reply, thread_ts=root)
    deps.recent.put(ask.channel, root, diag=diag)
    _edit(deps, ask.channel, root, root_verdict(report, thread_hint=True, redactor=deps.redactor, lang=ask.lang))
