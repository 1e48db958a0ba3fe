"""What the Slack stand-in remembers: every call, and the workspace those calls changed.

Plain dataclasses with no locking of their own; `SlackStandIn` guards them with one lock. Tests read them to
assert what a person in the channel would see (messages with their edit history, thread replies, files,
replies only one user sees) and what the bot sent on the wire (`Call`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Obj = dict[str, Any]

BOT_USER_ID = "U0RLARKBOT"
BOT_ID = "B0RLARKBOT"
APP_ID = "A0RLARKBOT"
TEAM_ID = "T0STANDIN"
TEAM_DOMAIN = "standin"


@dataclass
class Call:
    """One request the stand-in received, recorded on arrival and completed when it was answered.

    `params` merges the query string and the body (form or JSON) with `blocks`, `attachments`, `metadata` and
    `files` JSON-decoded when they came as strings. `headers` has lower-case names. `at` is `time.monotonic()`
    on arrival, `wall` is `time.time()`. `status` is the HTTP status sent (0 while unanswered, -1 when the
    connection was cut), `error` the Slack error string of an `ok: false` answer.
    """

    method: str
    params: Obj
    headers: dict[str, str]
    at: float
    wall: float
    token: str | None = None
    body: bytes = b""
    status: int = 0
    error: str | None = None
    response: Obj | None = None

    @property
    def ok(self) -> bool:
        return self.status == 200 and self.error is None


@dataclass(frozen=True)
class Version:
    """An earlier state of a message, kept when `chat.update` (or `replace_original`) changed it."""

    text: str
    blocks: list[Obj] | None
    attachments: list[Obj] | None
    metadata: Obj | None


@dataclass
class File:
    """A file uploaded through `files.getUploadURLExternal` and its upload URL, shared (or not) on completion."""

    id: str
    name: str
    length: int
    title: str = ""
    content: bytes | None = None
    channel: str | None = None
    thread_ts: str | None = None
    message_ts: str | None = None
    completed: bool = False

    @property
    def size(self) -> int:
        return len(self.content or b"")

    def text(self) -> str:
        return (self.content or b"").decode("utf-8", errors="replace")

    def to_api(self) -> Obj:
        shares: Obj = {}
        if self.channel and self.message_ts:
            share: Obj = {"ts": self.message_ts, "channel_name": self.channel}
            if self.thread_ts:
                share["thread_ts"] = self.thread_ts
            shares = {"public": {self.channel: [share]}}
        return {"id": self.id, "name": self.name, "title": self.title or self.name, "size": self.size,
                "mimetype": "text/plain", "filetype": "text", "user": BOT_USER_ID, "shares": shares,
                "channels": [self.channel] if self.channel else []}


@dataclass
class Message:
    """A message in a channel. `thread_ts` is the root's ts for a reply and None for a root message."""

    channel: str
    ts: str
    text: str = ""
    blocks: list[Obj] | None = None
    attachments: list[Obj] | None = None
    metadata: Obj | None = None
    thread_ts: str | None = None
    user: str = BOT_USER_ID
    files: list[File] = field(default_factory=list)
    history: list[Version] = field(default_factory=list)
    reply_broadcast: bool = False
    deleted: bool = False
    unfurls: dict[str, Obj] = field(default_factory=dict)  # link -> preview, as `chat.unfurl` set them

    @property
    def edits(self) -> int:
        return len(self.history)

    @property
    def is_reply(self) -> bool:
        return self.thread_ts is not None and self.thread_ts != self.ts

    @property
    def event_type(self) -> str | None:
        return None if self.metadata is None else self.metadata.get("event_type")

    def buttons(self) -> list[Obj]:
        """Every button element in the message's `actions` blocks, in order."""
        return [e for b in self.blocks or [] if b.get("type") == "actions"
                for e in b.get("elements", []) if e.get("type") == "button"]

    def snapshot(self) -> Version:
        return Version(self.text, self.blocks, self.attachments, self.metadata)

    def to_api(self) -> Obj:
        out: Obj = {"type": "message", "user": self.user, "bot_id": BOT_ID, "app_id": APP_ID, "team": TEAM_ID,
                    "text": self.text, "ts": self.ts}
        for name in ("blocks", "attachments", "metadata", "thread_ts"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.files:
            out["files"] = [f.to_api() for f in self.files]
            out["subtype"] = "file_share"
        if self.history:
            out["edited"] = {"user": self.user, "ts": self.ts}
        return out


@dataclass
class Ephemeral:
    """A reply only `user` sees, from `chat.postEphemeral` or an ephemeral post to a response URL."""

    channel: str
    user: str
    ts: str
    text: str = ""
    blocks: list[Obj] | None = None
    attachments: list[Obj] | None = None
    thread_ts: str | None = None
    via: str = "chat.postEphemeral"


@dataclass
class ResponseUrl:
    """A response URL handed out by `new_response_url()`: where it leads and what was posted to it."""

    id: str
    channel: str
    user: str
    message_ts: str | None = None
    posts: list[Obj] = field(default_factory=list)


@dataclass
class Channel:
    """What `conversations.info` answers for a channel configured with `SlackStandIn.add_channel`."""

    id: str
    name: str
    is_private: bool = False
    is_member: bool = True

    def to_api(self) -> Obj:
        return {"id": self.id, "name": self.name, "is_channel": not self.is_private, "is_group": self.is_private,
                "is_im": False, "is_private": self.is_private, "is_member": self.is_member, "is_archived": False,
                "context_team_id": TEAM_ID, "name_normalized": self.name}
