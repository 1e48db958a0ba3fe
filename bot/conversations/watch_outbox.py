"""A watch's replies go out through an outbox kept in the watch's own document, so a replica killed between
deciding a reply and posting it loses nothing and posts nothing twice.

Whoever moves a watch (a tick that saw a change, `unwatch`, the time bound) writes the reply it decided into the
document's `pending` list in the same compare-and-set that moves the watch, then delivers it: the reply in the
thread, the root edited, and for a failed Job its diagnosis; then the item is cleared (compare-and-set again), and
a watch that ended or stopped is forgotten once nothing is pending. Every post carries an idempotency key made of
the watch and the item (`bot.slack.posting`), so a delivery tried again after a kill looks the post up in the
thread before posting. Slack down: the item stays pending. Each tick first delivers the items left pending for
longer than `STALE_SECONDS` (their replica died or Slack refused them) before it looks at any target.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from bot.conversations.deps import Deps
from bot.conversations.diagnosis import _edit
from bot.conversations.ports import SlackDown, seal_message
from bot.diagnose import Diagnosis
from bot.errors import UserError
from bot.render.slack_message import SlackMessage
from bot.render.slack_watch import WatchView, watch_change, watch_root
from bot.store.base import StoreUnavailable, Versioned
from bot.workers.api import WorkerLost, render_answer

PENDING = "pending"
STALE_SECONDS = 30.0  # an item older than this is no longer being delivered by the replica that wrote it
Fence = Callable[[], bool]


def item(*, ident: str, at: float, stage: str, case: str, state: str, lines: list[str],
         diagnose: bool = False) -> dict[str, Any]:
    """One decided reply: the watch's view after the move, the change's lines, whether a diagnosis follows."""
    return {"id": ident, "at": at, "stage": stage, "case": case, "state": state, "lines": list(lines),
            "diagnose": diagnose}


def with_item(doc: Mapping[str, Any], entry: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """The watch document moved by `changes` with `entry` queued: what the compare-and-set writes."""
    return {**doc, **changes, PENDING: [*doc.get(PENDING, []), entry]}


def stale(doc: Mapping[str, Any], *, now: datetime) -> bool:
    """Whether an item has been pending longer than `STALE_SECONDS` at `now` (items keep POSIX seconds)."""
    return any(float(e.get("at", 0)) <= now.timestamp() - STALE_SECONDS for e in doc.get(PENDING, []))


def post_key(key: str, ident: str, part: str) -> str:
    return hashlib.sha256(f"{key}#{ident}#{part}".encode()).hexdigest()[:32]


def deliver(deps: Deps, key: str, *, fresh: Mapping[str, Diagnosis | None] | None = None,
            fence: Fence | None = None) -> int:
    """Deliver the watch's pending items in order; the number delivered. `fresh`: items this caller just wrote
    (id -> the failed target's diagnosis, when it has one): posted without a lookup first. `fence`: False stops
    delivering (the tick's lock passed on to another run)."""
    fresh = fresh or {}
    done = 0
    sent: set[str] = set()
    while True:
        try:
            versioned = deps.store.get_doc(key)
        except StoreUnavailable as exc:
            deps.log.warning("watch outbox not read: store unavailable", extra={"reason": str(exc)})
            return done
        if versioned is None:
            return done
        queue = list(versioned.doc.get(PENDING, []))
        if not queue:
            _forget_if_over(deps, key, versioned)
            return done
        entry = queue[0]
        if entry["id"] in sent or (fence is not None and not fence()):
            return done  # one it sent but could not clear stays for the next tick's lookup, never posted twice here
        if not _send(deps, key, versioned.doc, entry, maybe_sent=entry["id"] not in fresh,
                     diag=fresh.get(entry["id"])):
            return done  # Slack down: it stays pending, the next tick tries again
        sent.add(entry["id"])
        _clear(deps, key, entry["id"])
        done += 1


def _send(deps: Deps, key: str, doc: dict[str, Any], entry: dict[str, Any], *, maybe_sent: bool,
          diag: Diagnosis | None) -> bool:
    from bot.conversations.watch import Doc

    watch = Doc(doc)
    channel, root, lang = str(doc["channel"]), str(doc.get("root") or ""), str(doc.get("lang", "en"))
    if not root:
        return True  # no thread to reply in (the root never got posted): nothing to deliver
    view = watch.view(stage=entry["stage"], case=entry["case"], state=entry["state"])
    try:
        _post(deps, channel=channel, root=root, message=watch_change(view, lines=list(entry["lines"]),
                                                                     redactor=deps.redactor),
              key=post_key(key, entry["id"], "reply"), maybe_sent=maybe_sent)
    except SlackDown as exc:
        deps.log.warning("watch reply not delivered yet", extra={"channel": channel, "reason": str(exc)})
        return False
    _edit(deps, channel, root, _root(deps, doc, view, lang))
    if entry.get("diagnose"):
        _diagnosis(deps, key=key, doc=doc, entry=entry, diag=diag, maybe_sent=maybe_sent)
    return True


def _root(deps: Deps, doc: dict[str, Any], view: WatchView, lang: str) -> SlackMessage:
    return watch_root(view, user=str(doc.get("by", "")), hours=deps.settings.watch.max_hours,
                      command=deps.settings.slash_command, redactor=deps.redactor, lang=lang)


def _post(deps: Deps, *, channel: str, root: str, message: SlackMessage, key: str, maybe_sent: bool) -> str:
    return deps.sink.post(channel=channel, message=seal_message(message, deps.redactor), thread_ts=root, key=key,
                          maybe_sent=maybe_sent)


def _diagnosis(deps: Deps, *, key: str, doc: dict[str, Any], entry: dict[str, Any], diag: Diagnosis | None,
               maybe_sent: bool) -> None:
    """The failed target's diagnosis in the thread (rendered and redacted as §5's); read again when the replica
    that saw the failure died before posting it."""
    from bot.conversations.watch import Doc

    if diag is None:
        try:
            diag = deps.engine.diagnose(Doc(doc).target)
        except (UserError, WorkerLost) as exc:
            deps.log.warning("watch diagnosis not read again", extra={"reason": str(exc)})
            return
    answer = render_answer(diag, lang=str(doc.get("lang", "en")), redactor=deps.redactor)
    try:
        _post(deps, channel=str(doc["channel"]), root=str(doc["root"]), message=answer.reply,
              key=post_key(key, entry["id"], "diagnosis"), maybe_sent=maybe_sent)
    except SlackDown as exc:
        deps.log.warning("watch diagnosis not delivered", extra={"reason": str(exc)})


def _clear(deps: Deps, key: str, ident: str) -> None:
    """Drop the delivered item (compare-and-set, tried again when another writer moved the watch meanwhile)."""
    for _ in range(20):
        try:
            versioned = deps.store.get_doc(key)
            if versioned is None:
                return
            rest = [e for e in versioned.doc.get(PENDING, []) if e.get("id") != ident]
            written = deps.store.put_doc(key, {**versioned.doc, PENDING: rest}, expect_version=versioned.version)
        except StoreUnavailable as exc:
            deps.log.warning("watch outbox not cleared: store unavailable", extra={"reason": str(exc)})
            return
        if written is not None:
            return
    deps.log.warning("watch outbox not cleared after 20 tries", extra={"key": key})


def _forget_if_over(deps: Deps, key: str, versioned: Versioned) -> None:
    """A watch that ended or stopped, with nothing left to say, is forgotten."""
    if versioned.doc.get("state") in ("ended", "stopped") and not versioned.doc.get(PENDING):
        with contextlib.suppress(StoreUnavailable):
            deps.store.delete(key)
