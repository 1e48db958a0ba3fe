"""The Slack Web API client: slack_sdk's WebClient with bounded retries and a call counter.

429s are retried after Slack's Retry-After, 5xx and connection errors a few times with backoff; past that
the caller gets the error (a `SlackApiError` or a connection error) and degrades instead of crashing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_handlers import (
    ConnectionErrorRetryHandler,
    RateLimitErrorRetryHandler,
    ServerErrorRetryHandler,
)
from slack_sdk.web import SlackResponse

from bot.settings import Settings

OnCall = Callable[[str, str], None]  # (method, status) -> None: "ok", the Slack error, or the exception's name


class CountingWebClient(WebClient):
    """A WebClient that reports every call's outcome (for `rlark_bot_slack_calls_total`)."""

    def __init__(self, *, on_call: OnCall | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._on_call = on_call

    def api_call(self, api_method: str, **kwargs: Any) -> SlackResponse:
        try:
            response = super().api_call(api_method, **kwargs)
        except SlackApiError as exc:
            self._report(api_method, str(exc.response.get("error", "error")))
            raise
        except Exception as exc:
            self._report(api_method, type(exc).__name__)
            raise
        self._report(api_method, "ok")
        return response

    def _report(self, method: str, status: str) -> None:
        if self._on_call is not None:
            self._on_call(method, status)


def without_blind_retries(client: WebClient) -> WebClient:
    """The same client retrying only rate limits (a 429 took nothing): a post answered by a timeout, a cut
    connection or a 5xx may have been taken, so it is looked up before being sent again (`bot.slack.posting`)."""
    kwargs: dict[str, Any] = {"token": client.token, "base_url": client.base_url, "timeout": client.timeout,
                              "logger": client.logger,
                              "retry_handlers": [h for h in client.retry_handlers
                                                 if isinstance(h, RateLimitErrorRetryHandler)]}
    if isinstance(client, CountingWebClient):
        return CountingWebClient(on_call=client._on_call, **kwargs)
    return WebClient(**kwargs)


def make_client(settings: Settings, *, on_call: OnCall | None = None, timeout: float = 10.0,
                retries: int = 3) -> CountingWebClient:
    token = settings.slack_bot_token.get_secret_value() if settings.slack_bot_token else None
    return CountingWebClient(
        token=token, base_url=settings.slack_api_base_url, timeout=int(timeout), on_call=on_call,
        retry_handlers=[RateLimitErrorRetryHandler(max_retry_count=retries),
                        ServerErrorRetryHandler(max_retry_count=retries),
                        ConnectionErrorRetryHandler(max_retry_count=retries)],
    )
