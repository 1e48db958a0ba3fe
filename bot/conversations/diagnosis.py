"""The diagnosis as it happens in a channel: locate, authorize, root with progress, thread reply, verdict.

Runs on the bounded diagnosis pool, never on the ack path; the engine's work (collection, diagnosis, rendering)
happens in worker processes. Nothing is posted in the channel until the channel is known to be allowed to see
the target; a refusal reads the same whether the target is out of scope or missing. Slack failing mid-way never
crashes the process: the reply is retried for a while, then the asker gets an ephemeral error if Slack takes that.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from dataclasses import dataclass

from bot.conversations.access import allows, binding_for, is_dm
from bot.conversations.deps import Deps
from bot.conversations.history import remember_diagnosis
from bot.conversations.pictures import auto_timeline
from bot.conversations.ports import SlackDown, seal_message
from bot.diagnose import Diagnosis
from bot.errors import NotFound, UserError
from bot.models import Target
from bot.render.ephemeral import ephemeral
from bot.render.slack_labels import label
from bot.render.slack_message import SlackMessage
from bot.render.slack_roots import root_failed, root_progress
from bot.settings import ChannelBinding
from bot.sources import Location
from bot.store.base import StoreUnavailable
from bot.workers.api import Answer, WorkerLost

CREDENTIALS_CASE = "rlark.risk.credentials-exposed"
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
    in_thread: bool = False  # thread_ts is a root the bot must not edit (an alert's): progress is a reply in it
    on_purpose: bool = False  # a re-run: never held back by the cooldown
    post_key: str | None = None  # its thread posts carry idempotency keys made from this (an ask taken up again)
    resumed: bool = False  # taken up again after the replica running it died: its posts are looked up first

    @property
    def cooled(self) -> bool:
        """Whether the 60 s cooldown applies: every new diagnosis, from any entry point, but not a re-run."""
        return (self.thread_ts is None or self.in_thread) and not self.on_purpose


def keyed(ask: Ask, part: str) -> str | None:
    """The idempotency key of one of the ask's posts, when the ask has keyed posts."""
    return None if ask.post_key is None else hashlib.sha256(f"{ask.post_key}#{part}".encode()).hexdigest()[:32]


def canonical(target: Target, where: Location) -> str:
    """One spelling per object (`x` and `job/x` are the same Job), for the cooldown and thread keys."""
    if target.kind.value == "Job":
        return f"job/{target.name}"
    return f"{target.kind.value.lower()}/{where.namespace}/{target.name}"


def primary_case_of(diag: Diagnosis) -> str:
    """§5's `case`: the first finding that is not the credentials risk (that one when it is alone), or none."""
    cases = [f.case.id for f in diag.findings]
    others = [c for c in cases if c != CREDENTIALS_CASE]
    return (others or cases or ["none"])[0]


def tell(deps: Deps, ask: Ask, *, message: SlackMessage) -> None:
    tell_user(deps, channel=ask.channel, user=ask.user, message=message, thread_ts=ask.thread_ts,
              response_url=ask.response_url)


def tell_user(deps: Deps, *, channel: str, user: str, message: SlackMessage, thread_ts: str | None = None,
              response_url: str | None = None) -> None:
    """An ephemeral answer only the asker sees: the response_url when there is one, else chat.postEphemeral; in a
    DM with the bot (a `D…` channel, where only the asker reads) a plain reply. Nobody asked (an automatic
    diagnosis of an alert): nothing is said, the outcome is only logged."""
    if not user and not response_url:
        deps.log.info("nobody to tell", extra={"channel": channel})
        return
    sealed = seal_message(message, deps.redactor)
    try:
        if response_url:
            deps.sink.respond(response_url=response_url, message=sealed)
        elif is_dm(channel):
            deps.sink.post(channel=channel, message=sealed, thread_ts=thread_ts)
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
        where = deps.engine.locate(ask.target)
    except NotFound as exc:
        return _not_found(deps, ask, binding, exc)
    if not allows(binding, ask.target, where=where):
        return _refuse(deps, ask)
    return where


