"""Which pods can match a trigger at all, known before the case loop: it then visits only those."""

from __future__ import annotations

from bot.diagnose.logscan import LogMatcher
from bot.runbook.schema import Trigger
from bot.scope.target import PodCtx


class Narrow:
    """Which pods can match a trigger at all, from one pass over the prefilter's candidates and the events: the
    case loop then visits only those, not every pod for every condition."""

    def __init__(self, pods: list[PodCtx], candidates: dict[int, dict[str, int]], matcher: LogMatcher) -> None:
        self.matcher = matcher
        self.with_candidate: dict[str, set[str]] = {}
        self.with_event: dict[tuple[str, str], set[str]] = {}  # (involved kind, reason) -> pods
        self.with_reason: dict[str, set[str]] = {}  # a container state's reason ("" when running) -> pods
        for ctx in pods:
            key = ctx.key
            for view in ctx.logs:
                for pattern in candidates.get(id(view), {}):
                    self.with_candidate.setdefault(pattern, set()).add(key)
            # A pod's events repeat a few (kind, reason) pairs: each pair once per pod.
            for pair in {(ev.involved_object.kind, ev.reason) for ev in ctx.events}:
                self.with_event.setdefault(pair, set()).add(key)
            for reason in _state_reasons(ctx):
                self.with_reason.setdefault(reason, set()).add(key)

    def pods(self, trigger: Trigger, pods: list[PodCtx]) -> list[PodCtx]:
        if trigger.log is not None and self.matcher.covers(trigger.log):
            keys = self.with_candidate.get(trigger.log.pattern.pattern, set())
            pods = [c for c in pods if c.key in keys]
        if trigger.event is not None:
            cond = trigger.event
            keys = set().union(*(k for (kind, reason), k in self.with_event.items()
                                 if kind == cond.kind and cond.reason.search(reason)))
            pods = [c for c in pods if c.key in keys]
        if trigger.container is not None and trigger.container.reason is not None:
            pattern = trigger.container.reason
            keys = set().union(*(k for reason, k in self.with_reason.items() if pattern.search(reason)))
            pods = [c for c in pods if c.key in keys]
        return pods


def _state_reasons(ctx: PodCtx) -> set[str]:
    """Reasons of every container state of the pod, current and last, as `match_container` reads them."""
    out: set[str] = set()
    if ctx.pod is None:
        return out
    for status, _ in ctx.pod.all_statuses():
        for state in (status.state, status.last_state):
            if state.terminated is not None:
                out.add(state.terminated.reason)
            elif state.waiting is not None:
                out.add(state.waiting.reason)
            elif state.running is not None:
                out.add("")
    return out
