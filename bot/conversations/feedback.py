"""👍/👎 on a diagnosis reply (`rlark_feedback`, value `up|<case>` or `down|<case>`): one vote per user per
reply in the store, a changed vote replacing the old one, counted per case in the metrics; the voter hears
that it was recorded."""

from __future__ import annotations

import time

from bot.conversations.deps import Deps
from bot.conversations.diagnosis import tell_user
from bot.render.ephemeral import ephemeral
from bot.store.base import StoreUnavailable
from bot.store.feedback import VOTES, FeedbackVote, cast


def parse_vote(value: str, *, known: frozenset[str]) -> tuple[str, str]:
    """(vote, case) from a button's value; ValueError for a vote or a case the bot does not know."""
    vote, sep, case = value.partition("|")
    if not sep or vote not in VOTES or (case != "none" and case not in known):
        raise ValueError("not a feedback button value")
    return vote, case


def vote(deps: Deps, *, value: str, channel: str, ts: str, user: str, thread: str) -> str:
    """The outcome for the audit: `voted`, `changed`, `duplicate`, `usage` or `store_down`."""
    runbook = deps.service.runbook
    known = frozenset(runbook.cases) if runbook is not None else frozenset()
    try:
        choice, case = parse_vote(value, known=known)
    except ValueError:
        return "usage"
    if not ts or not user:
        return "usage"
    entry = FeedbackVote(channel=channel, ts=ts, thread=thread, user=user, vote=choice, case=case, at=time.time())
    try:
        before = cast(deps.store, entry)
    except StoreUnavailable as exc:
        deps.log.warning("feedback not recorded: store unavailable", extra={"reason": str(exc)})
        return "store_down"
    if before is None:
        return "duplicate"
    deps.metrics.count_feedback(case=case, vote=choice)
    lang = deps.settings.channels[channel].lang if channel in deps.settings.channels else "en"
    tell_user(deps, channel=channel, user=user, thread_ts=thread or None,
              message=ephemeral("feedback", lang=lang, redactor=deps.redactor, vote=choice))
    return "changed" if before else "voted"
