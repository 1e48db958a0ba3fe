""""I'm on it" on an alert's root (`rlark_ack`): the record changed once in the store, the root edited to show
who took it; and who took the alerts about a target, for the admin ticket."""

from __future__ import annotations

from bot.alerts import acks, storage
from bot.alerts.delivery import show_roots
from bot.alerts.model import Record
from bot.alerts.targets import target_of
from bot.conversations.alert_delivery import SlackAlertSink
from bot.conversations.audit import Audit
from bot.conversations.deps import Deps
from bot.models import Target
from bot.models.refs import ObjectRef
from bot.store.base import StoreUnavailable


def ack_alert(deps: Deps, *, value: str, channel: str, user: str, audit: Audit) -> str:
    """One click on "I'm on it": the record changed once (compare-and-set), then its root edited once in each
    channel showing it. The outcome for the audit."""
    try:
        seen, key = acks.parse_ack_value(value)
    except ValueError:
        return "usage"
    audit.about(target=key)
    try:
        done = acks.toggle(deps.store, key=key, seen=seen, user=user)
    except StoreUnavailable as exc:
        deps.log.warning("ack not recorded: store unavailable", extra={"reason": str(exc)})
        return "store_down"
    if done is None:
        return "duplicate"  # a second delivery of the same click, or a click on a root that moved on
    _show(deps, done.record)
    return "acked" if done.by else "unacked"


def _show(deps: Deps, view: Record) -> None:
    sink = SlackAlertSink(deps.sink, deps.redactor)
    for channel, reason in show_roots(sink, view, view.roots, runbook=deps.service.runbook,
                                      channels=deps.settings.channels):
        deps.log.warning("alert root not updated", extra={"channel": channel, "reason": reason})


def on_it(deps: Deps, target: Target) -> list[tuple[str, str]]:
    """(alert key, user) of the firing alerts about `target` that someone took: for the admin ticket."""
    found: list[tuple[str, str]] = []
    try:
        docs = deps.store.scan_docs(storage.RECORD)
    except StoreUnavailable:
        return found
    for _, versioned in docs:
        rec = Record.from_doc(versioned.doc["record"])
        if not rec.acked_by or rec.state != "firing":
            continue
        for ref in (rec.object, *rec.objects):
            if (isinstance(ref, ObjectRef) and target_of(ref) is not None and ref.kind == target.kind.value
                    and ref.name == target.name):
                found.append((rec.key, rec.acked_by))
                break
    return found
