"""`/rlark preflight job/NAME`, `/rlark nodes SELECTOR`, `/rlark compare A B` and `/rlark timeline TARGET`
(CONTRACT §11), acknowledged already: on the bounded pool, the work itself in the worker processes.

Each is scope-checked as diagnose is (`locate_allowed`: one refusal, worded the same, for a channel that is not
bound and a target outside its scope or missing; "not found" only where everything is allowed), goes ahead at
most once a minute per (channel, command, target) (a second ask gets a link to the thread), and is answered in
a thread: a root naming the command, a reply with the text form and the CLI JSON as metadata
(`rlark_preflight`, `rlark_compare`, `rlark_timeline`), the timeline's PNG uploaded there too.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from bot.conversations.access import binding_for
from bot.conversations.audit import Audit
from bot.conversations.deps import Deps
from bot.conversations.diagnosis import (
    Ask,
    canonical,
    locate_allowed,
    post_patiently,
    tell_user,
    thread_under_way,
)
from bot.conversations.parsing import Command
from bot.conversations.pictures import timeline_task, upload
from bot.conversations.ports import SlackDown, seal_message
from bot.conversations.requests import first_time, hand_off
from bot.errors import NotFound, UserError
from bot.models import Target
from bot.render.ephemeral import ephemeral
from bot.render.slack_commands import command_failed, command_reply, command_root, command_summary
from bot.render.slack_message import SlackMessage
from bot.settings import ChannelBinding
from bot.sources import Location
from bot.store.base import StoreUnavailable
from bot.workers.api import WorkerLost
from bot.workers.command_tasks import CommandResult, CommandTask, Verb

VERBS: dict[str, Verb] = {"preflight": "preflight", "nodes": "nodes", "compare": "compare", "timeline": "timeline"}
COMMANDS = tuple(VERBS)
COOLDOWN_SECONDS = 60
THREAD_MEMORY_SECONDS = 24 * 3600


@dataclass(frozen=True)
class Request:
    """One command from a channel: `targets` are scope-checked (none for nodes), `args` go to the worker."""

    verb: Verb
    channel: str
    user: str
    lang: str
    what: str  # how the root names it: `job/x`, `job/a → job/b`, the selector
    targets: tuple[Target, ...] = ()
    args: tuple[str, ...] = ()
    response_url: str | None = None

    def ask(self, target: Target) -> Ask:
        return Ask(channel=self.channel, user=self.user, target=target, lang=self.lang,
                   response_url=self.response_url)

    def say(self, deps: Deps, message: SlackMessage) -> None:
        tell_user(deps, channel=self.channel, user=self.user, message=message, response_url=self.response_url)


def _refuse(deps: Deps, req: Request) -> str:
    req.say(deps, ephemeral("refusal", lang=req.lang, redactor=deps.redactor))
    return "refused"


def _in_scope(deps: Deps, req: Request) -> list[Location] | str:
    """Every target's location when the channel may see all of them; else the outcome after telling the asker."""
    if binding_for(deps.settings, req.channel) is None:
        return _refuse(deps, req)
    found: list[Location] = []
    for target in req.targets:
        where = locate_allowed(deps, req.ask(target))
        if isinstance(where, str):
            return where
        found.append(where)
    return found


def first_in_a_minute(deps: Deps, req: Request, key: str) -> bool:
    """True when this ask may go ahead; else the asker got a link to the thread already under way."""
    link = thread_under_way(deps, channel=req.channel, key=key)
    if link is None:
        return True
    req.say(deps, ephemeral("duplicate", lang=req.lang, redactor=deps.redactor, target=req.what, permalink=link))
    return False


def _forget(deps: Deps, key: str) -> None:
    with contextlib.suppress(StoreUnavailable):
        deps.store.delete(f"cooldown:{key}")


def _task(req: Request, binding: ChannelBinding) -> CommandTask:
    clusters = None if binding.clusters == "*" else tuple(binding.clusters)
    if req.verb == "timeline":
        return timeline_task(req.targets[0], lang=req.lang)
    return CommandTask(verb=req.verb, args=req.args, lang=req.lang, clusters=clusters)


