"""The stages a pod goes through, read from its objects and the wrapper's markers; the job's last one."""

from __future__ import annotations

from typing import get_args

from bot.models.refs import Stage
from bot.signals.stages import INDEX, STAGES, job_last_stage, pod_stage
from signals.scenario import scenario


def test_stages_are_the_models_stages_in_order() -> None:
    assert tuple(STAGES) == get_args(Stage)
    assert [INDEX[s] for s in STAGES] == list(range(len(STAGES)))


def test_a_healthy_job_reaches_the_training_signal_on_its_head_and_a_ready_ray_cluster_on_its_workers() -> None:
    ctx = scenario("healthy-ppo-four-nodes")
    assert job_last_stage(ctx.scope) == "training-signal"
    stages = {c.key.rsplit("-", 2)[-2]: pod_stage(c) for c in ctx.scope.pods}
    assert stages == {"actor": INDEX["training-signal"], "rollout": INDEX["ray-cluster-ready"]}


def test_workers_that_stopped_in_the_wrapper_hold_the_job_before_the_ray_cluster_is_ready() -> None:
    ctx = scenario("rlark-ray-wrapper-failed")
    assert job_last_stage(ctx.scope) == "ray-cluster-forming"
    stages = sorted(pod_stage(c) or -1 for c in ctx.scope.pods)
    assert stages == [INDEX["rank-assigned"], INDEX["rank-assigned"], INDEX["ray-cluster-forming"]]
