"""What every handler shares: the asker's language, acknowledging with a sealed message, handing off work."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from slack_bolt import Ack

from bot.obs.logs import new_id
from bot.render.ephemeral import ephemeral
from bot.render.slack_message import SlackMessage
from bot.slack.authz import binding_for
from bot.slack.deps import Deps
from bot.slack.sink import seal_message
from bot.store.base import StoreUnavailable

REQUEST_MEMORY_SECONDS = 3600


def channel_lang(deps: Deps, channel: str, *, override: str | None = None) -> str:
    if override:
        return override
    binding = binding_for(deps.settings, channel)
    return binding.lang if binding else "en"


def ack_with(ack: Ack, deps: Deps, *, message: SlackMessage | None = None) -> None:
    """Acknowledge at once; with a message, that message is the ephemeral answer (sealed first)."""
    if message is None:
        ack()
        return
    sealed = seal_message(message, deps.redactor)
    ack(text=sealed.text, blocks=sealed.blocks.value, response_type="ephemeral")


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
