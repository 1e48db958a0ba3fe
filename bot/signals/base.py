"""What a signal returns, and the context it reads."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from bot.redact import Detection
from bot.settings import Thresholds

if TYPE_CHECKING:
    from bot.diagnose.scope import PodCtx, Scope
    from bot.signals.markers import LogView

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


@dataclass(frozen=True)
class LogAt:
    """Where a hit's decisive line sits: one container's log (current or previous instance) and an offset."""

    pod: str
    container: str
    previous: bool
    offset: int  # where the line starts


@dataclass
class SignalContext:
    scope: Scope
    now: datetime
    thresholds: Thresholds
    scan: Callable[[str], list[Detection]]  # the redactor's credential scan (never a module-level default)
    cache: dict[str, list[Hit]] = field(default_factory=dict)


Signal = Callable[[SignalContext], list[Hit]]
REGISTRY: dict[str, Signal] = {}


def signal(name: str) -> Callable[[Signal], Signal]:
    def register(fn: Signal) -> Signal:
        REGISTRY[name] = fn
        return fn

    return register


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


def main_exit(ctx: PodCtx) -> tuple[int, str] | None:
    """(exit code, reason) of the workload container's latest termination, current state first."""
    if ctx.pod is None:
        return None
    name = "main" if ctx.pod.container_status("main") is not None else None
    for status, init in ctx.pod.all_statuses():
        if init or (name is not None and status.name != name):
            continue
        for state in (status.state, status.last_state):
            if state.terminated is not None:
                return state.terminated.exit_code, state.terminated.reason
    return None
