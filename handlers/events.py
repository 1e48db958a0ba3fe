"""The Events API listeners of this side: `link_shared` (pasted RLark job links, previewed with `chat.unfurl`).

Slack's retries are dropped by the middleware; an event delivered twice (the same `event_id`) acts once."""

from __future__ import annotations

from typing import Any

from bot.conversations.audit import Audit
from bot.conversations.deps import Deps
from bot.conversations.requests import first_time
from bot.conversations.unfurls import unfurl_later


def on_link_shared(deps: Deps, *, body: dict[str, Any]) -> None:
    event = body.get("event") or {}
    channel, user = str(event.get("channel") or ""), str(event.get("user") or "")
    audit = Audit(log=deps.log, metrics=deps.metrics, user=user, channel=channel, command="unfurl")
    if not first_time(deps, f"event:{body.get('event_id') or ''}" if body.get("event_id") else None):
        return
    urls = [str(link.get("url") or "") for link in event.get("links") or [] if isinstance(link, dict)]
    unfurl_later(deps, channel=channel, ts=str(event.get("message_ts") or ""), urls=urls, audit=audit)
