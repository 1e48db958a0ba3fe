"""The CI and cluster signals a diagnosis shares with the scheduled checks: stale and too-old runners, nodes two
schedulers overcommit, unhealthy NodePools, failed namespace offloading."""

from __future__ import annotations

from bot.signals.infra import mixed_schedulers, nodepool_unhealthy, offloading_failed, runner_too_old, stale_runner
from signals.scenario import said, scenario, sources, texts

RUNNERS = "ci-cluster/arc-runners/EphemeralRunner"


def test_a_failed_runner_left_behind_is_stale_and_one_past_the_age_limit_too_old() -> None:
    assert said(stale_runner(scenario("ci-build-buildkit-cache"))) == [
        (f"{RUNNERS}/linux-aarch64-cpu-16-e6wrd-runner-k8n2p", "Failed (failed) and left behind")]
    assert said(runner_too_old(scenario("infra-arc-runner-too-old"))) == [
        (f"{RUNNERS}/linux-aarch64-a3-16-o1dxr-runner-k9p2v", "Running for 13 h, older than the 12 h limit")]


def test_the_overcommitted_node_is_named_for_the_pod_on_it() -> None:
    [hit] = mixed_schedulers(scenario("ci-node-mixed-schedulers"))
    assert hit.pod == "ci-cluster/arc-runners/linux-aarch64-a2-8-vc9lk-runner-t7q3w"
    assert sources([hit]) == ["ci-cluster//Node/npu-a2-01"]
    assert "pods of default-scheduler and volcano share the node" in texts([hit])


def test_an_unhealthy_pool_explains_the_pending_pod_it_should_serve() -> None:
    [hit] = nodepool_unhealthy(scenario("infra-karpenter-nodepool-unhealthy"))
    assert hit.pod == "ci-cluster/arc-runners/linux-aarch64-a3-16-k5rvx-runner-m3d7w"
    pool, pending = hit.evidence
    assert pool.source == "ci-cluster//NodePool/npu-a3" and pool.text.startswith("NodeRegistrationHealthy=False")
    assert pending.source == hit.pod and pending.text.startswith("meanwhile the scheduler says:")


def test_failed_offloading_names_the_remote_clusters() -> None:
    hits = offloading_failed(scenario("pod-liqo-offloading-backoff"))
    assert sources(hits) == ["ci-cluster/arc-runners/offloading"]
    assert "SomeFailed" in texts(hits) and "cn12-001, gy004" in texts(hits)
