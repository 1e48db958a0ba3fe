"""Clusters a check run could not read (check-failed): their alerts are unknown, not cleared.

Collection records a cluster it could not reach as a problem line starting with the cluster's name
("gpu-b: unreachable, nothing more was read from it (...)"). Such a cluster gets one alert of its own, and the
alert lifecycle must not count that cluster's other alerts as gone for the tick.
"""

from __future__ import annotations

import re
from datetime import datetime

from bot.checks.alerts import Alert, cluster_ref
from bot.models import Evidence
from bot.settings import Thresholds

CASE = "infra.check.cluster-unreadable"
_NOT_READ = re.compile(r"unreachable|were not read|nothing (more )?was read|no kubeconfig context", re.I)


def unreadable_clusters(ev: Evidence) -> dict[str, str]:
    """Cluster name -> the first problem line that says it could not be read."""
    out: dict[str, str] = {}
    names = sorted(set(ev.clusters) | ({ev.control_plane} if ev.control_plane else set()), key=len, reverse=True)
    for line in ev.problems:
        cluster = next((c for c in names if line.startswith(f"{c}: ")), None)
        if cluster is not None and cluster not in out and _NOT_READ.search(line):
            out[cluster] = line[len(cluster) + 2:]
    return out


def check_failed(ev: Evidence, *, now: datetime, thresholds: Thresholds) -> list[Alert]:
    return [Alert(check="check-failed", case=CASE, object=cluster_ref(cluster, kind="Cluster", name=cluster),
                  severity="error", since=None, summary=f"the checks could not read cluster {cluster}: {why}")
            for cluster, why in sorted(unreadable_clusters(ev).items())]
