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


def _running_with_log(lines: list[str]) -> list[Any]:
    from diagnose.objects import log

    statuses = [{"name": "main", "state": {"running": {"startedAt": stamp(9)}}}]
    return [pod("build-0", node_name="n1", phase="Running", statuses=statuses, created_minutes_ago=10), node("n1"),
            log("build-0", "\n".join(lines) + "\n")]


# The node's clock two years behind: the runner stamps its lines with it and cannot authenticate, in any wording.
BEHIND = ["2024-03-01 02:13:57Z: Running job: build",
          "2024-03-01T02:14:07.1Z fatal: unable to access 'https://github.com/o/r/': SSL certificate problem: "
          "certificate is not yet valid",
          "2024-03-01T02:14:07.2Z ##[error]The process '/usr/bin/git' failed with exit code 128"]


def test_a_running_pod_whose_log_shows_errors_is_judged_by_its_log_times() -> None:
    [hit] = _skew(*_running_with_log(BEHIND))
    assert any("before the pod was created: the node's clock is behind" in i.text for i in hit.evidence)


def test_a_running_pod_on_a_skewed_node_whose_log_shows_no_error_is_not_judged() -> None:
    assert _skew(*_running_with_log(["2024-03-01 02:13:57Z: Listening for Jobs",
                                     "2024-03-01 02:14:07Z: Running job: lint"])) == []


def test_a_running_pod_whose_log_agrees_with_the_api_server_is_not_judged() -> None:
    now_stamp = stamp(8).replace("T", " ")
    assert _skew(*_running_with_log([f"{now_stamp}: Running job: build", f"{now_stamp}: ##[error]The process "
                                     "'/usr/bin/git' failed with exit code 128"])) == []


def test_a_skew_is_not_claimed_for_a_failure_time_cannot_cause() -> None:
    statuses = [{"name": "main", "state": {"terminated": {"exitCode": 1, "reason": "Error", "startedAt": stamp(70),
                                                         "finishedAt": stamp(69)}}}]
    from diagnose.objects import log

    objects = [pod("build-0", node_name="n1", phase="Failed", statuses=statuses, created_minutes_ago=10), node("n1")]
    nccl = "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:2006, unhandled system error\n"
    assert _skew(*objects, log("build-0", nccl)) == []
    assert len(_skew(*objects, log("build-0", nccl + "x509: certificate has expired or is not yet valid\n"))) == 1
