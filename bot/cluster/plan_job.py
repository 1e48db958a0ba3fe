"""Collection for a RLark Job: the control plane first, then each member cluster its Tasks were routed to.

Requests do not grow with the worker count: one list per resource and scope (paged), pods by label,
events per namespace filtered here, logs for a bounded set of pods.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from bot.cluster import resources as R
from bot.cluster.adapter import ClusterAdapter
from bot.cluster.errors import CollectionError, ReadFailed, TargetNotFound
from bot.cluster.logpick import RLARK_MAIN, pick
from bot.cluster.plan_gateway import fallback_logs
from bot.cluster.reads import fetch_logs, list_into, node_events
from bot.cluster.session import Session
from bot.models import Missing, Target, parse_time
from bot.models.rlark import (
    AGENT_NAMESPACE_PREFIX,
    HEARTBEAT_LEASE,
    JOB_LABEL,
    MEMBER_NAMESPACE,
    RAY_ROLE,
    TASK_NAME_LABEL,
)

Obj = dict[str, Any]


def _meta(obj: Obj) -> Obj:
    return obj.get("metadata") or {}


def task_names(job: Obj) -> list[str]:
    name = _meta(job).get("name", "")
    return [f"{name}-{t.get('name', '')}" for t in (job.get("spec") or {}).get("tasks") or [] if t.get("name")]


def missing_job_where(cp: ClusterAdapter, *, cluster: str, context: str, job: str) -> str:
    """Where a Job that does not exist was looked for; Tasks still labelled with its name are named there (orphans
    left behind, not a Job to diagnose), as a bundle's diagnosis names them."""
    where = f"the RLark control plane (context {context})"
    try:
        tasks = cp.list(R.TASKS, label_selector=f"{JOB_LABEL}={job}")
    except ReadFailed:
        return where
    refs = sorted(f"{cluster}/{_meta(t).get('namespace', '')}/{_meta(t).get('name', '')}" for t in tasks)
    if not refs:
        return where
    return where + f"; the Job object does not exist, but Tasks still carry its label: {', '.join(refs)}"


def member_context(session: Session, agent: str) -> str:
    return session.settings.cluster_contexts.get(agent, agent)


def collect_job(session: Session, target: Target, *, context: str, cluster: str, now: datetime) -> None:
    acc = session.acc
    acc.control_plane = cluster
    acc.add_cluster(cluster)
    cp = session.adapter(context, cluster)
    try:
        job = cp.get(R.JOBS, target.name)
    except ReadFailed as exc:
        raise CollectionError(f"cannot read job {target.name} on the control plane: {exc}") from exc
    if job is None:
        raise TargetNotFound(missing_job_where(cp, cluster=cluster, context=context, job=target.name))
    acc.add(cluster, R.JOBS, items=[job])

    names = task_names(job)
    selector = f"{TASK_NAME_LABEL} in ({','.join(names)})" if names else None
    reads = {
        "tasks": list_into(session, cp, resource=R.TASKS, label_selector=f"{JOB_LABEL}={target.name}"),
        "mirrors": (list_into(session, cp, resource=R.POD_MIRRORS, label_selector=selector) if selector
                    else (lambda: [])),
        "rnodes": list_into(session, cp, resource=R.RLARK_NODES),
        "leases": list_into(session, cp, resource=R.LEASES, field_selector=f"metadata.name={HEARTBEAT_LEASE}"),
    }
    results = session.parallel(reads)
    tasks = results["tasks"] if isinstance(results["tasks"], list) else []
    agents = sorted({str(_meta(t).get("namespace", ""))[len(AGENT_NAMESPACE_PREFIX):] for t in tasks
                     if str(_meta(t).get("namespace", "")).startswith(AGENT_NAMESPACE_PREFIX)})
    # Every agent namespace the Job touches has had its control-plane lists read, even where they came back empty.
    for agent in agents:
        ns = AGENT_NAMESPACE_PREFIX + agent
        for res in (R.TASKS, R.POD_MIRRORS, R.RLARK_NODES, R.LEASES):
            acc.add(cluster, res, items=[], listed_in=(ns,))
    _check_heartbeats(session, cluster=cluster, agents=agents, now=now)

    members: dict[str, ClusterAdapter] = {}
    for agent in agents:
        adapter = _member(session, agent)
        if adapter is not None:
            members[agent] = adapter
    member_pods = _collect_members(session, members, tasks)

    heads = {(agent, f"{task}-0") for agent, task in _head_tasks(tasks)}
    picks = pick(member_pods, heads=heads, max_requests=session.budget.max_log_requests,
                 max_pods=session.budget.max_log_pods, prefer=RLARK_MAIN)
    fetch_logs(session, members, picks=picks)
    # Clusters not read (no context, or found unreachable on the way): the gateway's log tails, when configured.
    blind = {a: _not_read_key(a) for a in agents if a not in members}
    blind.update({a: f"down:{a}" for a, adapter in members.items() if adapter.down})
    fallback_logs(session, job=target.name, blind=blind, tasks=tasks, heads=heads)


def _not_read_key(agent: str) -> str:
    """The key of the problem line for a member cluster with no usable context (the gateway amends it)."""
    return f"member:{agent}"