def _failed(deps: Deps, req: Request, exc: UserError, binding: ChannelBinding) -> str:
    if isinstance(exc, NotFound):  # found by the engine, not by the inventory (a Job deleted meanwhile, say)
        if not binding.everywhere:
            return _refuse(deps, req)
        req.say(deps, ephemeral("not_found", lang=req.lang, redactor=deps.redactor, target=req.what,
                                where=str(exc).split(": ", 1)[-1]))
        return "not_found"
    req.say(deps, command_failed(req.verb, req.what, reason=str(exc), lang=req.lang, redactor=deps.redactor))
    return "source_error"


def run_request(deps: Deps, req: Request) -> str:
    """The whole flow for one command; returns the outcome for the audit line and the metric."""
    where = _in_scope(deps, req)
    if isinstance(where, str):
        return where
    binding = binding_for(deps.settings, req.channel)
    assert binding is not None
    names = "+".join(canonical(t, w) for t, w in zip(req.targets, where, strict=True)) or req.what
    key = f"{req.channel}:{req.verb}:{names}"
    if not first_in_a_minute(deps, req, key):
        return "duplicate"
    try:
        result = deps.engine.command(_task(req, binding))
    except UserError as exc:
        _forget(deps, key)  # nothing was posted: asking again (after fixing the cause) goes ahead
        return _failed(deps, req, exc, binding)
    except WorkerLost as exc:
        _forget(deps, key)
        deps.log.warning("command lost", extra={"command": req.verb, "reason": str(exc)})
        req.say(deps, ephemeral("error", lang=req.lang, redactor=deps.redactor))
        return "worker_lost"
    answer(deps, req, result=result, key=key)
    return "answered"


def answer(deps: Deps, req: Request, *, result: CommandResult, key: str) -> None:
    """The root, the thread reply with the metadata, the timeline's picture, the root's summary."""
    r = deps.redactor
    root = post_patiently(deps, channel=req.channel, thread_ts=None,
                          message=command_root(req.verb, req.what, lang=req.lang, redactor=r))
    with contextlib.suppress(StoreUnavailable):  # the cooldown's link is a convenience
        deps.store.put(f"thread:{key}", root, ttl_seconds=THREAD_MEMORY_SECONDS)
    reply = command_reply(req.verb, req.what, text=result.text, data=result.data, lang=req.lang, redactor=r)
    post_patiently(deps, channel=req.channel, message=reply, thread_ts=root)
    if result.png is not None:
        try:
            upload(deps, channel=req.channel, thread_ts=root, target=req.targets[0], result=result, lang=req.lang)
        except SlackDown as exc:
            deps.log.warning("timeline picture not uploaded", extra={"channel": req.channel, "reason": str(exc)})
    summary = (result.text.splitlines() or [""])[0]
    with contextlib.suppress(SlackDown):
        deps.sink.update(channel=req.channel, ts=root, message=seal_message(
            command_summary(req.verb, req.what, summary=summary, lang=req.lang, redactor=r), r))


def _what(cmd: Command) -> str:
    if cmd.verb == "compare":
        return f"{cmd.args[0]} → {cmd.args[1]}"
    if cmd.verb == "nodes":
        return cmd.args[0]
    return str(cmd.target)


def command_later(deps: Deps, cmd: Command, *, audit: Audit, lang: str, response_url: str | None,
                  trigger: str | None) -> None:
    """The slash command, acknowledged already: on the bounded pool, answered in a thread."""
    verb = VERBS[cmd.verb]
    if cmd.verb == "compare":
        targets = tuple(Target.parse(a) for a in cmd.args)
    else:
        targets = (cmd.target,) if cmd.target is not None else ()
    args = cmd.args or ((cmd.target.name,) if cmd.target is not None else ())
    req = Request(verb=verb, channel=audit.channel, user=audit.user, lang=lang, what=_what(cmd), targets=targets,
                  args=args, response_url=response_url)
    audit.about(command=cmd.verb, target=req.what)

    def work() -> str:
        if not first_time(deps, trigger):  # Slack's retry, a double submission
            return "duplicate_request"
        return run_request(deps, req)

    hand_off(deps, work=work, lang=lang, tell=lambda message: req.say(deps, message), audit=audit)
