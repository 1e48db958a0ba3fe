"""The Ray wrapper's stages read from its markers: where a pod stopped, waits that outlived their window, two
Heads, the first error after the run script."""

from __future__ import annotations

from datetime import datetime

from bot.diagnose.young import still_open
from bot.scope.hits import Hit
from bot.signals.ray import (
    head_unreachable,
    multi_head,
    prepare_failed,
    run_script_failed,
    waiting_for_nodes,
    wrapper_stopped,
)
from bot.signals.stages import INDEX
from signals.scenario import scenario, texts


def test_a_wrapper_that_stopped_before_the_prepare_script_shows_its_last_marker_and_first_error() -> None:
    hits = wrapper_stopped(scenario("rlark-ray-wrapper-failed"))
    assert [h.pod for h in hits] == ["gpu-a/rlark-system/ppo-franka-0412-rollout-0",
                                     "gpu-a/rlark-system/ppo-franka-0412-rollout-1"]
    marker, error = hits[0].evidence[:2]
    assert marker.text.startswith("last marker RLINF_NODE_RANK:") and "Permission denied" in error.text


def test_a_failed_prepare_script_keeps_every_pod_it_broke_from_the_ray_cli_check() -> None:
    hits = prepare_failed(scenario("rlark-ray-prepare-failed"))
    assert len(hits) == 4 and all(h.stage == INDEX["ray-cli-checked"] and h.concrete for h in hits)
    assert "Could not open requirements file" in texts(hits)


def _open(hit: Hit, now: datetime, default_window: float) -> bool:
    """Whether the wait `hit` shows is still inside its window at `now` (its own stated deadline first)."""
    return still_open(hit.since, hit.window if hit.window is not None else default_window, now)


def test_waits_are_symptoms_and_starting_only_while_their_window_is_open() -> None:
    stuck_ctx, young_ctx = scenario("rlark-ray-waiting-for-nodes"), scenario("calm-ray-check-in-window")
    [stuck] = waiting_for_nodes(stuck_ctx)
    [young] = waiting_for_nodes(young_ctx)
    assert not stuck.concrete and not young.concrete
    assert (_open(stuck, stuck_ctx.now, 900), _open(young, young_ctx.now, 900)) == (False, True)
    assert "Current node count: 1" in texts([stuck])
    unreachable_ctx, waiting_ctx = scenario("rlark-ray-head-unreachable"), scenario("calm-worker-waits-30s")
    unreachable, waiting = head_unreachable(unreachable_ctx), head_unreachable(waiting_ctx)
    assert unreachable and not any(_open(h, unreachable_ctx.now, 300) for h in unreachable)
    assert waiting and all(_open(h, waiting_ctx.now, 300) for h in waiting)
    assert "100 attempts" in texts(unreachable)


def test_two_pods_running_the_run_script_are_two_heads() -> None:
    [hit] = multi_head(scenario("rlark-ray-multi-head"))
    assert [item.text.split(":")[0] for item in hit.evidence] == ["ppo-franka-0412-actor-0", "ppo-franka-0412-actor-1"]


def test_the_first_error_after_the_run_script_is_reported_even_from_the_previous_instance() -> None:
    [hit] = run_script_failed(scenario("rlark-ray-check-failed"))
    assert hit.pod == "gpu-a/rlark-system/ppo-franka-0412-actor-0" and hit.stage == INDEX["training-signal"]
    assert hit.earlier_instance and hit.evidence[0].source == f"{hit.pod}:main (previous)"
    assert texts([hit]).startswith("first error after 'Executing run script...', line 523: Error executing job")
