"""The app factory: a slack_bolt `App`, never an import-time global. Listeners are registered on it by the
composition root (`handlers.register(app, deps)`), which sits above both: the factory knows no listener."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor

from pydantic import SecretStr
from slack_bolt import App
from slack_bolt.authorization import AuthorizeResult
from slack_sdk import WebClient

SlackApp = App  # what the composition root builds and registers listeners on


def create_app(*, signing_secret: SecretStr | None, identity: Mapping[str, str], client: WebClient,
               socket_mode: bool) -> App:
    """HTTP mode verifies Slack's signature on every request (bad or stale: 401, nothing runs); Socket Mode
    needs no signing secret (the connection itself is authenticated with the app token). `identity`: auth.test's
    team_id, user_id and bot_id once readiness learned them (read on every request, so filled in later)."""
    secret = signing_secret
    token = client.token
    # bolt takes the token from `authorize` on every request and hands listeners a copy of its client carrying
    # it; its own client therefore has none (a client with a token next to `authorize` is a conflict bolt warns
    # about, and the token would be dropped anyway).
    tokenless = WebClient(token=None, base_url=client.base_url, timeout=client.timeout,
                          retry_handlers=client.retry_handlers, logger=client.logger)

    def authorize(enterprise_id: str | None, team_id: str | None) -> AuthorizeResult:
        # The single workspace the bot token belongs to. bolt's default would call auth.test on requests until
        # it once succeeds, and answer users "please reinstall" while Slack refuses; readiness owns that check
        # (commands hear "starting up" until it passes), so this only hands bolt what readiness learned.
        me = identity
        return AuthorizeResult(enterprise_id=enterprise_id, team_id=team_id or me.get("team_id"), bot_token=token,
                               bot_user_id=me.get("user_id"), bot_id=me.get("bot_id"))

    app = App(
        client=tokenless,
        authorize=authorize,
        signing_secret=secret.get_secret_value() if secret else None,
        token_verification_enabled=False,  # auth.test runs in the readiness check, so start never blocks on Slack
        request_verification_enabled=not socket_mode,
        process_before_response=True,  # handlers only ack and hand off: no executor hop, no ack polling
        raise_error_for_unhandled_request=False,
        logger=logging.getLogger("rlark_bot.bolt"),
        listener_executor=ThreadPoolExecutor(max_workers=16, thread_name_prefix="bolt"),
    )
    return app
