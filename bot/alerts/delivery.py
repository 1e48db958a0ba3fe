"""Turn one decided action into Slack calls, channel by channel, skipping steps already done.

Each step that reaches Slack (a root, a reply, a root update) has its own marker: before a post it holds the
post's idempotency key (`PENDING` + key), after Slack answered the message's ts. A delivery retried after a
failure (Slack down half-way or answering late, a replica that died) repeats only what did not happen, and a
post whose marker is still pending is first looked up in Slack by its key (it may have been taken although
the answer never came). A root's ts is returned so the caller writes it back to the alert record.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.alerts.messages import Message, reply, root
from bot.alerts.model import Action, Record
from bot.alerts.ports import AlertSink, DeliveryFailed
from bot.alerts.routing import lang_of, route
from bot.runbook import Runbook
from bot.settings import ChannelBinding

log = logging.getLogger("bot.alerts")

PENDING = "?"  # a marker's value before the call: "?" + the post's idempotency key
GAVE_UP = "-"  # the ts recorded for a channel that refused a root for good: its thread is never written to
Done = Callable[[str], str | None]  # step name -> the ts recorded for it, None when not done yet
Mark = Callable[[str, str], None]  # (step name, ts): record that the step reached Slack


@dataclass(frozen=True)
class Routes:
    channels: Mapping[str, ChannelBinding]
    fallback: str | None

    def for_view(self, view: Record, domain: str = "") -> list[str]:
        return route(refs=(view.object, *view.objects), domain=domain, channels=self.channels,
                     fallback=self.fallback)


class Deliverer:
    def __init__(self, *, sink: AlertSink, routes: Routes, runbook: Runbook | None) -> None:
        self.sink = sink
        self.routes = routes
        self.runbook = runbook
        self.calls = 0  # Slack calls made (for benchmarks and logs)

    def _root(self, view: Record, lang: str, degraded: bool) -> Message:
        return root_message(view, self.runbook, lang=lang, degraded=degraded)

    def send(self, action: Action, *, roots: Mapping[str, str], domain: str, done: Done, mark: Mark,
             degraded: bool = False) -> dict[str, str]:
        """Deliver `action`; returns the roots it posted (channel -> ts). Raises DeliveryFailed."""
        view = action.view
        posted: dict[str, str] = {}
        targets = dict(roots) if action.kind != "post_root" else {}
        if not targets:
            if action.kind == "resolve":
                log.info("alert %s resolved on %s: it has no thread, logged only", view.key, view.object)
                return posted
            channels = self.routes.for_view(view, domain)
            if not channels:
                log.info("alert %s (%s) on %s: no channel hears it, logged only", view.key, action.kind, view.object)
            for channel in channels:  # a reply without a thread starts one that shows the current state
                posted[channel] = self._post_root(action, channel, done=done, mark=mark, degraded=degraded)
            return posted
        for channel, ts in targets.items():
            if ts == GAVE_UP:
                continue
            try:
                self._thread(action, channel, ts, done=done, mark=mark, degraded=degraded)
            except DeliveryFailed as exc:
                if not exc.permanent:
                    raise
                log.error("alert %s: %s refused it for good (%s); skipping that channel", action.id, channel, exc)
        return posted

    def refresh(self, view: Record, roots: Mapping[str, str]) -> None:
        """Edit `roots` to show `view` as the record holds it now: an "I'm on it" clicked while they were being
        posted found no root to edit (their ts was not written back yet)."""
        for channel, reason in show_roots(self.sink, view, roots, runbook=self.runbook, channels=self.routes.channels):
            log.warning("alert %s: its new root in %s not brought up to date (%s)", view.key, channel, reason)
        self.calls += sum(1 for ts in roots.values() if ts != GAVE_UP)

    def _post_root(self, action: Action, channel: str, *, done: Done, mark: Mark, degraded: bool) -> str:
        step = f"{channel}:root"
        ts = done(step)
        if ts is not None and not ts.startswith(PENDING):
            return ts
        key, maybe_sent = _pending(action, step, ts, mark)
        msg = self._root(action.view, lang_of(channel, self.routes.channels), degraded)
        try:
            ts = self.sink.post(channel=channel, text=msg.text, blocks=msg.blocks, metadata=msg.metadata, key=key,
                                maybe_sent=maybe_sent)
        except DeliveryFailed as exc:
            if not exc.permanent:
                raise
            log.error("alert %s: %s refused the root for good (%s); giving that channel up", action.id, channel, exc)
            ts = GAVE_UP
        self.calls += 1
        mark(step, ts)
        return ts

    def _thread(self, action: Action, channel: str, root_ts: str, *, done: Done, mark: Mark, degraded: bool) -> None:
        lang = lang_of(channel, self.routes.channels)
        step = f"{channel}:reply"
        marked = done(step)
        if marked is None or marked.startswith(PENDING):
            key, maybe_sent = _pending(action, step, marked, mark)
            msg = reply(action, lang=lang, degraded=degraded)
            ts = self.sink.post(channel=channel, text=msg.text, blocks=msg.blocks, metadata=msg.metadata,
                                thread_ts=root_ts, key=key, maybe_sent=maybe_sent)
            self.calls += 1
            mark(step, ts)
        if action.kind in ("resolve", "reopen") and done(f"{channel}:update") is None:
            msg = self._root(action.view, lang, degraded)
            self.sink.update(channel=channel, ts=root_ts, text=msg.text, blocks=msg.blocks, metadata=msg.metadata)
            self.calls += 1
            mark(f"{channel}:update", root_ts)


def root_message(view: Record, runbook: Runbook | None, *, lang: str, degraded: bool = False) -> Message:
    """The root of the alert `view`, with its case and cause as the runbook names them."""
    case = runbook.get(view.case) if runbook is not None else None
    cause = runbook.get(view.cause) if runbook is not None and view.cause else None
    return root(view, case=case, cause=cause, lang=lang, degraded=degraded)


def show_roots(sink: AlertSink, view: Record, roots: Mapping[str, str], *, runbook: Runbook | None,
               channels: Mapping[str, ChannelBinding]) -> list[tuple[str, str]]:
    """Edit each root of `roots` (channel -> ts; not a channel given up on) in place to show `view` as the record
    holds it now. An edit Slack does not take is not retried: the record holds the truth, and the root's next
    edit shows it. Returns (channel, reason) of the edits that failed, for the caller to log."""
    failed: list[tuple[str, str]] = []
    for channel, ts in sorted(roots.items()):
        if ts == GAVE_UP:
            continue
        msg = root_message(view, runbook, lang=lang_of(channel, channels))
        try:
            sink.update(channel=channel, ts=ts, text=msg.text, blocks=msg.blocks, metadata=msg.metadata)
        except DeliveryFailed as exc:
            failed.append((channel, str(exc)))
    return failed


def _pending(action: Action, step: str, marked: str | None, mark: Mark) -> tuple[str, bool]:
    """The post's idempotency key, written as the step's marker before the call (so a retry, by this process
    or another, knows an earlier attempt may have reached Slack); and whether one may have."""
    if marked is not None:
        return marked[len(PENDING):], True
    key = hashlib.sha256(f"{action.id}:{step}".encode()).hexdigest()[:32]
    mark(step, PENDING + key)
    return key, False
