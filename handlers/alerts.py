"""`/rlark alerts`, `mute KEY DURATION`, `unmute KEY`: answered at once, ephemerally. Muting needs the admin group."""

from __future__ import annotations

from bot.errors import UserError
from bot.render.ephemeral import ephemeral
from bot.render.slack_message import SlackMessage
from bot.slack.deps import Deps
from bot.slack.payloads import Command
from bot.slack.sink import SlackDown
from bot.store.base import StoreUnavailable


def is_admin(deps: Deps, user: str) -> bool:
    group = deps.settings.admin_usergroup
    if not group or deps.admins is None:
        return False
    try:
        return user in deps.admins.members(group)
    except SlackDown as exc:
        deps.log.warning("admin user group not readable", extra={"reason": str(exc)})
        return False


def _human(seconds: int) -> str:
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{n}{u}" for n, u in ((days, "d"), (hours, "h"), (minutes, "m"), (secs, "s")) if n]
    return "".join(parts) or "0s"


def alerts_command(deps: Deps, cmd: Command, *, channel: str, user: str, lang: str) -> SlackMessage:
    r = deps.redactor
    if deps.alerts is None:
        return ephemeral("alerts", lang=lang, redactor=r, alerts=[])
    try:
        if cmd.verb == "alerts":
            firing, muted = deps.alerts.firing_for(channel)
            deps.metrics.count_command(command="alerts", outcome="ok")
            return ephemeral("alerts", lang=lang, redactor=r, alerts=firing, muted=muted)
        if not is_admin(deps, user):
            deps.metrics.count_command(command=cmd.verb, outcome="not_allowed")
            return ephemeral("not_allowed", lang=lang, redactor=r)
        if cmd.verb == "mute":
            until = deps.alerts.mute(cmd.key, seconds=cmd.seconds, by=user)
            deps.log.info("command", extra={"user": user, "channel": channel, "command": "mute", "target": cmd.key,
                                            "outcome": "muted"})
            deps.metrics.count_command(command="mute", outcome="ok")
            return ephemeral("muted", lang=lang, redactor=r, key=cmd.key, duration=_human(cmd.seconds), until=until)
        deps.alerts.unmute(cmd.key, by=user)
        deps.log.info("command", extra={"user": user, "channel": channel, "command": "unmute", "target": cmd.key,
                                        "outcome": "unmuted"})
        deps.metrics.count_command(command="unmute", outcome="ok")
        return ephemeral("unmuted", lang=lang, redactor=r, key=cmd.key)
    except StoreUnavailable:
        deps.metrics.count_command(command=cmd.verb, outcome="store_down")
        return ephemeral("error", lang=lang, redactor=r)
    except UserError as exc:  # an alert key that names nothing, an unmute of what was not muted
        deps.metrics.count_command(command=cmd.verb, outcome="usage")
        return ephemeral("usage", lang=lang, redactor=r, command=deps.settings.slash_command, reason=str(exc))
