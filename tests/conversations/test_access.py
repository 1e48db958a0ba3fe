"""A channel sees a target only when its clusters AND its domains (Jobs) or namespaces (pods, runners) match."""

from __future__ import annotations

import pytest

from bot.conversations.access import allows, binding_for
from bot.models import Target
from bot.settings import ChannelBinding, Settings
from bot.sources import Location

JOB = Target.parse("job/ppo-1")
POD = Target.parse("pod/runner-x")


@pytest.mark.parametrize(("binding", "target", "where", "ok"), [
    (ChannelBinding(domains="*", namespaces="*", clusters="*"), JOB, Location(("kcp",), "", ""), True),
    (ChannelBinding(domains=["robotics"], clusters="*"), JOB, Location(("kcp", "gpu-a"), "", "robotics"), True),
    (ChannelBinding(domains=["robotics"], clusters="*"), JOB, Location(("kcp",), "", "vision"), False),
    (ChannelBinding(domains=["robotics"], clusters="*"), JOB, Location(("kcp",), "", ""), False),  # no domain: "*" only
    (ChannelBinding(domains="*", clusters=["gpu-a"]), JOB, Location(("kcp", "gpu-a"), "", "x"), True),
    (ChannelBinding(domains="*", clusters=["gpu-b"]), JOB, Location(("kcp", "gpu-a"), "", "x"), False),
    (ChannelBinding(namespaces=["arc"], clusters=["ci"]), POD, Location(("ci",), "arc", ""), True),
    (ChannelBinding(namespaces=["arc"], clusters=["ci"]), POD, Location(("ci",), "other", ""), False),
    (ChannelBinding(namespaces=["arc"], clusters=["ci"]), POD, Location(("prod",), "arc", ""), False),
    (ChannelBinding(domains="*", clusters="*"), POD, Location(("ci",), "arc", ""), False),  # namespaces unset
])
def test_scope(binding: ChannelBinding, target: Target, where: Location, ok: bool) -> None:
    assert allows(binding, target, where=where) is ok


def test_unset_channels_bind_nothing() -> None:
    assert binding_for(Settings(_env_file=None), "C1") is None  # type: ignore[call-arg]
    s = Settings(_env_file=None, channels={"C1": {"domains": "*"}})  # type: ignore[call-arg]
    assert binding_for(s, "C1") is not None and binding_for(s, "C2") is None
