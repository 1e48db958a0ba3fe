"""The one port the conversations talk to Slack through, and the sealed message it takes.

A conversation builds a `SlackMessage`, seals it through the redactor (`seal_message`) and hands it to a
`ChatSink`; `bot.slack.sink.SlackSink` is the implementation over slack_sdk's WebClient. Nothing here imports
the Slack SDK. Failures surface as one exception type, `SlackDown`, with a one-line reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from bot.redact import Redactor, SafeText, SafeValue, seal
from bot.render.slack_message import SlackMessage


class SlackDown(Exception):
    """Slack refused or could not be reached after the client's retries. `error` is Slack's error code when
    Slack answered (`channel_not_found`, ...), None when it could not be reached."""

    def __init__(self, message: str, *, error: str | None = None) -> None:
        super().__init__(message)
        self.error = error


@dataclass(frozen=True)
class Sealed:
    text: SafeText
    blocks: SafeValue
    metadata: SafeValue | None
    files: tuple[tuple[SafeText, SafeText, SafeText], ...]  # (name, title, content)


def seal_message(message: SlackMessage, redactor: Redactor, *, verbatim: tuple[str, ...] = ()) -> Sealed:
    """Every string of the message through the redactor; only the bot's own identifiers pass unchanged."""
    keep = (*message.verbatim, *verbatim)
    return Sealed(
        text=redactor.redact(message.text).text,
        blocks=seal(message.blocks, redactor, verbatim=keep),
        metadata=None if message.metadata is None else seal(message.metadata, redactor, verbatim=keep),
        files=tuple((redactor.redact(f.name).text, redactor.redact(f.title).text, redactor.redact(f.content).text)
                    for f in message.files),
    )


@dataclass(frozen=True)
class Picture:
    """PNG bytes drawn from redacted SVG (`bot.timeline.png_of`): the only binary the app uploads."""

    png: bytes


class ChatSink(Protocol):
    """What the conversations may do in Slack. Every message is `Sealed`, every file part `SafeText`."""

    def post(self, *, channel: str, message: Sealed, thread_ts: str | None = None, key: str | None = None,
             maybe_sent: bool = False) -> str:
        """A message in the channel (or a thread); its ts. Files of the message go into its thread. `key`: the
        post's idempotency key; `maybe_sent`: an earlier attempt with it may have reached Slack (looked up)."""
        ...

    def update(self, *, channel: str, ts: str, message: Sealed) -> None: ...

    def ephemeral(self, *, channel: str, user: str, message: Sealed, thread_ts: str | None = None) -> None: ...

    def respond(self, *, response_url: str, message: Sealed) -> None:
        """An ephemeral answer through a command's `response_url`."""
        ...

    def upload(self, *, channel: str, thread_ts: str, name: SafeText, title: SafeText, content: SafeText) -> None: ...

    def upload_picture(self, *, channel: str, thread_ts: str, name: SafeText, title: SafeText, picture: Picture,
                       comment: SafeText | None = None) -> None:
        """A PNG into a thread (`files_upload_v2`), with `comment` as its message when given."""
    def unfurl(self, *, channel: str, ts: str, unfurls: dict[str, Sealed]) -> None:
        """Previews under the links of message `ts` (`chat.unfurl`), keyed by each link exactly as shared."""
        ...

    def permalink(self, *, channel: str, ts: str) -> str | None: ...

    def usergroup_members(self, usergroup: str) -> list[str]: ...

    def open_view(self, *, trigger_id: str, view: SafeValue) -> None:
        """A modal (`views.open`), opened with the trigger of a shortcut."""
        ...

    def publish_home(self, *, user: str, view: SafeValue) -> None:
        """The user's App Home tab (`views.publish`)."""
        ...

    def user_channels(self, user: str) -> list[str]:
        """The channels `user` is a member of (`users.conversations`, every page)."""
        ...

    def auth_test(self) -> dict[str, Any]: ...
