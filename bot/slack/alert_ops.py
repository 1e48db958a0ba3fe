"""`/rlark alerts`, `mute` and `unmute` over the alert records and mutes in the store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.alerts import mutes
from bot.checks.alerts import Alert
from bot.settings import Settings
from bot.store.base import Store


def _when(ts: float | None) -> datetime | None:
    return None if ts is None else datetime.fromtimestamp(ts, UTC)


def _summary(f: mutes.Firing) -> str:
    return f.summary + (f" (+{f.objects - 1} more)" if f.objects > 1 else "")


class StoreAlertOps:
    def __init__(self, store: Store, settings: Settings) -> None:
        self._store, self._settings = store, settings

    def firing_for(self, channel: str) -> tuple[list[Alert], dict[str, str]]:
        binding = self._settings.channels.get(channel)
        if binding is None:
            return [], {}
        firing = mutes.list_firing(self._store, binding)
        alerts = [Alert(check=f.key.split(":", 1)[0], case=f.case, object=f.object, severity=f.severity,
                        since=_when(f.since), summary=_summary(f)) for f in firing]
        muted = {f.key: f"{_when(f.muted_until):%Y-%m-%dT%H:%M:%SZ}" for f in firing if f.muted_until is not None}
        return alerts, muted

    def mute(self, key: str, *, seconds: int, by: str) -> str:
        now = datetime.now(UTC)
        until = now + timedelta(seconds=seconds)
        mutes.mute(self._store, key=key, until=until, by=by, now=now)
        return f"{until:%Y-%m-%dT%H:%M:%SZ}"

    def unmute(self, key: str, *, by: str) -> None:
        mutes.unmute(self._store, key)