def thread_under_way(deps: Deps, *, channel: str, key: str) -> str | None:
    """None when an ask of `key` may go ahead in `channel` (it claimed the 60 s cooldown, or the store is down and the
    cooldown is off); else a link to the thread already under way ("-" while its root is not posted yet)."""
    try:
        if deps.store.claim(f"cooldown:{key}", ttl_seconds=COOLDOWN_SECONDS):
            return None
        ts = deps.store.get(f"thread:{key}")
    except StoreUnavailable as exc:
        deps.log.warning("store unavailable: the 60 s cooldown is off", extra={"reason": str(exc)})
        return None
    return (deps.sink.permalink(channel=channel, ts=ts) if ts else None) or "-"


def _cooldown(deps: Deps, ask: Ask, key: str) -> bool:
    """True when this ask may go ahead; else the asker got a link to the thread already under way."""
    link = thread_under_way(deps, channel=ask.channel, key=key)
    if link is None:
        return True
    tell(deps, ask, message=ephemeral("duplicate", lang=ask.lang, redactor=deps.redactor, target=str(ask.target),
                              permalink=link))
    return False


def _remember(deps: Deps, key: str, ts: str) -> None:
    with contextlib.suppress(StoreUnavailable):  # the cooldown link is a convenience
        deps.store.put(f"thread:{key}", ts, ttl_seconds=THREAD_MEMORY_SECONDS)


def post_patiently(deps: Deps, *, channel: str, message: SlackMessage, thread_ts: str | None,
                   key: str | None = None, maybe_sent: bool = False) -> str:
    """Post, and if Slack is down keep trying for a while (the answer matters more than the moment). `key`: the
    post's idempotency key; `maybe_sent`: an earlier attempt with it may have reached Slack (it is looked up)."""
    sealed = seal_message(message, deps.redactor)
    delay = 2.0
    for attempt in range(REPLY_ATTEMPTS):
        try:
            return deps.sink.post(channel=channel, message=sealed, thread_ts=thread_ts, key=key,
                                  maybe_sent=maybe_sent or (key is not None and attempt > 0))
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


class _Run:
    """One ask between locating and answering: the gate the engine calls with the location, and the root."""

    def __init__(self, deps: Deps, ask: Ask, binding: ChannelBinding) -> None:
        self.deps, self.ask, self.binding = deps, ask, binding
        self.root: str | None = None  # the message showing progress, then the verdict
        self.thread: str | None = None  # the thread the answer goes into (the root's, or the alert's)
        self.outcome = "refused"
        self.started = 0.0
        self.timing = contextlib.ExitStack()

    def gate(self, where: Location) -> bool:
        deps, ask = self.deps, self.ask
        if not allows(self.binding, ask.target, where=where):
            self.outcome = _refuse(deps, ask)
            return False
        key = f"{ask.channel}:{canonical(ask.target, where)}"
        if ask.cooled and not _cooldown(deps, ask, key):
            self.outcome = "duplicate"
            return False
        start = root_progress(target_label=str(ask.target), step="…", clusters=0, pods=0, logs=0, requests=0,
                              redactor=deps.redactor, lang=ask.lang)
        if ask.thread_ts and ask.in_thread:
            self.thread = ask.thread_ts
            self.root = post_patiently(deps, channel=ask.channel, message=start, thread_ts=ask.thread_ts,
                                       key=keyed(ask, "progress"), maybe_sent=ask.resumed)
            if ask.cooled:
                _remember(deps, key, ask.thread_ts)
        elif ask.thread_ts:
            self.root = self.thread = ask.thread_ts
            _edit(deps, ask.channel, self.root, start)
        else:
            self.root = self.thread = post_patiently(deps, channel=ask.channel, message=start, thread_ts=None)
            _remember(deps, key, self.root)
        self.started = time.monotonic()
        self.timing.enter_context(deps.metrics.diagnosing())
        return True

    def progress(self, state: dict[str, int | str]) -> None:
        """A live collection's progress, as the root message (the engine throttles and drops failed edits)."""
        if self.root is None:
            return
        ask = self.ask
        msg = root_progress(target_label=str(ask.target), step=str(state["step"]), clusters=int(state["clusters"]),
                            pods=int(state["pods"]), logs=int(state["logs"]), requests=int(state["requests"]),
                            redactor=self.deps.redactor, lang=ask.lang)
        self.deps.sink.update(channel=ask.channel, ts=self.root, message=seal_message(msg, self.deps.redactor))

    def failed(self, reason: str) -> None:
        assert self.root is not None
        self.finish()
        _edit(self.deps, self.ask.channel, self.root, root_failed(target_label=str(self.ask.target), reason=reason,
                                                                  redactor=self.deps.redactor, lang=self.ask.lang))

    def finish(self) -> None:
        if self.root is not None and self.started:
            self.timing.close()
            self.deps.metrics.observe_diagnosis(time.monotonic() - self.started)  # collection included
            self.started = 0.0


