"""Who may see what: a channel's binding against where a target lives (CONTRACT §5). Pure."""

from __future__ import annotations

from bot.models import Target, TargetKind
from bot.settings import ChannelBinding, Settings
from bot.sources import Location


def binding_for(settings: Settings, channel: str) -> ChannelBinding | None:
    """The channel's binding; unset or empty `RLARK_BOT_CHANNELS` binds no channel. A DM with the bot is bound as
    `RLARK_BOT_DM_SCOPE` says (none by default)."""
    if is_dm(channel):
        return settings.dm_binding()
    return settings.channels.get(channel)


def is_dm(channel: str) -> bool:
    """A direct-message conversation with the bot: Slack's DM ids begin with D."""
    return channel.startswith("D")


def allows(binding: ChannelBinding, target: Target, *, where: Location) -> bool:
    """Clusters must match AND (a Job's `spec.domain` | a pod's or runner's namespace) must match.

    A Job's clusters are its control plane and the clusters its Tasks were routed to: a channel bound to
    `gpu-a` may diagnose a Job whose workers run there.
    """
    if not any(binding.cluster_ok(c) for c in where.clusters or ("",)):
        return False
    if target.kind is TargetKind.JOB:
        return binding.domain_ok(where.domain)
    return binding.namespace_ok(where.namespace)
