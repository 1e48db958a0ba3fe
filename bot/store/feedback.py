"""Votes on diagnosis replies (👍/👎, CONTRACT §11), kept in the store: one per user per reply, a changed vote
replacing the old one, and read back for export so that wrong answers become runbook work."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Literal

from bot.store.base import Store

PREFIX = "feedback:vote:"  # + channel + ":" + reply ts + ":" + user
VOTES = ("up", "down")
ATTEMPTS = 10
Vote = Literal["up", "down"]


@dataclass(frozen=True)
class FeedbackVote:
    channel: str
    ts: str  # the diagnosis reply voted on
    thread: str  # its thread's root
    user: str
    vote: str
    case: str  # the reply's case ("none" when no known case matched)
    at: float  # POSIX seconds of the vote


def cast(store: Store, entry: FeedbackVote) -> str | None:
    """Record `entry` (compare-and-set); the vote it replaced ("" for a first vote), None when it changed
    nothing (the same vote again: a retry, a double click)."""
    key = f"{PREFIX}{entry.channel}:{entry.ts}:{entry.user}"
    for _ in range(ATTEMPTS):
        current = store.get_doc(key)
        before = str(current.doc.get("vote", "")) if current is not None else ""
        if before == entry.vote:
            return None
        written = store.put_doc(key, asdict(entry), expect_version=current.version if current is not None else None)
        if written is not None:
            return before
    return None


def votes(store: Store) -> list[FeedbackVote]:
    """Every vote kept, oldest first."""
    found = []
    for _, versioned in store.scan_docs(PREFIX):
        doc = versioned.doc
        found.append(FeedbackVote(channel=str(doc.get("channel", "")), ts=str(doc.get("ts", "")),
                                  thread=str(doc.get("thread", "")), user=str(doc.get("user", "")),
                                  vote=str(doc.get("vote", "")), case=str(doc.get("case", "")),
                                  at=float(doc.get("at", 0.0))))
    return sorted(found, key=lambda v: (v.at, v.channel, v.ts, v.user))


def summary(entries: Iterable[FeedbackVote]) -> dict[str, dict[str, int]]:
    """Per case: how many 👍 and 👎."""
    out: dict[str, dict[str, int]] = {}
    for v in entries:
        out.setdefault(v.case, {"up": 0, "down": 0})[v.vote] = out.get(v.case, {}).get(v.vote, 0) + 1
    return dict(sorted(out.items()))


FIELDS = ("at", "case", "vote", "channel", "thread", "ts", "user")


def as_json(entries: list[FeedbackVote]) -> str:
    return json.dumps({"votes": [asdict(v) for v in entries], "by_case": summary(entries)}, indent=2,
                      ensure_ascii=False, sort_keys=True)


def as_csv(entries: list[FeedbackVote]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    for v in entries:
        writer.writerow({k: getattr(v, k) for k in FIELDS})
    return out.getvalue()
