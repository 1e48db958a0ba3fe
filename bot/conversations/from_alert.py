"""From an alert's root (CONTRACT §11): Diagnose (into the alert's own thread), the menu of its objects,
and the automatic diagnosis of a first sighting ("I'm on it" is `alert_acks`).

A diagnosis from an alert is the slash command's use case: the same scope check for the channel, the same
refusal, the same 60 s cooldown per (channel, target); only its progress and verdict are a reply in the alert's
thread, so the alert's root keeps its buttons and metadata.
"""

from __future__ import annotations

import contextlib
from typing import Any

from bot.alerts.targets import target_named
from bot.conversations.audit import Audit
from bot.conversations.deps import Deps
from bot.conversations.diagnosis import Ask, run_diagnosis, tell
from bot.conversations.requests import hand_off
from bot.models import Target
from bot.render.slack_actions import parse_target_value
from bot.render.slack_message import SlackMessage
from bot.store.base import StoreUnavailable

ALERT_THREAD = "alert-thread:"  # + channel + ":" + root ts: a diagnosis went into this alert's thread
AUTO = "alerts:autodiagnosed:"  # + channel + ":" + root ts: claimed by the one replica that diagnoses it
MEMORY_SECONDS = 14 * 24 * 3600


def mark_alert_thread(deps: Deps, channel: str, ts: str) -> None:
    with contextlib.suppress(StoreUnavailable):  # without it a re-run edits the progress reply's root: logged
        deps.store.put(f"{ALERT_THREAD}{channel}:{ts}", "1", ttl_seconds=MEMORY_SECONDS)


def is_alert_thread(deps: Deps, channel: str, ts: str) -> bool:
    try:
        return bool(ts) and deps.store.get(f"{ALERT_THREAD}{channel}:{ts}") is not None
    except StoreUnavailable:
        return False


def diagnose_into_alert(deps: Deps, *, ask: Ask, audit: Audit) -> None:
    """The Diagnose button or the menu: on the bounded pool, into the alert's thread (`ask.thread_ts`)."""
    assert ask.thread_ts is not None and ask.in_thread

    def work() -> str:
        mark_alert_thread(deps, ask.channel, str(ask.thread_ts))
        return run_diagnosis(deps, ask)

    def say(message: SlackMessage) -> None:
        tell(deps, ask, message=message)

    hand_off(deps, work=work, lang=ask.lang, tell=say, audit=audit)


def auto_diagnose(deps: Deps, *, channel: str, ts: str, metadata: dict[str, Any]) -> None:
    """`RLARK_BOT_ALERTS__AUTO_DIAGNOSE`: a first sighting's root just posted; its first Job, pod or runner is
    diagnosed into its thread, by the one replica that claims it (the replica that posted it, normally)."""
    if not deps.settings.alerts.auto_diagnose:
        return
    try:
        _auto(deps, channel=channel, ts=ts, metadata=metadata)
    except Exception:  # never into the alert's delivery: the root is posted whatever happens here
        deps.log.exception("automatic diagnosis not started", extra={"channel": channel})


def _auto(deps: Deps, *, channel: str, ts: str, metadata: dict[str, Any]) -> None:
    payload = metadata.get("event_payload") or {}
    refs = [str(r) for r in (payload.get("objects") or [payload.get("object")]) if r]
    target = next((t for t in map(target_named, refs) if t is not None), None)
    if target is None:
        return
    try:
        if not deps.store.claim(f"{AUTO}{channel}:{ts}", ttl_seconds=MEMORY_SECONDS):
            return
    except StoreUnavailable as exc:
        deps.log.warning("automatic diagnosis skipped: store unavailable", extra={"reason": str(exc)})
        return
    text, namespace = parse_target_value(target.value)
    binding = deps.settings.channels.get(channel)
    ask = Ask(channel=channel, user="", target=Target.parse(text, namespace), lang=binding.lang if binding else "en",
              thread_ts=ts, in_thread=True)
    audit = Audit(log=deps.log, metrics=deps.metrics, user="", channel=channel, command="auto_diagnose")
    audit.about(target=str(ask.target))
    diagnose_into_alert(deps, ask=ask, audit=audit)


__all__ = ["auto_diagnose", "diagnose_into_alert", "is_alert_thread"]
