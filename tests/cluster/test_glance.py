"""A watch's glance against the API stand-in: 2 requests for a Job (whatever its size), 1 for a pod, all GETs;
its fingerprint moves with a phase, a Node or a restart, and not with a heartbeat or a Task's pull progress."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.cluster import resources as R
from bot.errors import NotFound
from bot.models import Target, TargetKind
from bot.settings import Settings
from bot.sources import LiveSource
from cluster.standin import ClusterData, StandIn

JOB = Target.parse("job/ppo-big")
POD = Target(kind=TargetKind.POD, name="ppo-big-head-0", namespace="rlark-system")


def _source(kubeconfig: Path, **settings: Any) -> LiveSource:
    return LiveSource(kubeconfig=str(kubeconfig), context=None, settings=Settings(**settings))


def _obj(world: dict[str, ClusterData], cluster: str, res: R.Resource, name: str) -> dict[str, Any]:
    return next(o for o in world[cluster].objects[res] if o["metadata"]["name"] == name)


def test_a_jobs_glance_is_two_gets_on_the_control_plane_whatever_its_size(
        standin: StandIn, kubeconfig: Path) -> None:
    source = _source(kubeconfig)
    standin.reset_log()
    first = source.glance(JOB)
    sent = list(standin.requests)
    assert [(r.cluster, r.method) for r in sent] == [("kcp", "GET"), ("kcp", "GET")]
    assert sent[0].path.endswith("/jobs/ppo-big") and sent[1].path.endswith("/pods")
    assert "rlark.io/task-name in (" in sent[1].query["labelSelector"][0]
    assert source.glance(JOB) == first, "nothing moved: the same fingerprint"
    standin.reset_log()
    source.for_target(JOB)
    assert len(standin.requests) > 5 * len(sent), "a full look reads far more"


def test_a_jobs_fingerprint_moves_with_its_phase_and_its_pods_not_with_heartbeats(
        standin: StandIn, kubeconfig: Path, world: dict[str, ClusterData]) -> None:
    source = _source(kubeconfig)
    base = source.glance(JOB)
    lease = next(o for o in world["kcp"].objects[R.LEASES])
    lease["spec"]["renewTime"] = "2030-01-01T00:00:00.000000Z"
    task = next(o for o in world["kcp"].objects[R.TASKS])
    task["status"]["pullProgress"] = [{"image": "rlinf/rlinf:latest", "percent": 40}]
    assert source.glance(JOB) == base, "a heartbeat or pull progress is not a change"
    mirror = next(o for o in world["kcp"].objects[R.POD_MIRRORS])
    mirror["status"]["node"] = "gpu-a-node-9"
    moved = source.glance(JOB)
    assert moved != base, "a pod moved to another Node"
    _obj(world, "kcp", R.JOBS, "ppo-big")["status"]["phase"] = "Failed"
    assert source.glance(JOB) not in (base, moved), "the Job's phase changed"


def test_a_pods_glance_is_one_get_and_moves_with_a_restart(
        standin: StandIn, kubeconfig: Path, world: dict[str, ClusterData]) -> None:
    source = LiveSource(kubeconfig=str(kubeconfig), context="gpu-a", settings=Settings())
    standin.reset_log()
    base = source.glance(POD)
    assert [(r.cluster, r.method) for r in standin.requests] == [("gpu-a", "GET")]
    pod = _obj(world, "gpu-a", R.PODS, POD.name)
    pod["status"]["startTime"] = "2030-01-01T00:00:00Z"
    assert source.glance(POD) == base
    pod["status"]["containerStatuses"][0]["restartCount"] = 1
    assert source.glance(POD) != base


def test_a_target_gone_is_not_found(standin: StandIn, kubeconfig: Path, world: dict[str, ClusterData]) -> None:
    world["kcp"].objects[R.JOBS].clear()
    with pytest.raises(NotFound, match="not found"):
        _source(kubeconfig).glance(JOB)
    with pytest.raises(NotFound, match="not found"):
        LiveSource(kubeconfig=str(kubeconfig), context="gpu-a", settings=Settings()).glance(
            Target(kind=POD.kind, name="nobody-0", namespace="rlark-system"))
