"""Past the row limit: the Head and the eventful pods keep their rows, the rest fold by role and phase."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.timeline.fold import select
from bot.timeline.model import Mark, MarkKind, Phase, Row, Segment, Span

T0 = datetime(2026, 11, 20, 5, 0, tzinfo=UTC)
END = T0 + timedelta(hours=2)


def healthy(name: str, role: str, *, minute: int) -> Row:
    created, running = T0 + timedelta(minutes=minute), T0 + timedelta(minutes=minute + 2)
    seg = Segment(uid=name, spans=[Span(Phase.CREATING, created, running), Span(Phase.RUNNING, running, END)])
    return Row(name=name, role=role, segments=[seg])


def test_rows_that_fit_are_all_kept() -> None:
    rows = [healthy(f"w-{i}", "rollout", minute=i) for i in range(50)]
    shown = select(rows, limit=50, end=END)
    assert shown.rows == rows and shown.folded == []


def test_past_the_limit_healthy_rows_fold_and_eventful_ones_stay() -> None:
    head = healthy("head-0", "head", minute=0)
    rows = [head] + [healthy(f"a-{i}", "rollout-a", minute=i % 7) for i in range(600)] + \
        [healthy(f"b-{i}", "rollout-b", minute=3) for i in range(400)]
    rows[10].segments[0].restarts = 2  # a-9 restarted
    rows[20].segments.insert(0, Segment(uid="old", current=False, spans=[Span(Phase.SEEN, T0, T0)]))  # replaced
    rows[30].segments[0].spans.append(Span(Phase.TERMINATED, END, END, "exit 1"))
    rows[40].segments[0].marks.append(Mark(MarkKind.ERROR, T0, "boom"))
    shown = select(rows, limit=50, end=END)
    assert [r.name for r in shown.rows] == ["head-0", "a-9", "a-19", "a-29", "a-39"]
    assert shown.folded_pods == len(rows) - 5
    groups = {(f.role, f.phase): f for f in shown.folded}
    assert set(groups) == {("rollout-a", "Running"), ("rollout-b", "Running")}
    assert groups[("rollout-a", "Running")].count == 596 and groups[("rollout-b", "Running")].count == 400
    b = groups[("rollout-b", "Running")].spans
    assert [(s.phase, s.start) for s in b] == [(Phase.CREATING, T0 + timedelta(minutes=3)),
                                              (Phase.RUNNING, T0 + timedelta(minutes=5))]


def test_the_limit_holds_when_every_row_is_eventful() -> None:
    rows = [healthy(f"w-{i}", "rollout", minute=1) for i in range(300)]
    for row in rows:
        row.segments[0].restarts = 1
    shown = select(rows, limit=50, end=END)
    assert len(shown.rows) == 50 and shown.folded_pods == 250
    assert [f.restarts for f in shown.folded] == [250]


def test_a_folded_group_of_restarted_pods_runs_again_after_its_wait() -> None:
    rows = [healthy("head-0", "head", minute=0)]
    for i in range(120):
        row = healthy(f"w-{i}", "rollout", minute=1)
        seg = row.segments[0]
        crash = T0 + timedelta(minutes=30 + i % 10)
        running = seg.spans[1]
        back = crash + timedelta(minutes=1)
        seg.spans[1:] = [Span(Phase.RUNNING, running.start, crash), Span(Phase.WAITING, crash, back),
                         Span(Phase.RUNNING, back, END)]
        seg.restarts = 1
        rows.append(row)
    shown = select(rows, limit=50, end=END)
    (group,) = shown.folded
    assert (group.role, group.phase, group.count, group.restarts) == ("rollout", "Running", 71, 71)
    # Folded: w-49 to w-119 (the Head and 49 restarted pods keep their rows); their crashes' median is minute 35.
    assert [(s.phase, s.start) for s in group.spans] == [
        (Phase.CREATING, T0 + timedelta(minutes=1)), (Phase.RUNNING, T0 + timedelta(minutes=3)),
        (Phase.WAITING, T0 + timedelta(minutes=35)), (Phase.RUNNING, T0 + timedelta(minutes=36))]
    assert group.spans[-1].end == END
