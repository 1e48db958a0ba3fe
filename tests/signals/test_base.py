"""What every signal reads of a pod: its workload's last exit, and whether it failed at all."""

from __future__ import annotations

from bot.signals.base import REGISTRY, failed, main_exit, signal
from signals.scenario import scenario


def test_exits_and_failures_of_the_pods_of_a_job() -> None:
    pods = {ctx.key.rsplit("/", 1)[1]: ctx for ctx in scenario("rlark-head-oomkilled").scope.pods}
    head = pods["ppo-franka-0412-actor-0"]
    assert main_exit(head) == (137, "OOMKilled") and failed(head)
    for name in ("ppo-franka-0412-rollout-0", "ppo-franka-0412-rollout-1"):
        assert main_exit(pods[name]) is None and not failed(pods[name])


def test_running_pods_have_no_exit_and_no_failure() -> None:
    pods = scenario("healthy-ppo-four-nodes").scope.pods
    assert len(pods) == 4
    assert all(main_exit(ctx) is None and not failed(ctx) for ctx in pods)


def test_a_signal_is_registered_under_its_name() -> None:
    @signal("test.registered-here")
    def found(sc: object) -> list[object]:
        return []

    try:
        assert REGISTRY["test.registered-here"] is found
    finally:
        del REGISTRY["test.registered-here"]
