"""`/rlark watch TARGET` and `/rlark unwatch TARGET`: a watch per (channel, target), kept in the store.

`watch` is scope-checked like `diagnose` (the same refusal), bounded per channel
(`RLARK_BOT_WATCH__MAX_PER_CHANNEL`), and created by compare-and-set, so a retried or doubled request makes one
watch and one root. The root names the target and shows its current stage; `bot.conversations.watching` edits
it and replies in its thread on every tick that sees a change. `unwatch` acts in its own channel only.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.conversations.deps import Deps
from bot.conversations.diagnosis import Ask, canonical, locate_allowed, post_patiently, primary_case_of, tell
from bot.conversations.ports import SlackDown
from bot.errors import UserError
from bot.models import Target, TargetKind
from bot.render.slack_watch import WatchView, change_lines, watch_note, watch_root
from bot.store.base import StoreUnavailable, Versioned
from bot.workers.api import WorkerLost

PREFIX = "watch:"
GLANCE = "watch-glance:"  # + kind:namespace:name: the fingerprint the last full look of the target saw


def glance_key(target: Target) -> str:
    return f"{GLANCE}{target.kind.value}:{target.namespace}:{target.name}"


def watch_key(channel: str, ident: str) -> str:
    return f"{PREFIX}{channel}:{ident}"


primary_case = primary_case_of


@dataclass(frozen=True)
class Doc:
    """A watch as kept in the store (a plain JSON document)."""

    raw: dict[str, Any]

    @property
    def target(self) -> Target:
        t = self.raw["target"]
        return Target(kind=TargetKind(t["kind"]), name=t["name"], namespace=t.get("namespace", ""))

    def view(self, **changes: Any) -> WatchView:
        fields = {"label": self.raw["label"], "target": dict(self.raw["target"]), "stage": self.raw["stage"],
                  "case": self.raw["case"], "state": self.raw["state"], **changes}
        return WatchView(**fields)


def target_object(target: Target, *, namespace: str, cluster: str) -> dict[str, str]:
    return {"kind": target.kind.value, "name": target.name, "namespace": namespace, "cluster": cluster}


def run_watch(deps: Deps, ask: Ask) -> str:
    """The whole `watch` for one ask; the outcome for the audit line."""
    if ask.target.kind is TargetKind.RUNNER:
        tell(deps, ask, message=watch_note("kind", lang=ask.lang, redactor=deps.redactor))
        return "usage"
    where = locate_allowed(deps, ask)
    if isinstance(where, str):
        return where
    target = Target(kind=ask.target.kind, name=ask.target.name, namespace=where.namespace)
    key = watch_key(ask.channel, canonical(ask.target, where))
    try:
        held = deps.store.scan_docs(f"{PREFIX}{ask.channel}:")
        if any(k == key for k, _ in held):
            tell(deps, ask, message=watch_note("already", lang=ask.lang, redactor=deps.redactor,
                                               target=str(ask.target)))
            return "duplicate"
        limit = deps.settings.watch.max_per_channel
        if len(held) >= limit:
            tell(deps, ask, message=watch_note("full", lang=ask.lang, redactor=deps.redactor, n=limit))
            return "refused"
        now = time.time()
        doc = {"channel": ask.channel, "label": str(ask.target), "lang": ask.lang, "by": ask.user,
               "target": target_object(target, namespace=where.namespace,
                                       cluster=where.clusters[0] if where.clusters else ""),
               "stage": "submitted", "case": "none", "state": "starting", "root": "", "started": now,
               "until": now + deps.settings.watch.max_hours * 3600}
        created = deps.store.put_doc(key, doc, expect_version=None)
    except StoreUnavailable as exc:
        deps.log.warning("store unavailable: watch not created", extra={"reason": str(exc)})
        tell(deps, ask, message=_error(deps, ask))
        return "store_error"
    if created is None:  # the same ask delivered twice, or another replica got there first
        tell(deps, ask, message=watch_note("already", lang=ask.lang, redactor=deps.redactor, target=str(ask.target)))
        return "duplicate"
    return _start(deps, ask, key=key, created=created, target=target)


def _error(deps: Deps, ask: Ask) -> Any:
    from bot.render.ephemeral import ephemeral

    return ephemeral("error", lang=ask.lang, redactor=deps.redactor)


def _start(deps: Deps, ask: Ask, *, key: str, created: Versioned, target: Target) -> str:
    """The first look at the target, the root, then the watch marked as watching from that root."""
    doc = dict(created.doc)
    try:
        mark = deps.engine.glance(target) if deps.settings.watch.full_look_ticks > 1 else None
        diag = deps.engine.diagnose(target)
        doc.update(stage=diag.last_stage, case=primary_case(diag))
        if mark is not None:  # what the ticks' glances compare with: unchanged, no full look until its turn
            with contextlib.suppress(StoreUnavailable):
                deps.store.put(glance_key(target), mark, ttl_seconds=deps.settings.watch.max_hours * 3600)
    except (UserError, WorkerLost) as exc:
        deps.log.warning("watch: first look failed", extra={"target": str(target), "reason": str(exc)})
    doc["state"] = "watching"
    root_msg = watch_root(Doc(doc).view(), user=ask.user, hours=deps.settings.watch.max_hours,
                          command=deps.settings.slash_command, redactor=deps.redactor, lang=ask.lang)
    try:
        doc["root"] = post_patiently(deps, channel=ask.channel, message=root_msg,
                                     thread_ts=ask.thread_ts if ask.in_thread else None)
    except SlackDown:
        _forget(deps, key)
        tell(deps, ask, message=_error(deps, ask))
        return "slack_error"
    try:
        if deps.store.put_doc(key, doc, expect_version=created.version) is None:
            deps.log.warning("watch changed while starting", extra={"key": key})
    except StoreUnavailable as exc:
        deps.log.warning("store unavailable: watch root not recorded", extra={"reason": str(exc)})
    return "watching"


def _forget(deps: Deps, key: str) -> None:
    try:
        deps.store.delete(key)
    except StoreUnavailable as exc:
        deps.log.warning("store unavailable: watch not removed", extra={"key": key, "reason": str(exc)})


def _matches(doc: dict[str, Any], target: Target) -> bool:
    t = doc.get("target") or {}
    return (t.get("kind") == target.kind.value and t.get("name") == target.name
            and (not target.namespace or t.get("namespace") == target.namespace))


def run_unwatch(deps: Deps, ask: Ask) -> str:
    """Stop this channel's watch of the target: one reply in its thread, the root marked stopped."""
    try:
        found = [(k, v) for k, v in deps.store.scan_docs(f"{PREFIX}{ask.channel}:") if _matches(v.doc, ask.target)]
    except StoreUnavailable as exc:
        deps.log.warning("store unavailable: unwatch not done", extra={"reason": str(exc)})
        tell(deps, ask, message=_error(deps, ask))
        return "store_error"
    if not found:
        tell(deps, ask, message=watch_note("none", lang=ask.lang, redactor=deps.redactor, target=str(ask.target)))
        return "not_found"
    for key, versioned in found:
        stop(deps, key=key, versioned=versioned, user=ask.user)
    tell(deps, ask, message=watch_note("stopped", lang=ask.lang, redactor=deps.redactor, target=str(ask.target)))
    return "stopped"


def stop(deps: Deps, *, key: str, versioned: Versioned, user: str = "", hours: float | None = None,
         now: datetime | None = None) -> bool:
    """Mark the watch stopped with its reply queued (compare-and-set: once across replicas), then deliver it (the
    reply, the root edited) and forget the watch (`bot.conversations.watch_outbox`)."""
    from bot.conversations.watch_outbox import deliver, item, with_item

    doc = Doc(versioned.doc)
    at = time.time() if now is None else now.timestamp()  # the document keeps POSIX seconds
    old, new = doc.view(), doc.view(state="stopped")
    lang = str(doc.raw.get("lang", "en"))
    lines = change_lines(old=old, new=new, phase="", gone=False, lang=lang, redactor=deps.redactor, user=user,
                         stopped_after_hours=hours)
    entry = item(ident=f"stop-{at:.3f}", at=at, stage=new.stage, case=new.case, state="stopped", lines=lines)
    try:
        if deps.store.put_doc(key, with_item(versioned.doc, entry, state="stopped"),
                              expect_version=versioned.version) is None:
            return False
    except StoreUnavailable:
        return False
    deliver(deps, key, fresh={entry["id"]: None})
    return True
