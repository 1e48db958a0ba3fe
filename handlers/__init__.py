"""Slack entry points, registered in one place (`register(app, deps)`): middleware for what every request goes
through, then listeners that parse, acknowledge and call a conversation (`bot.conversations`)."""

from __future__ import annotations

import re
from typing import Any

from slack_bolt import Ack, App, BoltContext

from bot.conversations.deps import Deps
from bot.conversations.preflight_message import CALLBACK_ID as PREFLIGHT_SHORTCUT
from handlers.buttons import on_button
from handlers.errors import on_error
from handlers.events import on_link_shared
from handlers.middleware import admin_group, audit, audited, drop_retries, when_ready
from handlers.shortcuts import on_preflight_shortcut
from handlers.slash import on_command

ACTIONS = re.compile(r"^rlark_(ticket|rerun|evidence|mute|timeline|diagnose|diagnose_pick|ack|feedback)$")


def register(app: App, deps: Deps) -> None:
    app.middleware(drop_retries(deps))
    app.middleware(audit(deps))
    app.middleware(admin_group(deps))

    @app.command(deps.settings.slash_command, middleware=[when_ready(deps)])
    def command(ack: Ack, body: dict[str, Any], context: BoltContext) -> None:
        with audited(context) as record:
            on_command(deps, ack=ack, body=body, audit=record, admin=context["is_admin"])

    @app.action(ACTIONS)
    def button(ack: Ack, body: dict[str, Any], context: BoltContext) -> None:
        with audited(context) as record:
            on_button(deps, ack=ack, body=body, audit=record, admin=context["is_admin"])

    @app.shortcut(PREFLIGHT_SHORTCUT, middleware=[when_ready(deps)])
    def preflight_shortcut(ack: Ack, body: dict[str, Any], context: BoltContext) -> None:
        on_preflight_shortcut(deps, ack=ack, body=body, context=context)
    @app.event("link_shared")
    def link_shared(body: dict[str, Any]) -> None:
        on_link_shared(deps, body=body)

    @app.error
    def error(error: Exception, body: dict[str, Any]) -> None:
        on_error(deps, error=error, body=body)
