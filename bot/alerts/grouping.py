"""Fold a tick's alerts into observations: one per alert, or one per cause when alerts share one.

200 pods Pending on one NodePool are one problem, so they are one thread: alerts with the same check, case and
`group` (the Task, NodePool or selector their pods share, set by the check) become one observation whose key is
`<check>:<group>`, whose object is the group and whose `objects` list every alert's object. The key does not
depend on how many pods are Pending, so the thread stays the same while pods come and go. Alerts without a
group keep their own key.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from bot.alerts.model import Observation
from bot.checks.alerts import Alert
from bot.models.refs import SEVERITY_RANK, alert_key


def cause_key(alert: Alert) -> str:
    """The record key an alert belongs to: its cause's key when it has a group, else its own key."""
    return alert_key(alert.check, alert.group) if alert.group else alert.key


def _stamp(alert: Alert) -> float | None:
    return alert.since.timestamp() if alert.since is not None else None


def _single(alert: Alert) -> Observation:
    return Observation(key=alert.key, check=alert.check, case=alert.case, object=alert.object,
                       objects=(alert.object,), severity=alert.severity, summary=alert.summary, since=_stamp(alert),
                       cause=alert.cause, domain=alert.domain)


def _kind(ref: str) -> str:
    parts = ref.split("/")
    return parts[2] if len(parts) >= 4 else "object"


def _folded(key: str, members: list[Alert]) -> Observation:
    first = members[0]
    objects = tuple(sorted({a.object for a in members}))
    causes = Counter(a.cause for a in members if a.cause)
    kind = _kind(first.object)
    said = "; ".join(f"{cause} ({n})" for cause, n in sorted(causes.items(), key=lambda c: (-c[1], c[0])))
    summary = (f"{len(objects)} {kind}s" if len(objects) > 1 else f"1 {kind}") + f" on {first.group}"
    summary += f"; cause: {said}" if said else "; cause not reported"
    summary += f"; e.g. {first.summary}"
    stamps = [s for s in (_stamp(a) for a in members) if s is not None]
    severity = max((a.severity for a in members), key=lambda s: SEVERITY_RANK.get(s, 0))
    cause = causes.most_common(1)[0][0] if causes else ""
    return Observation(key=key, check=first.check, case=first.case, object=first.group, objects=objects,
                       severity=severity, summary=summary, since=min(stamps) if stamps else None, cause=cause,
                       domain=first.domain)


def observe(alerts: Iterable[Alert]) -> dict[str, Observation]:
    """Key -> observation for one tick; grouped alerts fold into their cause's observation."""
    groups: dict[str, list[Alert]] = defaultdict(list)
    singles: dict[str, Alert] = {}
    for alert in alerts:
        if alert.group:
            groups[cause_key(alert)].append(alert)
        else:
            singles[alert.key] = alert
    out = {key: _single(a) for key, a in singles.items()}
    for key, members in groups.items():
        members.sort(key=lambda a: a.object)
        out[key] = _folded(key, members)
    return out
