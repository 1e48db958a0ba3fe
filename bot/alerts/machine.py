"""The alert lifecycle as a pure state machine: one step per key per tick, no I/O, time passed in.

firing --(gone `clear_after_ticks` ticks)--> resolved --(seen again)--> firing (re-opened in the same thread)

* A material change (severity, the message apart from ages and durations, the set of objects) while firing is
  one reply, at most one per `update_every_seconds`; a change held back is posted once the period has passed.
* Flapping: a key that fires again less than `hold_down_seconds` after it resolved re-opens only once it has
  persisted for a hold-down, so an alert that blinks every tick makes no storm of re-opens.
* `blind`: the alert's cluster could not be read this tick, so its absence says nothing: not counted missing.
* Muted (the store holds a mute for the key; its TTL ends it): nothing is posted except a resolution; a mute
  that ends while the alert still fires adds one reply (or the root, when it was muted from its first sighting).
"""

from __future__ import annotations

from datetime import datetime

from bot.alerts.fingerprint import fingerprint
from bot.alerts.model import Action, ActionKind, Policy, Posted, Record, Seconds, seconds
from bot.checks.alerts import Alert


def _since(alert: Alert) -> Seconds | None:
    return seconds(alert.since) if alert.since is not None else None


def _seen(rec: Record, obs: Alert, at: Seconds) -> Record:
    return rec.evolve(case=obs.case, object=obs.object, objects=obs.objects, severity=obs.severity,
                      summary=obs.summary, fingerprint=fingerprint(obs.summary),
                      clusters=tuple(sorted(obs.clusters)), last_seen=at, since=_since(obs) or rec.since,
                      cause=obs.cause, domain=obs.domain, missing=0)


def _posted(rec: Record) -> Posted:
    return Posted(severity=rec.severity, fingerprint=rec.fingerprint, objects=tuple(sorted(rec.objects, key=str)))


def _act(rec: Record, kind: ActionKind, *, changes: tuple[str, ...] = (), reason: str = "") -> tuple[Record, Action]:
    rec = rec.evolve(seq=rec.seq + 1)
    return rec, Action(kind=kind, seq=rec.seq, view=rec, changes=changes, reason=reason,
                       generation=int(rec.first_seen))


def changes_between(old: Posted, new: Posted, *, summary: str) -> tuple[str, ...]:
    """Human-readable lines saying what materially changed since the thread last heard."""
    lines: list[str] = []
    if old.severity != new.severity:
        lines.append(f"severity {old.severity} -> {new.severity}")
    added = sorted(map(str, set(new.objects) - set(old.objects)))
    gone = sorted(map(str, set(old.objects) - set(new.objects)))
    if added:
        lines.append(f"{len(added)} more: {', '.join(added[:5])}" + (" ..." if len(added) > 5 else ""))
    if gone:
        lines.append(f"{len(gone)} cleared: {', '.join(gone[:5])}" + (" ..." if len(gone) > 5 else ""))
    if old.fingerprint != new.fingerprint:
        lines.append(f"now: {summary}")
    return tuple(lines)


def _firing(rec: Record, obs: Alert, *, at: Seconds, policy: Policy, muted: bool,
            unmuted: bool) -> tuple[Record, list[Action]]:
    rec = _seen(rec, obs, at)
    current, before = _posted(rec), rec.posted
    if muted:
        return rec, []
    if before is None:  # muted since it first fired: the thread starts now
        rec, action = _act(rec.evolve(posted=current, last_change_at=at), "post_root")
        return rec, [action]
    if unmuted:
        rec, action = _act(rec.evolve(posted=current, last_change_at=at), "reply",
                           changes=changes_between(before, current, summary=rec.summary), reason="unmuted")
        return rec, [action]
    if current == before:
        return rec, []
    if rec.last_change_at is not None and at - rec.last_change_at < policy.update_every_seconds:
        return rec, []  # held back: posted when the period has passed, if still different then
    rec, action = _act(rec.evolve(posted=current, last_change_at=at), "reply",
                       changes=changes_between(before, current, summary=rec.summary), reason="change")
    return rec, [action]


def _resolved_seen(rec: Record, obs: Alert, *, at: Seconds, policy: Policy,
                   muted: bool) -> tuple[Record, list[Action]]:
    back = rec.back_since if rec.back_since is not None else at
    recent = rec.resolved_at is not None and back - rec.resolved_at < policy.hold_down_seconds
    if recent and at - back < policy.hold_down_seconds:
        return rec.evolve(back_since=back), []  # flapping: wait until it has persisted for a hold-down
    rec = _seen(rec, obs, at).evolve(state="firing", resolved_at=None, back_since=None)
    if muted:
        return rec, []
    kind: ActionKind = "reopen" if rec.posted is not None else "post_root"
    rec, action = _act(rec.evolve(posted=_posted(rec), last_change_at=at), kind)
    return rec, [action]


def step(record: Record | None, observation: Alert | None, *, now: datetime, policy: Policy,
         muted: bool = False, blind: bool = False) -> tuple[Record | None, list[Action]]:
    """Advance one key by one tick with the alert seen for it (None: not seen). Returns the record to keep (None:
    nothing to keep) and what to post."""
    if record is None:
        if observation is None:
            return None, []
        rec = Record.first(observation, now=now).evolve(muted=muted)
        if muted:
            return rec, []
        rec, action = _act(rec.evolve(posted=_posted(rec), last_change_at=rec.first_seen), "post_root")
        return rec, [action]
    return _step(record, observation, at=seconds(now), policy=policy, muted=muted, blind=blind)


def _step(record: Record, observation: Alert | None, *, at: Seconds, policy: Policy, muted: bool,
          blind: bool) -> tuple[Record, list[Action]]:
    unmuted = record.muted and not muted
    record = record.evolve(muted=muted)
    if observation is not None:
        if record.state == "firing":
            return _firing(record, observation, at=at, policy=policy, muted=muted, unmuted=unmuted)
        return _resolved_seen(record, observation, at=at, policy=policy, muted=muted)
    if record.state == "resolved":
        return record.evolve(back_since=None), []
    if blind:
        return record, []
    record = record.evolve(missing=record.missing + 1)
    if record.missing < policy.clear_after_ticks:
        return record, []
    record = record.evolve(state="resolved", resolved_at=at, back_since=None)
    if record.posted is None:
        return record, []  # never posted (muted throughout): nothing to resolve in Slack
    rec, action = _act(record, "resolve")
    return rec, [action]