def _not_found(deps: Deps, ask: Ask, binding: ChannelBinding, exc: NotFound) -> str:
    if not binding.everywhere:
        return _refuse(deps, ask)
    tell(deps, ask, message=ephemeral("not_found", lang=ask.lang, redactor=deps.redactor, target=str(ask.target),
                                      where=str(exc).split(": ", 1)[-1]))
    return "not_found"


def run_diagnosis(deps: Deps, ask: Ask) -> str:
    """The whole flow for one ask; returns the outcome for the audit line and the metric. The engine locates the
    target; the gate decides (scope, cooldown) and posts the root; then the engine collects, diagnoses and renders."""
    binding = binding_for(deps.settings, ask.channel)
    if binding is None:
        return _refuse(deps, ask)
    run = _Run(deps, ask, binding)
    try:
        result = deps.engine.investigate(ask.target, lang=ask.lang, gate=run.gate, on_progress=run.progress)
    except UserError as exc:
        if run.root is None:
            if isinstance(exc, NotFound):
                return _not_found(deps, ask, binding, exc)
            raise
        run.failed(str(exc))
        return "source_error"
    except WorkerLost as exc:
        deps.log.warning("diagnosis lost", extra={"target": str(ask.target), "reason": str(exc)})
        if run.root is None:
            tell(deps, ask, message=ephemeral("error", lang=ask.lang, redactor=deps.redactor))
        else:
            run.failed(label("reply.lost", ask.lang))
        return "worker_lost"
    except Exception:  # a defect: the root says the diagnosis failed, the asker hears the apology
        if run.root is not None:
            run.failed(label("reply.failed", ask.lang))
        raise
    finally:
        run.finish()
    if result is None:
        return run.outcome
    assert run.root is not None
    answer(deps, ask, result=result, root=run.root, thread=run.thread or run.root)
    return "answered"


def answer(deps: Deps, ask: Ask, *, result: Answer, root: str, thread: str | None = None) -> None:
    """The thread reply, its files, the root's verdict; the diagnosis kept for the buttons (by the thread,
    which is what a button in it names)."""
    thread = thread or root
    deps.metrics.count_redactions(result.counts)
    post_patiently(deps, channel=ask.channel, message=result.reply, thread_ts=thread, key=keyed(ask, "reply"),
                   maybe_sent=ask.resumed)
    deps.recent.put(ask.channel, thread, diag=result.diag)
    remember_diagnosis(deps.store, user=ask.user, target=str(ask.target), channel=ask.channel,
                       case=primary_case_of(result.diag))
    _edit(deps, ask.channel, root, result.verdict)
    auto_timeline(deps, channel=ask.channel, thread_ts=root, target=ask.target, lang=ask.lang)
