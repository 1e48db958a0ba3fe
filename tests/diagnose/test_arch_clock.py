"""Architecture and clock decided by comparing values from different objects, whatever the package or tool."""

from __future__ import annotations

import pytest

from bot.runbook import Runbook
from bot.signals.arch import foreign
from diagnose.objects import diagnose_pod, evidence, log, node, pod, stamp

FAILED = [{"name": "main", "state": {"terminated": {"exitCode": 1, "reason": "Error", "startedAt": stamp(3),
                                                   "finishedAt": stamp(2)}}}]


@pytest.mark.parametrize(("line", "node_arch", "built"), [
    ("ERROR: rpds_py-0.18.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl is not a supported wheel on "
     "this platform.", "arm64", "amd64"),
    ("Processing ./wheels/tokenizers-0.15.2-cp310-cp310-manylinux_2_17_aarch64.whl", "amd64", "arm64"),
    ("ImportError: /opt/venv/lib/python3.11/site-packages/pydantic_core/_pydantic_core.cpython-311-x86_64-linux-gnu.so:"
     " cannot open shared object file: No such file or directory", "arm64", "amd64"),
    ("WARNING: The requested image's platform (linux/arm64) does not match the detected host platform "
     "(linux/amd64/v3) and no specific platform was requested", "amd64", "arm64"),
    ("no matching manifest for linux/arm64/v8 in the manifest list entries", "amd64", "arm64"),
])
def test_a_native_line_naming_another_architecture(line: str, node_arch: str, built: str) -> None:
    assert foreign(line, node_arch) == built


@pytest.mark.parametrize(("line", "node_arch"), [
    ("Downloading numpy-1.26.4-cp311-cp311-manylinux_2_17_aarch64.whl (14.2 MB)", "arm64"),  # the node's own
    ("uname -m: x86_64", "arm64"),  # an architecture named, but nothing native loaded or failing
    ("ImportError: cannot import name 'foo' from 'bar'", "arm64"),
])
def test_lines_that_say_nothing_about_a_mismatch(line: str, node_arch: str) -> None:
    assert foreign(line, node_arch) == ""


@pytest.mark.parametrize(("arch", "line"), [
    ("arm64", "Processing ./dist/orjson-3.10.1-cp311-cp311-manylinux_2_17_x86_64.whl\n"
              "ImportError: orjson: cannot load native module\n"),
    ("amd64", "E   ImportError: libtorch_npu.so: cannot open shared object file (built for aarch64)\n"),
    ("arm64", "standard_init_linux.go:228: exec user process caused: exec format error\n"),
])
def test_the_pod_on_a_node_of_another_architecture_is_the_answer(runbook: Runbook, arch: str, line: str) -> None:
    p = pod("lint-0", node_name="n1", phase="Failed", statuses=FAILED)
    diag = diagnose_pod(runbook, evidence(p, node("n1", arch=arch), log("lint-0", line)), "lint-0")
    assert diag.findings[0].id == "pod.arch-mismatch"
    assert any(f"kubernetes.io/arch={arch}" in e.text for e in diag.findings[0].evidence)


def test_a_healthy_pod_is_not_judged(runbook: Runbook) -> None:
    p = pod("lint-0", node_name="n1", phase="Running",
            statuses=[{"name": "main", "state": {"running": {"startedAt": stamp(3)}}}])
    line = "Processing ./dist/orjson-3.10.1-cp311-cp311-manylinux_2_17_x86_64.whl\n"
    diag = diagnose_pod(runbook, evidence(p, node("n1", arch="arm64"), log("lint-0", line)), "lint-0")
    assert "pod.arch-mismatch" not in [f.id for f in diag.findings]


# ------------------------------------------------------------------------------------------------- clock

def test_a_container_started_before_its_pod_was_created_means_the_node_clock_is_behind(runbook: Runbook) -> None:
    statuses = [{"name": "main", "state": {"terminated": {"exitCode": 1, "reason": "Error", "startedAt": stamp(70),
                                                         "finishedAt": stamp(69)}}}]
    p = pod("build-0", node_name="n1", phase="Failed", statuses=statuses, created_minutes_ago=10)
    diag = diagnose_pod(runbook, evidence(p, node("n1")), "build-0")
    assert "ci.node.dns" in [f.id for f in diag.findings]
    assert any("clock is behind" in e.text for f in diag.findings for e in f.evidence)


@pytest.mark.parametrize(("first_line", "skewed"), [
    (f"{stamp(-30)} fetching https://github.com/acme/repo.git", True),  # half an hour in the future
    (f"[{stamp(-0.5)}] fetching https://github.com/acme/repo.git", False),  # within tolerance
    (f"{stamp(300)} fetching https://github.com/acme/repo.git", True),  # long before the pod existed
])
def test_log_times_against_the_capture_and_the_pods_creation(runbook: Runbook, first_line: str, skewed: bool) -> None:
    p = pod("build-0", node_name="n1", phase="Failed", statuses=FAILED, created_minutes_ago=10)
    text = first_line + "\nfatal: unable to access: SSL certificate problem\n"
    diag = diagnose_pod(runbook, evidence(p, node("n1"), log("build-0", text)), "build-0")
    found = any("node's clock" in e.text for f in diag.findings for e in f.evidence)
    assert found is skewed


def test_the_zero_time_of_a_container_that_never_ran_is_no_clock(runbook: Runbook) -> None:
    statuses = [{"name": "main", "state": {"terminated": {"exitCode": 128, "reason": "StartError",
                                                         "startedAt": "1970-01-01T00:00:00Z", "finishedAt": stamp(1)}}}]
    p = pod("runner-0", node_name="n1", phase="Failed", statuses=statuses)
    diag = diagnose_pod(runbook, evidence(p, node("n1")), "runner-0")
    assert "ci.node.dns" not in [f.id for f in diag.findings]
