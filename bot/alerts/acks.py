""""I'm on it" on an alert (CONTRACT §11): who took it, kept in the alert's record in the store.

A click says which ack state it saw (`ack_seq`, carried in the button's value). It acts only on that state,
by compare-and-set on the record, so a retried request, a double delivery or a double click changes it once:
the first click records the user, the same user clicking again undoes it, another user takes it over.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.alerts import storage
from bot.alerts.model import Record
from bot.store.base import Store

ATTEMPTS = 20


@dataclass(frozen=True)
class Acked:
    record: Record  # the record as written (its `acked_by` is "" when the click undid it)
    by: str  # who holds it now ("" for nobody)


def parse_ack_value(value: str) -> tuple[int, str]:
    """(ack_seq seen, alert key) from the button's value `<seq>|<key>`; ValueError for anything else."""
    seq, sep, key = value.partition("|")
    if not sep or not seq.isdigit() or not key or len(value) > 2000:
        raise ValueError("not an ack button value")
    return int(seq), key


def toggle(store: Store, *, key: str, seen: int, user: str) -> Acked | None:
    """Apply one click made on the root showing ack state `seen`; None when the click changes nothing (the
    alert is gone, or the state moved on since: another click already acted on what this one saw)."""
    for _ in range(ATTEMPTS):
        versioned = store.get_doc(storage.RECORD + key)
        if versioned is None:
            return None
        record = Record.from_doc(versioned.doc["record"])
        if record.ack_seq != seen:
            return None
        by = "" if record.acked_by == user else user
        new = record.evolve(acked_by=by, ack_seq=record.ack_seq + 1)
        doc = {**versioned.doc, "record": new.to_doc()}
        if store.put_doc(storage.RECORD + key, doc, expect_version=versioned.version) is not None:
            return Acked(record=new, by=by)
    return None


def taken(store: Store, keys: list[str]) -> dict[str, str]:
    """alert key -> who said "I'm on it", for those of `keys` someone took (`/rlark alerts`)."""
    found: dict[str, str] = {}
    for key in keys:
        versioned = store.get_doc(storage.RECORD + key)
        if versioned is not None:
            by = str(versioned.doc.get("record", {}).get("acked_by") or "")
            if by:
                found[key] = by
    return found
