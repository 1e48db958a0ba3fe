"""From an alert's root (CONTRACT §11): Diagnose (into the alert's own thread), the menu of its objects,
and the automatic diagnosis of a first sighting ("I'm on it" is `alert_acks`).

A diagnosis from an alert is the slash command's use case: the same scope check for the channel, the same
refusal, the same 60 s cooldown per (channel, target); only its progress and verdict are a reply in the alert's
thread, so the alert's root keeps its buttons and metadata.

The automatic diagnosis of a first sighting happens once across replicas and survives the replica running it: the
replica that posted the root takes the store lock `autodiag:<channel>:<ts>` (its lease: twice the collection
deadline and a minute), creates the record `alerts:autodiag:<channel>:<ts>` (create-only) and marks it done when
the diagnosis ended. A record still pending whose lock can be taken (its holder is known dead: at once for a
process on the same machine, once its liveness record lapsed elsewhere; or its lease ran out) is taken up again
on the scheduler (`resume_auto_diagnoses`) by the one replica that took the lock, at most `AUTO_TRIES` times. Its
posts in the thread carry idempotency keys made from the record, so the replica that takes it up finds the
progress reply and the answer already posted instead of posting them again.
"""

from __future__ import annotations

import contextlib
import time
from datetime import datetime
from typing import Any

from bot.alerts.targets import target_named
from bot.conversations.audit import Audit
from bot.conversations.deps import Deps
from bot.conversations.diagnosis import Ask, run_diagnosis, tell
from bot.conversations.requests import hand_off
from bot.models import Target
from bot.render.slack_actions import parse_target_value
from bot.render.slack_message import SlackMessage
from bot.store.base import Lock, StoreUnavailable

ALERT_THREAD = "alert-thread:"  # + channel + ":" + root ts: a diagnosis went into this alert's thread
AUTO = "alerts:autodiag:"  # + channel + ":" + root ts: the automatic diagnosis of that root, pending or done
AUTO_LOCK = "autodiag:"  # + channel + ":" + root ts: held by the replica running that diagnosis
MEMORY_SECONDS = 14 * 24 * 3600
AUTO_TRIES = 3


def mark_alert_thread(deps: Deps, channel: str, ts: str) -> None:
    with contextlib.suppress(StoreUnavailable):  # without it a re-run edits the progress reply's root: logged
        deps.store.put(f"{ALERT_THREAD}{channel}:{ts}", "1", ttl_seconds=MEMORY_SECONDS)


def is_alert_thread(deps: Deps, channel: str, ts: str) -> bool:
    try:
        return bool(ts) and deps.store.get(f"{ALERT_THREAD}{channel}:{ts}") is not None
    except StoreUnavailable:
        return False


def diagnose_into_alert(deps: Deps, *, ask: Ask, audit: Audit) -> None:
    """The Diagnose button or the menu: on the bounded pool, into the alert's thread (`ask.thread_ts`)."""
    assert ask.thread_ts is not None and ask.in_thread

    def work() -> str:
        mark_alert_thread(deps, ask.channel, str(ask.thread_ts))
        return run_diagnosis(deps, ask)

    def say(message: SlackMessage) -> None:
        tell(deps, ask, message=message)

    hand_off(deps, work=work, lang=ask.lang, tell=say, audit=audit)


def auto_diagnose(deps: Deps, *, channel: str, ts: str, metadata: dict[str, Any]) -> None:
    """`RLARK_BOT_ALERTS__AUTO_DIAGNOSE`: a first sighting's root just posted; its first Job, pod or runner is
    diagnosed into its thread, by the one replica that claims it (the replica that posted it, normally)."""
    if not deps.settings.alerts.auto_diagnose:
        return
    try:
        _auto(deps, channel=channel, ts=ts, metadata=metadata)
    except Exception:  # never into the alert's delivery: the root is posted whatever happens here
        deps.log.exception("automatic diagnosis not started", extra={"channel": channel})


def _auto(deps: Deps, *, channel: str, ts: str, metadata: dict[str, Any]) -> None:
    payload = metadata.get("event_payload") or {}
    refs = [str(r) for r in (payload.get("objects") or [payload.get("object")]) if r]
    target = next((t for t in map(target_named, refs) if t is not None), None)
    if target is None:
        return
    text, namespace = parse_target_value(target.value)
    binding = deps.settings.channels.get(channel)
    record = {"channel": channel, "ts": ts, "target": text, "namespace": namespace,
              "lang": binding.lang if binding else "en", "state": "pending", "at": time.time(), "tries": 1}
    lock: Lock | None = None
    try:
        lock = deps.store.acquire_lock(f"{AUTO_LOCK}{channel}:{ts}", ttl_seconds=_lease(deps))
        if lock is None or deps.store.put_doc(f"{AUTO}{channel}:{ts}", record, expect_version=None) is None:
            _release(deps, lock)
            return  # another replica has it
    except StoreUnavailable as exc:
        deps.log.warning("automatic diagnosis skipped: store unavailable", extra={"reason": str(exc)})
        _release(deps, lock)
        return
    _run_auto(deps, key=f"{AUTO}{channel}:{ts}", record=record, resumed=False, lock=lock)


