"""What every read retries the same way: which statuses, how long to wait, how to word the failure."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.cluster.budget import Deadline, Stats

RETRYABLE = frozenset({429, 500, 502, 503, 504})
MAX_BACKOFF_SECONDS = 5.0


def reason(exc: BaseException) -> str:
    """One short line for a transport error (for a problem line, never a traceback)."""
    text = " ".join(str(getattr(exc, "reason", None) or exc).split())
    return (text[:160] + "...") if len(text) > 160 else (text or type(exc).__name__)


def retry_after(value: str | None) -> float | None:
    """The server's Retry-After in seconds, capped so one answer cannot stall the whole collection."""
    try:
        return min(MAX_BACKOFF_SECONDS, max(0.0, float(value))) if value is not None else None
    except ValueError:
        return None


def pause(attempt: int, *, asked: float | None, deadline: Deadline, stats: Stats,
          sleep: Callable[[float], None]) -> bool:
    """Wait before the next attempt (the server's wish, else jittered exponential backoff).
    False when the overall deadline leaves no time for another attempt."""
    delay = asked if asked is not None else min(MAX_BACKOFF_SECONDS, 0.1 * 2 ** attempt) * (0.5 + random.random())
    if delay >= deadline.remaining():
        return False
    stats.retried()
    sleep(delay)
    return True
