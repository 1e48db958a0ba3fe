"""The line classifier over many real wordings (tests/scope/wordings/lines.yaml), and the look-ahead of a retry."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from bot.scope.lineclass import (
    Kind,
    classify,
    is_failure,
    not_a_failure,
    only_zero,
    quoted_in_command,
    succeeded_later,
    zero_stripped,
)

WORDINGS = yaml.safe_load((Path(__file__).parent / "wordings" / "lines.yaml").read_text(encoding="utf-8"))
KINDS = {"error": Kind.ERROR, "zero": Kind.ZERO, "expected": Kind.EXPECTED, "success": Kind.SUCCESS,
         "retry": Kind.RETRY, "warning": Kind.WARNING}
CASES = [(kind, line) for kind, lines in WORDINGS.items() for line in lines]


def test_the_fixture_has_many_wordings_of_each_kind() -> None:
    assert set(WORDINGS) == set(KINDS)
    assert all(len(lines) >= 4 for lines in WORDINGS.values())
    assert len(CASES) >= 90


@pytest.mark.parametrize(("kind", "line"), CASES, ids=[f"{k}-{i}" for i, (k, _) in enumerate(CASES)])
def test_classify(kind: str, line: str) -> None:
    assert classify(line) is KINDS[kind]
    assert is_failure(line) == (kind == "error")


def test_zero_stripped_keeps_offsets_and_what_is_not_zero() -> None:
    line = "step=3 comm_errors=0 loss=0.25 failed=2"
    out = zero_stripped(line)
    assert len(out) == len(line)
    assert "comm_errors" not in out and "failed=2" in out and "loss=0.25" in out


@pytest.mark.parametrize("line", ["robot status: estop_triggered=0", "emergency stop triggered: 0 times",
                                  "[safety] estop triggered count: 0, reflex: 0"])
def test_a_safety_pattern_found_only_in_zero_counters(line: str) -> None:
    pattern = re.compile(r"(?i)(emergency stop|e-stop|estop)[^\n]*(pressed|triggered|engaged|active)")
    assert pattern.search(line)
    assert only_zero(line, pattern)


def test_a_real_safety_event_is_not_a_zero_counter() -> None:
    pattern = re.compile(r"(?i)(emergency stop|e-stop|estop)[^\n]*(pressed|triggered|engaged|active)")
    for line in ("emergency stop triggered on arm 2 (estop count: 1)", "E-stop pressed; 0 motions pending"):
        assert not only_zero(line, pattern), line


def _ends(text: str, needle: str) -> int:
    start = text.index(needle)
    return text.index("\n", start)


def test_a_retry_followed_by_success_several_lines_later() -> None:
    text = ("Collecting torch\n"
            "WARNING: Retrying (Retry(total=4)) after connection broken by 'ReadTimeoutError(Read timed out.)'\n"
            "  Downloading torch-2.3.0-cp311-cp311-manylinux1_x86_64.whl (779.1 MB)\n"
            "Installing collected packages: torch\n"
            "Successfully installed torch-2.3.0\n")
    assert succeeded_later(text, _ends(text, "WARNING: Retrying"))


def test_a_retry_followed_by_a_failure_or_by_nothing() -> None:
    failed = ("WARNING: Retrying (Retry(total=0)) after connection broken by 'ReadTimeoutError'\n"
              "ERROR: Could not install packages due to an OSError: Max retries exceeded\n"
              "Successfully installed nothing\n")
    assert not succeeded_later(failed, _ends(failed, "WARNING: Retrying"))
    ended = "Connection to head timed out, retrying in 5 seconds (attempt 2 of 10)\n"
    assert not succeeded_later(ended, _ends(ended, "retrying"))


DISK_FULL = re.compile(r"(?i)no space left on device|\bEI0019\b|CUDA out of memory")


@pytest.mark.parametrize("line", [
    "+ grep -q 'No space left on device' /tmp/logs/build.log",
    "++ grep -E \"EI0019|CUDA out of memory\" train.log",
    "##[group]Run grep -c 'CUDA out of memory' logs/*.txt || true",
    "assert 'No space left on device' in str(excinfo.value)",
])
def test_words_a_command_looks_for_are_not_failures(line: str) -> None:
    assert quoted_in_command(line, DISK_FULL)
    assert not_a_failure(line, DISK_FULL)


@pytest.mark.parametrize("line", [
    "cp: error writing '/data/ckpt/model.pt': No space left on device",
    "+ cp model.pt /data/ckpt/  # failed: No space left on device",
    "OSError: [Errno 28] No space left on device: '/tmp/x'",
])
def test_failures_that_merely_sit_near_quotes_are_failures(line: str) -> None:
    assert not quoted_in_command(line, DISK_FULL)
    assert not not_a_failure(line, DISK_FULL)


HOST_OOM = re.compile(r"(aclrtMallocHostWithCfg|Memory_Allocation_Failure|\bEL0004\b|error code is 207001)")


@pytest.mark.parametrize("line", [
    "FAILED tests/ut/test_error_codes.py::test_map[EL0004] - AssertionError: assert 'user' == 'host'",
    "tests/ut/test_host.py::test_aclrtMallocHostWithCfg_fallback FAILED                 [ 42%]",
    "ERROR tests/e2e/test_serving.py::test_oom[EL0004-aclrtMallocHostWithCfg] - fixture 'npu' not found",
    "=========== 1 failed: test_Memory_Allocation_Failure_is_mapped ===========",
])
def test_words_that_only_name_a_test_are_not_that_failure(line: str) -> None:
    from bot.scope.lineclass import named_in_test_id, not_a_failure

    assert named_in_test_id(line, HOST_OOM) and not_a_failure(line, HOST_OOM)


@pytest.mark.parametrize("line", [
    "RuntimeError: aclrtMallocHostWithCfg failed, error code is 207001 (in test_serving)",
    "E   RuntimeError: EL0004: Memory_Allocation_Failure",
    "tests/e2e/test_serving.py:88: RuntimeError: aclrtMallocHostWithCfg failed, error code is 207001",
])
def test_the_failure_itself_beside_a_test_name_still_counts(line: str) -> None:
    from bot.scope.lineclass import named_in_test_id

    assert not named_in_test_id(line, HOST_OOM)
