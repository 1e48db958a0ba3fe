"""The report's "first error" is the earliest cause the evidence shows, not the last line of a wait."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.bundle import read_bundle
from bot.diagnose import diagnose
from bot.diagnose.facts import retried_failure
from bot.models import LogExcerpt, LogSource, Target
from bot.redact import Redactor
from bot.runbook import Runbook
from bot.scope.logview import LogView

REPO = Path(__file__).resolve().parents[2]


def _view(text: str) -> LogView:
    source = LogSource(cluster="c", namespace="ns", pod="p", container="sidecar")
    return LogView(LogExcerpt(source=source, text=text), lambda _text, utf8=None: [])


@pytest.mark.parametrize("bundle", [REPO / "examples" / "ray-workers-never-join",
                                    REPO / "tests" / "scenarios" / "rlark-ray-head-unreachable-domain" / "bundle"])
def test_workers_waiting_for_the_head_point_at_the_sidecar_that_never_got_an_ip(runbook: Runbook,
                                                                                bundle: Path) -> None:
    evidence = read_bundle(bundle)
    assert evidence.captured_at is not None
    diag = diagnose(evidence, runbook, now=evidence.captured_at, target=Target.parse("job/ppo-franka-0412"),
                    redactor=Redactor())
    assert diag.findings and diag.findings[0].case.id == "rlark.ray.head-unreachable"
    first = diag.first_error
    assert first is not None
    assert first.source == "gpu-a/rlark-system/ppo-franka-0412-rollout-0:rlark-network-sidecar"
    assert first.line == 1 and "Failed to get pod IP from nodeserver" in first.text
    assert "Waiting for head" not in first.text


def test_a_retried_failure_is_found_and_benign_noise_is_not() -> None:
    text = ("step 1 error_rate=0.00, retrying the batch\n"
            "pip: will retry, fallback to the index\n"
            "2026-11-20T07:49:36Z INFO Failed to get pod IP from nodeserver, retrying\n"
            "2026-11-20T07:49:37Z INFO Failed to get pod IP from nodeserver, retrying\n")
    view = _view(text)
    pos = retried_failure(view)
    assert pos is not None and view.line_at(pos).number == 3


def test_no_retried_failure_in_a_quiet_log() -> None:
    assert retried_failure(_view("all good\nno errors\nretrying nothing\n")) is None
