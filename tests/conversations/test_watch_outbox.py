"""The watch outbox's clock edge: items keep POSIX seconds, callers pass an aware UTC datetime."""

from __future__ import annotations

from bot.conversations.watch_outbox import STALE_SECONDS, item, stale, with_item
from bot.models.times import from_seconds

T = 1_795_000_000.0  # a POSIX second, as a watch document written by any version keeps it


def _doc(at: float) -> dict[str, object]:
    entry = item(ident="tick-1", at=at, stage="run-script", case="none", state="watching", lines=["moved"])
    return with_item({"channel": "C1", "state": "watching"}, entry, stage="run-script")


def test_an_item_is_stale_once_older_than_the_bound() -> None:
    doc = _doc(T)
    assert not stale(doc, now=from_seconds(T + STALE_SECONDS - 1))
    assert stale(doc, now=from_seconds(T + STALE_SECONDS))
    assert stale(doc, now=from_seconds(T + 3600))


def test_a_document_with_nothing_pending_is_never_stale() -> None:
    assert not stale({"channel": "C1", "state": "watching"}, now=from_seconds(T + 3600))


def test_an_item_stored_with_integer_seconds_still_reads() -> None:
    doc = {"channel": "C1", "state": "watching", "pending": [{"id": "stop-1", "at": int(T)}]}
    assert stale(doc, now=from_seconds(T + STALE_SECONDS))
    assert not stale(doc, now=from_seconds(T))
