"""Which objects of an alert the bot can diagnose (a RLark Job, a pod, a runner), as the target values the
diagnosis buttons carry (`job/<name>`, `pod/<namespace>/<name>`, `runner/<namespace>/<name>`). Pure."""

from __future__ import annotations

from dataclasses import dataclass

from bot.alerts.model import View
from bot.render import blocklimits as lim

KINDS = {"Job": "job", "Pod": "pod", "EphemeralRunner": "runner"}


@dataclass(frozen=True)
class AlertTarget:
    value: str  # the button value, parsed back by `bot.render.slack_actions.parse_target_value`
    label: str  # how a person reads it: `pod/<name>` with its cluster and namespace


def target_of(ref: str) -> AlertTarget | None:
    """The diagnosable target an object reference `<cluster>/<namespace>/<Kind>/<name>` names, else None."""
    parts = ref.split("/")
    if len(parts) != 4 or not parts[3]:
        return None
    cluster, namespace, kind, name = parts
    prefix = KINDS.get(kind)
    if prefix is None or (prefix != "job" and not namespace):
        return None
    value = f"job/{name}" if prefix == "job" else f"{prefix}/{namespace}/{name}"
    where = "/".join(p for p in (cluster, namespace) if p)
    return AlertTarget(value=value, label=f"{prefix}/{name} ({where})" if where else f"{prefix}/{name}")


def diagnosable(view: View) -> list[AlertTarget]:
    """The alert's objects that are Jobs, pods or runners, in the order of `objects` (the cause's object when
    it lists none), each once; those whose value would not fit a menu option are left out."""
    refs = view.objects or (view.object,)
    seen: dict[str, AlertTarget] = {}
    for ref in refs:
        target = target_of(ref)
        if target is not None and target.value not in seen and len(target.value) <= lim.OPTION_VALUE:
            seen[target.value] = target
    return list(seen.values())
