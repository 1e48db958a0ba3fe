"""Hangs read from where a running log stopped and how long ago; a Head whose markers were rotated away."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.models import LogExcerpt, LogSource, Pod
from bot.scope.logview import LogView
from bot.scope.target import PodCtx
from bot.signals.hang import stall
from bot.signals.stages import INDEX, pod_stage

NOW = datetime(2026, 11, 20, 8, 0, tzinfo=UTC)
LIMIT = 3600


def _stamp(minutes_ago: float) -> str:
    return (NOW - timedelta(minutes=minutes_ago)).strftime("%Y-%m-%d %H:%M:%S,000")


def _ctx(text: str, *, started_min: float = 300, running: bool = True, container: str = "job") -> PodCtx:
    state: dict[str, Any] = ({"running": {"startedAt": (NOW - timedelta(minutes=started_min)).isoformat()}}
                             if running else {"terminated": {"exitCode": 0}})
    pod = Pod.model_validate({"metadata": {"name": "p", "namespace": "n"},
                              "spec": {"containers": [{"name": container}]},
                              "status": {"phase": "Running",
                                         "containerStatuses": [{"name": container, "state": state}]}})
    view = LogView(LogExcerpt(source=LogSource(cluster="c", namespace="n", pod="p", container=container), text=text),
                   lambda _t, utf8=None: [])
    return PodCtx(name="p", cluster="c", namespace="n", pod=pod, logs=[view])


@pytest.mark.parametrize(("last", "step"), [
    ("Using /root/.cache/torch_extensions/py311_cu121 as PyTorch extensions root...", "wait"),
    ("[INFO] waiting for the lock on /mnt/share/modelscope/.lock held by another process", "wait"),
    ("Loading checkpoint shards:  33%|███▎      | 1/3 [00:41<01:22, 41.20s/it]", "load"),
    ("Downloading shards: 100%|██████████| 4/4 [02:11<00:00, 32.9s/it]", "load"),
    ("INFO [core.py:77] Initializing a V1 LLM engine (v0.11.0) with config: model='Qwen/Qwen3-8B'", "load"),
    ("正在加载模型权重 ...", "load"),
    ("等待其他进程释放锁 /data/cache/.lock", "wait"),
])
def test_a_log_that_stopped_long_ago_at_a_step_is_a_hang(last: str, step: str) -> None:
    text = f"{_stamp(200)} INFO started\n{_stamp(180)} {last}\n"
    ctx = _ctx(text)
    found = stall(ctx, ctx.logs[0], now=NOW, limit=LIMIT)
    assert found is not None and found.step == step and found.stamped
    assert found.seconds == pytest.approx(180 * 60)


def test_a_step_younger_than_the_limit_is_still_starting() -> None:
    ctx = _ctx(f"{_stamp(12)} Loading checkpoint shards:  33%|███▎ | 1/3\n")
    assert stall(ctx, ctx.logs[0], now=NOW, limit=LIMIT) is None


def test_no_stamp_falls_back_to_when_the_container_started() -> None:
    long_running = _ctx("Using /root/.cache/torch_extensions/py311_cu121 as PyTorch extensions root...\n",
                        started_min=240)
    found = stall(long_running, long_running.logs[0], now=NOW, limit=LIMIT)
    assert found is not None and not found.stamped
    young = _ctx("Using /root/.cache/torch_extensions/py311_cu121 as PyTorch extensions root...\n", started_min=9)
    assert stall(young, young.logs[0], now=NOW, limit=LIMIT) is None


@pytest.mark.parametrize("last", [
    "RuntimeError: CUDA error: an illegal memory access was encountered",  # an error: its own case
    "Global Step:  12%|█▏ | 120/1000 [1:25:11<10:25:01, 43.1s/it, train/actor/policy_loss=-0.0112]",  # progress
    "Waiting for 3 nodes to join the Ray cluster...",  # the wrapper's own wait: its own signal
    "All done, shutting down",
])
def test_other_last_lines_are_not_hangs(last: str) -> None:
    ctx = _ctx(f"{_stamp(300)} {last}\n")
    assert stall(ctx, ctx.logs[0], now=NOW, limit=LIMIT) is None


def test_a_container_that_ended_is_not_hung() -> None:
    ctx = _ctx(f"{_stamp(300)} Loading checkpoint shards:  33%\n", running=False)
    assert stall(ctx, ctx.logs[0], now=NOW, limit=LIMIT) is None


def test_a_head_log_without_markers_but_with_training_steps_reached_training_signal() -> None:
    steps = "".join(f"Global Step: {i}/1000 [..., train/actor/policy_loss=-0.01{i}]\n" for i in range(1, 4))
    assert pod_stage(_ctx(steps, container="main")) == INDEX["training-signal"]
    epochs = "epoch 3 | iter 1200 | loss=0.4312 | lr=2e-5\n"
    assert pod_stage(_ctx(epochs, container="main")) == INDEX["training-signal"]
    plain = "starting the trainer\nreading config\n"
    assert pod_stage(_ctx(plain, container="main")) == INDEX["containers-started"]
