"""Collection for the scheduled checks: a few cluster-wide lists, filtered on the server where it can.

long-pending needs Pending pods (field selector status.phase), stale-runner needs EphemeralRunners and their
runner pods (label `actions-ephemeral-runner`), nodepool-unhealthy needs NodePools, agent-disconnected needs
the heartbeat Leases of the RLark control plane.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.cluster import resources as R
from bot.cluster.reads import list_into
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
        reads[(cluster, "pending")] = list_into(session, adapter, R.PODS, field_selector="status.phase=Pending")
        reads[(cluster, "runner-pods")] = list_into(session, adapter, R.PODS, label_selector=RUNNER_POD_LABEL)
        reads[(cluster, "runners")] = list_into(session, adapter, R.EPHEMERAL_RUNNERS, optional=True)
        reads[(cluster, "nodepools")] = list_into(session, adapter, R.NODEPOOLS, optional=True)
        reads[(cluster, "leases")] = list_into(
            session, adapter, R.LEASES, field_selector=f"metadata.name={HEARTBEAT_LEASE}",
            keep=lambda x: str((x.get("metadata") or {}).get("namespace", "")).startswith(AGENT_NAMESPACE_PREFIX))
    session.parallel(reads)
    # A runner namespace whose pods could not be listed must not look like "runner without pod".
    for cluster in contexts:
        pods_failed = f"{cluster}/pods.json" in session.acc.not_collected
        for ns in sorted({str((r.get("metadata") or {}).get("namespace", ""))
                          for r in session.acc.objects(cluster, R.EPHEMERAL_RUNNERS)}):
            if pods_failed:
                session.acc.missing(f"{cluster}/{ns}/pods.json")
            else:
                session.acc.add(cluster, R.PODS, [], listed_in=(ns,))
