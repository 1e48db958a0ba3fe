"""Every scenario bundle under tests/scenarios is diagnosed and compared with its expect.yaml.

The bundles are written the way the real systems print (kubelet, containerd, Ray, NCCL, pip, ...), with
noise around the decisive lines; expect.yaml states the right first answer, what else must be found,
and what must not be (false-positive traps).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from scenario_expect import Expect, load_expect

from bot.bundle import read_bundle
from bot.checks import run_checks
from bot.diagnose.result import Diagnosis
from bot.models import parse_time
from bot.runbook import Runbook
from bot.settings import Thresholds

SCENARIOS = Path(__file__).parent / "scenarios"
CASES = sorted(p.parent.name for p in SCENARIOS.glob("*/expect.yaml"))

# Where the engine's answer and the scenario author's differ, said openly; strict, so a fix shows up.
KNOWN_DISAGREEMENTS = {
    "rlark-ray-wrapper-failed": "last_stage holds the job at the Head's stage (ray-cluster-forming) while a worker "
    "has not joined; the author expects the failing worker's own stage",
}




def _expect(name: str) -> Expect:
    return load_expect(SCENARIOS / name / "expect.yaml")


def test_there_are_scenarios() -> None:
    assert len(CASES) >= 60


@pytest.mark.parametrize("name", CASES)
def test_scenario(name: str, diagnosed: Callable[[str], Diagnosis], request: pytest.FixtureRequest) -> None:
    if name in KNOWN_DISAGREEMENTS:
        request.applymarker(pytest.mark.xfail(reason=KNOWN_DISAGREEMENTS[name], strict=True))
    exp = _expect(name)
    diag = diagnosed(name)  # the bundle diagnosed for exp.target as of its capture time (tests/conftest.py)
    assert diag.found, diag.where
    got = [f.id for f in diag.findings]
    summary = f"{name}: findings {got}, last_stage {diag.last_stage}"
    if exp.healthy:
        bad = [f.id for f in diag.findings if f.severity in ("critical", "error")]
        assert not bad, summary
    if exp.first is not None:
        assert got and got[0] == exp.first, summary
    for case in exp.includes:
        assert case in got, summary
    for case in exp.excludes:
        assert case not in got, summary
    if exp.last_stage is not None:
        assert diag.last_stage == exp.last_stage, summary
    if exp.incomplete is not None:
        assert diag.incomplete == exp.incomplete, summary
    if not got:
        assert diag.first_error is not None or diag.last_stage, summary


@pytest.mark.parametrize("name", [n for n in CASES if _expect(n).checks is not None])
def test_scheduled_checks(name: str) -> None:
    exp = _expect(name).checks
    assert exp is not None
    evidence = read_bundle(SCENARIOS / name / "bundle")
    now = parse_time(exp.now) or evidence.captured_at
    assert now is not None
    alerts = run_checks(evidence, now=now, thresholds=Thresholds())
    got = {(a.check, a.case, str(a.object)) for a in alerts}
    want = {(a.check, a.case, a.object) for a in exp.alerts}
    assert got == want
    assert len({a.key for a in alerts}) == len(alerts), "dedupe keys must be unique"


def test_every_case_has_a_scenario(runbook: Runbook) -> None:
    covered: set[str] = set()
    for name in CASES:
        exp = _expect(name)
        covered.update([exp.first or ""], exp.includes)
        covered.update(a.case for a in (exp.checks.alerts if exp.checks else []))
    assert set(runbook.cases) - covered == set()
