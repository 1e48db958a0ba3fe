"""Hangs without a named culprit: a running container whose log stopped at a step that should have ended.

A process stuck on a leftover lock rarely prints the lock's path, and an engine that deadlocked prints no stack:
the log just stops. What the log does say is the step it stopped at - its last line waits ("waiting for ...",
"Using /root/.cache/torch_extensions as PyTorch extensions root..."), or loads, downloads or initialises - and
when. When that line is far older than such a step takes (`Thresholds.log_stall_seconds`), measured from the
time stamped on it (or, with no stamps, from when the container started) to `now`, the container is hung there.
A container that ended, a log whose last line is an error, and the Ray wrapper's own waits (which have signals
of their own) are not hangs here; a step younger than the threshold is still starting.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from bot.scope.hits import EvidenceItem, Hit, age_text, log_at, log_item
from bot.scope.lineclass import Kind, classify
from bot.scope.logtime import line_time
from bot.scope.logview import VIEW_LITERALS, LogView
from bot.signals.base import SignalContext, signal
from bot.signals.stages import INDEX, has_training_signal, reached_at

if TYPE_CHECKING:
    from bot.scope.target import PodCtx

WAIT_STEP = re.compile(
    r"(?i)\bwaiting (?:for|on|to|until)\b|\bwait(?:ing)? for (?:the )?(?:file )?lock\b|\bacquir(?:e|ing) (?:the )?"
    r"(?:file )?lock\b|\block\b[^\n]*\b(?:held|busy|not acquired)\b|\busing \S+ as \S*(?: \S+){0,2} root\b|"
    r"等待|获取锁"
)
LOAD_STEP = re.compile(
    r"(?i)\b(?:downloading|loading|fetching|pulling|cloning|initiali[sz]ing|compiling|building (?:extension|wheel)|"
    r"emitting ninja|warming up|capturing (?:cuda )?graphs?|starting (?:the )?(?:engine|server|workers?))\b|"
    r"正在(?:下载|加载|初始化|编译)|加载中|下载中"
)
WORKLOAD = ("main", "(unnamed)")


@dataclass(frozen=True)
class Stall:
    view: LogView
    pos: int  # start of the last line
    step: str  # "wait" or "load"
    since: datetime
    stamped: bool  # the time is the line's own (else the container's start)
    seconds: float


def _running_since(ctx: PodCtx, container: str) -> datetime | None:
    if ctx.pod is None:
        return None
    for status, _init in ctx.pod.all_statuses():
        if status.name == container:
            running = status.state.running
            return None if running is None else (running.started_at or ctx.pod.status.start_time)
    return None


def stall(ctx: PodCtx, view: LogView, *, now: datetime, limit: int) -> Stall | None:
    """The step a running container's current log stopped at, when it stopped longer ago than `limit` seconds."""
    if view.excerpt.source.previous:
        return None
    started = _running_since(ctx, view.excerpt.source.container)
    if started is None:
        return None  # not running (ended, waiting) or no state known: not a hang
    last = view.tail()
    if last is None:
        return None
    pos, line = last
    step = "wait" if WAIT_STEP.search(line) else "load" if LOAD_STEP.search(line) else ""
    if not step or any(lit in line for lit in VIEW_LITERALS) or classify(line) is Kind.ERROR:
        return None  # the wrapper's waits have their own signals; an error line is its own case
    stamp = line_time(view.text, pos, year=now.year)
    since = stamp if stamp is not None and stamp >= started else started
    seconds = (now - since).total_seconds()
    if seconds < limit:
        return None  # still within what the step may take: starting, not hung
    return Stall(view, pos, step, since, stamp is not None, seconds)


def _stalls(sc: SignalContext) -> list[tuple[PodCtx, Stall]]:
    found: list[tuple[PodCtx, Stall]] = []
    for ctx in sc.scope.pods:
        for view in ctx.logs:
            got = stall(ctx, view, now=sc.now, limit=sc.thresholds.log_stall_seconds)
            if got is not None:
                found.append((ctx, got))
    return found


def _hit(ctx: PodCtx, s: Stall) -> Hit:
    view = s.view
    how = "stamped on the line" if s.stamped else "since the container started; the line has no time stamp"
    items = [log_item(view, s.pos, prefix="the log stops here: "),
             EvidenceItem(ctx.key + ":" + view.excerpt.source.container,
                          f"no output for {age_text(s.seconds)} ({how}), the container still running")]
    stage = reached_at(view.markers, s.pos) + 1 if view.markers.any else None
    return Hit(items, pod=ctx.key, stage=stage, when=s.since, at=log_at(view, s.pos))


def _after_run_script(view: LogView, pos: int) -> bool:
    run = view.markers.run
    return run is not None and run <= pos and not has_training_signal(view, run)


@signal("run.lock-wait-stalled")
def lock_wait_stalled(sc: SignalContext) -> list[Hit]:
    """The log stopped at a wait (a lock, another process, "using ... as ... root") long ago."""
    return [_hit(ctx, s) for ctx, s in _stalls(sc) if s.step == "wait"]


@signal("run.output-stalled")
def output_stalled(sc: SignalContext) -> list[Hit]:
    """Outside an RLark run script: the log stopped at a load, download or start-up step long ago."""
    return [_hit(ctx, s) for ctx, s in _stalls(sc) if s.step == "load"
            and not (s.view.excerpt.source.container in WORKLOAD and s.view.markers.run is not None)]


@signal("run.script-stalled")
def run_script_stalled(sc: SignalContext) -> list[Hit]:
    """In an RLark run script, before any training signal: the log stopped at a load or start-up step."""
    hits = []
    for ctx, s in _stalls(sc):
        if s.step == "load" and s.view.excerpt.source.container in WORKLOAD and _after_run_script(s.view, s.pos):
            hit = _hit(ctx, s)
            hit.stage = INDEX["training-signal"]
            hits.append(hit)
    return hits
