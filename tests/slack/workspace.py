"""The workspace the Slack stand-in keeps and the Web API methods that read and change it.

Each method takes the parsed parameters of one call and returns the body of an `ok: true` answer, or raises
`ApiError` for an `ok: false` one, as Slack answers it. The stand-in is stricter than Slack where leniency would
hide a bug in the bot: a `thread_ts` that names no message in the channel is `thread_not_found` (Slack would
post to the channel), and a file completed before its bytes were uploaded is `file_not_found`.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable
from typing import Any

from .limits import MAX_VIEW_BLOCKS, ApiError, check_blocks, check_message
from .model import (
    APP_ID,
    BOT_ID,
    BOT_USER_ID,
    TEAM_DOMAIN,
    TEAM_ID,
    Channel,
    Ephemeral,
    File,
    Message,
    Obj,
    ResponseUrl,
)

PERMALINK_HOST = f"https://{TEAM_DOMAIN}.slack.com"


class Workspace:
    """Channels, messages (roots and replies, in ts order), ephemerals, files, response URLs and user groups."""

    def __init__(self, *, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.base_url = ""
        self.socket_url: Callable[[], str | None] = lambda: None
        self.channels: dict[str, Channel] = {}
        self.usergroups: dict[str, list[str]] = {}
        self.members: dict[str, list[str]] = {}  # user -> channels (users.conversations)
        self._last_us = 0
        self._ids = itertools.count(1)
        self.clear()

    def clear(self) -> None:
        """Forget messages, ephemerals, files and response URLs; keep channels and user groups.

        Timestamps and ids keep counting, so nothing handed out before a reset is handed out again.
        """
        self.messages: dict[str, list[Message]] = {}
        self.ephemerals: list[Ephemeral] = []
        self.files: dict[str, File] = {}
        self.responses: dict[str, ResponseUrl] = {}
        self.views: list[Obj] = []  # {"method", "user", "trigger_id", "view"} in order

    # ---- identities

    def next_ts(self) -> str:
        """A message ts from the clock, strictly greater than every ts handed out before."""
        us = max(int(self.clock() * 1_000_000), self._last_us + 1)
        self._last_us = us
        return f"{us // 1_000_000}.{us % 1_000_000:06d}"

    def next_id(self, prefix: str) -> str:
        return f"{prefix}{next(self._ids):08d}"

    # ---- lookups

    def find(self, channel: str, ts: str) -> Message | None:
        return next((m for m in self.messages.get(channel, []) if m.ts == ts and not m.deleted), None)

    def roots(self, channel: str) -> list[Message]:
        return [m for m in self.messages.get(channel, []) if not m.is_reply and not m.deleted]

    def replies(self, channel: str, ts: str) -> list[Message]:
        return [m for m in self.messages.get(channel, []) if m.thread_ts == ts and m.is_reply and not m.deleted]

    def permalink(self, channel: str, ts: str) -> str:
        message = self.find(channel, ts)
        link = f"{PERMALINK_HOST}/archives/{channel}/p{ts.replace('.', '')}"
        if message is not None and message.is_reply:
            link += f"?thread_ts={message.thread_ts}&cid={channel}"
        return link

    # ---- changes

    def thread_root(self, channel: str, thread_ts: Any) -> str | None:
        """The ts of the thread a reply to `thread_ts` lands in (None: not a reply); a reply's root if it is one."""
        if thread_ts in (None, ""):
            return None
        parent = self.find(channel, str(thread_ts))
        if parent is None:
            raise ApiError("thread_not_found")
        return parent.thread_ts or parent.ts  # a reply to a reply lands in the root's thread

    def add_message(self, channel: str, params: Obj, *, files: list[File] | None = None,
                    user: str = BOT_USER_ID) -> Message:
        root = self.thread_root(channel, params.get("thread_ts"))
        message = Message(channel=channel, ts=self.next_ts(), text=params.get("text") or "",
                          blocks=params.get("blocks"), attachments=params.get("attachments"),
                          metadata=params.get("metadata"), thread_ts=root, files=files or [],
                          reply_broadcast=_flag(params.get("reply_broadcast")), user=user)
        self.messages.setdefault(channel, []).append(message)
        return message

    def edit(self, message: Message, params: Obj) -> None:
        """Apply an update: fields not given keep their value, as `chat.update` does; an empty list clears.

        Every update counts as an edit, as in Slack, even one that changes nothing.
        """
        before = message.snapshot()
        if "text" in params:
            message.text = params["text"] or ""
        for name in ("blocks", "attachments", "metadata"):
            if name in params:
                setattr(message, name, params[name] or None)
        message.history.append(before)

    def respond(self, hook: ResponseUrl, body: Obj) -> None:
        """Apply a post to a response URL: replace or delete the original, post in the channel, or reply ephemerally."""
        original = self.find(hook.channel, hook.message_ts) if hook.message_ts else None
        if _flag(body.get("delete_original")) and original is not None:
            original.deleted = True
            return
        check_message(body)
        if _flag(body.get("replace_original")) and original is not None:
            # a replacement is a whole new message, not a patch: what it leaves out is gone
            self.edit(original, {k: body.get(k) for k in ("text", "blocks", "attachments")})
        elif body.get("response_type") == "in_channel":
            self.add_message(hook.channel, body)
        else:
            self.ephemerals.append(Ephemeral(channel=hook.channel, user=hook.user, ts=self.next_ts(),
                                             text=body.get("text") or "", blocks=body.get("blocks"),
                                             attachments=body.get("attachments"),
                                             thread_ts=self.thread_root(hook.channel, body.get("thread_ts")),
                                             via="response_url"))


