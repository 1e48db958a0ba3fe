"""Which objects of an alert the bot can diagnose (a RLark Job, a pod, a runner), as the target values the
diagnosis buttons carry (`job/<name>`, `pod/<namespace>/<name>`, `runner/<namespace>/<name>`). Pure."""

from __future__ import annotations

from dataclasses import dataclass

from bot.alerts.model import Record
from bot.models.refs import AlertObject, ObjectRef
from bot.render import blocklimits as lim

KINDS = {"Job": "job", "Pod": "pod", "EphemeralRunner": "runner"}


@dataclass(frozen=True)
class AlertTarget:
    value: str  # the button value, parsed back by `bot.render.slack_actions.parse_target_value`
    label: str  # how a person reads it: `pod/<name>` with its cluster and namespace


def target_of(ref: AlertObject) -> AlertTarget | None:
    """The diagnosable target an alert's object is, else None (a group of objects is none)."""
    if not isinstance(ref, ObjectRef):
        return None
    cluster, namespace, kind, name = ref.cluster, ref.namespace, ref.kind, ref.name
    prefix = KINDS.get(kind)
    if prefix is None or (prefix != "job" and not namespace):
        return None
    value = f"job/{name}" if prefix == "job" else f"{prefix}/{namespace}/{name}"
    where = "/".join(p for p in (cluster, namespace) if p)
    return AlertTarget(value=value, label=f"{prefix}/{name} ({where})" if where else f"{prefix}/{name}")


def target_named(text: str) -> AlertTarget | None:
    """`target_of` an object in its string form (an alert message's metadata); None for text naming none."""
    try:
        return target_of(ObjectRef.parse(text))
    except ValueError:
        return None


def diagnosable(view: Record) -> list[AlertTarget]:
    """The alert's objects that are Jobs, pods or runners, in the order of `objects` (the cause's object when
    it lists none), each once; those whose value would not fit a menu option are left out."""
    refs = view.objects or (view.object,)
    seen: dict[str, AlertTarget] = {}
    for ref in refs:
        target = target_of(ref)
        if target is not None and target.value not in seen and len(target.value) <= lim.OPTION_VALUE:
            seen[target.value] = target
    return list(seen.values())
