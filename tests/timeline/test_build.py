"""Rows, segments and marks built from scenario bundles: the objects' own times, replacements, restarts, pods
that were never scheduled and Tasks that have no pod."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.timeline.model import MarkKind, Phase
from timeline.support import timeline


def at(hms: str) -> datetime:
    return datetime.fromisoformat(f"2026-11-20T{hms}").replace(tzinfo=UTC)


def test_the_head_comes_first_then_workers_by_ordinal() -> None:
    tl = timeline("rlark-worker-replaced")
    assert [r.name for r in tl.rows] == ["ppo-franka-0412-actor-0", "ppo-franka-0412-rollout-0",
                                         "ppo-franka-0412-rollout-1", "ppo-franka-0412-rollout-2"]
    assert [r.role for r in tl.rows] == ["head", "rollout", "rollout", "rollout"]


def test_a_replaced_worker_keeps_its_row_with_a_segment_per_uid() -> None:
    row = next(r for r in timeline("rlark-worker-replaced").rows if r.name.endswith("rollout-1"))
    earlier, current = row.segments
    assert row.replaced and not earlier.current and current.current
    assert earlier.uid == "5a5737e0-d530-5139-93a7-bd1f78cfd550" and earlier.node == "gpu-a-node-03"
    assert current.uid == "6a9e53f6-de5a-589a-86b3-06c3f1e481d0" and current.node == "gpu-a-node-07"
    # Known from its mirror (created 05:31:30) and its events: evicted at 07:34:48, gone when the next one came.
    assert earlier.spans[0].start == at("05:31:30")
    assert [(s.phase, s.start, s.end, s.note) for s in earlier.spans[1:]] == [
        (Phase.TERMINATED, at("07:34:48"), at("07:35:36"), "Evicted")]
    assert [(m.kind, m.at, m.label) for m in earlier.marks] == [(MarkKind.EVENT, at("07:34:48"), "Evicted")]
    assert current.spans[0].start == at("07:35:36") and current.phase is Phase.RUNNING
    assert any("seen as 2 pods" in note for note in row.notes)  # the rlark.worker.replaced evidence
    assert tl_counts("rlark-worker-replaced") == (4, 1, 0)


def tl_counts(scenario: str) -> tuple[int, int, int]:
    tl = timeline(scenario)
    return tl.pods, tl.replaced, tl.restarted


def test_a_restart_is_a_tick_with_the_wait_before_the_next_run() -> None:
    tl = timeline("rlark-ray-worker-exit-nonzero")
    row = next(r for r in tl.rows if r.name.endswith("rollout-2"))
    seg = row.segments[-1]
    assert seg.restarts == 1 and row.segments == [seg]
    assert [(s.phase, s.start) for s in seg.spans] == [
        (Phase.CREATING, at("06:01:00")), (Phase.RUNNING, at("06:01:02")), (Phase.WAITING, at("07:13:36")),
        (Phase.RUNNING, at("07:13:48"))]
    assert [(m.at, m.label) for m in seg.marks if m.kind is MarkKind.RESTART] == [(at("07:13:36"),
                                                                                    "exit 0 Completed")]
    assert seg.earlier_stages[-1] == "worker-exit 1"  # the previous container's wrapper saw Ray exit 1
    assert tl.first_error is not None and tl.first_error.first and tl.first_error.at == at("07:13:00")
    assert tl.first_error_pod == row.name and "killed due to memory pressure" in tl.first_error.label
    assert tl_counts("rlark-ray-worker-exit-nonzero") == (4, 0, 1)


def test_a_head_never_scheduled_is_pending_to_the_end() -> None:
    tl = timeline("rlark-head-pending-insufficient")
    head = tl.rows[0]
    assert head.is_head and len(head.segments) == 1
    assert [(s.phase, s.start, s.end, s.note) for s in head.segments[0].spans] == [
        (Phase.PENDING, at("07:25:48"), at("08:00:00"), "Unschedulable")]
    assert head.segments[0].stages == []  # it never ran: no wrapper stage


def test_a_task_without_pods_gets_a_row_saying_so() -> None:
    tl = timeline("rlark-task-unrouted")
    empty = [r for r in tl.rows if not r.segments]
    assert empty and all(r.notes and r.notes[0].startswith("no pod: Task phase") for r in empty)
    assert any("not routed" in r.notes[0] for r in empty)


def test_job_and_task_phase_changes_are_on_top() -> None:
    tl = timeline("rlark-worker-replaced")
    job, *tasks = tl.top
    assert job.kind == "Job" and job.phase == "Running"
    assert [(m.at, m.label) for m in job.marks] == [(at("05:30:00"), "submitted"), (at("05:30:00"), "started")]
    assert [t.name for t in tasks] == ["ppo-franka-0412-actor", "ppo-franka-0412-rollout"]
    assert all(t.kind == "Task" and t.detail == "gpu-a" for t in tasks)
    assert [m.label for m in tasks[0].marks] == ["created", "started"]


def test_the_picture_spans_from_the_first_time_to_capture() -> None:
    tl = timeline("rlark-worker-replaced")
    assert (tl.start, tl.end) == (at("05:30:00"), at("08:00:00"))


def test_a_diagnosis_first_error_is_placed_at_its_line_time() -> None:
    from bot.bundle import read_bundle
    from bot.diagnose.result import FirstError
    from bot.models import Target
    from bot.timeline import timeline_of
    from timeline.support import REDACTOR, SCENARIOS

    evidence = read_bundle(SCENARIOS / "rlark-ray-worker-exit-nonzero" / "bundle")
    source = "gpu-a/rlark-system/ppo-franka-0412-rollout-2:main (previous)"
    text = next(x for x in evidence.logs if x.source.ref() == source).text
    line = 1 + text[:text.index("killed due to memory pressure")].count("\n")
    target, now = Target.parse("job/ppo-franka-0412"), at("08:00:00")
    tl = timeline_of(evidence, target, now=now, redactor=REDACTOR, first_error=FirstError(source, line, "OOM"))
    assert tl.first_error_from == "diagnosis" and tl.first_error is not None
    assert (tl.first_error.at, tl.first_error.label, tl.first_error_pod) == (at("07:13:00"), "OOM",
                                                                             "ppo-franka-0412-rollout-2")
    # Only the diagnosis's error is marked: no log scan of the failing pods then.
    assert [m for r in tl.rows for s in r.segments for m in s.marks if m.kind is MarkKind.ERROR] == [tl.first_error]
    unnumbered = timeline_of(evidence, target, now=now, redactor=REDACTOR, first_error=FirstError(source, None, "x"))
    assert unnumbered.first_error is None and unnumbered.first_error_from == "diagnosis"


def test_a_log_is_read_once_for_stages_and_what_it_holds_is_kept() -> None:
    from bot.bundle import read_bundle
    from bot.models import LogExcerpt, Target
    from bot.scope.logview import DEAD_NODE_LITERALS
    from bot.scope.target import scope_evidence
    from bot.timeline.build import build_timeline
    from timeline.support import REDACTOR, SCENARIOS

    evidence = read_bundle(SCENARIOS / "rlark-worker-replaced" / "bundle")
    scope = scope_evidence(evidence, Target.parse("job/ppo-franka-0412"), scan=REDACTOR.scan)
    build_timeline(scope, now=at("08:00:00"), scan=REDACTOR.scan)
    head = next(c for c in scope.pods if c.is_head)
    view = next(v for v in head.logs if v.excerpt.source.container == "main")
    assert view.markers.ready is not None and view.markers.run is not None

    def unreadable() -> tuple[str, bytes | None]:
        raise AssertionError("the log was read again")

    view.excerpt = LogExcerpt.lazy(source=view.excerpt.source, load=unreadable, size=view.excerpt.size)
    view.release()  # the text goes: only what the one scan kept can answer now
    assert any(view.holds(word) for word in DEAD_NODE_LITERALS)  # Ray marked the evicted worker's node dead


def test_an_eviction_before_the_pod_existed_ended_an_instance_of_unknown_uid() -> None:
    tl = timeline("seen-worker-replaced-preempted", "job/dpo-vla-1122")
    row = next(r for r in tl.rows if r.name == "dpo-vla-1122-rollout-0")
    earlier, current = row.segments
    assert earlier.uid == "" and not earlier.current and row.replaced
    assert [(s.phase, s.start, s.end, s.note) for s in earlier.spans] == [
        (Phase.TERMINATED, at("06:24:00"), at("06:24:36"), "Preempted")]
    assert current.start == at("06:24:36") and current.uid.startswith("76281615")
