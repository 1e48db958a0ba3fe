"""What every conversation shares: the asker's language, dropping a request already taken, and handing work
to the bounded pool (with the audit line when it ends)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from bot.conversations.access import binding_for
from bot.conversations.deps import Deps
from bot.conversations.diagnosis import Ask, run_diagnosis, tell
from bot.conversations.parsing import Command
from bot.conversations.tickets import run_ticket
from bot.obs.logs import new_id
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


def hand_off(deps: Deps, *, work: Callable[[], str], audit: dict[str, Any], lang: str,
             tell: Callable[[SlackMessage], None]) -> None:
    """Run `work` on the bounded pool; one audit line when it ends (who, channel, command, target, outcome)."""
    if not deps.inflight.acquire(blocking=False):
        tell(ephemeral("busy", lang=lang, redactor=deps.redactor))
        deps.metrics.count_command(command=str(audit.get("command")), outcome="busy")
        return
    request_id = new_id()

    def run() -> None:
        started = time.monotonic()
        outcome = "error"
        try:
            outcome = work()
        except Exception:
            deps.log.exception("command failed", extra={**audit, "request_id": request_id})
            tell(ephemeral("error", lang=lang, redactor=deps.redactor))
        finally:
            deps.inflight.release()
            duration_ms = int((time.monotonic() - started) * 1000)
            deps.metrics.count_command(command=str(audit.get("command")), outcome=outcome)
            deps.log.info("command", extra={**audit, "outcome": outcome, "duration_ms": duration_ms,
                                             "request_id": request_id})

    deps.pool.submit(run)


def diagnose_later(deps: Deps, cmd: Command, *, channel: str, user: str, lang: str, response_url: str | None,
                    trigger: str | None) -> None:
    """`/rlark diagnose` and `/rlark ticket`, acknowledged already: on the bounded pool, answered in a thread."""
    assert cmd.target is not None
    ask = Ask(channel=channel, user=user, target=cmd.target, lang=lang, response_url=response_url)

    def work() -> str:
        if not first_time(deps, trigger):  # a request already taken (Slack's retry, a double submission)
            return "duplicate_request"
        return run_ticket(deps, ask) if cmd.verb == "ticket" else run_diagnosis(deps, ask)

    def say(message: SlackMessage) -> None:
        tell(deps, ask, message=message)

    hand_off(deps, work=work, lang=lang, tell=say,
             audit={"user": user, "channel": channel, "command": cmd.verb, "target": str(cmd.target)})
