"""The watches' tick: once per slot across replicas, one look per watched target, one reply per change.

A run takes the store lock `tick:watch:<slot>` (slot = the interval slot of `now`), so replicas firing the same
slot run it once; a finished run leaves a `tick-done:watch:<slot>` marker. Watches of the same target (in
several channels) share one look, up to four targets at a time, in the worker pool.

A tick is cheap when nothing moved: a target first gets a glance (`engine.glance`: the Job and its Pod mirrors,
2 requests; a pod, 1), and a full look (`engine.diagnose`: member clusters, events, logs) only when the
glance's fingerprint differs from the one kept in the store (`watch-glance:<target>`), when none is kept, or once
in `RLARK_BOT_WATCH__FULL_LOOK_TICKS` ticks for what only the logs say (the stage); each target has its own turn
among those ticks, so the full looks of many watches spread over them. A fingerprint is kept only after the full
look that saw it, so a look that failed is tried again on the next tick.

Each watch then moves by compare-and-set on its document, with its reply queued in the document's outbox
(`bot.conversations.watch_outbox`), before anything is posted, so even two runs of one slot (a lock that expired
under a stalled replica) post each change once, and a run killed before it posted leaves the reply for the next
tick. A change of stage, case and end seen in one tick is one reply; a Job that failed also gets its diagnosis in
the thread.
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.conversations.deps import Deps
from bot.conversations.watch import PREFIX, Doc, glance_key, primary_case, stop
from bot.conversations.watch_outbox import deliver, item, stale, with_item
from bot.diagnose import Diagnosis
from bot.errors import NotFound, UserError
from bot.models import Target, TargetKind
from bot.render.slack_watch import change_lines
from bot.store.base import Lock, StoreUnavailable, Versioned
from bot.workers.api import WorkerLost

LOOKS_AT_ONCE = 4  # as many as `serve` has diagnosis workers
ENDED_JOB = ("Succeeded", "Failed", "Stopped")
ENDED_POD = ("Succeeded", "Failed")


@dataclass(frozen=True)
class Look:
    """One read of a target in one tick: its stage, primary case and phase, and whether it ended or is gone."""

    stage: str = ""
    case: str = "none"
    phase: str = ""
    ended: bool = False
    gone: bool = False
    diag: Diagnosis | None = None


@dataclass
class WatchReport:
    slot: int
    ran: bool = False
    why: str = ""
    watches: int = 0
    looks: int = 0  # full looks (diagnoses)
    glances: int = 0
    replies: int = 0
    redelivered: int = 0  # replies left pending by an earlier run, delivered by this one
    seconds: float = 0.0
    failed: list[str] = field(default_factory=list)


def _ident(target: Target) -> tuple[str, str, str]:
    return (target.kind.value, target.name, target.namespace)


def look_turn(target: Target, every: int) -> int:
    """The target's own tick among `every` for its full look (stable across processes, unlike `hash`)."""
    return int(hashlib.sha256(":".join(_ident(target)).encode()).hexdigest()[:8], 16) % every


UNMOVED = Look()  # what a tick says of a target whose glance saw nothing move: nothing to advance


def look_at(diag: Diagnosis) -> Look:
    target = diag.target
    if target.kind is TargetKind.JOB:
        phase = diag.facts.job_phase
        ended = phase in ENDED_JOB or diag.facts.stopped
    else:
        phase = next((p.phase for p in diag.facts.pods if p.name == target.name), "")
        ended = phase in ENDED_POD
    return Look(stage=diag.last_stage, case=primary_case(diag), phase=phase, ended=ended, diag=diag)


