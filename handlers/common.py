"""What every listener shares: acknowledging with a sealed message."""

from __future__ import annotations

from slack_bolt import Ack

from bot.conversations.deps import Deps
from bot.conversations.ports import seal_message
from bot.render.slack_message import SlackMessage


def ack_with(ack: Ack, deps: Deps, *, message: SlackMessage | None = None) -> None:
    """Acknowledge at once; with a message, that message is the ephemeral answer (sealed first)."""
    if message is None:
        ack()
        return
    sealed = seal_message(message, deps.redactor)
    ack(text=sealed.text, blocks=sealed.blocks.value, response_type="ephemeral")
