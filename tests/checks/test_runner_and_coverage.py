"""A failed runner is left behind only past the stale threshold; unreadable clusters raise check-failed."""

from __future__ import annotations

from bot.checks.coverage import check_failed, unreadable_clusters
from bot.checks.runners import stale_runners
from bot.models import Evidence
from bot.settings import Thresholds
from checks.build import NOW, ago, pod, runner

TH = Thresholds()


def test_failed_a_minute_ago_is_not_stale_but_long_failed_is() -> None:
    fresh = runner("fresh", phase="Failed", reason="TooManyPodFailures", failures={"u1": ago(7200), "u2": ago(90)})
    old = runner("old", phase="Failed", reason="TooManyPodFailures", failures={"u1": ago(TH.stale_runner_seconds + 5)})
    ev = Evidence(ephemeral_runners=[fresh, old])
    assert [str(a.object) for a in stale_runners(ev, now=NOW, thresholds=TH)] == ["ci/arc-runners/EphemeralRunner/old"]


def test_failure_time_comes_from_the_runner_pod_when_arc_recorded_none() -> None:
    r = runner("r", phase="Failed", age=7200)
    just = Evidence(ephemeral_runners=[r], pods=[pod("r", phase="Failed", cluster="ci", namespace="arc-runners",
                                                     finished=ago(60))])
    assert stale_runners(just, now=NOW, thresholds=TH) == []
    long_ago = Evidence(ephemeral_runners=[r], pods=[pod("r", phase="Failed", cluster="ci",
                                                         namespace="arc-runners", finished=ago(3000))])
    assert len(stale_runners(long_ago, now=NOW, thresholds=TH)) == 1


def test_unreachable_cluster_raises_check_failed_with_a_cluster_scoped_key() -> None:
    ev = Evidence(clusters=["gpu-a", "gpu-a-2"],
                  problems=["gpu-a-2: unreachable, nothing more was read from it (connection refused)",
                            "gpu-a: 403 Forbidden listing pods in rlark-system"])
    assert set(unreadable_clusters(ev)) == {"gpu-a-2"}
    [alert] = check_failed(ev, now=NOW, thresholds=TH)
    assert alert.key == "check-failed:gpu-a-2//Cluster/gpu-a-2"
    assert "connection refused" in alert.summary
