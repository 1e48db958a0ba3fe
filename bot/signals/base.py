"""What a signal returns, and the context it reads."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from bot.redact import Scan
from bot.scope.hits import Hit
from bot.settings import Thresholds

if TYPE_CHECKING:
    from bot.scope.target import PodCtx, Scope

@dataclass
class SignalContext:
    scope: Scope
    now: datetime
    thresholds: Thresholds
    scan: Scan  # the redactor's credential scan (never a module-level default)
    cache: dict[str, list[Hit]] = field(default_factory=dict)


Signal = Callable[[SignalContext], list[Hit]]
REGISTRY: dict[str, Signal] = {}


def signal(name: str) -> Callable[[Signal], Signal]:
    def register(fn: Signal) -> Signal:
        REGISTRY[name] = fn
        return fn

    return register


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


WORKLOAD = ("main", "(unnamed)")  # the workload's container: RLark's `main`, or a log without container names


def running_since(ctx: PodCtx, container: str) -> datetime | None:
    """When `container` of the pod started running, None when it is not running (ended, waiting, unknown)."""
    if ctx.pod is None:
        return None
    for status, _init in ctx.pod.all_statuses():
        if status.name == container:
            running = status.state.running
            return None if running is None else (running.started_at or ctx.pod.status.start_time)
    return None


def failed(ctx: PodCtx) -> bool:
    """Whether the pod shows a failure of its own: Failed, a container that ended non-zero (now or last time), a
    restart, or a waiting reason that is not the ordinary way of starting."""
    pod = ctx.pod
    if pod is None:
        return False
    if pod.status.phase == "Failed":
        return True
    for statuses in (pod.status.init_container_statuses, pod.status.container_statuses):
        for s in statuses:
            if s.restart_count > 0:
                return True
            for state in (s.state, s.last_state):
                if state.terminated is not None and state.terminated.exit_code != 0:
                    return True
            waiting = s.state.waiting
            if waiting is not None and waiting.reason not in ("", "ContainerCreating", "PodInitializing"):
                return True
    return False
