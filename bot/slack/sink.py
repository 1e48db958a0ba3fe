"""The only code that sends anything to Slack: the `ChatSink` port over slack_sdk's WebClient. It takes sealed
values only (`Sealed`, `SafeText`).

Listeners and conversations never call `say`, `respond` or `client.chat_*` themselves: they build a message,
seal it through the redactor (`bot.conversations.ports.seal_message`) and hand it here. Failures surface as one
exception type, `SlackDown`, with a one-line reason.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.conversations.ports import Picture, Sealed, SlackDown
from bot.redact import SafeText, SafeValue
from bot.slack.client import without_blind_retries
from bot.slack.posting import OncePoster


def _checked(value: object, kind: type) -> None:
    if not isinstance(value, kind):
        raise TypeError(f"the Slack sink got {type(value).__name__}, not {kind.__name__}: seal it first")


def _meta(value: SafeValue | None) -> dict[str, Any] | None:
    return None if value is None else dict(value.value)


class SlackSink:
    def __init__(self, client: WebClient) -> None:
        self.client = client
        self.poster = OncePoster(client=without_blind_retries(client), lookup=client)

    def _call(self, fn: Any, **kwargs: Any) -> Any:
        try:
            return fn(**kwargs)
        except SlackApiError as exc:
            error = str(exc.response.get("error", "error"))
            raise SlackDown(f"Slack refused: {error}", error=error) from exc
        except Exception as exc:  # connection refused, timeouts, TLS: after the client's own retries
            raise SlackDown(f"Slack unreachable: {type(exc).__name__}") from exc

    def post(self, *, channel: str, message: Sealed, thread_ts: str | None = None, key: str | None = None,
             maybe_sent: bool = False) -> str:
        """Post once (`bot.slack.posting`): `key` identifies this post across retries (a fresh one by default);
        `maybe_sent`: an earlier attempt with this key may have reached Slack, so it is looked up first."""
        _checked(message, Sealed)
        kwargs: dict[str, Any] = {"channel": channel, "text": message.text, "blocks": message.blocks.value,
                                  "unfurl_links": False, "unfurl_media": False}
        if thread_ts:
            kwargs["thread_ts"] = thread_ts
        if message.metadata is not None:
            kwargs["metadata"] = _meta(message.metadata)
        ts = self.poster.post(kwargs, key=key, maybe_sent=maybe_sent)
        for name, title, content in message.files:
            self.upload(channel=channel, thread_ts=thread_ts or ts, name=name, title=title, content=content)
        return ts

    def update(self, *, channel: str, ts: str, message: Sealed) -> None:
        _checked(message, Sealed)
        kwargs: dict[str, Any] = {"channel": channel, "ts": ts, "text": message.text, "blocks": message.blocks.value}
        if message.metadata is not None:
            kwargs["metadata"] = _meta(message.metadata)
        self._call(self.client.chat_update, **self.poster.mark_if_repeated(kwargs))

    def open_view(self, *, trigger_id: str, view: SafeValue) -> None:
        _checked(view, SafeValue)
        self._call(self.client.views_open, trigger_id=trigger_id, view=dict(view.value))

    def publish_home(self, *, user: str, view: SafeValue) -> None:
        _checked(view, SafeValue)
        self._call(self.client.views_publish, user_id=user, view=dict(view.value))

    def user_channels(self, user: str) -> list[str]:
        channels: list[str] = []
        cursor = ""
        for _ in range(50):  # 50 pages of 200: far past any one person's channels
            page = self._call(self.client.users_conversations, user=user, types="public_channel,private_channel",
                              exclude_archived=True, limit=200, cursor=cursor or None)
            channels += [str(c.get("id")) for c in page.get("channels") or [] if c.get("id")]
            cursor = str((page.get("response_metadata") or {}).get("next_cursor") or "")
            if not cursor:
                break
        return channels

    def ephemeral(self, *, channel: str, user: str, message: Sealed, thread_ts: str | None = None) -> None:
        _checked(message, Sealed)
        kwargs: dict[str, Any] = {"channel": channel, "user": user, "text": message.text,
                                  "blocks": message.blocks.value}
        if thread_ts:
            kwargs["thread_ts"] = thread_ts
        self._call(self.client.chat_postEphemeral, **kwargs)

    def respond(self, *, response_url: str, message: Sealed) -> None:
        """An ephemeral answer through the command's `response_url` (works where the bot is not a member)."""
        _checked(message, Sealed)
        body = json.dumps({"response_type": "ephemeral", "replace_original": False, "text": message.text,
                           "blocks": message.blocks.value}).encode()
        request = urllib.request.Request(response_url, data=body, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as reply:
                reply.read()
        except Exception as exc:
            raise SlackDown(f"response_url unreachable: {type(exc).__name__}") from exc

    def upload(self, *, channel: str, thread_ts: str, name: SafeText, title: SafeText, content: SafeText) -> None:
        for value in (name, title, content):
            _checked(value, SafeText)
        self._call(self.client.files_upload_v2, channel=channel, thread_ts=thread_ts, filename=str(name),
                   title=str(title), content=str(content))

    def upload_picture(self, *, channel: str, thread_ts: str, name: SafeText, title: SafeText, picture: Picture,
                       comment: SafeText | None = None) -> None:
        for value in (name, title, *((comment,) if comment is not None else ())):
            _checked(value, SafeText)
        _checked(picture, Picture)
        kwargs: dict[str, Any] = {"channel": channel, "thread_ts": thread_ts, "filename": str(name),
                                  "title": str(title), "content": picture.png}
        if comment is not None:
            kwargs["initial_comment"] = str(comment)
        self._call(self.client.files_upload_v2, **kwargs)

    def unfurl(self, *, channel: str, ts: str, unfurls: dict[str, Sealed]) -> None:
        """`chat.unfurl`: a preview under each link of the message `ts` (keys: the links exactly as shared)."""
        for message in unfurls.values():
            _checked(message, Sealed)
        self._call(self.client.chat_unfurl, channel=channel, ts=ts,
                   unfurls={url: {"blocks": m.blocks.value} for url, m in unfurls.items()})

    def permalink(self, *, channel: str, ts: str) -> str | None:
        try:
            response = self._call(self.client.chat_getPermalink, channel=channel, message_ts=ts)
        except SlackDown:
            return None
        link = response.get("permalink")
        return str(link) if link else None

    def usergroup_members(self, usergroup: str) -> list[str]:
        response = self._call(self.client.usergroups_users_list, usergroup=usergroup)
        return [str(u) for u in response.get("users") or []]

    def auth_test(self) -> dict[str, Any]:
        response = self._call(self.client.auth_test)
        return dict(response.data) if isinstance(response.data, dict) else {}
