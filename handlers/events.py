"""The Events API listeners: a mention of the bot, a DM to it, the App Home tab opened (handed to
`bot.conversations.entry` and `bot.conversations.home`), and `link_shared` (pasted RLark job links, previewed with
`chat.unfurl`). Each acknowledges at once.

Slack's retries are dropped by the middleware; an event delivered twice (the same `event_id`) acts once."""

from __future__ import annotations

from typing import Any

from bot.conversations.audit import Audit
from bot.conversations.deps import Deps
from bot.conversations.entry import Said, chat_request
from bot.conversations.home import Home
from bot.conversations.requests import first_time
from bot.conversations.unfurls import unfurl_later


def _ours(event: dict[str, Any]) -> bool:
    """A message of a bot (ours included) or an edit, deletion or join: nothing a person asked."""
    return bool(event.get("bot_id") or event.get("subtype") or not event.get("user"))


def on_mention(deps: Deps, *, body: dict[str, Any], audit: Audit) -> None:
    """`@rlark diagnose TARGET`: answered in the thread the mention is in (a thread of its own when top-level)."""
    event = dict(body.get("event") or {})
    if _ours(event):
        return
    said = Said(channel=str(event.get("channel", "")), user=str(event["user"]), text=str(event.get("text", "")),
                thread=str(event.get("thread_ts") or event.get("ts") or "") or None,
                event_id=str(body.get("event_id") or event.get("event_ts") or ""))
    chat_request(deps, said, audit=audit)


def on_direct_message(deps: Deps, *, body: dict[str, Any], audit: Audit) -> None:
    """A DM: like the slash command, in the scope of `RLARK_BOT_DM_SCOPE`; other channels' messages are not ours."""
    event = dict(body.get("event") or {})
    if event.get("channel_type") != "im" or _ours(event):
        return
    said = Said(channel=str(event.get("channel", "")), user=str(event["user"]), text=str(event.get("text", "")),
                thread=str(event["thread_ts"]) if event.get("thread_ts") else None,
                event_id=str(body.get("event_id") or event.get("event_ts") or ""))
    chat_request(deps, said, audit=audit)


def on_home_opened(deps: Deps, home: Home, *, body: dict[str, Any], audit: Audit) -> None:
    """The Home tab opened: its view built and published on the pool (never on the ack path)."""
    event = dict(body.get("event") or {})
    user = str(event.get("user") or "")
    if event.get("tab", "home") != "home" or not user:
        return
    event_id = str(body.get("event_id") or "")
    audit.later()

    def work() -> None:
        outcome = "duplicate_request"
        try:
            if first_time(deps, f"event:{event_id}" if event_id else None):
                outcome = "published" if home.opened(user) else "cached"
        finally:
            audit.outcome(outcome)

    deps.pool.submit(work)


def on_link_shared(deps: Deps, *, body: dict[str, Any]) -> None:
    event = body.get("event") or {}
    channel, user = str(event.get("channel") or ""), str(event.get("user") or "")
    audit = Audit(log=deps.log, metrics=deps.metrics, user=user, channel=channel, command="unfurl")
    if not first_time(deps, f"event:{body.get('event_id') or ''}" if body.get("event_id") else None):
        return
    urls = [str(link.get("url") or "") for link in event.get("links") or [] if isinstance(link, dict)]
    unfurl_later(deps, channel=channel, ts=str(event.get("message_ts") or ""), urls=urls, audit=audit)
