"""Mutes and the list of firing alerts, for `/rlark mute KEY 2h`, `/rlark unmute KEY` and `/rlark alerts`.

A mute is a store value with a TTL equal to its duration, so it ends by itself on every replica; the alert
lifecycle notices the end on its next tick and, if the alert still fires, adds a reply to its thread.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from bot.alerts import storage
from bot.alerts.model import Record, seconds
from bot.alerts.routing import binding_hears
from bot.models.refs import SEVERITY_RANK
from bot.models.times import from_seconds
from bot.settings import ChannelBinding
from bot.store.base import Store


@dataclass(frozen=True)
class Mute:
    key: str
    until: datetime
    by: str


def mute(store: Store, *, key: str, until: datetime, by: str, now: datetime) -> Mute:
    """Mute `key` until `until`. Raises ValueError (one line) when `until` is not in the future."""
    left = (until - now).total_seconds()
    if left <= 0:
        raise ValueError("a mute must end in the future")
    entry = Mute(key=key, until=until, by=by)
    store.put(storage.MUTE + key, json.dumps({"until": seconds(until), "by": by}), ttl_seconds=left)
    return entry


def unmute(store: Store, key: str) -> bool:
    """End the mute on `key` now; False when it was not muted."""
    was = store.get(storage.MUTE + key) is not None
    store.delete(storage.MUTE + key)
    return was


def muted(store: Store, key: str) -> Mute | None:
    raw = store.get(storage.MUTE + key)
    if raw is None:
        return None
    data = json.loads(raw)
    return Mute(key=key, until=from_seconds(float(data["until"])), by=str(data.get("by", "")))


def list_firing(store: Store, scope: ChannelBinding | None = None) -> list[tuple[Record, Mute | None]]:
    """Firing alerts with their mutes, most severe first; with `scope`, only those that binding would hear
    (ignoring its `alerts` flag: a channel may ask what fires in its scope even when it does not receive alerts)."""
    out: list[tuple[Record, Mute | None]] = []
    probe = scope.model_copy(update={"alerts": True}) if scope is not None else None
    for _, versioned in store.scan_docs(storage.RECORD):
        rec = Record.from_doc(versioned.doc["record"])
        if rec.state != "firing":
            continue
        if probe is not None and not any(binding_hears(probe, ref, domain=rec.domain)
                                         for ref in (rec.object, *rec.objects)):
            continue
        out.append((rec, muted(store, rec.key)))
    return sorted(out, key=lambda pair: (-SEVERITY_RANK[pair[0].severity], pair[0].key))
