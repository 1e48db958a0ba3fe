"""`/rlark alerts`, `mute` and `unmute` over the alert records and mutes in the store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.alerts import keys, mutes
from bot.alerts.model import Record
from bot.checks.alerts import Alert
from bot.errors import UsageError
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

    def resolve_key(self, key: str) -> str:
        """The alert thread a key names: its own key, or the key of the cause whose objects include the key's
        object (`rlark-bot check` prints one key per object; Slack shows one thread per cause). A key that names
        no alert the bot has seen is refused, so a typo never looks like a mute."""
        check, _, obj = key.partition(":")
        for _, versioned in self._store.scan_docs(keys.RECORD):
            rec = Record.from_doc(versioned.doc["record"])
            if rec.key == key:
                return rec.key
            if rec.key.partition(":")[0] == check and (obj == rec.object or obj in rec.objects):
                return rec.key
        raise UsageError(f"no alert has the key {key[:120]} (see /rlark alerts)")

    def mute(self, key: str, *, seconds: int, by: str) -> str:
        now = datetime.now(UTC)
        until = now + timedelta(seconds=seconds)
        mutes.mute(self._store, key=self.resolve_key(key), until=until, by=by, now=now)
        return f"{until:%Y-%m-%dT%H:%M:%SZ}"

    def unmute(self, key: str, *, by: str) -> None:
        if not mutes.unmute(self._store, self.resolve_key(key)):
            raise UsageError(f"{key[:120]} is not muted")