def _head_tasks(tasks: list[Obj]) -> list[tuple[str, str]]:
    out = []
    for t in tasks:
        role = (_meta(t).get("annotations") or {}).get(RAY_ROLE)
        is_head = role == "head" if role else bool((t.get("spec") or {}).get("head"))
        ns = str(_meta(t).get("namespace", ""))
        if is_head and ns.startswith(AGENT_NAMESPACE_PREFIX):
            out.append((ns[len(AGENT_NAMESPACE_PREFIX):], str(_meta(t).get("name", ""))))
    return out


def _member(session: Session, agent: str) -> ClusterAdapter | None:
    """The member cluster's adapter, or None (with the reason said) when there is no way to read it."""
    acc = session.acc
    acc.add_cluster(agent)
    context = member_context(session, agent)
    if not session.has_context(context):
        acc.problem(f"{agent}: no kubeconfig context {context!r} for this member cluster: its pods, events and "
                    "logs were not read; the answer rests on the control plane's Pod mirrors and Task status",
                    key=_not_read_key(agent))
        acc.missing(Missing(cluster=agent, where=f"{agent}/ (cluster directory)"))
        return None
    try:
        return session.adapter(context, agent)
    except CollectionError as exc:
        acc.problem(f"{agent}: {exc}; its pods, events and logs were not read", key=_not_read_key(agent))
        acc.missing(Missing(cluster=agent, where=f"{agent}/ (cluster directory)"))
        return None


def _collect_members(session: Session, members: dict[str, ClusterAdapter],
                     tasks: list[Obj]) -> list[tuple[str, Obj]]:
    by_agent: dict[str, list[str]] = {}
    for t in tasks:
        ns = str(_meta(t).get("namespace", ""))
        if ns.startswith(AGENT_NAMESPACE_PREFIX):
            by_agent.setdefault(ns[len(AGENT_NAMESPACE_PREFIX):], []).append(str(_meta(t).get("name", "")))
    reads: dict[tuple[str, str], Callable[[], list[Obj]]] = {}
    for agent, adapter in members.items():
        names = sorted(by_agent.get(agent, []))
        related = _related(names)
        reads[(agent, "pods")] = list_into(session, adapter, resource=R.PODS, namespace=MEMBER_NAMESPACE,
                                           label_selector=f"app in ({','.join(names)})")
        reads[(agent, "events")] = list_into(session, adapter, resource=R.EVENTS, namespace=MEMBER_NAMESPACE,
                                             keep=_involving(related))
        reads[(agent, "nodes")] = list_into(session, adapter, resource=R.NODES)
        reads[(agent, "sts")] = list_into(session, adapter, resource=R.STATEFULSETS, namespace=MEMBER_NAMESPACE,
                                          keep=_statefulset_of(frozenset(names)))
        reads[(agent, "pvcs")] = list_into(session, adapter, resource=R.PVCS, namespace=MEMBER_NAMESPACE,
                                           keep=_named(related))
    results = session.parallel(reads)
    pods: list[tuple[str, Obj]] = []
    for agent in sorted(members):
        got = results.get((agent, "pods"))
        if isinstance(got, list):
            pods.extend((agent, p) for p in sorted(got, key=_ordinal_key))
    # Node events need the pods' nodes; one more list per cluster, whatever the worker count.
    session.parallel({agent: node_events(session, adapter, pods=[p for a, p in pods if a == agent])
                      for agent, adapter in members.items()})
    return pods


def _related(task_names: list[str]) -> Callable[[str], bool]:
    """Objects of these Tasks: the StatefulSet `<task>`, its pods `<task>-<n>`, PVCs `<claim>-<task>-<n>`."""
    names = tuple(task_names)

    def match(name: str) -> bool:
        return any(name == t or name.startswith(t + "-") or f"-{t}-" in name for t in names)
    return match


def _involving(related: Callable[[str], bool]) -> Callable[[Obj], bool]:
    return lambda event: related(str((event.get("involvedObject") or {}).get("name", "")))


def _named(related: Callable[[str], bool]) -> Callable[[Obj], bool]:
    return lambda obj: related(str(_meta(obj).get("name", "")))


def _statefulset_of(task_names: frozenset[str]) -> Callable[[Obj], bool]:
    def keep(sts: Obj) -> bool:
        managed = (_meta(sts).get("annotations") or {}).get("rlark.io/management-task-name")
        return _meta(sts).get("name") in task_names or managed in task_names
    return keep


def _ordinal_key(pod: Obj) -> tuple[str, int, str]:
    name = str(_meta(pod).get("name", ""))
    base, _, ordinal = name.rpartition("-")
    return (base, int(ordinal), name) if ordinal.isdigit() else (name, -1, name)


def _check_heartbeats(session: Session, *, cluster: str, agents: list[str], now: datetime) -> None:
    """A disconnected agent makes everything its cluster reports stale: say so (the engine decides the case)."""
    leases = {str(_meta(x).get("namespace", "")): x for x in session.acc.objects(cluster, R.LEASES)}
    limit = timedelta(seconds=session.settings.thresholds.heartbeat_timeout_seconds)
    for agent in agents:
        lease = leases.get(AGENT_NAMESPACE_PREFIX + agent)
        if lease is None:
            continue
        renewed = parse_time((lease.get("spec") or {}).get("renewTime"))
        if renewed is not None and now - renewed > limit:
            age = int((now - renewed).total_seconds())
            session.acc.problem(f"{agent}: the RLark agent last renewed its heartbeat Lease {age}s ago "
                                "(disconnected): what its cluster reports may be stale")
