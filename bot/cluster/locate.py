"""Where a target is, in as few reads as possible: one GET of a Job, one filtered list of pods or runners.

The Slack app decides whether a channel may see a target before it posts anything about it, so it asks
where the target lives (cluster, namespace, RLark domain) first, and collects only when allowed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.cluster import resources as R
from bot.cluster.adapter import ClusterAdapter
from bot.cluster.collected import Collected
from bot.cluster.collector import cluster_name
from bot.cluster.errors import CollectionError, ReadFailed, TargetNotFound
from bot.cluster.kubeconfig import KubeSource, load_source
from bot.cluster.plan_job import missing_job_where
from bot.cluster.plan_pod import _find
from bot.cluster.progress import NullProgress
from bot.cluster.session import Observe, Session
from bot.models import Target, TargetKind
from bot.settings import Settings


@dataclass(frozen=True)
class Found:
    cluster: str
    namespace: str
    domain: str


def first_context(target: Target, *, kubeconfig: str | None, context: str | None,
                  settings: Settings) -> tuple[KubeSource, str]:
    """The kubeconfig and the context where `target` is looked for first: `--context`, else the control plane for
    a Job, else the current one. CollectionError (one line) when the kubeconfig has no such context."""
    source = load_source(kubeconfig)
    chosen = context or (settings.control_plane_context if target.kind is TargetKind.JOB else None) or source.current
    if not chosen or chosen not in source.contexts:
        raise CollectionError(f"the kubeconfig has no context {chosen!r}" if chosen
                              else "the kubeconfig has no current context: pass --context")
    return source, chosen


def locate(target: Target, *, kubeconfig: str | None, context: str | None, settings: Settings,
           observe: Observe | None = None) -> Found:
    """Raises TargetNotFound (with where it looked) or CollectionError (one line)."""
    source, chosen = first_context(target, kubeconfig=kubeconfig, context=context, settings=settings)
    name = cluster_name(chosen)
    acc = Collected(captured_at=datetime.now(UTC))
    with Session(source, settings=settings, acc=acc, progress=NullProgress(), observe=observe) as session:
        adapter = session.adapter(chosen, name)
        if target.kind is TargetKind.JOB:
            try:
                job = adapter.get(R.JOBS, target.name)
            except ReadFailed as exc:
                raise CollectionError(f"cannot read job {target.name} on the control plane: {exc}") from exc
            if job is None:
                raise TargetNotFound(missing_job_where(adapter, cluster=name, context=chosen, job=target.name))
            return Found(cluster=name, namespace="", domain=str((job.get("spec") or {}).get("domain") or ""))
        resource = R.PODS if target.kind is TargetKind.POD else R.EPHEMERAL_RUNNERS
        if resource is R.EPHEMERAL_RUNNERS and not target.namespace:
            found = [o for o in _list_all(adapter, resource) if (o.get("metadata") or {}).get("name") == target.name]
            if not found:
                raise TargetNotFound(f"{name} (context {chosen}, all namespaces)")
            obj = found[0]
        else:
            obj = _find(adapter, resource, target.name, target.namespace or None, chosen)
        return Found(cluster=name, namespace=str((obj.get("metadata") or {}).get("namespace") or ""), domain="")


def _list_all(adapter: ClusterAdapter, resource: R.Resource) -> list[dict[str, Any]]:
    # Custom resources declare no selectable fields: list and filter here.
    try:
        return adapter.list(resource)
    except ReadFailed as exc:
        raise CollectionError(f"cannot look up {resource.kind}: {exc}") from exc
