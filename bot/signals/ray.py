"""Signals read from the Ray wrapper's markers (CONTRACT §1): where each pod stopped, and why."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from bot.scope.hits import EvidenceItem, Hit, age_text, log_at, log_item
from bot.scope.logtime import line_time
from bot.scope.logview import LogView
from bot.scope.markers import Markers
from bot.signals.base import SignalContext, main_exit, signal
from bot.signals.stages import INDEX, has_training_signal, reached_at

if TYPE_CHECKING:
    from bot.scope.target import PodCtx


def _main_views(ctx: PodCtx) -> list[LogView]:
    """Current then previous log of the workload container."""
    views = [v for v in ctx.logs if v.excerpt.source.container in ("main", "(unnamed)")]
    return sorted(views, key=lambda v: v.excerpt.source.previous)


def _ended_badly(ctx: PodCtx, view: LogView) -> bool:
    """The wrapper process is gone with a failure: previous instance, non-zero exit, or a failed pod."""
    if view.excerpt.source.previous:
        return True
    exit_info = main_exit(ctx)
    if exit_info is not None and exit_info[0] != 0:
        return True
    return ctx.phase == "Failed"


def _failure_hit(ctx: PodCtx, view: LogView, after: int, label: str, *, before: int | None = None) -> Hit:
    pos = view.first_error(after, before)
    items: list[EvidenceItem] = [log_item(view, after, prefix=f"{label}: ", context=False)]
    stage = reached_at(view.markers, after) + 1
    if pos is not None:
        items.append(log_item(view, pos, prefix="first error, "))
        stage = reached_at(view.markers, pos) + 1
    exit_info = main_exit(ctx)
    if exit_info is not None and exit_info[0] != 0:
        items.append(EvidenceItem(ctx.key + ":main", f"container exited with code {exit_info[0]} ({exit_info[1]})"))
    return Hit(items, pod=ctx.key, stage=stage, at=log_at(view, after if pos is None else pos),
               earlier_instance=view.excerpt.source.previous, concrete=pos is not None)


def _stopped_after(sc: SignalContext, last: Callable[[Markers], int | None],
                   later: Callable[[Markers], tuple[int | None, ...]], label: str,
                   *, consequence: Callable[[Markers], int | None] | None = None) -> list[Hit]:
    """Pods whose wrapper printed the `last` marker, none of the `later` ones, and then ended badly.

    `consequence` names a marker the wrapper prints *because* this step went wrong (no Ray CLI after a
    prepare script whose environment never activated): when an error line sits between `last` and it, the
    step failed first and the marker is its consequence, not a later stage reached."""
    hits: list[Hit] = []
    for ctx in sc.scope.pods:
        for view in _main_views(ctx):
            m = view.markers
            pos = last(m)
            after = consequence(m) if consequence is not None else None
            if pos is None or any(p is not None for p in later(m)):  # not its last marker: it went on
                continue
            # The wrapper's own failure marker proves the failure, even in a container kept alive after it.
            if after is None and not _ended_badly(ctx, view):
                continue
            if after is not None:
                if view.first_error(pos, after) is None:
                    continue
                hit = _failure_hit(ctx, view, pos, f"last marker {label}", before=after)
                hit.evidence.append(log_item(view, after, prefix="then, as a consequence, ", context=False))
                hits.append(hit)
                break
            hits.append(_failure_hit(ctx, view, pos, f"last marker {label}"))
            break
    return hits


@signal("ray.wrapper-stopped")
def wrapper_stopped(sc: SignalContext) -> list[Hit]:
    return _stopped_after(sc, lambda m: m.rank,
                          lambda m: (m.prepare, m.cli_missing, m.connecting, m.waiting, m.ready, m.run),
                          "RLINF_NODE_RANK")


@signal("ray.prepare-failed")
def prepare_failed(sc: SignalContext) -> list[Hit]:
    return _stopped_after(sc, lambda m: m.prepare, lambda m: (m.connecting, m.waiting, m.ready, m.run),
                          "'Executing prepare script...'", consequence=lambda m: m.cli_missing)


def wait_began(sc: SignalContext, ctx: PodCtx, view: LogView, pos: int) -> datetime | None:
    """When the wait printed at `pos` began: by the line's own time (or the nearest stamped line above it), else
    by when the container started. The runbook's `window:` says how long such a wait may last (young.py)."""
    began = line_time(view.text, pos, year=sc.now.year)
    if began is None and ctx.pod is not None and not view.excerpt.source.previous:
        status = ctx.pod.container_status(view.excerpt.source.container)
        running = status.state.running if status is not None else None
        began = running.started_at if running is not None else None
    return began


@signal("ray.waiting-for-nodes")
def waiting_for_nodes(sc: SignalContext) -> list[Hit]:
    hits: list[Hit] = []
    for ctx in sc.scope.pods:
        view = ctx.main_log
        if view is None:
            continue
        m = view.markers
        if m.waiting is None or m.expected_nodes is None:
            continue
        # Still waiting: a passed check is fine, and a failed one is its own case (rlark.ray.check-failed).
        if m.check_passed or m.check_failed is not None:
            continue
        if m.last_count is not None and m.last_count >= m.expected_nodes:
            continue
        if any(v.excerpt.source.previous and v.markers.run is not None for v in _main_views(ctx)):
            continue  # waiting again after a restart: the previous instance's failure is the story
        items = [log_item(view, m.waiting, context=False)]
        if m.last_count is not None:
            items.append(log_item(view, view.rfind("Current node count:"), context=False))
        stalled = _stalled(sc, ctx, view)
        if stalled:
            items.append(EvidenceItem(ctx.key, stalled))
        hits.append(Hit(items, pod=ctx.key, stage=INDEX["ray-cluster-forming"], concrete=False,
                        since=None if stalled else wait_began(sc, ctx, view, m.waiting),
                        window=_stated_deadline(view, m.waiting)))
    return hits


