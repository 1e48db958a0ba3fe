"""Gather the facts an admin ticket asks for, and the first error when no case explains it."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from bot.diagnose.result import Facts, FirstError, PodFact, TaskFact
from bot.scope.hits import clip
from bot.scope.logtime import line_time
from bot.scope.logview import BENIGN, ERROR_LINE, LogView
from bot.scope.target import PodCtx, Scope

RETRIED = re.compile(r"(?i)\bwill retry\b|\bretrying\b")
MAX_RETRIED_LOOKS = 200  # error-looking lines examined per log for a retried failure


def gather_facts(scope: Scope) -> Facts:
    facts = Facts()
    job = scope.job
    if job is not None:
        facts.job_phase = job.status.phase
        facts.started, facts.ended, facts.stopped = job.status.start_time, job.status.end_time, job.spec.stopped
    for t in scope.tasks:
        sel = ", ".join(f"{k}={v}" for k, v in (t.spec.node_selector or {}).items())
        facts.tasks.append(TaskFact(name=t.name, role="head" if t.is_head else (t.spec.role or "worker"),
                                    cluster=t.agent_id or "(unrouted)", phase=t.status.phase,
                                    message=t.status.message, replicas=t.spec.replicas, node_selector=sel))
    for ctx in scope.pods:
        facts.pods.append(_pod_fact(ctx))
    facts.clusters = sorted({p.cluster for p in facts.pods if p.cluster} | {t.cluster for t in facts.tasks})
    facts.nodes = sorted({p.node for p in facts.pods if p.node})
    facts.images = sorted({p.image for p in facts.pods if p.image})
    facts.storage_classes = sorted({c.spec.storage_class_name for ctx in scope.pods for c in ctx.pvcs
                                    if c.spec.storage_class_name})
    return facts


def _pod_fact(ctx: PodCtx) -> PodFact:
    pod, mirror = ctx.pod, ctx.mirror
    image, message, restarts = "", "", 0
    if pod is not None:
        main = next((c for c in pod.spec.containers if c.name == "main"), None) or (
            pod.spec.containers[0] if pod.spec.containers else None)
        image = main.image if main else ""
        restarts = max((s.restart_count for s, _ in pod.all_statuses()), default=0)
        message = pod.status.message or next(
            (f"{s.name}: {s.state.waiting.reason} {s.state.waiting.message}".strip()
             for s, _ in pod.all_statuses() if s.state.waiting is not None and s.state.waiting.reason), "")
    if not message and mirror is not None:
        message = mirror.status.message
    return PodFact(
        name=ctx.name, cluster=ctx.cluster, task=ctx.task.name if ctx.task else "",
        role="head" if ctx.is_head else ("worker" if ctx.task else ""),
        phase=ctx.phase, node=(pod.spec.node_name if pod else "") or (mirror.status.node if mirror else ""),
        ip=(pod.status.pod_ip if pod else "") or (mirror.status.ip if mirror else ""),
        image=image, message=clip(message, 300), restarts=restarts)


def _failing(ctx: PodCtx) -> bool:
    pod = ctx.pod
    if pod is None:
        return ctx.phase in ("Failed", "Pending")
    if pod.status.phase in ("Failed", "Pending"):
        return True
    for status, _ in pod.all_statuses():
        for state in (status.state, status.last_state):
            if state.terminated is not None and state.terminated.exit_code != 0:
                return True
            if state.waiting is not None and state.waiting.reason not in ("", "ContainerCreating", "PodInitializing"):
                return True
    return False


def _log_error(view: LogView) -> FirstError | None:
    pos = view.first_error()
    return None if pos is None else _line_error(view, pos)


def _line_error(view: LogView, pos: int) -> FirstError:
    line = view.line_at(pos)
    ctx = tuple(f"{ln.number:>6}  {clip(ln.text, 300)}" for ln in view.context(pos))
    return FirstError(view.excerpt.source.ref(), line.number, clip(line.text), ctx)


def first_error(scope: Scope) -> FirstError | None:
    """The first error of the pod that failed first: its log, else its warning events, else its status."""
    ordered = sorted(scope.pods, key=lambda c: (not _failing(c), not c.is_head))
    for ctx in ordered:
        views = sorted(ctx.logs, key=lambda v: (not v.excerpt.source.previous, v.excerpt.source.container != "main"))
        for view in views:
            found = _log_error(view)
            if found is not None:
                return found
    warnings = sorted((e for c in ordered for e in c.events if e.type == "Warning"),
                      key=lambda e: (e.when is None, e.when))
    warnings += [e for e in scope.events if e.type == "Warning"]
    if warnings:
        e = warnings[0]
        return FirstError(e.ref(), None, clip(f"{e.reason}: {e.message}"))
    for ctx in ordered:
        fact = _pod_fact(ctx)
        if fact.message:
            return FirstError(ctx.key, None, fact.message)
    return None


def retried_failure(view: LogView) -> int | None:
    """Offset of the first line that reads as an error but for saying it will be retried ("Failed to get pod IP
    from nodeserver, retrying"): a failure that has not given up yet, so not an error on its own."""
    for looked, m in enumerate(ERROR_LINE.finditer(view.text)):
        if looked >= MAX_RETRIED_LOOKS:
            break
        line = view.line_at(m.start()).text
        if RETRIED.search(line) and BENIGN.search(line) and not BENIGN.search(RETRIED.sub(" ", line)):
            return m.start()
    return None


def retried_cause(scope: Scope, pods: list[str], *, year: int) -> FirstError | None:
    """When no line of the evidence is an error, the earliest failure still being retried in the answer's pods:
    a sidecar or init container that cannot get what the workload waits for is the cause, the wait is not."""
    found: list[tuple[bool, datetime, int, LogView, int]] = []
    for rank, ctx in enumerate(c for c in scope.pods if c.key in pods):
        for view in ctx.logs:
            pos = retried_failure(view)
            if pos is not None:
                when = line_time(view.text, pos, year=year)
                found.append((when is None, when or datetime.min.replace(tzinfo=UTC), rank, view, pos))
    if not found:
        return None
    _, _, _, view, pos = min(found, key=lambda f: f[:3])
    return _line_error(view, pos)
