"""The App Home tab, published when a user opens it (`app_home_opened`), never pushed on alert changes and never
polled per user. Per user: the firing alerts of the bound channels they are in (`users.conversations`, cached
for `RLARK_BOT_HOME__CHANNELS_TTL_SECONDS`; each channel's firing alerts read at most once per
`RLARK_BOT_HOME__FIRING_TTL_SECONDS` for everyone; the top ones shown, most severe first, the rest counted),
their recent diagnoses (kept in the store when answered) and their watches, and the state of the bot, its
clusters and agents. The view a user was last shown is reused for `RLARK_BOT_HOME__VIEW_TTL_SECONDS`: opening
the tab again within that time publishes nothing."""

from __future__ import annotations

import contextlib
import hashlib
import threading
import time
from datetime import UTC, datetime
from typing import Any

from bot.alerts import storage
from bot.alerts.messages import ack_value
from bot.alerts.model import Record
from bot.alerts.targets import diagnosable
from bot.checks.alerts import Alert
from bot.conversations.deps import Deps
from bot.conversations.history import recent_key
from bot.conversations.ports import SlackDown
from bot.conversations.watch import PREFIX as WATCH_PREFIX
from bot.models.refs import SEVERITY_RANK
from bot.redact import seal
from bot.render.slack_home import ALERTS_SHOWN, HomeAlert, HomeItem, home_view, verbatim_keys
from bot.store.base import StoreUnavailable


class Home:
    """Builds and publishes users' App Home views, with the caches that keep Slack and the store calls few."""

    def __init__(self, deps: Deps, *, clock: Any = time.monotonic) -> None:
        self.deps = deps
        self.clock = clock
        self._lock = threading.Lock()
        self._channels: dict[str, tuple[float, list[str]]] = {}
        self._shown: dict[str, tuple[float, str]] = {}
        self._firing: dict[str, tuple[float, list[Alert]]] = {}
        self._reading: dict[str, threading.Lock] = {}  # one reader per channel: the others wait for its result

    def channels_of(self, user: str) -> list[str]:
        """The bound channels `user` is a member of (Slack asked at most once per TTL per user)."""
        ttl = self.deps.settings.home.channels_ttl_seconds
        with self._lock:
            hit = self._channels.get(user)
        if hit is None or self.clock() - hit[0] >= ttl:
            mine = self.deps.sink.user_channels(user)
            hit = (self.clock(), mine)
            with self._lock:
                self._channels[user] = hit
        return [c for c in hit[1] if c in self.deps.settings.channels]

    def firing_in(self, channel: str) -> list[Alert]:
        """The channel's firing alerts, read from the store at most once per `RLARK_BOT_HOME__FIRING_TTL_SECONDS`
        whoever opens their tab (many people opening it at once read the alert records once)."""
        assert self.deps.alerts is not None
        ttl = self.deps.settings.home.firing_ttl_seconds
        with self._lock:
            reading = self._reading.setdefault(channel, threading.Lock())
        with reading:
            with self._lock:
                hit = self._firing.get(channel)
            if hit is not None and self.clock() - hit[0] < ttl:
                return hit[1]
            alerts = self.deps.alerts.firing_for(channel)[0]
            with self._lock:
                self._firing[channel] = (self.clock(), alerts)
            return alerts

    def view(self, user: str, *, lang: str = "en") -> tuple[dict[str, Any], tuple[str, ...]]:
        deps = self.deps
        try:
            channels = self.channels_of(user)
        except SlackDown as exc:
            deps.log.warning("home: user's channels not readable", extra={"reason": str(exc)})
            channels = []
        firing: list[tuple[str, Alert]] = []
        if deps.alerts is not None:
            for channel in channels:
                with contextlib.suppress(StoreUnavailable):
                    firing += [(channel, a) for a in self.firing_in(channel)]
        # the most severe first, across the user's channels; only the alerts the view can show are looked up
        firing.sort(key=lambda ca: (-SEVERITY_RANK.get(ca[1].severity, -1), ca[1].key, ca[0]))
        alerts = [self._with_root(channel, a) if i < ALERTS_SHOWN else HomeAlert(channel, a)
                  for i, (channel, a) in enumerate(firing)]
        recent, watches = self._recent(user), self._watches(user)
        problem = None if deps.readiness.ready else deps.readiness.reason()
        at = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        view = home_view(problem=problem, alerts=alerts, recent=recent, watches=watches,
                         command=deps.settings.slash_command, at=at, redactor=deps.redactor, lang=lang)
        return view, verbatim_keys(alerts)

    def _with_root(self, channel: str, alert: Alert) -> HomeAlert:
        """The alert with the values of its root's buttons in `channel` (none when its root is not known)."""
        try:
            versioned = self.deps.store.get_doc(storage.RECORD + alert.key)
        except StoreUnavailable:
            versioned = None
        if versioned is None:
            return HomeAlert(channel, alert)
        record = Record.from_doc(versioned.doc["record"])
        root = record.roots.get(channel, "")
        if not root or root == "-" or record.state != "firing":
            return HomeAlert(channel, alert)
        targets = diagnosable(record)
        return HomeAlert(channel, alert, root=root, ack=ack_value(record), diagnose=targets[0].value if targets else "",
                         acked_by=record.acked_by)

    def _recent(self, user: str) -> list[HomeItem]:
        try:
            doc = self.deps.store.get_doc(recent_key(user))
        except StoreUnavailable:
            return []
        items = (doc.doc if doc else {}).get("items", [])
        return [HomeItem(str(i.get("target", "")), str(i.get("case", "")), str(i.get("channel", ""))) for i in items]

    def _watches(self, user: str) -> list[HomeItem]:
        try:
            docs = self.deps.store.scan_docs(WATCH_PREFIX)
        except StoreUnavailable:
            return []
        return [HomeItem(str(v.doc.get("label", "")), str(v.doc.get("stage", "")), str(v.doc.get("channel", "")))
                for _, v in docs if v.doc.get("by") == user and v.doc.get("state") == "watching"]

    def opened(self, user: str) -> bool:
        """The tab was opened: publish the user's view unless the same view was published within the TTL."""
        deps = self.deps
        view, keep = self.view(user)
        sealed = seal(view, deps.redactor, verbatim=keep)
        digest = hashlib.sha256(repr(_without_time(sealed.value)).encode()).hexdigest()
        with self._lock:
            last = self._shown.get(user)
        if last and last[1] == digest and self.clock() - last[0] < deps.settings.home.view_ttl_seconds:
            return False
        try:
            deps.sink.publish_home(user=user, view=sealed)
        except SlackDown as exc:
            deps.log.warning("home not published", extra={"reason": str(exc)})
            return False
        with self._lock:
            self._shown[user] = (self.clock(), digest)
        return True


def _without_time(view: Any) -> Any:
    """The view without its last block (the time it was built), for telling whether anything changed."""
    return {**view, "blocks": view.get("blocks", [])[:-1]} if isinstance(view, dict) else view
