"""Entry point of live collection: pick the contexts, run the plan for the target kind, return what was read."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from bot.cluster import resources as R
from bot.cluster.budget import REAL_CLOCK, Clock, Stats
from bot.cluster.collected import Collected
from bot.cluster.errors import CollectionError
from bot.cluster.kubeconfig import load_source
from bot.cluster.plan_checks import collect_for_checks
from bot.cluster.plan_job import collect_job
from bot.cluster.plan_pod import collect_pod, collect_runner
from bot.cluster.progress import NullProgress, Progress
from bot.cluster.session import Observe, Session
from bot.models import Missing, Target, TargetKind
from bot.models.rlark import AGENT_NAMESPACE_PREFIX
from bot.settings import Settings


def cluster_name(context: str) -> str:
    """A context name usable as a bundle directory (EKS/GKE context names carry ':' and '/')."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", context).strip("-.") or "cluster"


def collect(target: Target, *, kubeconfig: str | None, context: str | None, namespace: str | None,
            settings: Settings, progress: Progress | None = None, now: datetime | None = None,
            stats: Stats | None = None, observe: Observe | None = None, clock: Clock = REAL_CLOCK) -> Collected:
    """Read what `target` needs. Raises TargetNotFound or CollectionError (one line); partial failures are
    lines in the result's `problems`."""
    progress = progress or NullProgress()
    started = clock.monotonic()
    try:
        source = load_source(kubeconfig)
        chosen = context or (settings.control_plane_context if target.kind is TargetKind.JOB else None) \
            or source.current
        if not chosen:
            raise CollectionError("the kubeconfig has no current context: pass --context")
        if chosen not in source.contexts:
            raise CollectionError(f"the kubeconfig has no context {chosen!r}")
        acc = Collected(captured_at=now or datetime.now(UTC))
        name = cluster_name(chosen)
        with Session(source, settings=settings, acc=acc, progress=progress, observe=observe,
                     clock=clock) as session:
            if target.kind is TargetKind.JOB:
                collect_job(session, target, context=chosen, cluster=name, now=acc.captured_at)
            elif target.kind is TargetKind.POD:
                collect_pod(session, target, context=chosen, cluster=name, namespace=namespace or None)
            else:
                collect_runner(session, target, context=chosen, cluster=name, namespace=namespace or None)
            if stats is not None:
                stats.requests, stats.log_requests = session.stats.requests, session.stats.log_requests
                stats.bytes_read, stats.retries = session.stats.bytes_read, session.stats.retries
            summary = (f"read {len(acc.clusters)} cluster(s): {session.stats.requests} requests, "
                       f"{session.stats.bytes_read / 1024:.0f} KiB in {clock.monotonic() - started:.1f}s"
                       + (f"; {len(acc.problems)} problem(s)" if acc.problems else ""))
    except BaseException:
        progress.close()
        raise
    progress.close(summary)
    return acc


def collect_checks(*, kubeconfig: str | None, context: str | None, settings: Settings,
                   progress: Progress | None = None, now: datetime | None = None,
                   observe: Observe | None = None, clock: Clock = REAL_CLOCK) -> Collected:
    """What the scheduled checks read, from the chosen (or current) context and the control plane's."""
    progress = progress or NullProgress()
    try:
        source = load_source(kubeconfig)
        chosen = context or source.current
        if not chosen or chosen not in source.contexts:
            raise CollectionError(f"the kubeconfig has no context {chosen!r}" if chosen
                                  else "the kubeconfig has no current context: pass --context")
        contexts = {cluster_name(chosen): chosen}
        cp = settings.control_plane_context
        if cp and cp != chosen and cp in source.contexts:
            contexts[cluster_name(cp)] = cp
        acc = Collected(captured_at=now or datetime.now(UTC))
        with Session(source, settings=settings, acc=acc, progress=progress, observe=observe,
                     clock=clock) as session:
            collect_for_checks(session, contexts=contexts)
            members = _member_contexts(session, read=set(contexts.values()))
            if members:
                collect_for_checks(session, contexts=members)
    finally:
        progress.close()
    return acc


def _member_contexts(session: Session, *, read: set[str]) -> dict[str, str]:
    """Member clusters to check as well, as a bundle holds them: every agent the control plane's heartbeat
    Leases name, and every one the settings map, read through its context (the mapped one, else the context
    named after the agent) when the kubeconfig has it; one it has not is said to be not collected."""
    acc, settings = session.acc, session.settings
    agents = set(settings.cluster_contexts)
    for cluster in list(acc.clusters):
        for lease in acc.objects(cluster, R.LEASES):
            ns = str((lease.get("metadata") or {}).get("namespace", ""))
            if ns.startswith(AGENT_NAMESPACE_PREFIX):
                agents.add(ns[len(AGENT_NAMESPACE_PREFIX):])
    out: dict[str, str] = {}
    for agent in sorted(agents):
        context = settings.cluster_contexts.get(agent, agent)
        if context in read or agent in acc.clusters:
            continue
        if session.has_context(context):
            out[agent] = context
        else:
            where = f"{agent}/ (cluster directory: no kubeconfig context {context!r})"
            acc.missing(Missing(cluster=agent, where=where))
    return out
