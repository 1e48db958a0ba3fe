"""The survey's one scan keeps every candidate line of every runbook pattern (`bot.diagnose.logscan`): a rejected
candidate is followed by the next one it already found, with the answers of a scan that looks for each next
candidate again; past MAX_CANDIDATES a log is scanned the old way."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.diagnose import hsscan
from bot.diagnose.logscan import LogMatcher
from bot.models import LogExcerpt, LogSource
from bot.scope.logview import LogView
from bot.service import shipped_runbook

ROOT = Path(__file__).resolve().parents[1]
CONDS = [t.log for c in shipped_runbook().cases.values() for t in c.when if t.log is not None]
PLUGIN = "gpu-7:88:88 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.\n"
NOISE = "step 12 loss=0.31 error_rate=0.00 (0 failures)\n"
TEXTS = [
    PLUGIN + NOISE * 200 + "gpu-7:88:91 [0] NCCL WARN NET/Plugin: Failed to find ncclNetPlugin_v8 symbol.\n" * 3
    + NOISE * 50 + "gpu-7:88:91 [0] transport/net_ib.cc:1294 NCCL WARN NET/IB : Got completion with error 12\n"
    + NOISE * 10,
    "Traceback (most recent call last):\n  File \"x.py\", line 3\nRuntimeError: retrying (attempt 1/3)\n"
    + NOISE * 30 + "Executing prepare script...\nError: Ray CLI is not found\n",
    NOISE * 5,
    "",
]


def _logs() -> list[str]:
    """The texts above and every log of the examples: ASCII logs take the path that keeps every candidate."""
    bundled = [p.read_text(encoding="utf-8", errors="replace") for p in sorted((ROOT / "examples").rglob("*logs.txt"))]
    return TEXTS + bundled


def _answers(matcher: LogMatcher, text: str) -> dict[object, object]:
    view = LogView(LogExcerpt(source=LogSource(cluster="c", namespace="n", pod="p", container="main"), text=text),
                   lambda _, utf8=None: [])
    found, present = matcher.survey(view)
    return {"found": found, "present": present, **{k: v for k, v in view.memo.items()}}


def _rescanning() -> LogMatcher:
    old = LogMatcher(CONDS)
    old._all = None  # each next candidate looked for by a scan of the rest of the log, as without the keeping scan
    return old


def test_every_candidate_kept_gives_the_answers_of_looking_for_each_next_one() -> None:
    kept, old = LogMatcher(CONDS), _rescanning()
    assert kept._all is not None
    for text in _logs():
        assert _answers(kept, text) == _answers(old, text)
    nccl = _answers(kept, TEXTS[0])
    assert any(isinstance(v, int) and TEXTS[0][v:].startswith("NCCL WARN NET/IB") for v in nccl.values()), nccl


def test_a_log_with_more_candidates_than_kept_is_scanned_the_old_way(monkeypatch: pytest.MonkeyPatch) -> None:
    kept, old = LogMatcher(CONDS), _rescanning()
    monkeypatch.setattr(hsscan, "MAX_CANDIDATES", 2)
    data = TEXTS[0].encode()
    assert kept._all is not None and hsscan.every_end(kept._all, data, kept._once) is None
    assert _answers(kept, TEXTS[0]) == _answers(old, TEXTS[0])


def test_a_log_that_is_not_ascii_follows_a_rejected_candidate_from_its_bytes() -> None:
    """A log with multi-byte characters (tqdm's bars) before and after a rejected candidate: the next candidate
    is looked for in the bytes the survey holds, and found at the same character offset as in the text."""
    bar = "train 40%|\u2588\u2588\u2588\u2588      | 4/10 [\u9884\u8ba1 00:01]\n"
    text = bar + TEXTS[0].replace(NOISE, NOISE + bar, 40)
    matcher = LogMatcher(CONDS)
    answers = _answers(matcher, text)
    by_text = {key: matcher._first_match(cond, _view(text), answers["found"], None)  # type: ignore[arg-type]
               for key, cond in matcher._conds.items() if key in answers}
    assert by_text and all(answers[key] == at for key, at in by_text.items())
    assert any(isinstance(v, int) and text[v:].startswith("NCCL WARN NET/IB") for v in answers.values()), answers


def _view(text: str) -> LogView:
    return LogView(LogExcerpt(source=LogSource(cluster="c", namespace="n", pod="p", container="main"), text=text),
                   lambda _, utf8=None: [])
