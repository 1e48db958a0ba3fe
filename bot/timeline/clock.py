"""Times, durations and counts as the timeline prints them: UTC, short, the date only when the picture spans days."""

from __future__ import annotations

from datetime import datetime, timedelta


def span_days(start: datetime, end: datetime) -> bool:
    return start.date() != end.date()


def at(t: datetime, *, days: bool) -> str:
    return t.strftime("%m-%d %H:%M:%S") if days else t.strftime("%H:%M:%S")


def tick(t: datetime, *, days: bool) -> str:
    return t.strftime("%m-%d %H:%M") if days else t.strftime("%H:%M")


def counted(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def duration(d: timedelta) -> str:
    seconds = int(d.total_seconds())
    if seconds < 60:
        return f"{seconds}s"
    minutes, s = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{s:02d}s" if s else f"{minutes}m"
    hours, m = divmod(minutes, 60)
    if hours < 48:
        return f"{hours}h{m:02d}m" if m else f"{hours}h"
    return f"{hours // 24}d{hours % 24:02d}h"


def ticks(start: datetime, end: datetime, *, count: int) -> list[datetime]:
    """About `count` round instants between start and end (every 1, 2, 5, 10, 15, 30 min, 1, 2, 3, 6, 12 h, 1 d)."""
    total = (end - start).total_seconds()
    if total <= 0:
        return [start]
    steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400]
    step = next((s for s in steps if total / s <= count), 86400 * max(1, int(total / 86400 / count) + 1))
    first = datetime.fromtimestamp((int(start.timestamp()) // step + 1) * step, tz=start.tzinfo)
    out = []
    t = first
    while t <= end:
        out.append(t)
        t += timedelta(seconds=step)
    return out
