"""Slack entry points, registered in one place (`register(app, deps)`): middleware for what every request goes
through, then listeners that parse, acknowledge and call a conversation (`bot.conversations`)."""

from __future__ import annotations

import re
from typing import Any

from slack_bolt import Ack, App, BoltContext

from bot.conversations.deps import Deps
from bot.conversations.home import Home
from bot.conversations.preflight_message import CALLBACK_ID as PREFLIGHT_SHORTCUT
from bot.render.slack_entry import MODAL_CALLBACK, PICK_ACTION
from handlers.buttons import on_button
from handlers.errors import on_error
from handlers.events import on_direct_message, on_home_opened, on_link_shared, on_mention
from handlers.middleware import admin_group, audit, audited, drop_retries, when_ready
from handlers.shortcuts import (
    on_global_shortcut,
    on_message_shortcut,
    on_pick,
    on_preflight_shortcut,
    on_submission,
)
from handlers.slash import on_command

MESSAGE_SHORTCUT = "rlark_diagnose_message"
GLOBAL_SHORTCUT = "rlark_diagnose_modal"

ACTIONS = re.compile(r"^rlark_(ticket|rerun|evidence|mute|timeline|diagnose|diagnose_pick|ack|feedback)$")


def register(app: App, deps: Deps) -> None:
    app.middleware(drop_retries(deps))
    app.middleware(audit(deps))
    app.middleware(admin_group(deps))
    home = Home(deps)

    @app.command(deps.settings.slash_command, middleware=[when_ready(deps)])
    def command(ack: Ack, body: dict[str, Any], context: BoltContext) -> None:
        with audited(context) as record:
            on_command(deps, ack=ack, body=body, audit=record, admin=context["is_admin"])

    @app.action(ACTIONS)
    def button(ack: Ack, body: dict[str, Any], context: BoltContext) -> None:
        with audited(context) as record:
            on_button(deps, ack=ack, body=body, audit=record, admin=context["is_admin"], home=home)

    @app.shortcut(PREFLIGHT_SHORTCUT, middleware=[when_ready(deps)])
    def preflight_shortcut(ack: Ack, body: dict[str, Any], context: BoltContext) -> None:
        on_preflight_shortcut(deps, ack=ack, body=body, context=context)
    @app.event("link_shared")
    def link_shared(body: dict[str, Any]) -> None:
        on_link_shared(deps, body=body)

    register_entry_points(app, deps, home=home)

    @app.error
    def error(error: Exception, body: dict[str, Any]) -> None:
        on_error(deps, error=error, body=body)


def register_entry_points(app: App, deps: Deps, *, home: Home) -> None:
    """Mentions, DMs, the App Home tab, the shortcuts and the modal (CONTRACT §11)."""

    @app.event("app_mention")
    def mention(ack: Ack, body: dict[str, Any], context: BoltContext) -> None:
        ack()
        with audited(context) as record:
            on_mention(deps, body=body, audit=record)

    @app.event("message")
    def message(ack: Ack, body: dict[str, Any], context: BoltContext) -> None:
        ack()
        with audited(context) as record:
            on_direct_message(deps, body=body, audit=record)

    @app.event("app_home_opened")
    def home_opened(ack: Ack, body: dict[str, Any], context: BoltContext) -> None:
        ack()
        with audited(context) as record:
            on_home_opened(deps, home, body=body, audit=record)

    @app.shortcut(MESSAGE_SHORTCUT)
    def message_shortcut(ack: Ack, body: dict[str, Any], context: BoltContext) -> None:
        with audited(context) as record:
            on_message_shortcut(deps, ack=ack, body=body, audit=record)

    @app.action(PICK_ACTION)
    def pick(ack: Ack, body: dict[str, Any], context: BoltContext) -> None:
        with audited(context) as record:
            on_pick(deps, ack=ack, body=body, audit=record)

    @app.shortcut(GLOBAL_SHORTCUT)
    def global_shortcut(ack: Ack, body: dict[str, Any], context: BoltContext) -> None:
        with audited(context) as record:
            on_global_shortcut(deps, ack=ack, body=body, audit=record)

    @app.view(MODAL_CALLBACK)
    def submission(ack: Ack, body: dict[str, Any], context: BoltContext) -> None:
        with audited(context) as record:
            on_submission(deps, ack=ack, body=body, audit=record)
