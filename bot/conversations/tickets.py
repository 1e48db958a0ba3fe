"""The admin ticket and the evidence file, posted into a diagnosis thread (and the admin channel)."""

from __future__ import annotations

from bot.conversations.access import allows, binding_for
from bot.conversations.alert_acks import on_it
from bot.conversations.deps import Deps
from bot.conversations.diagnosis import Ask, canonical, locate_allowed, post_patiently, run_diagnosis, tell
from bot.conversations.ports import SlackDown
from bot.diagnose import Diagnosis
from bot.errors import UserError
from bot.models import Target, TargetKind
from bot.render.report import build_report
from bot.render.slack_evidence import evidence_file
from bot.render.slack_roots import ticket_message
from bot.store.base import StoreUnavailable
from bot.workers.api import WorkerLost
from bot.workers.command_tasks import CommandTask


def thread_diagnosis(deps: Deps, ask: Ask, *, thread_ts: str) -> Diagnosis | None:
    """The diagnosis shown in that thread: kept in memory, else diagnosed again without a new thread."""
    diag = deps.recent.get(ask.channel, thread_ts)
    if diag is None:
        diag = deps.engine.diagnose(ask.target)
        deps.recent.put(ask.channel, thread_ts, diag=diag)
    return diag


def since_last_run(deps: Deps, ask: Ask) -> str:
    """The ticket's "change since the last run" for a Job whose predecessor is known, from `compare`'s spec half
    (worked out where diagnoses run); "" when none is known, when this channel may not see the predecessor (its
    name and spec are not shown where the Job itself could not be asked about), or when it cannot be worked out
    now (the ticket goes out without it)."""
    if ask.target.kind is not TargetKind.JOB:
        return ""
    binding = binding_for(deps.settings, ask.channel)
    try:
        found = deps.engine.command(CommandTask(verb="since", args=(ask.target.name,), lang=ask.lang))
        before = str(found.data.get("predecessor") or "")
        if not before or binding is None:
            return ""
        target = Target(kind=TargetKind.JOB, name=before)
        if not allows(binding, target, where=deps.engine.locate(target)):
            return ""
    except (UserError, WorkerLost) as exc:
        deps.log.warning("ticket without the change since the last run", extra={"reason": str(exc)})
        return ""
    return found.text


def post_ticket(deps: Deps, ask: Ask, *, diag: Diagnosis, thread_ts: str) -> None:
    report = build_report(diag, ask.lang)
    text = str(deps.service.render(diag, fmt="ticket", lang=ask.lang, since_last_run=since_last_run(deps, ask)))
    taken = on_it(deps, ask.target)
    if taken:  # "I'm on it" on an alert about this target: the admin knows whom to ask
        text += "\n" + "\n".join(f"On it: Slack user {user} (alert {key})" for key, user in taken)
    msg = ticket_message(str(text), target=report.target, permalink=None, redactor=deps.redactor, lang=ask.lang)
    post_patiently(deps, channel=ask.channel, message=msg, thread_ts=thread_ts)
    admin = deps.settings.admin_channel
    if admin and admin != ask.channel:
        link = deps.sink.permalink(channel=ask.channel, ts=thread_ts)
        copy = ticket_message(str(text), target=report.target, permalink=link, redactor=deps.redactor,
                              lang=ask.lang)
        post_patiently(deps, channel=admin, message=copy, thread_ts=None)


def post_evidence(deps: Deps, ask: Ask, *, diag: Diagnosis, thread_ts: str) -> None:
    report = build_report(diag, ask.lang)
    f = evidence_file(report, redactor=deps.redactor)
    r = deps.redactor
    deps.sink.upload(channel=ask.channel, thread_ts=thread_ts, name=r.redact(f.name).text,
                     title=r.redact(f.title).text, content=r.redact(f.content).text)


def run_ticket(deps: Deps, ask: Ask) -> str:
    """`/rlark ticket TARGET`: into the target's recent thread in this channel, else after a fresh diagnosis."""
    where = locate_allowed(deps, ask)
    if isinstance(where, str):
        return where
    key = f"{ask.channel}:{canonical(ask.target, where)}"
    try:
        ts = deps.store.get(f"thread:{key}")
    except StoreUnavailable:
        ts = None
    if ts is None:
        outcome = run_diagnosis(deps, ask)
        if outcome != "answered":
            return outcome
        try:
            ts = deps.store.get(f"thread:{key}")
        except StoreUnavailable:
            ts = None
        if ts is None:
            return "answered"
    diag = thread_diagnosis(deps, ask, thread_ts=ts)
    if diag is None:
        return "not_found"
    try:
        post_ticket(deps, ask, diag=diag, thread_ts=ts)
    except SlackDown as exc:
        deps.log.warning("ticket not delivered", extra={"reason": str(exc)})
        return "slack_down"
    return "ticket"


__all__ = ["post_evidence", "post_ticket", "run_ticket", "since_last_run", "tell", "thread_diagnosis"]
