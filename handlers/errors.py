"""bolt's error handler: a one-line apology for the user, the details only in the (redacted) log."""

from __future__ import annotations

from typing import Any

from bot.conversations.deps import Deps
from bot.conversations.diagnosis import tell_user
from bot.errors import UserError
from bot.render.ephemeral import ephemeral


def on_error(deps: Deps, *, error: Exception, body: dict[str, Any]) -> None:
    channel = str(body.get("channel_id") or (body.get("channel") or {}).get("id") or "")
    user = str(body.get("user_id") or (body.get("user") or {}).get("id") or "")
    lang = "en"
    if isinstance(error, UserError):
        message = ephemeral("usage", lang=lang, redactor=deps.redactor, command=deps.settings.slash_command,
                            reason=str(error))
    else:
        deps.log.error("handler failed", extra={"error": type(error).__name__, "channel": channel})
        message = ephemeral("error", lang=lang, redactor=deps.redactor)
    if channel and user:
        tell_user(deps, channel=channel, user=user, message=message, response_url=body.get("response_url"))
