"""Fold a tick's alerts by cause: one alert per key, alerts that share a cause folded into one.

200 pods Pending on one NodePool are one problem, so they are one thread: alerts with the same check, case and
`group` (the Task, NodePool or selector their pods share, set by the check) become one alert whose object is the
group (its key `<check>:<group>`) and whose `objects` list every folded alert's object. The key does not depend
on how many pods are Pending, so the thread stays the same while pods come and go. Alerts without a group keep
their own key.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from bot.checks.alerts import Alert
from bot.models.refs import SEVERITY_RANK, ObjectGroup


def _folded(group: ObjectGroup, members: list[Alert]) -> Alert:
    first = members[0]
    objects = tuple(sorted({o for a in members for o in a.objects}, key=str))
    causes = Counter(a.cause for a in members if a.cause)
    kind = objects[0].kind
    said = "; ".join(f"{cause} ({n})" for cause, n in sorted(causes.items(), key=lambda c: (-c[1], c[0])))
    summary = (f"{len(objects)} {kind}s" if len(objects) > 1 else f"1 {kind}") + f" on {group}"
    summary += f"; cause: {said}" if said else "; cause not reported"
    summary += f"; e.g. {first.summary}"
    stamps = [a.since for a in members if a.since is not None]
    severity = max((a.severity for a in members), key=SEVERITY_RANK.__getitem__)
    cause = causes.most_common(1)[0][0] if causes else ""
    return Alert(check=first.check, case=first.case, object=group, objects=objects, severity=severity,
                 summary=summary, since=min(stamps) if stamps else None, cause=cause, domain=first.domain)


def observe(alerts: Iterable[Alert]) -> dict[str, Alert]:
    """Key -> alert for one tick; alerts with a group fold into their cause's alert."""
    groups: dict[str, list[Alert]] = defaultdict(list)
    singles: dict[str, Alert] = {}
    for alert in alerts:
        if alert.group is not None:
            groups[alert.cause_key].append(alert)
        else:
            singles[alert.key] = alert
    out = dict(singles)
    for key, members in groups.items():
        members.sort(key=lambda a: str(a.object))
        group = members[0].group
        assert group is not None
        out[key] = _folded(group, members)
    return out
