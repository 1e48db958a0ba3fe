"""A training run that went quiet: its log printed progress at a steady rhythm, then nothing for far longer.

A hang in a collective (a weight sync, an all-reduce, a broadcast to the rollout workers) prints no error and names
no culprit: every process waits on the others, the containers stay Running, and the log simply stops. What the log
does say is its own rhythm. The rate a progress bar prints ("41.00s/it", "2.5it/s", "time/step=41.0s"), or the
times stamped on consecutive progress lines, give how long a step takes; when the log's last line is older than
many steps (CADENCE_FACTOR of them) and than the training stall threshold (`Thresholds.training_stall_seconds`,
2 h: evaluation rollouts and checkpoint saves of large models print nothing for long stretches), with the
workload container still running, the run is hung. The silence is measured to when the log was read (the capture),
never past it: a bundle read later says nothing of what the log printed after.
Seed: rlark-jobs § 按错误类型排查: NCCL 初始化、socket、timeout 或 collective hang → 先确认全部 Ray Worker 已加入，
再核对通信网卡 - the hang the seeds name for a training job.

The tail of each training log is kept while the log is visited (`training_tail`), so the signal never reads a
released log again.
"""

from __future__ import annotations

import itertools
import re
import statistics
from typing import TYPE_CHECKING

from bot.scope.hits import EvidenceItem, Hit, age_text, clip
from bot.scope.lineclass import Kind, classify
from bot.scope.logtime import line_time, own_time
from bot.scope.logview import LogView
from bot.signals.base import WORKLOAD, SignalContext, running_since, signal
from bot.signals.stages import INDEX, TRAINING_SIGNAL, has_training_signal

if TYPE_CHECKING:
    pass

TAIL_CHARS = 8192  # the end of a training log kept for this signal
CADENCE_FACTOR = 20  # steps' worth of silence before a steady run counts as hung
_KEY = "training-tail"
RATE = re.compile(r"(\d+(?:\.\d+)?)\s*s/it\b|(\d+(?:\.\d+)?)\s*it/s\b|\btime/step\s*[=:]\s*(\d+(?:\.\d+)?)\s*s?\b")


def training_tail(view: LogView) -> str | None:
    """The last TAIL_CHARS of a workload's current log that printed training progress, else None; kept with the
    view (asked during the visit, while the text is at hand)."""
    if _KEY not in view.memo:
        src = view.excerpt.source
        start = view.markers.run if view.markers.run is not None else (None if view.markers.any else 0)
        keep = (not src.previous and src.container in WORKLOAD and start is not None
                and has_training_signal(view, start))
        view.memo[_KEY] = view.text[-TAIL_CHARS:] if keep else None
    tail: str | None = view.memo[_KEY]
    return tail


def step_seconds(tail: str, *, year: int) -> float | None:
    """How long one training step takes, by the log's own account: the rate the last progress line prints, else
    the median interval between progress lines that carry their own time stamps."""
    lines = [ln for ln in tail.replace("\r", "\n").splitlines() if TRAINING_SIGNAL.search(ln)]
    for ln in reversed(lines):
        m = RATE.search(ln)
        if m is not None:
            per_it, it_per_s, per_step = m.groups()
            value = float(per_it or per_step or 0) or (1 / float(it_per_s) if it_per_s and float(it_per_s) else 0)
            if value > 0:
                return value
    times = [t for ln in lines if (t := own_time(ln, year=year)) is not None]
    gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(times) if b > a]
    return statistics.median(gaps) if gaps else None


def _last_line(tail: str) -> int:
    end = len(tail.rstrip(" \t\r\n"))
    return max(tail.rfind("\n", 0, end), tail.rfind("\r", 0, end)) + 1


@signal("run.training-stalled")
def training_stalled(sc: SignalContext) -> list[Hit]:
    hits: list[Hit] = []
    for ctx in sc.scope.pods:
        view = ctx.main_log
        tail = training_tail(view) if view is not None else None
        if view is None or tail is None:
            continue
        started = running_since(ctx, view.excerpt.source.container)
        pos = _last_line(tail)
        last = line_time(tail, pos, year=sc.now.year)
        if started is None or last is None or last < started:
            continue  # not running, or no time to measure the silence from
        read = sc.scope.evidence.captured_at or sc.now  # the log ends where it was read, not where `now` is
        silent = (min(read, sc.now) - last).total_seconds()
        if silent < sc.thresholds.training_stall_seconds:
            continue  # the common case: the log was printing lately
        step = step_seconds(tail, year=sc.now.year)
        if silent < CADENCE_FACTOR * (step or 0.0):
            continue
        line = tail[pos:].strip().splitlines()[0] if tail[pos:].strip() else ""
        if classify(line) is Kind.ERROR:
            continue  # a log that ends on an error stopped because of it: that error is its own case
        rhythm = f"training printed a step about every {age_text(step)}" if step else "training had printed progress"
        items = [EvidenceItem(f"{ctx.key}:{view.excerpt.source.container}", f"the log stops here: {clip(line, 300)}"),
                 EvidenceItem(f"{ctx.key}:{view.excerpt.source.container}",
                              f"{rhythm}; nothing since {last:%Y-%m-%dT%H:%M:%SZ}, {age_text(silent)} ago, the "
                              "container still running and no error printed")]
        hits.append(Hit(items, pod=ctx.key, stage=INDEX["training-signal"], when=last))
    return hits
