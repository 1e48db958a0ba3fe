"""What the engine points at: evidence items, a hit of a case's condition, where its log line sits."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.scope.logview import LogView

MAX_TEXT = 400


def clip(text: str, limit: int = MAX_TEXT) -> str:
    """Shorten for display without ever cutting a token in half: a cut token could be half a secret
    that the redactor no longer recognises, so the cut backs off to whitespace."""
    text = text.strip()
    if len(text) <= limit:
        return text
    cut = text[:limit]
    if not text[limit].isspace():
        space = max(cut.rfind(" "), cut.rfind("\t"))
        cut = cut[:space] if space > 0 else ""
    return (cut.rstrip() + " …") if cut else "[long value omitted]"


@dataclass(frozen=True)
class EvidenceItem:
    source: str
    text: str
    context: tuple[str, ...] = ()
    withheld: str = ""  # the kind of a credential this item points at without showing it


@dataclass
class Hit:
    """One occurrence of a case's condition. `pod` is the PodCtx key when the hit concerns one pod."""

    evidence: list[EvidenceItem]
    pod: str | None = None
    stage: int | None = None
    when: datetime | None = None
    earlier_instance: bool = False  # seen in a container's previous instance: it happened before the current one
    at: LogAt | None = None  # the decisive log line, for "which came first" within one container
    concrete: bool = True  # False for waits and retries (the Head waiting for nodes): symptoms, never causes
    state: bool = False  # a container terminated with a reason of its own (OOMKilled): the kubelet's verdict
    starting: bool = False  # a wait whose window has not expired: a failure only as another failure's consequence
    since: datetime | None = None  # when the wait this hit shows began (its window opens then: young.py)
    window: float | None = None  # seconds that wait may last while a job starts (the runbook trigger's window)
    instance: str = ""  # the UID of the object instance the fact is about (a replaced pod's events: the old one)


@dataclass(frozen=True)
class LogAt:
    """Where a hit's decisive line sits: one container's log (current or previous instance) and an offset."""

    pod: str
    container: str
    previous: bool
    offset: int  # where the line starts


def log_at(view: LogView, pos: int) -> LogAt:
    """The line holding `pos` (its start: two cases matching one line are one moment, neither came first)."""
    s = view.excerpt.source
    return LogAt(f"{s.cluster}/{s.namespace}/{s.pod}", s.container, s.previous, view.text.rfind("\n", 0, pos) + 1)


def log_item(view: LogView, pos: int, *, prefix: str = "", context: bool = True) -> EvidenceItem:
    line = view.line_at(pos)
    ctx = tuple(f"{ln.number:>6}  {clip(ln.text, 300)}" for ln in view.context(pos)) if context else ()
    return EvidenceItem(source=view.excerpt.source.ref(), text=f"{prefix}line {line.number}: {clip(line.text)}",
                        context=ctx)


def age_text(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 120:
        return f"{seconds}s"
    if seconds < 7200:
        return f"{seconds // 60}m"
    if seconds < 172800:
        return f"{seconds // 3600}h{(seconds % 3600) // 60:02d}m"
    return f"{seconds // 86400}d"
