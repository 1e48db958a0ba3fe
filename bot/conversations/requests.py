"""What every conversation shares: the asker's language, dropping a request already taken, and handing work
to the bounded pool (the request's audit ends when the work does)."""

from __future__ import annotations

from collections.abc import Callable

from bot.conversations.access import binding_for
from bot.conversations.audit import Audit
from bot.conversations.deps import Deps
from bot.conversations.diagnosis import Ask, run_diagnosis, tell
from bot.conversations.parsing import Command
from bot.conversations.tickets import run_ticket
from bot.conversations.watch import run_unwatch, run_watch
from bot.render.ephemeral import ephemeral
from bot.render.slack_message import SlackMessage
from bot.store.base import StoreUnavailable

REQUEST_MEMORY_SECONDS = 3600


def channel_lang(deps: Deps, channel: str, *, override: str | None = None) -> str:
    if override:
        return override
    binding = binding_for(deps.settings, channel)
    return binding.lang if binding else "en"


def first_time(deps: Deps, request_id: str | None) -> bool:
    """False for a request already taken (a retry, a double submission): it is acknowledged and dropped."""
    if not request_id:
        return True
    try:
        return deps.store.claim(f"request:{request_id}", ttl_seconds=REQUEST_MEMORY_SECONDS)
    except StoreUnavailable as exc:
        deps.log.warning("store unavailable: retried requests are not deduplicated", extra={"reason": str(exc)})
        return True


def hand_off(deps: Deps, *, work: Callable[[], str], audit: Audit, lang: str,
             tell: Callable[[SlackMessage], None]) -> None:
    """Run `work` on the bounded pool; its outcome ends the request's audit (the line and the counter)."""
    if not deps.inflight.acquire(blocking=False):
        tell(ephemeral("busy", lang=lang, redactor=deps.redactor))
        audit.outcome("busy")
        return
    audit.later()

    def run() -> None:
        outcome = "error"
        try:
            outcome = work()
        except Exception:
            deps.log.exception("command failed", extra=audit.fields())
            tell(ephemeral("error", lang=lang, redactor=deps.redactor))
        finally:
            deps.inflight.release()
            audit.outcome(outcome)

    deps.pool.submit(run)


def diagnose_later(deps: Deps, cmd: Command, *, audit: Audit, lang: str, response_url: str | None,
                   trigger: str | None) -> None:
    """`/rlark diagnose`, `ticket`, `watch` and `unwatch`, acknowledged already: on the bounded pool, answered
    in a thread."""
    assert cmd.target is not None
    audit.about(command=cmd.verb, target=str(cmd.target))
    ask = Ask(channel=audit.channel, user=audit.user, target=cmd.target, lang=lang, response_url=response_url)

    def work() -> str:
        if not first_time(deps, trigger):  # a request already taken (Slack's retry, a double submission)
            return "duplicate_request"
        if cmd.verb == "watch":
            return run_watch(deps, ask)
        if cmd.verb == "unwatch":
            return run_unwatch(deps, ask)
        return run_ticket(deps, ask) if cmd.verb == "ticket" else run_diagnosis(deps, ask)

    def say(message: SlackMessage) -> None:
        tell(deps, ask, message=message)

    hand_off(deps, work=work, lang=lang, tell=say, audit=audit)
