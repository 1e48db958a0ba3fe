"""The text form, the SVG (golden files for a replacement, restarts and a Head never scheduled), the PNG, and
labels through the redactor."""

from __future__ import annotations

import os
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.timeline import render_svg, render_text
from bot.timeline.model import Mark, MarkKind, Phase, Row, Segment, Span, Timeline
from bot.timeline.raster import rasterise
from bot.timeline.svg import MAX_HEIGHT, PICTURE_ROWS, WIDTH, picture_rows
from bot.timeline.text import ROW_LIMIT
from timeline.support import GOLDEN, REDACTOR, png_size, timeline

GOLDEN_SCENARIOS = ["rlark-worker-replaced", "rlark-ray-worker-exit-nonzero", "rlark-head-pending-insufficient"]
UPDATE = os.environ.get("TIMELINE_UPDATE_GOLDEN") == "1"  # regenerate after a deliberate change, then review
TOKEN = "ghp_" + "R8x2Lq0vZ7mN4pK1sT9wY3cB6dF5gH2jA0eU"  # a GitHub token's shape


@pytest.mark.parametrize("scenario", GOLDEN_SCENARIOS)
def test_svg_matches_its_golden_file(scenario: str) -> None:
    svg = render_svg(timeline(scenario), redactor=REDACTOR)
    path = GOLDEN / f"{scenario}.svg"
    if UPDATE:
        path.write_text(svg, encoding="utf-8")
    assert svg == path.read_text(encoding="utf-8"), f"regenerate with TIMELINE_UPDATE_GOLDEN=1 and review {path}"


def test_golden_svgs_show_what_each_scenario_is_about() -> None:
    replaced = (GOLDEN / "rlark-worker-replaced.svg").read_text(encoding="utf-8")
    assert replaced.count('fill="#d0d0d0"') == 2  # the earlier instance's span, and its legend swatch
    assert "07:34:48 event: Evicted" in replaced and "×2" in replaced
    restarts = (GOLDEN / "rlark-ray-worker-exit-nonzero.svg").read_text(encoding="utf-8")
    assert "restart: exit 0 Completed" in restarts
    assert "First error-looking line 07:13:00Z on ppo-franka-0412-rollout-2 (log scan)" in restarts
    pending = (GOLDEN / "rlark-head-pending-insufficient.svg").read_text(encoding="utf-8")
    assert "Pending from 07:25:48 (Unschedulable)" in pending


def test_text_has_a_row_per_pod_and_says_what_it_shows() -> None:
    text = render_text(timeline("rlark-worker-replaced"), redactor=REDACTOR)
    lines = text.splitlines()
    assert lines[0].startswith("Timeline of job/ppo-franka-0412: 2026-11-20 05:30:00Z to 08:00:00Z (2h30m)")
    rows = [line for line in lines if line.startswith(("head ", "rollout "))]
    assert [r.split()[1] for r in rows] == ["ppo-franka-0412-actor-0", "ppo-franka-0412-rollout-0",
                                            "ppo-franka-0412-rollout-1", "ppo-franka-0412-rollout-2"]
    replaced = rows[2].split()[2]
    assert replaced.startswith("?") and "xR" in replaced and replaced.endswith("R")  # earlier, gone, the new one
    assert "uid 5a5737e0 on gpu-a-node-03: seen 05:31:30, Terminated 07:34:48 (Evicted)" in text
    assert "folded" not in text


def big(n: int, *, eventful: bool) -> Timeline:
    t0 = datetime(2026, 11, 20, 3, 0, tzinfo=UTC)
    end = t0 + timedelta(hours=5)
    rows = []
    for i in range(n):
        seg = Segment(uid=f"u{i}", spans=[Span(Phase.CREATING, t0, t0 + timedelta(minutes=1)),
                                          Span(Phase.RUNNING, t0 + timedelta(minutes=1), end)],
                      restarts=1 if eventful else 0)
        rows.append(Row(name=f"job-rollout-{i}", role="head" if i == 0 else "rollout", segments=[seg]))
    return Timeline(target="job/job", start=t0, end=end, rows=rows)


def test_text_folds_past_fifty_rows_and_says_how_many() -> None:
    text = render_text(big(1001, eventful=True), redactor=REDACTOR)
    rows = [line for line in text.splitlines() if line.startswith(("head ", "rollout "))]
    assert len(rows) == ROW_LIMIT + 1  # fifty pods, then one folded row (rollout, Running)
    assert "951 of 1001 pods folded into 1 row by role and phase" in text
    assert rows[-1].split()[:3] == ["rollout", "Running", "x951"]


@pytest.mark.parametrize("eventful", [True, False])
def test_a_thousand_pods_fit_the_picture(eventful: bool) -> None:
    tl = big(1001, eventful=eventful)
    shown = picture_rows(tl)
    assert len(shown.rows) == (PICTURE_ROWS if eventful else 1) and shown.folded_pods == 1001 - len(shown.rows)
    svg = render_svg(tl, redactor=REDACTOR)
    assert f"{shown.folded_pods} of 1001 pods folded" in svg
    width, height = png_size(rasterise(svg))
    assert width == WIDTH >= 800 and height <= MAX_HEIGHT


def test_png_decodes_at_the_svg_size() -> None:
    svg = render_svg(timeline("rlark-worker-replaced"), redactor=REDACTOR)
    width, height = png_size(rasterise(svg))
    assert (width, height) == (WIDTH, int(svg.split('height="', 1)[1].split('"', 1)[0]))
    assert 800 <= width <= 4000 and height <= 4000


def test_labels_pass_the_redactor() -> None:
    tl = timeline("rlark-ray-worker-exit-nonzero")
    assert tl.first_error is not None
    secret = replace(tl.first_error, label=f"login failed with token {TOKEN} " + "x" * 300)
    row = replace(tl.rows[1], notes=[f"evicted; ssh key {TOKEN}"], segments=list(tl.rows[1].segments))
    row.segments[-1] = replace(row.segments[-1], marks=[Mark(MarkKind.EVENT, tl.start, f"Killing {TOKEN}")],
                               node=f"node-{TOKEN}")
    tl2 = replace(tl, first_error=secret, rows=[tl.rows[0], row, *tl.rows[2:]])
    for out in (render_svg(tl2, redactor=REDACTOR), render_text(tl2, redactor=REDACTOR)):
        assert TOKEN not in out and TOKEN[:12] not in out
        assert "[REDACTED:" in out


def _one_label(text: str) -> str:
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="30" font-family="DejaVu Sans, WenQuanYi '
            f'Micro Hei, sans-serif"><rect width="200" height="30" fill="#fff"/><text x="5" y="20">{text}</text></svg>')


def test_labels_are_drawn_in_ascii_and_in_chinese_where_the_fonts_are() -> None:
    from bot.timeline.raster import FONT_DIRS

    blank = rasterise(_one_label(""))
    assert rasterise(_one_label("ppo-franka-0412-rollout-1")) != blank  # no font at all would draw nothing
    if not any(Path(d, "wqy-microhei.ttc").is_file() for d in FONT_DIRS):
        pytest.skip("no CJK font on this machine (the image ships WenQuanYi Micro Hei)")
    assert rasterise(_one_label("错误 急停")) != blank


def test_png_for_an_upload_is_the_picture_of_the_file() -> None:
    from bot.timeline import png_of

    tl = timeline("rlark-worker-replaced")
    assert png_of(tl, redactor=REDACTOR) == rasterise(render_svg(tl, redactor=REDACTOR))