def _release(deps: Deps, lock: Lock | None) -> None:
    if lock is not None:
        with contextlib.suppress(StoreUnavailable):
            deps.store.release_lock(lock)


def _lease(deps: Deps) -> float:
    """How long a replica has to finish an automatic diagnosis before another takes it up (collection is bounded
    by its deadline; twice that, and a minute for Slack)."""
    return 2 * deps.settings.collection.deadline_seconds + 60


def _run_auto(deps: Deps, *, key: str, record: dict[str, Any], resumed: bool, lock: Lock) -> None:
    channel = str(record["channel"])
    ask = Ask(channel=channel, user="", target=Target.parse(str(record["target"]), str(record["namespace"])),
              lang=str(record["lang"]), thread_ts=str(record["ts"]), in_thread=True, post_key=key, resumed=resumed,
              on_purpose=resumed)  # taken up again: the cooldown its first run claimed must not hold it back
    audit = Audit(log=deps.log, metrics=deps.metrics, user="", channel=channel, command="auto_diagnose")
    audit.about(target=str(ask.target))

    def work() -> str:
        mark_alert_thread(deps, channel, str(record["ts"]))
        try:
            return run_diagnosis(deps, ask)
        finally:
            _settle(deps, key, state="done")
            _release(deps, lock)

    def say(message: SlackMessage) -> None:
        tell(deps, ask, message=message)

    hand_off(deps, work=work, lang=ask.lang, tell=say, audit=audit)


def _settle(deps: Deps, key: str, *, state: str) -> None:
    for _ in range(10):
        try:
            versioned = deps.store.get_doc(key)
            if versioned is None or versioned.doc.get("state") != "pending":
                return
            if deps.store.put_doc(key, {**versioned.doc, "state": state, "at": time.time()},
                                  expect_version=versioned.version) is not None:
                return
        except StoreUnavailable as exc:
            deps.log.warning("automatic diagnosis not marked done: store unavailable", extra={"reason": str(exc)})
            return


def resume_auto_diagnoses(deps: Deps, now: datetime | None = None) -> int:
    """Take up the pending automatic diagnoses nobody runs any more (on the scheduler, on every replica: the lock
    lets one take each); forget done ones after `MEMORY_SECONDS`. How many were taken up."""
    if not deps.settings.alerts.auto_diagnose:
        return 0
    at = time.time() if now is None else now.timestamp()  # the records keep POSIX seconds
    taken = 0
    try:
        records = deps.store.scan_docs(AUTO)
    except StoreUnavailable:
        return 0
    for key, versioned in records:
        if versioned.doc.get("state") != "pending":
            if at - float(versioned.doc.get("at", 0)) > MEMORY_SECONDS:
                with contextlib.suppress(StoreUnavailable):
                    deps.store.delete(key)
            continue
        lock: Lock | None = None
        try:
            lock = deps.store.acquire_lock(AUTO_LOCK + key[len(AUTO):], ttl_seconds=_lease(deps))
            if lock is None:
                continue  # its replica is alive and at it
            again = _take_up(deps, key, at=at)
        except StoreUnavailable:
            _release(deps, lock)
            return taken
        if again is None:
            _release(deps, lock)
            continue
        deps.log.info("automatic diagnosis taken up again", extra={"key": key, "tries": again["tries"]})
        _run_auto(deps, key=key, record=again, resumed=True, lock=lock)
        taken += 1
    return taken


def _take_up(deps: Deps, key: str, *, at: float) -> dict[str, Any] | None:
    """With its lock held: the record counted one more try, or None when it is done or was tried too often."""
    versioned = deps.store.get_doc(key)  # read again under the lock: its replica may have finished meanwhile
    if versioned is None or versioned.doc.get("state") != "pending":
        return None
    doc = versioned.doc
    if int(doc.get("tries", 0)) >= AUTO_TRIES:
        deps.log.error("automatic diagnosis given up", extra={"key": key, "tries": doc.get("tries")})
        deps.store.put_doc(key, {**doc, "state": "given_up", "at": at}, expect_version=versioned.version)
        return None
    again = {**doc, "tries": int(doc.get("tries", 0)) + 1}
    return again if deps.store.put_doc(key, again, expect_version=versioned.version) is not None else None


__all__ = ["auto_diagnose", "diagnose_into_alert", "is_alert_thread", "resume_auto_diagnoses"]