class WatchTicker:
    """Runs the watches for one slot; `bot.process` drives it on the scheduler, tests call `run(now)`. `now` is
    an aware UTC datetime, as for the checks; the watch documents keep POSIX seconds."""

    def __init__(self, deps: Deps, *, clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.deps = deps
        self.clock = clock

    @property
    def interval(self) -> int:
        return self.deps.settings.watch_interval_seconds

    def run(self, now: datetime | None = None) -> WatchReport:
        at = self.clock() if now is None else now
        report = WatchReport(slot=int(at.timestamp() // self.interval))
        store = self.deps.store
        lock: Lock | None = None
        started = time.monotonic()
        try:
            if store.get(f"tick-done:watch:{report.slot}") is not None:
                report.why = "slot already run"
                return report
            lock = store.acquire_lock(f"tick:watch:{report.slot}",
                                      ttl_seconds=self.deps.settings.checks.lock_ttl_seconds)
            if lock is None:
                report.why = "slot already taken by another run"
                return report
            if store.get(f"tick-done:watch:{report.slot}") is not None:  # finished between the check and the lock
                store.release_lock(lock)
                report.why = "slot already run"
                return report
            docs = store.scan_docs(PREFIX)
        except StoreUnavailable as exc:  # watches live in the store: without it there is nothing to run
            self.deps.log.warning("watch tick skipped: store unavailable", extra={"reason": str(exc)})
            report.why = "store unavailable"
            return report
        self._redeliver(docs, now=at, lock=lock, report=report)
        self._advance_all(docs, now=at, lock=lock, report=report)
        with contextlib.suppress(StoreUnavailable):
            store.claim(f"tick-done:watch:{report.slot}", ttl_seconds=3 * self.interval)
            store.release_lock(lock)
        report.ran, report.seconds = True, time.monotonic() - started
        return report

    def _redeliver(self, docs: list[tuple[str, Versioned]], *, now: datetime, lock: Lock,
                   report: WatchReport) -> None:
        """Replies decided by a run or an `unwatch` that did not finish delivering them (a replica killed, Slack
        down) go out first, in order, each looked up in its thread before it is posted again."""
        for key, versioned in docs:
            if stale(versioned.doc, now=now):
                report.redelivered += deliver(self.deps, key, fence=lambda: self.deps.store.holds(lock))

    def _advance_all(self, docs: list[tuple[str, Versioned]], *, now: datetime, lock: Lock,
                     report: WatchReport) -> None:
        live = [(k, v) for k, v in docs if v.doc.get("state") == "watching" and v.doc.get("root")
                and not stale(v.doc, now=now)]  # one whose outbox is stuck moves once that is delivered
        report.watches = len(live)
        due = []
        for key, versioned in live:
            if now.timestamp() >= float(versioned.doc.get("until", 0)):
                hours = self.deps.settings.watch.max_hours
                if self.deps.store.holds(lock) and stop(self.deps, key=key, versioned=versioned, hours=hours, now=now):
                    report.replies += 1
            else:
                due.append((key, versioned, Doc(versioned.doc).target))
        targets = list({_ident(t): t for _, _, t in due}.values())
        slot = report.slot
        looks = self._looks(targets, slot=slot, report=report)
        for key, versioned, target in due:
            seen = looks[_ident(target)]
            if seen is None:
                report.failed.append(str(target))
            elif seen is not UNMOVED and self._advance(key, versioned, seen, lock=lock, now=now):
                report.replies += 1

    def _looks(self, targets: list[Target], *, slot: int,
               report: WatchReport) -> dict[tuple[str, str, str], Look | None]:
        """One glance, and a full look where due, per target, `LOOKS_AT_ONCE` at a time (in the worker pool)."""
        if not targets:
            return {}
        every = self.deps.settings.watch.full_look_ticks
        counts = {"glances": 0, "looks": 0}
        counted = threading.Lock()

        def one(target: Target) -> Look | None:
            seen, glanced, looked = self._glance_then_look(target, full=every <= 1 or slot % every == look_turn(
                target, every))
            with counted:
                counts["glances"] += glanced
                counts["looks"] += looked
            return seen

        with ThreadPoolExecutor(max_workers=min(LOOKS_AT_ONCE, len(targets)),
                                thread_name_prefix="watch-look") as pool:
            out = {_ident(t): seen for t, seen in zip(targets, pool.map(one, targets), strict=True)}
        report.glances, report.looks = counts["glances"], counts["looks"]
        return out

    def _glance_then_look(self, target: Target, *, full: bool) -> tuple[Look | None, bool, bool]:
        """(what was seen, whether it glanced, whether it took a full look). A full look is taken when `full` (the
        target's turn, or glances are off), when the glance's fingerprint is not the one kept, or when none is."""
        if full and self.deps.settings.watch.full_look_ticks <= 1:
            return self._look(target), False, True
        try:
            mark = self.deps.engine.glance(target)
        except NotFound:
            return Look(ended=True, gone=True), True, False
        except (UserError, WorkerLost) as exc:
            self.deps.log.warning("watch: target not glanced at this tick", extra={"target": str(target),
                                                                                  "reason": str(exc)})
            return None, True, False
        key = glance_key(target)
        try:
            kept = self.deps.store.get(key)
        except StoreUnavailable:
            kept = None
        if kept == mark and not full:
            return UNMOVED, True, False
        seen = self._look(target)
        if seen is not None and not seen.gone and kept != mark:
            with contextlib.suppress(StoreUnavailable):
                self.deps.store.put(key, mark, ttl_seconds=self.deps.settings.watch.max_hours * 3600)
        return seen, True, True

    def _look(self, target: Target) -> Look | None:
        """One read of the target (in the worker pool); None when it could not be read this tick."""
        try:
            return look_at(self.deps.engine.diagnose(target))
        except NotFound:
            return Look(ended=True, gone=True)
        except (UserError, WorkerLost) as exc:
            self.deps.log.warning("watch: target not read this tick", extra={"target": str(target),
                                                                            "reason": str(exc)})
            return None

    def _advance(self, key: str, versioned: Versioned, seen: Look, *, lock: Lock, now: datetime) -> bool:
        """Move one watch to what was seen: compare-and-set with the reply queued in its outbox, then deliver it.
        True when it moved (the reply is then delivered, or pending until Slack takes it)."""
        doc = Doc(versioned.doc)
        old = doc.view()
        new = doc.view(stage=seen.stage or old.stage, case=seen.case if not seen.gone else old.case,
                       state="ended" if seen.ended else "watching")
        if new == old:
            return False
        lang = str(doc.raw.get("lang", "en"))
        lines = change_lines(old=old, new=new, phase=seen.phase, gone=seen.gone, lang=lang, redactor=self.deps.redactor)
        failed = new.state == "ended" and seen.phase in ("Failed", "Stopped")
        at = now.timestamp()  # the document keeps POSIX seconds
        entry = item(ident=f"tick-{int(at // self.interval)}", at=at, stage=new.stage, case=new.case,
                     state=new.state, lines=lines, diagnose=failed)
        try:
            if not self.deps.store.holds(lock):  # fencing: a stalled run whose lock passed on posts nothing
                return False
            moved = with_item(versioned.doc, entry, stage=new.stage, case=new.case, state=new.state)
            if self.deps.store.put_doc(key, moved, expect_version=versioned.version) is None:
                return False
        except StoreUnavailable as exc:
            self.deps.log.warning("watch not advanced: store unavailable", extra={"reason": str(exc)})
            return False
        deliver(self.deps, key, fresh={entry["id"]: seen.diag if failed else None},
                fence=lambda: self.deps.store.holds(lock))
        return True
