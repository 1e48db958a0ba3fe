"""The command's bundle read: only the kinds a timeline is drawn from, each log visited for its stages as the reader
reads it (`StageVisitor`). The picture and the text are the same as from a full read whose logs the timeline reads
again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

import bot.bundle.reader as reader_module
from bot.bundle import read_bundle
from bot.models import LogExcerpt, LogSource, Target
from bot.scope.logview import LogView
from bot.timeline import (
    TIMELINE_KINDS,
    StageVisitor,
    Visit,
    render_svg,
    render_text,
    timeline_of,
    visit_text,
    visits_of,
)
from bot.timeline.logs import stages_of
from timeline.support import REDACTOR, SCENARIOS

CASES = sorted(p for p in SCENARIOS.iterdir() if (p / "expect.yaml").is_file())


def _target(case: Path) -> Target:
    return Target.parse(yaml.safe_load((case / "expect.yaml").read_text(encoding="utf-8"))["target"])


@pytest.fixture
def share_every_bundle(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader_module, "MIN_SHARED_BYTES", 0)  # visit even a small bundle's logs as it is read


def _surveyed(bundle: Path, processes: int = 2) -> tuple[Any, dict[LogSource, Visit]]:
    evidence = read_bundle(bundle, processes=processes, kinds=TIMELINE_KINDS, visitor=StageVisitor())
    return evidence, visits_of(evidence.logs)


def _drawn(case: Path, *, surveyed: bool, processes: int = 2) -> tuple[str, str]:
    target = _target(case)
    if surveyed:
        evidence, visits = _surveyed(case / "bundle", processes)
    else:
        evidence, visits = read_bundle(case / "bundle"), None
    assert evidence.captured_at is not None
    tl = timeline_of(evidence, target, now=evidence.captured_at, redactor=REDACTOR, visits=visits)
    return render_text(tl, redactor=REDACTOR), render_svg(tl, redactor=REDACTOR)


@pytest.mark.usefixtures("share_every_bundle")
def test_every_scenario_draws_the_same_from_the_timeline_read() -> None:
    stages_seen = visited = 0
    for case in CASES:
        full = _drawn(case, surveyed=False)
        visited += bool(_surveyed(case / "bundle")[1])  # the logs were visited as they were read
        assert _drawn(case, surveyed=True) == full, case.name
        stages_seen += "run-script" in full[0] or "rank-assigned" in full[0]
    assert len(CASES) >= 100 and stages_seen >= 50 and visited >= 100  # the scenario set, stages to place


@pytest.mark.usefixtures("share_every_bundle")
@pytest.mark.parametrize("name", ["rlark-worker-replaced", "rlark-ray-worker-exit-nonzero", "healthy-ppo-four-nodes"])
def test_logs_visited_by_three_processes_draw_the_same(name: str) -> None:
    case = SCENARIOS / name
    assert _drawn(case, surveyed=True, processes=3) == _drawn(case, surveyed=False)


def test_only_the_kinds_asked_for_are_read_and_the_others_are_not_called_missing() -> None:
    bundle = SCENARIOS / "rlark-worker-replaced" / "bundle"
    full = read_bundle(bundle)
    some = read_bundle(bundle, kinds=TIMELINE_KINDS)
    assert full.nodes and full.rlark_nodes and not some.nodes and not some.rlark_nodes
    assert some.pods == full.pods and some.events == full.events and some.pod_mirrors == full.pod_mirrors
    assert some.jobs == full.jobs and some.tasks == full.tasks
    assert [x.source for x in some.logs] == [x.source for x in full.logs]
    assert not any(m.kind in ("nodes", "nodes.rlinf.io", "leases") for m in some.not_collected)
    assert {m.where for m in some.not_collected} <= {m.where for m in full.not_collected}


def test_a_kind_asked_for_and_absent_is_still_not_collected(tmp_path: Path) -> None:
    (tmp_path / "ns").mkdir()
    (tmp_path / "ns" / "pods.json").write_text('{"kind": "PodList", "items": []}', encoding="utf-8")
    ev = read_bundle(tmp_path, kinds={"pods", "events"})
    assert [m.kind for m in ev.not_collected] == ["events"]


class _Lengths:
    token = "lengths"

    def wants(self, source: LogSource) -> bool:
        return source.container == "main"

    def visit(self, excerpt: LogExcerpt) -> int:
        return len(excerpt.text)


@pytest.mark.usefixtures("share_every_bundle")
def test_each_log_section_is_visited_with_its_text_and_kept_for_its_visitor_only() -> None:
    evidence = read_bundle(SCENARIOS / "rlark-ray-worker-exit-nonzero" / "bundle", processes=2, visitor=_Lengths())
    mains = [x for x in evidence.logs if x.source.container == "main"]
    assert mains and all(x.ahead("lengths") == len(x.text) for x in mains)
    assert all(x.ahead("lengths") is None for x in evidence.logs if x.source.container != "main")
    assert all(x.ahead(StageVisitor.token) is None for x in evidence.logs)


def test_a_visit_places_each_stage_at_the_time_its_full_log_gives() -> None:
    evidence = read_bundle(SCENARIOS / "rlark-ray-worker-exit-nonzero" / "bundle")
    placed = 0
    for excerpt in evidence.logs:
        visit: Visit = visit_text(excerpt.source, excerpt.text, None)
        stages = visit.stages_at(year=2026)
        assert stages == stages_of(LogView(excerpt, REDACTOR.scan), year=2026)
        assert all(len(window) < len(excerpt.text) or len(excerpt.text) < 4096 for _, window, _ in visit.stages)
        placed += sum(s.at is not None for s in stages)
    assert placed > 0


@pytest.mark.usefixtures("share_every_bundle")
def test_a_log_the_reader_did_not_visit_is_read_for_its_stages() -> None:
    case = SCENARIOS / "rlark-ray-worker-exit-nonzero"
    evidence, visits = _surveyed(case / "bundle")
    mains = [s for s in visits if s.container == "main"]
    assert len(mains) >= 2
    partial = {s: v for s, v in visits.items() if s != mains[0]}
    assert evidence.captured_at is not None
    tl = timeline_of(evidence, _target(case), now=evidence.captured_at, redactor=REDACTOR, visits=partial)
    assert (render_text(tl, redactor=REDACTOR), render_svg(tl, redactor=REDACTOR)) == _drawn(case, surveyed=False)
