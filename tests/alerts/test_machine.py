"""Every transition of the alert lifecycle, as tables of ticks: (time, observation or None, flags) -> actions."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from alerts.helpers import at
from bot.alerts.fingerprint import fingerprint
from bot.alerts.machine import step
from bot.alerts.model import Policy, Record
from bot.checks.alerts import Alert
from bot.models.refs import ObjectRef, Severity

POLICY = Policy(clear_after_ticks=2, update_every_seconds=600, hold_down_seconds=300)
KEY = "long-pending:c/ns/Pod/p"
P, Q = ObjectRef("c", "ns", "Pod", "p"), ObjectRef("c", "ns", "Pod", "q")


def obs(summary: str = "Pending for 16 min (Insufficient cpu)", *, severity: Severity = "warning",
        objects: tuple[ObjectRef, ...] = (P,)) -> Alert:
    return Alert(check="long-pending", case="infra.pending.long", object=P, objects=objects, severity=severity,
                 since=None, summary=summary)


@dataclass(frozen=True)
class Tick:
    at: float
    seen: Alert | None
    want: tuple[str, ...] = ()  # action kinds (reply reason appended: "reply:change")
    mute_until: float | None = None
    blind: bool = False


def run(ticks: list[Tick]) -> Record | None:
    rec: Record | None = None
    for i, t in enumerate(ticks):
        muted = t.mute_until is not None and t.mute_until > t.at  # the store's TTL ends a mute
        rec, actions = step(rec, t.seen, now=at(t.at), policy=POLICY, muted=muted, blind=t.blind)
        got = tuple(a.kind + (f":{a.reason}" if a.reason else "") for a in actions)
        assert got == t.want, f"tick {i} at {t.at}: got {got}, want {t.want}"
        if rec is not None:  # a record written back and read again behaves the same
            rec = Record.from_doc(rec.to_doc())
    return rec


A = obs()
LATER = obs("Pending for 17 min (Insufficient cpu)")  # only the age differs: not material
OTHER = obs("Pending for 17 min (unbound PersistentVolumeClaims)")
ERROR = obs(severity="error")
MORE = obs(objects=(P, Q))

TABLES: dict[str, list[Tick]] = {
    "fires once, persists silently": [Tick(0, A, ("post_root",)), Tick(60, LATER), Tick(120, LATER)],
    "material message change replies": [Tick(0, A, ("post_root",)), Tick(700, OTHER, ("reply:change",))],
    "severity change replies": [Tick(0, A, ("post_root",)), Tick(700, ERROR, ("reply:change",))],
    "set of objects change replies": [Tick(0, A, ("post_root",)), Tick(700, MORE, ("reply:change",))],
    "changes are rate limited then posted once": [
        Tick(0, A, ("post_root",)), Tick(700, OTHER, ("reply:change",)), Tick(760, ERROR), Tick(820, ERROR),
        Tick(1300, ERROR, ("reply:change",)), Tick(1360, ERROR)],
    "a change that reverts within the period posts nothing": [
        Tick(0, A, ("post_root",)), Tick(700, OTHER, ("reply:change",)), Tick(760, ERROR), Tick(820, OTHER),
        Tick(1400, OTHER)],
    "resolved after clear_after_ticks missing": [
        Tick(0, A, ("post_root",)), Tick(60, None), Tick(120, None, ("resolve",)), Tick(180, None)],
    "one missing tick then back is not resolved": [
        Tick(0, A, ("post_root",)), Tick(60, None), Tick(120, A), Tick(180, None), Tick(240, A)],
    "unreadable cluster is not counted missing": [
        Tick(0, A, ("post_root",)), Tick(60, None, blind=True), Tick(120, None, blind=True),
        Tick(180, None, blind=True), Tick(240, None), Tick(300, None, ("resolve",))],
    "re-opens in the same thread after the hold-down": [
        Tick(0, A, ("post_root",)), Tick(60, None), Tick(120, None, ("resolve",)), Tick(1000, A, ("reopen",))],
    "flapping re-opens only once it persisted for a hold-down": [
        Tick(0, A, ("post_root",)), Tick(60, None), Tick(120, None, ("resolve",)),
        Tick(180, A), Tick(240, None), Tick(300, A), Tick(360, A), Tick(540, A), Tick(600, A, ("reopen",))],
    "muted: nothing while muted, reply when the mute ends while firing": [
        Tick(0, A, ("post_root",)), Tick(60, OTHER, mute_until=1000), Tick(700, ERROR, mute_until=1000),
        Tick(1060, ERROR, ("reply:unmuted",)), Tick(1120, ERROR)],
    "muted: the resolution is still posted": [
        Tick(0, A, ("post_root",)), Tick(60, None, mute_until=5000), Tick(120, None, ("resolve",), mute_until=5000)],
    "muted from first sighting: root when the mute ends": [
        Tick(0, A, mute_until=300), Tick(60, A, mute_until=300), Tick(360, A, ("post_root",)), Tick(420, A)],
    "muted throughout and gone: nothing to resolve": [
        Tick(0, A, mute_until=9000), Tick(60, None, mute_until=9000), Tick(120, None, mute_until=9000),
        Tick(180, None)],
    "re-open while muted is silent, the end of the mute replies": [
        Tick(0, A, ("post_root",)), Tick(60, None), Tick(120, None, ("resolve",)),
        Tick(1000, A, mute_until=2000), Tick(2100, A, ("reply:unmuted",))],
    "nothing seen, nothing kept": [Tick(0, None)],
}


@pytest.mark.parametrize("name", list(TABLES))
def test_lifecycle(name: str) -> None:
    run(TABLES[name])


def test_actions_are_numbered_and_carry_the_view() -> None:
    rec, [root] = step(None, A, now=at(0), policy=POLICY)
    assert rec is not None and root.id == f"{KEY}#0.1" and root.view.state == "firing"
    rec, [change] = step(rec, MORE, now=at(700), policy=POLICY)
    assert change.id == f"{KEY}#0.2"
    assert change.changes == ("1 more: c/ns/Pod/q",)
    rec, _ = step(rec, None, now=at(760), policy=POLICY)
    rec, [resolve] = step(rec, None, now=at(820), policy=POLICY)
    assert resolve.id == f"{KEY}#0.3" and resolve.view.state == "resolved"
    assert rec is not None and rec.state == "resolved" and rec.resolved_at == 820


def test_record_keeps_first_and_last_seen_and_the_fingerprint() -> None:
    rec, _ = step(None, A, now=at(10), policy=POLICY)
    rec, _ = step(rec, LATER, now=at(70), policy=POLICY)
    assert rec is not None
    assert (rec.first_seen, rec.last_seen) == (10, 70)
    assert rec.fingerprint == fingerprint(LATER.summary) == "Pending for <duration> (Insufficient cpu)"


@pytest.mark.parametrize(("text", "want"), [
    ("Pending for 190 min (x)", "Pending for <duration> (x)"),
    ("heartbeat 1500s ago", "heartbeat <duration> ago"),
    ("took 3h4m, then 12m and 900s", "took <duration>, then <duration> and <duration>"),
    ("stopped since 2026-11-20T07:22:00Z", "stopped since <time>"),
    ("4 pod(s) on h100 nodes, 5 pod failures", "4 pod(s) on h100 nodes, 5 pod failures"),
])
def test_fingerprint(text: str, want: str) -> None:
    assert fingerprint(text) == want
