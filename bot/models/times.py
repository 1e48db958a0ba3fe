"""How the bot writes a point in time, in one place: RFC 3339 in UTC to the second everywhere (reports, JSON,
tickets, replies, logs of checks), and to the minute in alert threads, which people read at a glance."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Final

RFC3339: Final = "%Y-%m-%dT%H:%M:%SZ"
MINUTE: Final = "%Y-%m-%d %H:%M UTC"


def rfc3339(at: datetime) -> str:
    """`2026-11-20T08:00:00Z` (the time as given: the bot's times are UTC already)."""
    return at.strftime(RFC3339)


def from_seconds(stamp: float) -> datetime:
    """POSIX seconds as an aware UTC datetime."""
    return datetime.fromtimestamp(stamp, UTC)
