"""Apply the alert lifecycle to a tick's alerts: store first, then Slack, exactly once across replicas.

Per key: read the record, `step` it, compare-and-set it back together with the deliveries it decided (the
record's `queued` list); losing that race means another replica already handled the key, so nothing is posted.
Each delivery's id also goes into the store's outbox, which one replica at a time drains in order: Slack down
means the deliveries wait there and go out in order once it is back, none lost (the record still lists them,
and a tick re-queues one whose id never reached the outbox) and none doubled (a marker per Slack call, a done
marker per delivery). A root's ts is written back to the record so replies find their thread.

When the store itself is unavailable the checks still run and alerts still go out, from an in-memory copy of
the records, marked "(may be repeated: state store unavailable)"; what was sent meanwhile is written back
when the store answers again, so reconnecting replays no burst.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from bot.alerts import storage
from bot.alerts.degraded import DegradedMode, revision
from bot.alerts.delivery import Deliverer, Routes
from bot.alerts.grouping import observe
from bot.alerts.machine import step
from bot.alerts.model import Action, Policy, Record, seconds
from bot.alerts.mutes import muted
from bot.alerts.ports import AlertSink, DeliveryFailed
from bot.checks.alerts import Alert
from bot.runbook import Runbook
from bot.settings import Settings
from bot.store.base import Lock, Store, StoreUnavailable, Versioned

log = logging.getLogger("bot.alerts")
Fence = Callable[[], bool]


@dataclass
class TickReport:
    observed: int = 0
    actions: int = 0
    lost_races: int = 0
    delivered: int = 0
    undelivered: int = 0
    degraded: bool = False
    firing: int = 0  # alert threads firing after this tick, as this replica knows them (muted ones included)


class Notifier(DegradedMode):
    def __init__(self, *, store: Store, sink: AlertSink, settings: Settings, runbook: Runbook | None = None,
                 lock_ttl_seconds: float | None = None) -> None:
        self.store = store
        self.policy = Policy.from_settings(settings.checks)
        self.deliverer = Deliverer(sink=sink, routes=Routes(settings.channels, settings.alerts_channel),
                                   runbook=runbook)
        self.lock_ttl = float(lock_ttl_seconds or settings.checks.lock_ttl_seconds)  # the outbox drain's lease
        self.degraded = False
        self._known: dict[str, Record] = {}  # the records as last read or written: degraded mode starts here
        self._base: dict[str, tuple[int, int]] = {}  # key -> (store version, record revision) `_known` came from
        self._mutes: dict[str, bool] = {}
        self._dirty: set[str] = set()  # keys changed while the store was unavailable
        self._local: list[tuple[Action, str]] = []  # degraded deliveries Slack has not taken yet (action, domain)
        self._local_marks: dict[str, str] = {}

    # -- one tick -------------------------------------------------------------------------------------------

    def tick(self, alerts: Collection[Alert], *, now: datetime, unreadable: Collection[str] = (),
             checks: Collection[str] | None = None, fence: Fence | None = None) -> TickReport:
        """Step every key of `checks` (all when None) with this tick's alerts and deliver what that decided.

        `unreadable`: clusters this tick could not read; their alerts are not counted missing.
        `fence`: checked before each delivery; False (the tick's lock was lost) stops delivering.
        """
        observations = {k: o for k, o in observe(alerts).items() if checks is None or o.check in checks}
        report = TickReport(observed=len(observations))
        done: set[str] = set()
        try:
            if self.degraded:
                self._recover()
            self._step_stored(observations, now=now, unreadable=set(unreadable), checks=checks, report=report,
                              done=done)
            self.drain(fence=fence, report=report)
        except StoreUnavailable as exc:
            log.warning("alerts: state store unavailable (%s); alerts go out marked as possibly repeated", exc)
            self.degraded = report.degraded = True
            self._step_local(observations, now=now, unreadable=set(unreadable), checks=checks, skip=done,
                             report=report)
        report.firing = sum(1 for record in self._known.values() if record.state == "firing")
        return report

    def _step_stored(self, observations: dict[str, Alert], *, now: datetime, unreadable: set[str],
                     checks: Collection[str] | None, report: TickReport, done: set[str]) -> None:
        docs = {k[len(storage.RECORD):]: v for k, v in self.store.scan_docs(storage.RECORD)}
        queued_ids = self._outbox_ids()
        for key in sorted(set(observations) | set(docs)):
            versioned = docs.get(key)
            record = Record.from_doc(versioned.doc["record"]) if versioned is not None else None
            if record is not None and checks is not None and record.check not in checks:
                continue
            if versioned is not None:
                self._requeue(key, versioned, queued_ids)
                self._base[key] = (versioned.version, revision(versioned.doc))
            obs = observations.get(key)
            if obs is None and record is not None and versioned is not None and self._expired(record, versioned, now):
                self.store.delete(storage.RECORD + key)  # resolved long ago: a new sighting starts a new thread
                self._known.pop(key, None)
                continue
            self._mutes[key] = is_muted = muted(self.store, key) is not None
            clusters = set(record.clusters if record is not None else ()) | set(obs.clusters if obs else ())
            new, actions = step(record, obs, now=now, policy=self.policy, muted=is_muted,
                                blind=bool(clusters & unreadable))
            done.add(key)
            if record is not None:
                self._known[key] = record
            if new is None or new == record:
                continue
            queued = list(versioned.doc.get("queued", [])) if versioned is not None else []
            doc = {"record": new.to_doc(), "queued": queued + [a.to_doc() for a in actions],
                   "rev": (revision(versioned.doc) if versioned is not None else 0) + 1}
            written = self.store.put_doc(storage.RECORD + key, doc,
                                         expect_version=versioned.version if versioned is not None else None)
            if written is None:
                report.lost_races += 1  # another replica stepped this key first: its deliveries stand
                continue
            self._known[key] = new
            self._base[key] = (written.version, revision(doc))
            for action in actions:
                self.store.push(storage.OUTBOX, json.dumps({"id": action.id, "key": key}))
            report.actions += len(actions)

    @staticmethod
    def _expired(record: Record, versioned: Versioned, now: datetime) -> bool:
        return (record.state == "resolved" and record.resolved_at is not None
                and seconds(now) - record.resolved_at > storage.RESOLVED_KEPT_SECONDS
                and not versioned.doc.get("queued"))

    def _outbox_ids(self) -> set[str]:
        return {json.loads(item)["id"] for item in self.store.peek(storage.OUTBOX, 100_000)}

    def _requeue(self, key: str, versioned: Versioned, queued_ids: set[str]) -> None:
        """A delivery the record lists but the outbox lost (a replica died between the two writes)."""
        for entry in versioned.doc.get("queued", []):
            action_id = Action.from_doc(entry).id
            if action_id not in queued_ids and self.store.get(storage.DONE + action_id) is None:
                log.info("alerts: re-queueing delivery %s", action_id)
                self.store.push(storage.OUTBOX, json.dumps({"id": action_id, "key": key}))

    # -- the outbox -----------------------------------------------------------------------------------------

    def drain(self, *, fence: Fence | None = None, report: TickReport | None = None) -> TickReport:
        """Deliver queued deliveries in order, by one replica at a time, until done, Slack fails or the fence
        says this replica no longer owns the run."""
        report = report or TickReport()
        lock = self.store.acquire_lock(storage.DELIVER_LOCK, ttl_seconds=self.lock_ttl)
        if lock is None:
            return report  # another replica is draining
        try:
            self._drain_locked(lock, fence, report)
        finally:
            self.store.release_lock(lock)
        return report

    def _drain_locked(self, lock: Lock, fence: Fence | None, report: TickReport) -> None:
        while True:
            items = self.store.peek(storage.OUTBOX, 100)
            if not items:
                return
            for item in items:
                if (fence is not None and not fence()) or not self.store.renew_lock(lock, ttl_seconds=self.lock_ttl):
                    report.undelivered = len(self.store.peek(storage.OUTBOX, 100_000))
                    return
                if not self._deliver(item, report) and not self._give_up(item):
                    report.undelivered = len(self.store.peek(storage.OUTBOX, 100_000))
                    return
                self.store.ack(storage.OUTBOX, item)

    def _deliver(self, item: str, report: TickReport) -> bool:
        """One outbox item; False when Slack could not take it (it stays at the head of the outbox)."""
        entry = json.loads(item)
        action_id, key = str(entry["id"]), str(entry["key"])
        if self.store.get(storage.DONE + action_id) is not None:
            return True
        versioned = self.store.get_doc(storage.RECORD + key)
        found = next((a for a in (versioned.doc.get("queued", []) if versioned else [])
                      if Action.from_doc(a).id == action_id), None)
        if versioned is None or found is None:
            return True  # delivered and settled already
        action, record = Action.from_doc(found), Record.from_doc(versioned.doc["record"])
        # "I'm on it" as it is now, not as when the action was decided: a root rebuilt keeps who took it
        action = replace(action, view=replace(action.view, acked_by=record.acked_by, ack_seq=record.ack_seq))
        marker = storage.SENT + action_id + ":"
        try:
            posted = self.deliverer.send(
                action, roots=record.roots, domain=record.domain, done=lambda s: self.store.get(marker + s),
                mark=lambda s, ts: self.store.put(marker + s, ts, ttl_seconds=storage.MARKER_TTL_SECONDS))
        except DeliveryFailed as exc:
            log.warning("alerts: Slack did not take delivery %s (%s); it stays queued", action_id, exc)
            return False
        self.store.put(storage.DONE + action_id, "1", ttl_seconds=storage.MARKER_TTL_SECONDS)
        settled = self._settle(key, action.seq, posted)
        if posted and settled is not None and settled.ack_seq != action.view.ack_seq:
            # Someone clicked "I'm on it" on a root of this delivery before its ts was written back: the click was
            # recorded, but no root was known to edit; the roots just posted show the record as it is now.
            self.deliverer.refresh(settled, posted)
        report.delivered += 1
        return True

    def _give_up(self, item: str) -> bool:
        """Count a refused attempt; after MAX_ATTEMPTS the delivery is set aside (dead queue, error log) so one
        message Slack keeps refusing does not hold back every alert queued behind it. True when set aside."""
        entry = json.loads(item)
        action_id, key = str(entry["id"]), str(entry["key"])
        counter = storage.ATTEMPTS + action_id
        attempts = int(self.store.get(counter) or 0) + 1
        if attempts < storage.MAX_ATTEMPTS:
            self.store.put(counter, str(attempts), ttl_seconds=storage.MARKER_TTL_SECONDS)
            return False
        log.error("alerts: Slack refused delivery %s %d times; set aside in %s", action_id, attempts, storage.DEAD)
        self.store.push(storage.DEAD, item)
        self.store.put(storage.DONE + action_id, "dead", ttl_seconds=storage.MARKER_TTL_SECONDS)
        seq = Action.seq_of(action_id)
        self._settle(key, seq, {})
        self.store.delete(counter)
        return True

    def _settle(self, key: str, seq: int, posted: dict[str, str]) -> Record | None:
        """Drop the delivery from the record's queue and write back the roots it posted (compare-and-set); the
        record as written, None when there is none any more or it could not be written."""
        for _ in range(20):
            versioned = self.store.get_doc(storage.RECORD + key)
            if versioned is None:
                return None
            doc: dict[str, Any] = dict(versioned.doc)
            doc["queued"] = [a for a in doc.get("queued", []) if a["seq"] != seq]
            record = dict(doc["record"])
            record["roots"] = {**record.get("roots", {}), **posted}
            doc["record"] = record
            doc["rev"] = revision(versioned.doc) + 1
            written = self.store.put_doc(storage.RECORD + key, doc, expect_version=versioned.version)
            if written is not None:
                settled = self._known[key] = Record.from_doc(record)
                self._base[key] = (written.version, doc["rev"])
                return settled
        log.warning("alerts: could not write back delivery of %s#%d after 20 tries", key, seq)
        return None