def _flag(value: Any) -> bool:
    return value in (True, 1, "1", "true", "True")


def _channel(params: Obj) -> str:
    channel = params.get("channel")
    if not isinstance(channel, str) or not channel:
        raise ApiError("channel_not_found")
    return channel


def _message(ws: Workspace, channel: str, ts: Any) -> Message:
    message = ws.find(channel, str(ts or ""))
    if message is None:
        raise ApiError("message_not_found")
    return message


# ---- the methods


def auth_test(ws: Workspace, params: Obj) -> Obj:
    return {"url": f"{PERMALINK_HOST}/", "team": "Stand-in", "user": "rlark-bot", "team_id": TEAM_ID,
            "user_id": BOT_USER_ID, "bot_id": BOT_ID, "app_id": APP_ID, "is_enterprise_install": False}


def chat_post_message(ws: Workspace, params: Obj) -> Obj:
    channel = _channel(params)
    check_message(params)
    message = ws.add_message(channel, params)
    return {"channel": channel, "ts": message.ts, "message": message.to_api()}


def chat_update(ws: Workspace, params: Obj) -> Obj:
    channel = _channel(params)
    message = _message(ws, channel, params.get("ts"))
    check_message(params, need_content=False)
    ws.edit(message, params)
    return {"channel": channel, "ts": message.ts, "text": message.text, "message": message.to_api()}


def chat_post_ephemeral(ws: Workspace, params: Obj) -> Obj:
    channel = _channel(params)
    user = params.get("user")
    if not isinstance(user, str) or not user:
        raise ApiError("user_not_in_channel")
    check_message(params)
    root = ws.thread_root(channel, params.get("thread_ts"))
    ephemeral = Ephemeral(channel=channel, user=user, ts=ws.next_ts(), text=params.get("text") or "",
                          blocks=params.get("blocks"), attachments=params.get("attachments"), thread_ts=root)
    ws.ephemerals.append(ephemeral)
    return {"message_ts": ephemeral.ts}


def chat_get_permalink(ws: Workspace, params: Obj) -> Obj:
    channel = _channel(params)
    message = _message(ws, channel, params.get("message_ts"))
    return {"channel": channel, "permalink": ws.permalink(channel, message.ts)}


