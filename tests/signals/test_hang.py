"""run.*-stalled: a running container whose log stopped at a step, judged against how long ago that was."""

from __future__ import annotations

from datetime import timedelta

from bot.settings import Thresholds
from bot.signals.hang import lock_wait_stalled, output_stalled, run_script_stalled
from signals.scenario import scenario, texts

HUNG = "pod-run-stale-lock-hang-filelock"


def test_a_log_stopped_on_a_lock_is_a_hang_once_the_wait_is_older_than_the_threshold() -> None:
    captured = scenario(HUNG)
    later = scenario(HUNG, now=captured.now + timedelta(seconds=Thresholds().log_stall_seconds))
    [hit] = lock_wait_stalled(later)
    assert "the log stops here" in texts([hit]) and "Lock" in texts([hit]) and "not acquired" in texts([hit])
    assert hit.pod is not None and hit.evidence[0].source.startswith(hit.pod)
    assert output_stalled(later) == [] and run_script_stalled(later) == [], "one step, one signal"


def test_the_same_log_at_capture_time_is_still_waiting() -> None:
    captured = scenario(HUNG)
    assert lock_wait_stalled(captured) == []
