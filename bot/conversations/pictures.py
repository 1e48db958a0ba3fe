"""A job's timeline picture in a diagnosis thread (CONTRACT §10, §11): on the Timeline button (`rlark_timeline`),
and by itself after a diagnosis of a Job whose pods restarted or were replaced (`RLARK_BOT_TIMELINE_AUTO`).

Once per thread: the button's double clicks, Slack's retries and the automatic upload share one claim in the
store, so a thread holds the picture at most once. The picture is drawn in the worker from redacted SVG.
"""

from __future__ import annotations

import contextlib

from bot.conversations.deps import Deps
from bot.conversations.ports import Picture, SlackDown
from bot.models import Target, TargetKind
from bot.render.slack_commands import picture_title
from bot.store.base import StoreUnavailable
from bot.workers.command_tasks import CommandResult, CommandTask

ONCE_SECONDS = 24 * 3600


def _key(channel: str, thread_ts: str) -> str:
    return f"timeline-picture:{channel}:{thread_ts}"


def _claim(deps: Deps, key: str) -> bool:
    try:
        return deps.store.claim(key, ttl_seconds=ONCE_SECONDS)
    except StoreUnavailable as exc:
        deps.log.warning("store unavailable: the timeline picture is not deduplicated", extra={"reason": str(exc)})
        return True


def _posted(deps: Deps, key: str) -> bool:
    try:
        return deps.store.get(key) is not None
    except StoreUnavailable:
        return False


def _release(deps: Deps, key: str) -> None:
    with contextlib.suppress(StoreUnavailable):
        deps.store.delete(key)


def timeline_task(target: Target, *, lang: str, only_if_restarts: bool = False) -> CommandTask:
    return CommandTask(verb="timeline", args=(str(target), target.namespace), lang=lang,
                       only_if_restarts=only_if_restarts)


def upload(deps: Deps, *, channel: str, thread_ts: str, target: Target, result: CommandResult, lang: str) -> None:
    """The PNG of `result` into the thread (files_upload_v2); raises SlackDown when Slack refuses."""
    assert result.png is not None
    redact = deps.redactor.redact
    name = redact(f"timeline-{target.name}.png").text
    caption = redact(picture_title(str(target), lang=lang, redactor=deps.redactor)).text
    deps.sink.upload_picture(channel=channel, thread_ts=thread_ts, name=name, title=caption,
                             picture=Picture(result.png), comment=caption)


def timeline_into_thread(deps: Deps, *, channel: str, thread_ts: str, target: Target, lang: str) -> str:
    """The Timeline button, scope already checked: the picture into the thread, once. The outcome for the audit."""
    key = _key(channel, thread_ts)
    if not _claim(deps, key):
        return "duplicate"
    try:
        result = deps.engine.command(timeline_task(target, lang=lang))
        upload(deps, channel=channel, thread_ts=thread_ts, target=target, result=result, lang=lang)
    except BaseException:
        _release(deps, key)  # not posted: a later click may try again
        raise
    return "timeline"


def auto_timeline(deps: Deps, *, channel: str, thread_ts: str, target: Target, lang: str) -> None:
    """After a diagnosis reply: a Job whose pods restarted or were replaced gets its picture, once. Never fails
    the diagnosis: any problem is logged."""
    if not deps.settings.timeline_auto or target.kind is not TargetKind.JOB:
        return
    try:
        if _posted(deps, _key(channel, thread_ts)):  # a re-run into a thread that has its picture
            return
        result = deps.engine.command(timeline_task(target, lang=lang, only_if_restarts=True))
        if result.png is None or not _claim(deps, _key(channel, thread_ts)):
            return
        upload(deps, channel=channel, thread_ts=thread_ts, target=target, result=result, lang=lang)
    except SlackDown as exc:
        deps.log.warning("timeline picture not uploaded", extra={"channel": channel, "reason": str(exc)})
    except Exception:
        deps.log.exception("timeline picture failed", extra={"channel": channel})
