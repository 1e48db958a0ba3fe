"""Which channels hear an alert (CONTRACT §6).

Every channel bound with `"alerts": true` whose `clusters` match the object's cluster and whose `namespaces`
match its namespace; for an alert about a RLark Job (or one of its Tasks) the Job's `domains` stand in for
namespaces (a Job without a domain matches only `"*"`); a cluster-scoped object matches on `clusters` alone.
An observation covering many objects is routed by its cause's object and by each object it lists. When no
binding claims it, `RLARK_BOT_ALERTS_CHANNEL` hears it; without that it is only logged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.models.refs import AlertObject
from bot.models.rlark import AGENT_NAMESPACE_PREFIX
from bot.settings import ChannelBinding

RLARK_KINDS = ("Job", "Task")


def binding_hears(binding: ChannelBinding, obj: AlertObject, *, domain: str = "") -> bool:
    """Whether an alert-enabled binding claims the alert about `obj`."""
    if not binding.alerts:
        return False
    if obj.kind in RLARK_KINDS:
        agent = obj.namespace.removeprefix(AGENT_NAMESPACE_PREFIX) if obj.namespace.startswith(
            AGENT_NAMESPACE_PREFIX) else None
        clusters_ok = binding.cluster_ok(obj.cluster) or (agent is not None and binding.cluster_ok(agent))
        return clusters_ok and binding.domain_ok(domain)
    if not binding.cluster_ok(obj.cluster):
        return False
    return not obj.namespace or binding.namespace_ok(obj.namespace)


def route(*, refs: Iterable[AlertObject], domain: str, channels: Mapping[str, ChannelBinding],
          fallback: str | None) -> list[str]:
    """Channel ids to post to, in a stable order; [] means "log only"."""
    wanted = list(dict.fromkeys(refs))
    hit = sorted(cid for cid, binding in channels.items()
                 if any(binding_hears(binding, ref, domain=domain) for ref in wanted))
    if hit:
        return hit
    return [fallback] if fallback else []


def lang_of(channel: str, channels: Mapping[str, ChannelBinding]) -> str:
    binding = channels.get(channel)
    return binding.lang if binding is not None else "en"
