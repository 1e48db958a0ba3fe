"""A target's logs visited while its bundle is read (`bot.diagnose.survey.VisitAhead`, passed to `read_bundle`)
give the diagnosis one process gives, byte for byte, and are not visited again by it.

Each case runs in a fresh interpreter, as in tests/test_forked.py: a test worker has other threads, and no helper
is forked then."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from bot.models import LogSource, Target
from bot.redact import Redactor

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = sorted(p / "bundle" for p in (REPO / "tests" / "scenarios").iterdir() if (p / "expect.yaml").is_file())
# Every example, and every fifth scenario (others than tests/test_forked.py's): jobs, pods, runners, previous logs.
BUNDLES = sorted(p for p in (REPO / "examples").iterdir() if (p / "TARGET").is_file()) + SCENARIOS[1::5]


def _run(script: str) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], cwd=REPO, capture_output=True, text=True,
                          timeout=240)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out: dict[str, object] = json.loads(proc.stdout)
    return out


def test_visits_ahead_diagnose_every_bundle_exactly_as_one_process_and_are_not_repeated() -> None:
    out = _run("""
        import json, os
        from pathlib import Path
        import yaml
        import bot.bundle.reader as reader
        import bot.diagnose.survey as survey
        from bot.bundle import read_bundle
        from bot.cache import FileCache, default_cache_dir
        from bot.diagnose import diagnose
        from bot.diagnose.engine import matcher_of, prepare
        from bot.diagnose.survey import VisitAhead
        from bot.models import Target
        from bot.redact import Redactor
        from bot.render import render_diagnosis
        from bot.service import shipped_runbook

        redactor, runbook = Redactor(), shipped_runbook()
        prepare(runbook, cache=FileCache(default_cache_dir()))
        me, visits = os.getpid(), {"here": 0}
        plain_visit = survey.visit

        def counted(*args):
            if os.getpid() == me:
                visits["here"] += 1
            return plain_visit(*args)

        survey.visit = counted

        def report(bundle, processes, ahead):
            target = Target.parse((bundle / "TARGET").read_text().strip() if (bundle / "TARGET").is_file()
                                  else yaml.safe_load((bundle.parent / "expect.yaml").read_text())["target"])
            visitor = VisitAhead(matcher_of(runbook), redactor.scan, target) if ahead else None
            evidence = read_bundle(bundle, processes=processes, visitor=visitor)
            visits["here"] = 0
            diag = diagnose(evidence, runbook, now=evidence.captured_at, target=target, redactor=redactor,
                            processes=processes)
            return str(render_diagnosis(diag, "json", redactor=redactor)), visits["here"]

        differ, revisited, seen = [], [], 0
        for b in map(Path, BUNDLES):
            alone, _ = report(b, 1, False)
            reader.MIN_SHARED_BYTES = 0
            ahead, again = report(b, 2, True)
            reader.MIN_SHARED_BYTES = 32 << 20
            plain, visited = report(b, 1, False)
            seen += visited
            if alone != ahead:
                differ.append(b.name)
            if again >= visited > 0:
                revisited.append(b.name)
        print(json.dumps({"bundles": len(BUNDLES), "differ": differ, "revisited": revisited, "visits": seen}))
    """.replace("BUNDLES", json.dumps([str(b) for b in BUNDLES])))
    assert out["bundles"] == len(BUNDLES) and out["differ"] == [] and out["revisited"] == []
    assert isinstance(out["visits"], int) and out["visits"] > len(BUNDLES)


def test_a_visit_is_given_back_to_the_visitor_that_made_it_only() -> None:
    from bot.diagnose.engine import matcher_of
    from bot.diagnose.survey import VisitAhead, survey_logs
    from bot.models import LogExcerpt
    from bot.scope.logview import LogView
    from bot.service import shipped_runbook

    matcher, redactor = matcher_of(shipped_runbook()), Redactor()
    source = LogSource(cluster="c", namespace="ns", pod="job-a-worker-0", container="main")
    excerpt = LogExcerpt(source=source, text="NCCL WARN Call to connect returned Connection refused\n")
    visitor = VisitAhead(matcher, redactor.scan, Target.parse("job/job-a"))
    assert visitor.wants(source) and not visitor.wants(source.model_copy(update={"pod": "job-b-worker-0"}))
    excerpt.visited_ahead(visitor.token, visitor.visit(excerpt))
    assert excerpt.ahead(visitor.token) is not None
    other = Redactor()  # another redactor (other settings): its own visit, not this one
    assert excerpt.ahead(VisitAhead(matcher, other.scan, Target.parse("job/job-a")).token) is None
    view = LogView(excerpt, redactor.scan)
    found = survey_logs(matcher, [view])[id(view)]
    fresh = LogView(LogExcerpt(source=source, text=excerpt.text), redactor.scan)
    assert found == survey_logs(matcher, [fresh])[id(fresh)] and found
    assert view.markers == fresh.markers and view.detections == fresh.detections