def chat_unfurl(ws: Workspace, params: Obj) -> Obj:
    """Previews for links of a message (by `channel` + `ts`; `unfurl_id` + `source` is not modelled). Each
    preview's blocks are checked as a message's; a link the message does not hold is `cannot_unfurl_url`."""
    channel = _channel(params)
    message = _message(ws, channel, params.get("ts"))
    unfurls = params.get("unfurls")
    if not isinstance(unfurls, dict) or not unfurls:
        raise ApiError("invalid_unfurls_format")
    for url, preview in unfurls.items():
        if not isinstance(preview, dict):
            raise ApiError("invalid_unfurls_format")
        if url not in message.text:
            raise ApiError("cannot_unfurl_url")
        check_message(preview)
    message.unfurls.update(unfurls)
    return {}


def usergroups_users_list(ws: Workspace, params: Obj) -> Obj:
    group = params.get("usergroup")
    if group not in ws.usergroups:
        raise ApiError("no_such_subteam")
    return {"users": list(ws.usergroups[str(group)])}


def conversations_info(ws: Workspace, params: Obj) -> Obj:
    channel = ws.channels.get(_channel(params))
    if channel is None:
        raise ApiError("channel_not_found")
    return {"channel": channel.to_api()}


def _limit(params: Obj) -> int:
    raw = str(params.get("limit") or 100)
    return max(1, min(int(raw) if raw.isdigit() else 100, 999))


def _with_metadata(message: Message, params: Obj) -> Obj:
    out = message.to_api()
    if not _flag(params.get("include_all_metadata")):
        out.pop("metadata", None)
    return out


def conversations_history(ws: Workspace, params: Obj) -> Obj:
    """A channel's roots, newest first (`oldest` exclusive, `limit`); metadata only with `include_all_metadata`."""
    channel = _channel(params)
    oldest = float(params.get("oldest") or 0)
    roots = [m for m in reversed(ws.roots(channel)) if float(m.ts) > oldest]
    return {"messages": [_with_metadata(m, params) for m in roots[:_limit(params)]],
            "has_more": len(roots) > _limit(params)}


def conversations_replies(ws: Workspace, params: Obj) -> Obj:
    """A thread, its root first then the replies oldest first (`oldest` exclusive for the replies)."""
    channel = _channel(params)
    root = _message(ws, channel, params.get("ts"))
    oldest = float(params.get("oldest") or 0)
    replies = [m for m in ws.replies(channel, root.ts) if float(m.ts) > oldest]
    return {"messages": [_with_metadata(m, params) for m in [root, *replies][:_limit(params)]], "has_more": False}


def files_get_upload_url_external(ws: Workspace, params: Obj) -> Obj:
    filename, length = params.get("filename"), params.get("length")
    if not filename or not str(length or "").isdigit() or int(str(length)) <= 0:
        raise ApiError("invalid_arguments")
    file = File(id=ws.next_id("F"), name=str(filename), length=int(str(length)))
    ws.files[file.id] = file
    return {"upload_url": f"{ws.base_url.removesuffix('api/')}upload/{file.id}", "file_id": file.id}


def files_complete_upload_external(ws: Workspace, params: Obj) -> Obj:
    items = params.get("files")
    if not isinstance(items, list) or not items:
        raise ApiError("invalid_arguments")
    files: list[File] = []
    for item in items:
        file = ws.files.get(str(item.get("id") if isinstance(item, dict) else ""))
        if file is None or file.content is None:
            raise ApiError("file_not_found")
        file.title = str(item.get("title") or file.name)
        file.completed = True
        files.append(file)
    channel = params.get("channel_id") or (params.get("channels") or "").split(",")[0] or None
    if channel:
        share: Obj = {"text": params.get("initial_comment") or "", "thread_ts": params.get("thread_ts")}
        message = ws.add_message(str(channel), share, files=files)
        for file in files:
            file.channel, file.thread_ts, file.message_ts = str(channel), message.thread_ts, message.ts
    return {"files": [f.to_api() for f in files]}


