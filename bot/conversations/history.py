"""Each user's recent diagnoses, kept in the store for their App Home (`bot.conversations.home`)."""

from __future__ import annotations

import contextlib
import time

from bot.store.base import Store, StoreUnavailable

RECENT_KEPT = 10


def recent_key(user: str) -> str:
    return f"home:recent:{user}"


def remember_diagnosis(store: Store, *, user: str, target: str, case: str, channel: str) -> None:
    """Keep the user's last diagnoses (compare-and-set; a lost race or an unavailable store drops one entry)."""
    key = recent_key(user)
    with contextlib.suppress(StoreUnavailable):
        current = store.get_doc(key)
        items = list((current.doc if current else {}).get("items", []))
        items = [{"target": target, "case": case, "channel": channel, "at": time.time()}, *items][:RECENT_KEPT]
        store.put_doc(key, {"items": items}, expect_version=current.version if current else None)
