"""Ranking rules, stated as rules: a failure at an earlier stage or line explains later ones on the same pod
and on the pods that depend on it, and the explained case ranks after its cause whatever its specificity."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.diagnose.explain import Roles, hit_explains, mark_explained
from bot.diagnose.rank import rank
from bot.diagnose.result import Finding
from bot.runbook import Runbook
from bot.scope.hits import Hit, LogAt
from bot.signals.stages import INDEX

HEAD, W1, W2 = "c/ns/job-actor-0", "c/ns/job-rollout-0", "c/ns/job-rollout-1"
ROLES = Roles(heads=frozenset({HEAD}), workers=frozenset({W1, W2}))
FORMED = Roles(heads=ROLES.heads, workers=ROLES.workers, formed=frozenset({HEAD}))
T0 = datetime(2026, 11, 20, 7, 0, tzinfo=UTC)


def hit(pod: str, stage: str, *, offset: int | None = None, previous: bool = False, concrete: bool = True,
        when: datetime | None = None) -> Hit:
    at = None if offset is None else LogAt(pod, "main", previous, offset)
    return Hit([], pod=pod, stage=INDEX[stage], at=at, concrete=concrete, when=when, earlier_instance=previous)


def finding(runbook: Runbook, case: str, *hits: Hit) -> Finding:
    return Finding(case=runbook.cases[case], evidence=[], pods=sorted({h.pod or "" for h in hits}),
                   stage=min(h.stage or 0 for h in hits), hits=list(hits))


def test_in_one_log_the_earlier_line_explains_the_later() -> None:
    early, late = hit(W1, "ray-cli-checked", offset=100), hit(W1, "ray-cli-checked", offset=400)
    assert hit_explains(early, late, a_severity="error", roles=ROLES)
    assert not hit_explains(late, early, a_severity="error", roles=ROLES)


def test_one_line_matched_by_two_cases_is_one_moment() -> None:
    a, b = hit(HEAD, "ray-cluster-forming", offset=250), hit(HEAD, "ray-cluster-forming", offset=250)
    assert not hit_explains(a, b, a_severity="error", roles=ROLES)
    assert not hit_explains(b, a, a_severity="error", roles=ROLES)


def test_a_previous_instance_explains_what_the_restarted_one_shows() -> None:
    before, now = hit(W1, "run-script", offset=9000, previous=True), hit(W1, "ray-cluster-forming", offset=10)
    assert hit_explains(before, now, a_severity="error", roles=ROLES)
    assert not hit_explains(now, before, a_severity="error", roles=ROLES)


def test_on_one_pod_an_earlier_stage_explains_a_later_one() -> None:
    unbound = hit(HEAD, "scheduled")
    assert hit_explains(unbound, hit(HEAD, "run-script", offset=5), a_severity="error", roles=ROLES)
    assert not hit_explains(hit(HEAD, "run-script", offset=5), unbound, a_severity="error", roles=ROLES)


def test_a_container_state_never_explains_the_lines_of_its_own_instance() -> None:
    exited = hit(W1, "ray-cli-checked")  # no log position: a container that exited 1
    assert not hit_explains(exited, hit(W1, "ray-cli-checked", offset=80), a_severity="error", roles=ROLES)


@pytest.mark.parametrize("stage", ["scheduled", "containers-started", "prepare-script", "ray-cluster-forming"])
def test_a_head_that_never_formed_a_cluster_explains_workers_from_forming_on(stage: str) -> None:
    head = hit(HEAD, stage)
    assert hit_explains(head, hit(W1, "ray-cluster-forming", concrete=False), a_severity="error", roles=ROLES)
    assert hit_explains(head, hit(W2, "run-script", offset=3), a_severity="error", roles=ROLES)
    # the worker's own earlier failure
    assert not hit_explains(head, hit(W1, "containers-started"), a_severity="error", roles=ROLES)


def test_a_head_failing_after_the_cluster_formed_explains_joined_workers() -> None:
    head_run = hit(HEAD, "training-signal", offset=7000)
    worker_exit = hit(W1, "run-script", offset=900)
    # check passed: every worker had joined, fine
    assert hit_explains(head_run, worker_exit, a_severity="error", roles=FORMED)
    # no check passed, no stamps: unknown order
    assert not hit_explains(head_run, worker_exit, a_severity="error", roles=ROLES)


def test_stamps_decide_who_failed_first_across_pods() -> None:
    head_run = hit(HEAD, "training-signal", offset=7000, when=T0)
    later = hit(W1, "run-script", offset=900, when=T0 + timedelta(seconds=40))
    earlier = hit(W2, "run-script", offset=900, when=T0 - timedelta(seconds=40))
    assert hit_explains(head_run, later, a_severity="error", roles=ROLES)
    # a cause never comes after its consequence
    assert not hit_explains(head_run, earlier, a_severity="error", roles=FORMED)
    # the worker that failed first explains the Head
    assert hit_explains(earlier, head_run, a_severity="error", roles=ROLES)


def test_a_worker_failure_explains_the_head_waiting_but_not_a_concrete_head_failure() -> None:
    worker = hit(W1, "prepare-script", offset=120)
    assert hit_explains(worker, hit(HEAD, "ray-cluster-forming", concrete=False), a_severity="error", roles=ROLES)
    assert not hit_explains(worker, hit(HEAD, "ray-cluster-forming", offset=40), a_severity="error", roles=ROLES)


def test_waits_and_warnings_explain_nothing() -> None:
    waiting = hit(HEAD, "ray-cluster-forming", concrete=False)
    assert not hit_explains(waiting, hit(W1, "run-script", offset=5), a_severity="error", roles=ROLES)
    check = hit(HEAD, "ray-cluster-ready", offset=30)
    # warnings: same pod only
    assert not hit_explains(check, hit(W1, "run-script", offset=5), a_severity="warning", roles=ROLES)


def test_an_earlier_catch_all_with_a_concrete_error_beats_the_specific_case_it_explains(runbook: Runbook) -> None:
    prepare = finding(runbook, "rlark.ray.prepare-failed", hit(W1, "ray-cli-checked", offset=200))
    cli = finding(runbook, "rlark.ray.cli-missing", hit(W1, "ray-cli-checked", offset=520))
    assert runbook.cases["rlark.ray.prepare-failed"].generic and not runbook.cases["rlark.ray.cli-missing"].generic
    mark_explained([cli, prepare], ROLES)
    assert cli.explained_by == ["rlark.ray.prepare-failed"] and prepare.explained_by == []
    assert [f.id for f in rank([cli, prepare])] == ["rlark.ray.prepare-failed", "rlark.ray.cli-missing"]


def test_explained_only_when_every_pod_is(runbook: Runbook) -> None:
    head = finding(runbook, "pod.storage.pvc-unbound", hit(HEAD, "scheduled"))
    exits = finding(runbook, "rlark.ray.worker-exit-nonzero", hit(W1, "run-script", offset=50),
                    hit("other/ns/unrelated-0", "run-script", offset=50))
    mark_explained([head, exits], ROLES)
    assert exits.explained_by == []


def test_safety_and_credentials_are_never_pushed_down(runbook: Runbook) -> None:
    unbound = finding(runbook, "pod.storage.pvc-unbound", hit(HEAD, "scheduled"))
    robot = finding(runbook, "rlark.run.robot-device", hit(HEAD, "training-signal", offset=900))
    mark_explained([unbound, robot], ROLES)
    assert robot.explained_by == []
    assert rank([unbound, robot])[0].id == "rlark.run.robot-device"


def test_alerts_explain_nothing(runbook: Runbook) -> None:
    pending = finding(runbook, "infra.pending.long", hit(W1, "scheduled"))
    pull = finding(runbook, "pod.image.pull-unauthorized", hit(W1, "containers-started"))
    mark_explained([pending, pull], ROLES)
    assert pull.explained_by == []
