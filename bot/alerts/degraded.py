"""The notifier without its store: alerts still go out from an in-memory copy of the records, marked "(may be
repeated: state store unavailable)", and when the store answers again each copy is written back (compare-and-set)
unless the stored record moved on since the copy was read: an older copy never overwrites a newer record."""

from __future__ import annotations

import json
import logging
from collections.abc import Collection
from datetime import datetime
from typing import TYPE_CHECKING, Any

from bot.alerts import storage
from bot.alerts.delivery import Deliverer, Done, Mark
from bot.alerts.machine import step
from bot.alerts.model import Action, Policy, Record
from bot.alerts.ports import DeliveryFailed
from bot.store.base import Store

if TYPE_CHECKING:
    from bot.alerts.notifier import TickReport
    from bot.checks.alerts import Alert

log = logging.getLogger("bot.alerts")


class DegradedMode:
    """The notifier's state and steps for a store outage (a base of `Notifier`)."""

    store: Store
    policy: Policy
    deliverer: Deliverer
    degraded: bool
    _known: dict[str, Record]
    _base: dict[str, tuple[int, int]]
    _mutes: dict[str, bool]
    _dirty: set[str]
    _local: list[tuple[Action, str]]
    _local_marks: dict[str, str]

    def _step_local(self, observations: dict[str, Alert], *, now: datetime, unreadable: set[str],
                    checks: Collection[str] | None, skip: set[str], report: TickReport) -> None:
        for key in sorted(set(observations) | set(self._known)):
            record = self._known.get(key)
            if key in skip or (record is not None and checks is not None and record.check not in checks):
                continue
            obs = observations.get(key)
            clusters = set(record.clusters if record is not None else ()) | set(obs.clusters if obs else ())
            new, actions = step(record, obs, now=now, policy=self.policy, muted=self._mutes.get(key, False),
                                blind=bool(clusters & unreadable))
            if new is None or new == record:
                continue
            self._known[key] = new
            self._dirty.add(key)
            self._local.extend((a, new.domain) for a in actions)
            report.actions += len(actions)
        while self._local:
            action, domain = self._local[0]
            key = action.view.key
            done, mark = self._memory_marks(action.id + ":")
            try:
                posted = self.deliverer.send(action, roots=self._known[key].roots, domain=domain, done=done,
                                             mark=mark, degraded=True)
            except DeliveryFailed as exc:
                log.warning("alerts: Slack did not take delivery %s either (%s); kept in memory", action.id, exc)
                break
            self._known[key] = self._known[key].evolve(roots={**self._known[key].roots, **posted})
            self._local.pop(0)
            report.delivered += 1
        report.undelivered = len(self._local)

    def _memory_marks(self, prefix: str) -> tuple[Done, Mark]:
        def done(step: str) -> str | None:
            return self._local_marks.get(prefix + step)

        def mark(step: str, ts: str) -> None:
            self._local_marks[prefix + step] = ts

        return done, mark

    def _recover(self) -> None:
        """The store answers again: write back what changed meanwhile, so nothing already sent is sent again.

        Deliveries Slack had not taken yet go into the record's queue and the outbox like any other."""
        waiting: dict[str, list[Action]] = {}
        for action, _ in self._local:
            waiting.setdefault(action.view.key, []).append(action)
        written = stale = 0
        for key in sorted(self._dirty | set(waiting)):
            if self._write_back(key, waiting.get(key, [])):
                written += 1
            else:
                stale += 1
        log.info("alerts: state store back; %d record(s) written back, %d older than the stored one dropped",
                 written, stale)
        self._dirty.clear()
        self._local.clear()
        self._local_marks.clear()
        self.degraded = False

    def _write_back(self, key: str, waiting: list[Action]) -> bool:
        """Write this replica's copy of `key` back (compare-and-set), with its undelivered deliveries queued,
        unless the stored record moved on since the copy was read (another replica wrote it meanwhile, during
        the outage or after) and made as many deliveries as the copy: then the stored one stands, the copy and its
        deliveries are dropped and the next tick steps from the stored record. A stored record that moved on by
        sightings only (each tick's `last_seen`, written by the replicas up to the outage) does not know what the
        copy posted meanwhile: the copy goes in, or that post would be made again. False when it was dropped."""
        record, base = self._known[key], self._base.get(key)
        for _ in range(20):
            current = self.store.get_doc(storage.RECORD + key)
            if current is not None and (base is None or (current.version, revision(current.doc)) != base) \
                    and not _delivered_more(record, current.doc):
                self._known[key] = Record.from_doc(current.doc["record"])
                self._base[key] = (current.version, revision(current.doc))
                return False
            queued = list(current.doc.get("queued", [])) if current is not None else []
            rev = max(base[1] if base else 0, revision(current.doc) if current else 0) + 1
            doc = {"record": record.to_doc(), "queued": queued + [a.to_doc() for a in waiting], "rev": rev}
            written = self.store.put_doc(storage.RECORD + key, doc,
                                         expect_version=current.version if current is not None else None)
            if written is not None:
                self._base[key] = (written.version, rev)
                for action in waiting:
                    self.store.push(storage.OUTBOX, json.dumps({"id": action.id, "key": key}))
                return True
        return False


def _delivered_more(copy: Record, stored: dict[str, Any]) -> bool:
    """Whether the copy made deliveries the stored record does not count (its `seq` is ahead)."""
    return copy.seq > Record.from_doc(stored["record"]).seq


def revision(doc: dict[str, Any]) -> int:
    """A record document's revision: one more on every write, so an older copy is told apart from a newer one."""
    return int(doc.get("rev") or 0)
