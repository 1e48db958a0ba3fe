"""Every scenario bundle draws: spans in order, the Head on top, text and picture within their bounds."""

from __future__ import annotations

import yaml

from bot.bundle import read_bundle
from bot.models import Target
from bot.timeline import render_svg, render_text, timeline_of
from bot.timeline.svg import MAX_HEIGHT
from timeline.support import REDACTOR, SCENARIOS


def test_every_scenario_draws() -> None:
    drawn = 0
    for case in sorted(p for p in SCENARIOS.iterdir() if (p / "expect.yaml").is_file()):
        target = Target.parse(yaml.safe_load((case / "expect.yaml").read_text(encoding="utf-8"))["target"])
        evidence = read_bundle(case / "bundle")
        assert evidence.captured_at is not None, case.name
        tl = timeline_of(evidence, target, now=evidence.captured_at, redactor=REDACTOR)
        assert tl.start <= tl.end, case.name
        for row in tl.rows:
            for seg in row.segments:
                starts = [s.start for s in seg.spans]
                assert starts == sorted(starts) and all(s.start <= s.end for s in seg.spans), (case.name, row.name)
        heads = [i for i, row in enumerate(tl.rows) if row.is_head]
        assert heads in ([], [0]) or heads == list(range(len(heads))), case.name
        text = render_text(tl, redactor=REDACTOR)
        assert text.startswith(f"Timeline of {target}") and "[long value omitted]" not in text, case.name
        svg = render_svg(tl, redactor=REDACTOR)
        assert int(svg.split('height="', 1)[1].split('"', 1)[0]) <= MAX_HEIGHT
        drawn += 1
    assert drawn >= 100  # the scenario set, not an empty directory
