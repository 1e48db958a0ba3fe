"""A run that went on to succeed: failures its logs showed on the way are warnings, never its error; a container's
recorded verdict, a failed job result or a pod that failed keep their severity."""

from __future__ import annotations

from typing import Any

import pytest

from bot.diagnose.result import Diagnosis
from bot.runbook import Runbook
from tests.diagnose.objects import diagnose_pod, evidence, log, node, pod

RUNNER = "cpu-8-x2k-runner-w3e7r"
BEFORE = ("2026-11-20T07:41:02Z Fetching the repository\n"
          "2026-11-20T07:41:05Z Traceback (most recent call last):\n"
          '2026-11-20T07:41:05Z   File "fetch.py", line 3, in <module>\n'
          "2026-11-20T07:41:05Z ModuleNotFoundError: No module named 'lfs_helper'\n"
          "2026-11-20T07:41:09Z Fetching the repository\n")


def _exit(code: int, reason: str = "Completed") -> dict[str, Any]:
    return {"name": "main", "ready": False, "restartCount": 0, "image": "busybox",
            "state": {"terminated": {"exitCode": code, "reason": reason,
                                     "startedAt": "2026-11-20T07:40:00Z", "finishedAt": "2026-11-20T07:50:00Z"}}}


def _running() -> dict[str, Any]:
    return {"name": "main", "ready": True, "restartCount": 0, "image": "busybox",
            "state": {"running": {"startedAt": "2026-11-20T07:40:00Z"}}}


def _diag(runbook: Runbook, text: str, *, phase: str, status: dict[str, Any]) -> Diagnosis:
    ev = evidence(node("n1"), pod(RUNNER, node_name="n1", phase=phase, statuses=[status]), log(RUNNER, text))
    diag: Diagnosis = diagnose_pod(runbook, ev, RUNNER)
    return diag


def _errors(diag: Diagnosis) -> list[str]:
    return [f.id for f in diag.findings if f.severity in ("critical", "error")]


@pytest.mark.parametrize("verdict", ["2026-11-20 07:49:41Z: Job lint completed with result: Succeeded",
                                     "2026-11-20 07:49:41Z: Job build (3.11, arm64) completed with result: Succeeded"])
def test_a_job_the_runner_says_succeeded_has_no_error(runbook: Runbook, verdict: str) -> None:
    failing = _diag(runbook, BEFORE, phase="Running", status=_running())
    assert _errors(failing), "the lines alone read as a failure"
    diag = _diag(runbook, BEFORE + verdict + "\n", phase="Succeeded", status=_exit(0))
    assert _errors(diag) == []
    outlived = [f for f in diag.findings if f.outlived]
    assert outlived and all(f.severity == "warning" for f in outlived)
    assert not diag.starting


@pytest.mark.parametrize("result", ["Failed", "Canceled"])
def test_a_job_the_runner_says_failed_keeps_its_error(runbook: Runbook, result: str) -> None:
    text = BEFORE + f"2026-11-20 07:49:41Z: Job lint completed with result: {result}\n"
    diag = _diag(runbook, text, phase="Succeeded", status=_exit(0))
    assert _errors(diag)
    assert not any(f.outlived for f in diag.findings)


def test_the_last_verdict_counts_when_a_runner_printed_two(runbook: Runbook) -> None:
    text = ("2026-11-20 07:30:00Z: Job lint completed with result: Succeeded\n" + BEFORE
            + "2026-11-20 07:49:41Z: Job test completed with result: Failed\n")
    assert _errors(_diag(runbook, text, phase="Succeeded", status=_exit(0)))


def test_a_pod_that_finished_with_every_container_at_zero_succeeded(runbook: Runbook) -> None:
    assert _errors(_diag(runbook, BEFORE, phase="Succeeded", status=_exit(0))) == []


@pytest.mark.parametrize(("phase", "status"), [("Failed", _exit(1, "Error")), ("Running", _running()),
                                                 ("Succeeded", _exit(137, "OOMKilled"))])
def test_without_a_stated_success_the_lines_are_the_failure(runbook: Runbook, phase: str,
                                                            status: dict[str, Any]) -> None:
    diag = _diag(runbook, BEFORE, phase=phase, status=status)
    assert _errors(diag)
    assert not any(f.outlived for f in diag.findings)


def test_the_note_says_the_run_went_on_in_each_language(runbook: Runbook) -> None:
    from bot.diagnose.outcome import describe_outlived

    diag = _diag(runbook, BEFORE, phase="Succeeded", status=_exit(0))
    f = next(f for f in diag.findings if f.outlived)
    assert "succeed" in describe_outlived(f, "en")
    assert "成功" in describe_outlived(f, "zh")


def test_a_case_that_says_the_success_is_wrong_keeps_its_error(runbook: Runbook) -> None:
    # rlark-jobs § 检查日志中的 Worker 退出码: 退出码非零时，应按失败处理 - even behind a wrapper's exit 0.
    assert runbook.cases["rlark.ray.worker-exit-nonzero"].overrides_success
    text = "2026-11-20T07:41:02Z Ray worker process exited with code 1\n2026-11-20T07:41:03Z done\n"
    diag = _diag(runbook, text, phase="Succeeded", status=_exit(0))
    assert "rlark.ray.worker-exit-nonzero" in _errors(diag)
