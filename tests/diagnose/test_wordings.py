"""Each case's log patterns over many real wordings (tests/diagnose/wordings/cases.yaml), through the engine's own
matcher (Hyperscan prefilter, `re`, the line's values); and the safety case read by values in a whole bundle."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from bot.bundle import read_bundle
from bot.diagnose import diagnose
from bot.diagnose.logscan import LogMatcher
from bot.models import LogExcerpt, LogSource, Target
from bot.redact import Redactor
from bot.runbook import Runbook
from bot.runbook.schema import Case
from bot.scope.logview import LogView

REPO = Path(__file__).resolve().parents[2]
WORDINGS = yaml.safe_load((Path(__file__).parent / "wordings" / "cases.yaml").read_text(encoding="utf-8"))


def _matches(case: Case, line: str, container: str, matcher: LogMatcher) -> bool:
    view = LogView(LogExcerpt(source=LogSource(cluster="c", namespace="n", pod="p", container=container),
                              text=f"starting\n{line}\ndone\n"), lambda _t, utf8=None: [])
    found, _present = matcher.survey(view)
    for trigger in case.when:
        cond = trigger.log
        if cond is None or (cond.container is not None and not cond.container.search(container)):
            continue
        if matcher.first_match(cond, view, candidates=found) is not None:
            return True
    return False


@pytest.fixture(scope="module")
def matcher(runbook: Runbook) -> LogMatcher:
    return LogMatcher(t.log for c in runbook.cases.values() for t in c.when if t.log is not None)


CASES = [(cid, kind, line) for cid, spec in WORDINGS.items() for kind in ("match", "not") for line in spec[kind]]


def test_at_least_five_wordings_each_way() -> None:
    for cid, spec in WORDINGS.items():
        assert len(spec["match"]) >= 5 and len(spec["not"]) >= 5, cid


@pytest.mark.parametrize(("case_id", "kind", "line"), CASES, ids=[f"{c}-{k}-{i}" for i, (c, k, _) in enumerate(CASES)])
def test_wording(runbook: Runbook, matcher: LogMatcher, case_id: str, kind: str, line: str) -> None:
    case = runbook.cases[case_id]
    assert _matches(case, line, WORDINGS[case_id]["container"], matcher) is (kind == "match")


def test_hccl_in_a_ci_container_stays_the_ci_case(runbook: Runbook, matcher: LogMatcher) -> None:
    line = "EI0019: Communication_Error_Bind_IP_Port(EI0019): The IP and port have been bound already."
    assert _matches(runbook.cases["ci.comm.hccl-port"], line, "job", matcher)
    assert not _matches(runbook.cases["ci.comm.hccl-port"], line, "main", matcher)
    assert not _matches(runbook.cases["rlark.run.nccl"], line, "job", matcher)


def _with_head_lines(tmp_path: Path, lines: str) -> Path:
    """A copy of a healthy bundle whose Head prints `lines` among its training steps."""
    src = REPO / "tests" / "scenarios" / "healthy-ppo-four-nodes" / "bundle"
    dst = tmp_path / "bundle"
    shutil.copytree(src, dst)
    head = next(dst.rglob("ppo-franka-0412-actor-0/logs.txt"))
    text = head.read_text(encoding="utf-8")
    at = text.index("Global Step")
    head.write_text(text[:at] + lines + text[at:], encoding="utf-8")
    return dst


def _findings(bundle: Path, runbook: Runbook) -> list[str]:
    evidence = read_bundle(bundle)
    assert evidence.captured_at is not None
    diag = diagnose(evidence, runbook, now=evidence.captured_at, target=Target.parse("job/ppo-franka-0412"),
                    redactor=Redactor())
    return [f.case.id for f in diag.findings]


def test_a_safety_counter_at_zero_is_no_safety_event(runbook: Runbook, tmp_path: Path) -> None:
    zero = ("[robot_monitor] step=120 estop_triggered=0 reflex_count=0 comm_errors=0\n"
            "[robot_monitor] emergency stop triggered: 0 times, protective_stop_active=False\n")
    assert "rlark.run.robot-device" not in _findings(_with_head_lines(tmp_path / "zero", zero), runbook)


def test_a_real_safety_event_still_ranks_first(runbook: Runbook, tmp_path: Path) -> None:
    real = ("[robot_monitor] step=120 estop_triggered=0 reflex_count=0 comm_errors=0\n"
            "[robot_driver] ERROR emergency stop triggered by operator on arm_left\n")
    found = _findings(_with_head_lines(tmp_path / "real", real), runbook)
    assert found and found[0] == "rlark.run.robot-device"
