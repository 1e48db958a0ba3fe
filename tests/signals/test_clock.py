"""node.clock-skew: a failing pod whose kubelet or log times disagree with the API server's."""

from __future__ import annotations

from typing import Any

from diagnose.objects import evidence, node, pod, stamp

from bot.models import Target
from bot.scope.hits import Hit
from bot.signals.clock import clock_skew
from bot.signals.stages import INDEX
from signals.scenario import context_of


def _started_an_hour_before_created(*, exit_code: int, phase: str) -> list[Any]:
    statuses = [{"name": "main", "state": {"terminated": {"exitCode": exit_code, "reason": "Error",
                                                         "startedAt": stamp(70), "finishedAt": stamp(69)}}}]
    return [pod("build-0", node_name="n1", phase=phase, statuses=statuses, created_minutes_ago=10), node("n1")]


def _skew(*objects: Any) -> list[Hit]:
    return clock_skew(context_of(evidence(*objects), Target.parse("pod/build-0", "runners")))


def test_a_failed_pod_started_before_it_was_created_is_on_a_node_whose_clock_is_behind() -> None:
    [hit] = _skew(*_started_an_hour_before_created(exit_code=1, phase="Failed"))
    assert hit.pod == "ci-a/runners/build-0" and hit.stage == INDEX["containers-started"]
    [item] = hit.evidence
    assert item.source == "ci-a/runners/build-0:main" and "the node's clock is behind" in item.text


def test_a_pod_that_did_not_fail_is_not_judged() -> None:
    assert _skew(*_started_an_hour_before_created(exit_code=0, phase="Succeeded")) == []
