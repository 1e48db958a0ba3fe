"""Slack entry points, registered in one place: parse, authorize and acknowledge, then hand over to the service."""

from __future__ import annotations

import re
from typing import Any

from slack_bolt import Ack, App, BoltResponse

from bot.conversations.deps import Deps
from handlers.buttons import on_button
from handlers.errors import on_error
from handlers.slash import on_command

ACTIONS = re.compile(r"^rlark_(ticket|rerun|evidence|mute)$")


def register(app: App, deps: Deps) -> None:
    @app.middleware
    def drop_retries(req: Any, next: Any) -> Any:
        """A request Slack retries is answered 200 and never runs twice (the first one is being handled).

        A fresh response: at this point in bolt's global middleware there is no response object yet."""
        if req.headers.get("x-slack-retry-num"):
            deps.log.info("retried request dropped", extra={"retry": req.headers.get("x-slack-retry-num")})
            return BoltResponse(status=200, body="")
        return next()

    @app.command(deps.settings.slash_command)
    def command(ack: Ack, body: dict[str, Any]) -> None:
        on_command(deps, ack=ack, body=body)

    @app.action(ACTIONS)
    def button(ack: Ack, body: dict[str, Any]) -> None:
        on_button(deps, ack=ack, body=body)

    @app.error
    def error(error: Exception, body: dict[str, Any]) -> None:
        on_error(deps, error=error, body=body)
