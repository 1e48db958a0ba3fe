"""Evaluate runbook triggers against one pod's evidence."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from bot.diagnose.logscan import LogMatcher
from bot.models import ContainerState
from bot.models.k8s import Event
from bot.runbook.schema import ContainerCond, EventCond, LogCond, PodCond, Trigger
from bot.scope.hits import EvidenceItem, Hit, LogAt, clip, log_at, log_item
from bot.scope.logview import starts_as_note
from bot.scope.target import PodCtx
from bot.signals.stages import INDEX, pod_stage, reached_at

LAST = len(INDEX) - 1


@lru_cache(maxsize=4096)
def _found(pattern: re.Pattern[str], text: str) -> bool:
    """`pattern.search(text)`, once per pair: a thousand pods repeat the same few reasons and container names."""
    return pattern.search(text) is not None


@dataclass(frozen=True)
class _State:
    kind: str
    reason: str
    message: str
    exit_code: int | None


def _describe(state: ContainerState) -> _State | None:
    if state.terminated is not None:
        t = state.terminated
        return _State("terminated", t.reason, t.message, t.exit_code)
    if state.waiting is not None:
        return _State("waiting", state.waiting.reason, state.waiting.message, None)
    if state.running is not None:
        return _State("running", "", "", None)
    return None


def _state_ok(cond: ContainerCond, st: _State) -> bool:
    if cond.state is not None and st.kind != cond.state:
        return False
    if cond.reason is not None and not cond.reason.search(st.reason):
        return False
    if cond.message is not None and not cond.message.search(st.message):
        return False
    if cond.exit_codes is not None and st.exit_code not in cond.exit_codes:
        return False
    return cond.nonzero_exit is None or (st.exit_code is not None and (st.exit_code != 0) == cond.nonzero_exit)


PLAIN_ENDINGS = ("", "Error", "Completed")  # how any instance ends; any other reason is the kubelet's verdict


@dataclass(frozen=True)
class _StateHit:
    item: EvidenceItem
    earlier: bool  # the last (earlier) state, not the current one
    ended: datetime | None  # when the terminated instance finished
    verdict: bool  # terminated with a reason of its own (OOMKilled, ...): a fact no reading of a log discards


def match_container(cond: ContainerCond, ctx: PodCtx) -> _StateHit | None:
    """The first container state that meets `cond`."""
    if ctx.pod is None:
        return None
    for status, init in ctx.pod.all_statuses():
        if cond.init is not None and cond.init != init:
            continue
        if cond.name is not None and not _found(cond.name, status.name):
            continue
        if cond.min_restarts is not None and status.restart_count < cond.min_restarts:
            continue
        for label, state in (("", status.state), ("last state ", status.last_state)):
            st = _describe(state)
            if st is None or not _state_ok(cond, st):
                continue
            parts = [f"{label}{st.kind}", st.reason]
            if st.exit_code is not None:
                parts.append(f"exit code {st.exit_code}")
            if status.restart_count:
                parts.append(f"{status.restart_count} restarts")
            text = ", ".join(p for p in parts if p) + (f": {clip(st.message)}" if st.message else "")
            ended = state.terminated.finished_at if state.terminated is not None else None
            verdict = st.kind == "terminated" and st.reason not in PLAIN_ENDINGS
            return _StateHit(EvidenceItem(f"{ctx.key}:{status.name}", text), bool(label), ended, verdict)
    return None


def match_pod(cond: PodCond, ctx: PodCtx) -> EvidenceItem | None:
    if ctx.pod is not None:
        phase, reason, message = ctx.pod.status.phase, ctx.pod.status.reason, ctx.pod.status.message
    elif ctx.mirror is not None:
        phase, reason, message = ctx.mirror.status.phase, "", ctx.mirror.status.message
    else:
        return None
    if cond.phase is not None and not cond.phase.search(phase):
        return None
    if cond.reason is not None and not cond.reason.search(reason):
        return None
    if cond.message is not None and not cond.message.search(message):
        return None
    detail = ", ".join(p for p in (phase, reason) if p) + (f": {clip(message)}" if message else "")
    return EvidenceItem(ctx.key, f"pod {detail}")


@dataclass(frozen=True)
class _EventHit:
    item: EvidenceItem
    when: datetime | None
    earlier: bool  # about an earlier instance of the pod (another UID): its history, not its present
    uid: str


def _instance_of(ev: Event, ctx: PodCtx) -> tuple[bool, bool]:
    """(belongs to this pod's story, is about an earlier instance). An event belongs to one object instance and
    one moment: an event about the node from before this pod existed says nothing about the pod (the node was
    NotReady, then recovered, then the pod came); an event about the pod's name with another UID is about the
    instance this one replaced (evicted and recreated): its history, kept, and marked as earlier."""
    pod = ctx.pod
    if pod is None:
        return True, False
    io = ev.involved_object
    if io.kind == "Node":
        created = pod.metadata.creation_timestamp
        last = ev.last_timestamp or ev.event_time or ev.when
        return created is None or last is None or last >= created, False
    uid = pod.metadata.uid
    return True, io.kind == "Pod" and bool(uid and io.uid and io.uid != uid)


_PULL_FAILED = re.compile(r'(?i)(?:Failed to pull image|Back-off pulling image) "([^"]+)"')
_PULLED = re.compile(r'(?i)(?:Successfully pulled image|Container image) "([^"]+)"')
_PULL_ERROR = re.compile(r"ErrImagePull|ImagePullBackOff")


def _settled(ev: Event, ctx: PodCtx) -> bool:
    """Whether a later state of the same pod instance shows that the step this event reports as failing went
    through after all: a pod the scheduler placed is no longer unschedulable (a node came up, another pod left),
    an image pulled (a Pulled event after the failure, or a container of that image started) is no longer failing
    to pull. A retry that succeeded is not a failure; the event stays in the pod's history, not in its diagnosis."""
    pod = ctx.pod
    io = ev.involved_object
    if pod is None or io.kind != "Pod" or io.name != pod.metadata.name:
        return False
    if ev.reason == "FailedScheduling":
        cond = pod.condition("PodScheduled")
        return bool(pod.spec.node_name) and (cond is None or cond.status == "True")
    failed = _PULL_FAILED.search(ev.message)
    if failed is None and not _PULL_ERROR.search(ev.message):
        return False
    if any(st.state.waiting is not None and _PULL_ERROR.search(st.state.waiting.reason)
           for st, _ in pod.all_statuses()):
        return False  # a container still waits on a pull: the failure is the present
    image, last = (failed.group(1) if failed else None), ev.last_timestamp or ev.when
    for later in ctx.events:
        pulled = _PULLED.search(later.message) if later.reason == "Pulled" else None
        at = later.last_timestamp or later.when
        if pulled and (image is None or pulled.group(1) == image) and later.involved_object.name == io.name and (
                last is None or (at is not None and at >= last)):
            return True
    return image is not None and any(st.image == image and (st.state.running or st.state.terminated)
                                     for st, _ in pod.all_statuses())


def match_event(cond: EventCond, ctx: PodCtx) -> _EventHit | None:
    for ev in ctx.events:  # already in time order (scope)
        if ev.involved_object.kind != cond.kind or not _found(cond.reason, ev.reason):
            continue
        if cond.type is not None and ev.type != cond.type:
            continue
        if cond.message is not None and not cond.message.search(ev.message):
            continue
        belongs, earlier = _instance_of(ev, ctx)
        if not belongs or (not earlier and _settled(ev, ctx)):
            continue
        count = f" (x{ev.count})" if ev.count and ev.count > 1 else ""
        about = f" [earlier instance {ev.involved_object.uid}]" if earlier else ""
        return _EventHit(EvidenceItem(ev.ref(), f"{ev.type or 'Event'} {ev.reason}{count}{about}: {clip(ev.message)}"),
                         ev.when, earlier, ev.involved_object.uid)
    return None


@dataclass(frozen=True)
class _LogHit:
    item: EvidenceItem
    stage: int | None
    at: LogAt
    concrete: bool  # a warning or info line is a symptom to report, not a cause that explains others


def match_log(cond: LogCond, ctx: PodCtx, *, matcher: LogMatcher,
              candidates: dict[int, dict[str, int]]) -> _LogHit | None:
    for view in ctx.logs:
        found = candidates.get(id(view), {})
        if matcher.skips(cond, found):
            continue
        if cond.container is not None and not cond.container.search(view.excerpt.source.container):
            continue
        pos = matcher.first_match(cond, view, candidates=found)
        if pos is None:
            continue
        stage = reached_at(view.markers, pos) + 1 if view.markers.any else None
        item = log_item(view, pos)
        return _LogHit(item, stage, log_at(view, pos), not starts_as_note(view.line_at(pos).text))
    return None


def match_trigger(trigger: Trigger, ctx: PodCtx, *, matcher: LogMatcher,
                  candidates: dict[int, dict[str, int]]) -> Hit | None:
    items: list[EvidenceItem] = []
    stage: int | None = None
    earlier = False
    at: LogAt | None = None
    concrete = True
    when: datetime | None = None
    verdict = False
    instance = ctx.pod.metadata.uid if ctx.pod is not None else (ctx.mirror.metadata.uid if ctx.mirror else "")
    if trigger.container is not None:
        got = match_container(trigger.container, ctx)
        if got is None:
            return None
        items.append(got.item)
        earlier, when, verdict = got.earlier, got.ended, got.verdict
    if trigger.pod is not None:
        item = match_pod(trigger.pod, ctx)
        if item is None:
            return None
        items.append(item)
    found_event: _EventHit | None = None
    if trigger.event is not None:
        found_event = match_event(trigger.event, ctx)
        if found_event is None:
            return None
        items.append(found_event.item)
        when = found_event.when or when
        earlier = earlier or found_event.earlier
        instance = found_event.uid if found_event.earlier else instance
    if trigger.log is not None:
        found = match_log(trigger.log, ctx, matcher=matcher, candidates=candidates)
        if found is None:
            return None
        items.append(found.item)
        stage, at, concrete = found.stage, found.at, found.concrete
        earlier = earlier or found.at.previous
    if stage is None and trigger.log is None and ctx.main_log is not None and ctx.main_log.markers.any:
        reached = pod_stage(ctx)
        stage = None if reached is None else min(reached + 1, LAST)
    # A log line's own time is read later (engine._refine): it places the hit more precisely than a state or event.
    # A windowed trigger's wait began when its event was first seen (young.py decides whether it still runs).
    since = found_event.when if trigger.window is not None and found_event is not None else None
    return Hit(items, pod=ctx.key, stage=stage, earlier_instance=earlier, at=at,
               concrete=concrete and not trigger.waits, when=None if at is not None else when,
               state=verdict, instance=instance, since=since)
