"""Collection for the scheduled checks: a few cluster-wide lists, filtered on the server where it can.

long-pending needs Pending pods (field selector status.phase) and Warning events (their cause: FailedScheduling,
FailedMount, image pulls), stale-runner needs EphemeralRunners and their runner pods (label
`actions-ephemeral-runner`), nodepool-unhealthy needs NodePools, agent-disconnected needs the heartbeat Leases of
the RLark control plane, and the RLark checks (a Head Task with several replicas, a Task left unrouted in
`default`) need its Jobs and Tasks. Requests do not grow with the pod count beyond paging.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.cluster import resources as R
from bot.cluster.reads import list_into, missing
from bot.cluster.session import Session
from bot.models.rlark import AGENT_NAMESPACE_PREFIX, HEARTBEAT_LEASE

RUNNER_POD_LABEL = "actions-ephemeral-runner"
Obj = dict[str, Any]


def collect_for_checks(session: Session, *, contexts: dict[str, str]) -> None:
    """`contexts`: cluster name -> kubeconfig context."""
    reads: dict[tuple[str, str], Callable[[], list[Obj]]] = {}
    for cluster, context in contexts.items():
        session.acc.add_cluster(cluster)
        adapter = session.adapter(context, cluster)
        reads[(cluster, "pending")] = list_into(session, adapter, resource=R.PODS,
                                                field_selector="status.phase=Pending")
        reads[(cluster, "warnings")] = list_into(session, adapter, resource=R.EVENTS, field_selector="type=Warning",
                                                 optional=True)
        reads[(cluster, "runner-pods")] = list_into(session, adapter, resource=R.PODS, label_selector=RUNNER_POD_LABEL)
        reads[(cluster, "runners")] = list_into(session, adapter, resource=R.EPHEMERAL_RUNNERS, optional=True)
        reads[(cluster, "nodepools")] = list_into(session, adapter, resource=R.NODEPOOLS, optional=True)
        reads[(cluster, "leases")] = list_into(
            session, adapter, resource=R.LEASES, field_selector=f"metadata.name={HEARTBEAT_LEASE}",
            keep=lambda x: str((x.get("metadata") or {}).get("namespace", "")).startswith(AGENT_NAMESPACE_PREFIX))
    session.parallel(reads)
    _rlark_objects(session, contexts=contexts)
    # A runner namespace whose pods could not be listed must not look like "runner without pod".
    for cluster in contexts:
        pods_failed = any(m.covers(R.PODS.stem, cluster=cluster) for m in session.acc.not_collected)
        for ns in sorted({str((r.get("metadata") or {}).get("namespace", ""))
                          for r in session.acc.objects(cluster, R.EPHEMERAL_RUNNERS)}):
            if pods_failed:
                session.acc.missing(missing(cluster, R.PODS, namespace=ns))
            else:
                session.acc.add(cluster, R.PODS, items=[], listed_in=(ns,))


def _rlark_objects(session: Session, *, contexts: dict[str, str]) -> None:
    """Jobs and Tasks, from the clusters that are an RLark control plane (their heartbeat Leases name agents):
    a CI cluster is never asked for rlinf.io objects its RBAC does not grant."""
    reads: dict[tuple[str, str], Callable[[], list[Obj]]] = {}
    for cluster, context in contexts.items():
        if not session.acc.objects(cluster, R.LEASES):
            continue
        adapter = session.adapter(context, cluster)
        reads[(cluster, "jobs")] = list_into(session, adapter, resource=R.JOBS, optional=True)
        reads[(cluster, "tasks")] = list_into(session, adapter, resource=R.TASKS, optional=True)
    if reads:
        session.parallel(reads)