def _view(params: Obj, *, kind: str) -> Obj:
    view = params.get("view")
    if isinstance(view, str):
        try:
            view = json.loads(view)
        except json.JSONDecodeError as e:
            raise ApiError("invalid_arguments", [f"{e.msg} [json-pointer:/view]"]) from e
    if not isinstance(view, dict) or view.get("type") != kind:
        raise ApiError("invalid_arguments", [f"must be a {kind} view [json-pointer:/view/type]"])
    check_blocks(view.get("blocks"), limit=MAX_VIEW_BLOCKS)  # a view may hold 100 blocks, a message 50
    if kind == "modal":
        title = (view.get("title") or {}).get("text", "")
        if not title or len(title) > 24:
            raise ApiError("invalid_arguments", ["must be 1 to 24 characters [json-pointer:/view/title]"])
    return view


def views_open(ws: Workspace, params: Obj) -> Obj:
    if not params.get("trigger_id"):
        raise ApiError("invalid_trigger_id")
    view = _view(params, kind="modal")
    ws.views.append({"method": "views.open", "trigger_id": str(params["trigger_id"]), "view": view})
    return {"view": {**view, "id": ws.next_id("V")}}


def views_publish(ws: Workspace, params: Obj) -> Obj:
    if not params.get("user_id"):
        raise ApiError("invalid_arguments", ["missing user_id"])
    view = _view(params, kind="home")
    ws.views.append({"method": "views.publish", "user": str(params["user_id"]), "view": view})
    return {"view": {**view, "id": ws.next_id("V")}}


def users_conversations(ws: Workspace, params: Obj) -> Obj:
    """The user's channels, two per page (so paging is exercised), public and private."""
    user = str(params.get("user") or "")
    if not user:
        raise ApiError("invalid_arguments", ["missing user"])
    mine = ws.members.get(user, [])
    start = int(str(params.get("cursor") or "0") or "0")
    page = mine[start:start + 2]
    nxt = str(start + 2) if start + 2 < len(mine) else ""
    return {"channels": [{"id": c} for c in page], "response_metadata": {"next_cursor": nxt}}


def apps_connections_open(ws: Workspace, params: Obj) -> Obj:
    url = ws.socket_url()
    if url is None:
        raise ApiError("socket_mode_standin_not_attached")
    return {"url": url}


METHODS: dict[str, Callable[[Workspace, Obj], Obj]] = {
    "auth.test": auth_test,
    "chat.postMessage": chat_post_message,
    "chat.update": chat_update,
    "chat.postEphemeral": chat_post_ephemeral,
    "chat.getPermalink": chat_get_permalink,
    "chat.unfurl": chat_unfurl,
    "usergroups.users.list": usergroups_users_list,
    "conversations.info": conversations_info,
    "conversations.history": conversations_history,
    "conversations.replies": conversations_replies,
    "files.getUploadURLExternal": files_get_upload_url_external,
    "files.completeUploadExternal": files_complete_upload_external,
    "apps.connections.open": apps_connections_open,
    "views.open": views_open,
    "views.publish": views_publish,
    "users.conversations": users_conversations,
}
APP_TOKEN_METHODS = frozenset({"apps.connections.open"})
JSON_PARAMS = ("blocks", "attachments", "metadata", "files", "unfurls")


def decode_params(params: Obj) -> Obj:
    """JSON-decode the parameters Slack takes as JSON strings in a form body; bad JSON is Slack's error."""
    out = dict(params)
    for name in JSON_PARAMS:
        value = out.get(name)
        if isinstance(value, str):
            try:
                out[name] = json.loads(value) if value else None
            except json.JSONDecodeError as e:
                error = "invalid_metadata_format" if name == "metadata" else f"invalid_{name}"
                raise ApiError(error, [f"{e.msg} [json-pointer:/{name}]"]) from e
    return out
