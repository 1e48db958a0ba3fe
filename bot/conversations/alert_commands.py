"""`/rlark alerts`, `mute KEY DURATION`, `unmute KEY` (and the alert's Mute button): answered ephemerally, over
the alert records and mutes in the store. Muting needs the admin group."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from bot.alerts import mutes, storage
from bot.alerts.acks import taken
from bot.alerts.model import Record
from bot.checks.alerts import Alert
from bot.conversations.audit import Audit
from bot.conversations.deps import Deps
from bot.conversations.parsing import Command
from bot.errors import UsageError, UserError
from bot.models.refs import parse_alert_key
from bot.models.times import rfc3339
from bot.render.ephemeral import ephemeral
from bot.render.slack_message import SlackMessage
from bot.settings import Settings
from bot.store.base import Store, StoreUnavailable


def _summary(rec: Record) -> str:
    return rec.summary + (f" (+{len(rec.objects) - 1} more)" if len(rec.objects) > 1 else "")


class StoreAlertOps:
    def __init__(self, store: Store, settings: Settings) -> None:
        self._store, self._settings = store, settings

    def firing_for(self, channel: str) -> tuple[list[Alert], dict[str, str]]:
        binding = self._settings.channels.get(channel)
        if binding is None:
            return [], {}
        firing = mutes.list_firing(self._store, binding)
        alerts = [Alert(check=rec.check, case=rec.case, object=rec.object, objects=rec.objects,
                        severity=rec.severity, since=rec.since_at, summary=_summary(rec)) for rec, _ in firing]
        muted = {rec.key: rfc3339(m.until) for rec, m in firing if m is not None}
        return alerts, muted

    def resolve_key(self, key: str) -> str:
        """The alert thread a key names: its own key, or the key of the cause whose objects include the key's
        object (`rlark-bot check` prints one key per object; Slack shows one thread per cause). A key that names
        no alert the bot has seen is refused, so a typo never looks like a mute."""
        check, obj = parse_alert_key(key)
        for _, versioned in self._store.scan_docs(storage.RECORD):
            rec = Record.from_doc(versioned.doc["record"])
            if rec.key == key:
                return rec.key
            if rec.check == check and (obj == str(rec.object) or obj in map(str, rec.objects)):
                return rec.key
        raise UsageError(f"no alert has the key {key[:120]} (see /rlark alerts)")

    def mute(self, key: str, *, seconds: int, by: str) -> str:
        now = datetime.now(UTC)
        until = now + timedelta(seconds=seconds)
        mutes.mute(self._store, key=self.resolve_key(key), until=until, by=by, now=now)
        return rfc3339(until)

    def unmute(self, key: str, *, by: str) -> None:
        if not mutes.unmute(self._store, self.resolve_key(key)):
            raise UsageError(f"{key[:120]} is not muted")


def _human(seconds: int) -> str:
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{n}{u}" for n, u in ((days, "d"), (hours, "h"), (minutes, "m"), (secs, "s")) if n]
    return "".join(parts) or "0s"


def alerts_command(deps: Deps, cmd: Command, *, audit: Audit, lang: str, admin: Callable[[], bool]) -> SlackMessage:
    """The ephemeral answer to `alerts`, `mute` or `unmute`; the outcome goes to the request's audit. `admin`:
    whether the asker is in the admin user group (the listeners' middleware decides; asked only to mute)."""
    r = deps.redactor
    if deps.alerts is None:
        return ephemeral("alerts", lang=lang, redactor=r, alerts=[])
    audit.about(command=cmd.verb, target=cmd.key or None)
    try:
        if cmd.verb == "alerts":
            firing, muted = deps.alerts.firing_for(audit.channel)
            audit.outcome("ok")
            return ephemeral("alerts", lang=lang, redactor=r, alerts=firing, muted=muted,
                             on_it=taken(deps.store, [a.key for a in firing]))
        if not admin():
            audit.outcome("not_allowed")
            return ephemeral("not_allowed", lang=lang, redactor=r)
        if cmd.verb == "mute":
            until = deps.alerts.mute(cmd.key, seconds=cmd.seconds, by=audit.user)
            audit.outcome("ok")
            return ephemeral("muted", lang=lang, redactor=r, key=cmd.key, duration=_human(cmd.seconds), until=until)
        deps.alerts.unmute(cmd.key, by=audit.user)
        audit.outcome("ok")
        return ephemeral("unmuted", lang=lang, redactor=r, key=cmd.key)
    except StoreUnavailable:
        audit.outcome("store_down")
        return ephemeral("error", lang=lang, redactor=r)
    except UserError as exc:  # an alert key that names nothing, an unmute of what was not muted
        audit.outcome("usage")
        return ephemeral("usage", lang=lang, redactor=r, command=deps.settings.slash_command, reason=str(exc))
