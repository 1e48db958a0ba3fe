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
from bot.signals.base import WORKLOAD, SignalContext, running_since, signal
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
# Literals each step's pattern needs (lowercase): a line holding none of them is not searched.
WAIT_HINTS = ("wait", "acquir", "lock", " root", "等待", "获取锁")
LOAD_HINTS = ("load", "fetch", "pull", "clon", "initiali", "compil", "build", "emitting", "warming", "captur",
              "start", "正在", "加载", "下载")


@dataclass(frozen=True)
class Stall:
    view: LogView
    pos: int  # start of the last line
    step: str  # "wait" or "load"
    since: datetime
    stamped: bool  # the time is the line's own (else the container's start)
    seconds: float


def _step(view: LogView, line: str) -> str:
    """"wait", "load" or "" for a log's last line; kept with the view (three signals ask)."""
    if "hang-step" not in view.memo:
        low = line.lower()
        step = ("wait" if any(h in low for h in WAIT_HINTS) and WAIT_STEP.search(line) else
                "load" if any(h in low for h in LOAD_HINTS) and LOAD_STEP.search(line) else "")
        if step and (any(lit in line for lit in VIEW_LITERALS) or classify(line) is Kind.ERROR):
            step = ""  # the wrapper's waits have their own signals; an error line is its own case
        view.memo["hang-step"] = step
    found: str = view.memo["hang-step"]
    return found


def stall(ctx: PodCtx, view: LogView, *, now: datetime, limit: int) -> Stall | None:
    """The step a running container's current log stopped at, when it stopped longer ago than `limit` seconds."""
    if view.excerpt.source.previous:
        return None
    last = view.tail()
    if last is None:
        return None
    pos, line = last
    step = _step(view, line)
    if not step:
        return None  # the common case, answered from what the survey kept
    started = running_since(ctx, view.excerpt.source.container)
    if started is None:
        return None  # not running (ended, waiting) or no state known: not a hang
    stamp = line_time(view.text, pos, year=now.year)
    since = stamp if stamp is not None and stamp >= started else started
    seconds = (now - since).total_seconds()
    if seconds < limit:
        return None  # still within what the step may take: starting, not hung
    return Stall(view, pos, step, since, stamp is not None, seconds)


def step_of(view: LogView) -> str:
    """"wait", "load" or "" for where a log stopped (asked during the survey, while the text is at hand)."""
    if "hang-step" not in view.memo:
        last = view.tail()
        view.memo["hang-step"] = "" if last is None else _step(view, last[1])
    found: str = view.memo["hang-step"]
    return found


def _stalls(sc: SignalContext) -> list[tuple[PodCtx, Stall]]:
    found: list[tuple[PodCtx, Stall]] = []
    for ctx in sc.scope.pods:
        for view in ctx.logs:
            if view.memo.get("hang-step") == "":
                continue  # surveyed: the log did not stop at a step (the common case)
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


WAIT_SIGNAL, LOAD_SIGNAL, RUN_SIGNAL = "run.lock-wait-stalled", "run.output-stalled", "run.script-stalled"


def _sorted_out(sc: SignalContext) -> dict[str, list[Hit]]:
    """Each stall under the one signal it belongs to; one pass over the logs answers all three signals (the
    answers are left in the signal cache, so the engine does not ask again)."""
    out: dict[str, list[Hit]] = {WAIT_SIGNAL: [], LOAD_SIGNAL: [], RUN_SIGNAL: []}
    for ctx, s in _stalls(sc):
        in_run = s.view.excerpt.source.container in WORKLOAD and s.view.markers.run is not None
        if s.step == "wait":
            out[WAIT_SIGNAL].append(_hit(ctx, s))
        elif not in_run:
            out[LOAD_SIGNAL].append(_hit(ctx, s))
        elif _after_run_script(s.view, s.pos):
            hit = _hit(ctx, s)
            hit.stage = INDEX["training-signal"]
            out[RUN_SIGNAL].append(hit)
    for name, hits in out.items():
        sc.cache.setdefault(name, hits)
    return out


@signal(WAIT_SIGNAL)
def lock_wait_stalled(sc: SignalContext) -> list[Hit]:
    """The log stopped at a wait (a lock, another process, "using ... as ... root") long ago."""
    return _sorted_out(sc)[WAIT_SIGNAL]


@signal(LOAD_SIGNAL)
def output_stalled(sc: SignalContext) -> list[Hit]:
    """Outside an RLark run script: the log stopped at a load, download or start-up step long ago."""
    return _sorted_out(sc)[LOAD_SIGNAL]


@signal(RUN_SIGNAL)
def run_script_stalled(sc: SignalContext) -> list[Hit]:
    """In an RLark run script, before any training signal: the log stopped at a load or start-up step."""
    return _sorted_out(sc)[RUN_SIGNAL]