_REMAINING = re.compile(r"Time remaining: (\d+)\s*s\b")
_DEADLINE_LOOK = 8192  # the check prints its first "Time remaining" right after its first poll


def _stated_deadline(view: LogView, waiting: int) -> float | None:
    """The node check's own deadline, in seconds, when its log states it: the first "Time remaining: 900s"
    after "Waiting for N nodes" (the check's whole window, printed at its first poll)."""
    found = _REMAINING.search(view.text, waiting, waiting + _DEADLINE_LOOK)
    return float(found.group(1)) if found is not None and int(found.group(1)) > 0 else None


def _stalled(sc: SignalContext, head: PodCtx, view: LogView) -> str:
    """Why the Head's wait is stalled although its window is open ("" when it is not): the node count has not
    moved for the start window while every worker pod of the job is up (Running, its wrapper past the prepare
    script or its log not collected), so nothing the Head waits for is still on its way."""
    m = view.markers
    if m.last_count is None:
        return ""
    first_at = view.find(f"Current node count: {m.last_count}\n")
    moved = line_time(view.text, first_at, year=sc.now.year) if first_at >= 0 else None
    if moved is None or (sc.now - moved).total_seconds() < sc.thresholds.start_window_seconds:
        return ""
    workers = [c for c in sc.scope.pods if c is not head and c.task is not None and not c.is_head]
    if not workers or not all(_up(c) for c in workers):
        return ""
    return (f"node count {m.last_count} of {m.expected_nodes} unchanged for "
            f"{age_text((sc.now - moved).total_seconds())} while every worker pod is up: stalled, not starting")


def _up(ctx: PodCtx) -> bool:
    """A worker pod that is no longer on its way: Running with its workload started, past its prepare script."""
    if ctx.pod is None or ctx.pod.status.phase != "Running":
        return False
    status = ctx.pod.container_status("main")
    if status is None or status.state.running is None:
        return False
    log = ctx.main_log
    return log is None or not log.markers.any or log.markers.connecting is not None or log.markers.run is not None


@signal("ray.head-unreachable")
def head_unreachable(sc: SignalContext) -> list[Hit]:
    hits: list[Hit] = []
    for ctx in sc.scope.pods:
        view = ctx.main_log
        if view is None:
            continue
        m = view.markers
        if m.connecting is None or m.reachable is not None or m.wait_head_attempts == 0:
            continue
        items = [log_item(view, m.connecting, context=False)]
        if m.wait_head_last is not None:
            items.append(log_item(view, m.wait_head_last, prefix=f"{m.wait_head_attempts} attempts, last "))
        began = wait_began(sc, ctx, view, m.connecting)
        head_up = _head_up(sc)
        if head_up is not None and began is not None:
            began = max(began, head_up)
            if head_up == sc.now:
                items.append(EvidenceItem(ctx.key, "the Head has not started Ray yet (still in its prepare script)"))
        hits.append(Hit(items, pod=ctx.key, stage=INDEX["ray-cluster-forming"], concrete=False, since=began))
    return hits


def _head_up(sc: SignalContext) -> datetime | None:
    """From when a worker could reach the Head: when the Head started Ray (its "Waiting for N nodes", else its
    ready or run line), or `now` while a running Head is still before that, in its prepare script without an error
    (a worker's wait for a Head that is itself starting has not begun). None when the Head's log is not there."""
    for ctx in sc.scope.pods:
        view = ctx.main_log if ctx.is_head else None
        if view is None:
            continue
        m = view.markers
        up = next((p for p in (m.waiting, m.ready, m.run) if p is not None), None)
        if up is not None:
            return wait_began(sc, ctx, view, up)
        if ctx.phase == "Running" and m.any and m.cli_missing is None and view.first_error(m.rank or 0) is None:
            return sc.now
    return None


@signal("ray.multi-head")
def multi_head(sc: SignalContext) -> list[Hit]:
    runners: list[tuple[PodCtx, LogView]] = []
    for ctx in sc.scope.pods:
        view = next((v for v in _main_views(ctx) if v.markers.run is not None), None)
        if view is not None:
            runners.append((ctx, view))
    if len(runners) < 2:
        return []
    items = [log_item(v, v.markers.run or 0, prefix=f"{c.name}: ", context=False) for c, v in runners]
    return [Hit(items, stage=INDEX["run-script"])]


@signal("ray.run-script-failed")
def run_script_failed(sc: SignalContext) -> list[Hit]:
    hits: list[Hit] = []
    for ctx in sc.scope.pods:
        for view in _main_views(ctx):
            run = view.markers.run
            if run is None:
                continue
            # Once training printed progress, a later error is some other case, not a start-up failure.
            if has_training_signal(view, run):
                continue
            pos = view.first_error(run)
            if pos is None:
                continue
            hits.append(Hit([log_item(view, pos, prefix="first error after 'Executing run script...', ")],
                            pod=ctx.key, stage=INDEX["training-signal"], at=log_at(view, pos),
                            earlier_instance=view.excerpt.source.previous))
            break
    return hits

