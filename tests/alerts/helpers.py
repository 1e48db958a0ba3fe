"""Alerts and settings built in code for the notifier's tests."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.checks.alerts import Alert
from bot.models.refs import ObjectGroup, ObjectRef
from bot.settings import ChannelBinding, ChecksSettings, Settings

T0 = datetime(2026, 11, 20, 8, 0, tzinfo=UTC).timestamp()


def at(seconds: float) -> datetime:
    """A tick's `now` from POSIX seconds (the test clocks the stores measure TTLs with count seconds)."""
    return datetime.fromtimestamp(seconds, UTC)


def settings(*, channels: dict[str, ChannelBinding] | None = None, fallback: str | None = "C-ALERTS",
             **checks: int) -> Settings:
    base = {"interval_seconds": 60, "clear_after_ticks": 2, "update_every_seconds": 600, "hold_down_seconds": 300,
            "lock_ttl_seconds": 30}
    return Settings(_env_file=None, channels=channels or {}, alerts_channel=fallback,  # type: ignore[call-arg]
                    checks=ChecksSettings(**{**base, **checks}))


def pending(name: str, *, cluster: str = "ci", ns: str = "arc", minutes: int = 20, cause: str = "",
            group: str = "", why: str = "Insufficient cpu") -> Alert:
    return Alert(check="long-pending", case="infra.pending.long", object=ObjectRef(cluster, ns, "Pod", name),
                 severity="warning", since=datetime.fromtimestamp(T0 - minutes * 60, UTC),
                 summary=f"Pending for {minutes} min ({why})", cause=cause,
                 group=ObjectGroup.parse(group) if group else None)


def pool(name: str, *, cluster: str = "ci", condition: str = "NodeRegistrationHealthy=False") -> Alert:
    return Alert(check="nodepool-unhealthy", case="infra.karpenter.nodepool-unhealthy",
                 object=ObjectRef(cluster, "", "NodePool", name), severity="error", since=None, summary=condition)
