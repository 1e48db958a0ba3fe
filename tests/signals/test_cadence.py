"""run.training-stalled: a training log that printed progress at a steady rhythm, then nothing for many steps."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from diagnose.objects import NOW, evidence, log, node, pod, stamp

from bot.models import Target
from bot.scope.hits import Hit
from bot.signals.cadence import step_seconds, training_stalled
from bot.signals.stages import INDEX
from signals.scenario import context_of


@pytest.mark.parametrize(("tail", "seconds"), [
    ("Global Step:   8%|8   | 88/1000 [1:00:08<10:23:12, 41.00s/it, rollout/rewards=0.402]", 41.0),
    ("Epoch 3:  45%|####5     | 450/1000 [03:00<03:40, 2.50it/s, loss=0.231]", 0.4),
    ("[2026-11-20 06:00:00,117][runner][INFO] - step 80: rollout/success_rate=0.200 time/step=12.5s", 12.5),
    ("2026-11-20T06:00:00Z step=10 loss=0.52\n2026-11-20T06:01:30Z step=11 loss=0.51\n"
     "2026-11-20T06:03:00Z step=12 loss=0.50\n", 90.0),
    ("I1120 06:00:00.000 trainer.py:88] Iteration 10 | loss 0.3\nI1120 06:05:00.000 trainer.py:88] Iteration 11 | "
     "loss 0.29\n", 300.0),
    ("no progress printed here\n", None),
])
def test_a_step_takes_what_the_log_itself_says(tail: str, seconds: float | None) -> None:
    assert step_seconds(tail, year=2026) == seconds


def _job(lines: list[str], *, running: bool = True) -> list[Any]:
    state = ({"running": {"startedAt": stamp(300)}} if running else
             {"terminated": {"exitCode": 0, "reason": "Completed", "startedAt": stamp(300), "finishedAt": stamp(1)}})
    p = pod("ppo-0", node_name="n1", phase="Running" if running else "Succeeded", created_minutes_ago=301,
            statuses=[{"name": "main", "state": state}])
    return [p, node("n1"), log("ppo-0", "\n".join(lines) + "\n")]


def _steps(last_minutes_ago: float, *, every: float = 1.0, n: int = 30) -> list[str]:
    out = []
    for i in range(n):
        at = NOW - timedelta(minutes=last_minutes_ago + (n - 1 - i) * every)
        out.append(f"[{at:%Y-%m-%d %H:%M:%S},000][runner][INFO] - step {i}: train/actor/policy_loss=-0.0{i:02d}")
    return out


def _stalled(objects: list[Any]) -> list[Hit]:
    return training_stalled(context_of(evidence(*objects), Target.parse("pod/ppo-0", "runners")))


def test_silent_for_many_steps_and_past_the_threshold_is_a_hang() -> None:
    at = NOW - timedelta(minutes=130)
    assert _stalled(_job([*_steps(91), f"[{NOW - timedelta(minutes=90):%Y-%m-%d %H:%M:%S},000][runner][INFO] - "
                                        "evaluating 100 episodes"])) == []  # within the training stall threshold
    [hit] = _stalled(_job([*_steps(131), f"[{at:%Y-%m-%d %H:%M:%S},000][runner][INFO] - syncing weights"]))
    assert hit.stage == INDEX["training-signal"] and hit.pod == "ci-a/runners/ppo-0"
    assert "syncing weights" in hit.evidence[0].text
    assert "about every 60s" in hit.evidence[1].text and "2h10m ago" in hit.evidence[1].text


def test_a_run_still_printing_is_not_hung() -> None:
    assert _stalled(_job(_steps(2))) == []


def test_slow_steps_need_as_many_steps_of_silence() -> None:
    # a step every 10 minutes: three hours of silence is eighteen steps, not yet a hang; four hours is
    assert _stalled(_job(_steps(180, every=10.0, n=12))) == []
    assert len(_stalled(_job(_steps(240, every=10.0, n=12)))) == 1


def test_a_container_that_ended_or_a_log_ending_on_an_error_is_not_this_signal() -> None:
    assert _stalled(_job(_steps(250), running=False)) == []
    assert _stalled(_job([*_steps(250), "RuntimeError: CUDA error: an illegal memory access was encountered"])) == []


def test_a_log_without_training_progress_is_not_this_signal() -> None:
    at = NOW - timedelta(minutes=200)
    assert _stalled(_job([f"[{at:%Y-%m-%d %H:%M:%S},000][runner][INFO] - loading the dataset"])) == []
