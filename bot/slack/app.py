"""The app factory: a slack_bolt `App` wired to the project's deps, never an import-time global."""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor

from slack_bolt import App
from slack_sdk import WebClient

from bot.slack.deps import Deps
from handlers import register


def create_app(deps: Deps, *, client: WebClient, socket_mode: bool) -> App:
    """HTTP mode verifies Slack's signature on every request (bad or stale: 401, nothing runs); Socket Mode
    needs no signing secret (the connection itself is authenticated with the app token)."""
    secret = deps.settings.slack_signing_secret
    app = App(
        client=client,
        signing_secret=secret.get_secret_value() if secret else None,
        token_verification_enabled=False,  # auth.test runs in the readiness check, so start never blocks on Slack
        request_verification_enabled=not socket_mode,
        process_before_response=False,
        raise_error_for_unhandled_request=False,
        logger=logging.getLogger("rlark_bot.bolt"),
        listener_executor=ThreadPoolExecutor(max_workers=16, thread_name_prefix="bolt"),
    )
    register(app, deps)
    return app
