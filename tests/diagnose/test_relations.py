"""Ranking by causes: explicit explains relations, the earliest unexplained failure first, and why it won."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.diagnose.rank import ORDER, rank
from bot.diagnose.relations import DESCRIBES, EARLIER_FAILURE, SUPERSEDES, explainers, relations
from bot.diagnose.result import Finding
from bot.runbook import Runbook
from bot.signals.stages import INDEX
from diagnose.objects import NOW, diagnose_pod, event, evidence, log, node, pod, stamp


def _finding(runbook: Runbook, case: str, stage: str, *, minutes_ago: float | None = None) -> Finding:
    when = None if minutes_ago is None else NOW - timedelta(minutes=minutes_ago)
    return Finding(case=runbook.cases[case], evidence=[], pods=[], stage=INDEX[stage], when=when)


def test_every_ordering_rule_and_relation_cites_a_seed_section() -> None:
    for rule in ORDER:
        assert " § " in rule.seed and ": " in rule.seed, rule.name
    for rel in (EARLIER_FAILURE, SUPERSEDES, DESCRIBES):
        assert " § " in rel.seed, rel.name


@pytest.mark.parametrize(("agent_ago", "explains"), [(3, False), (45, True)])
def test_an_agent_lost_minutes_ago_does_not_explain_a_failure_half_an_hour_old(
        runbook: Runbook, agent_ago: float, explains: bool) -> None:
    agent = _finding(runbook, "rlark.agent.disconnected", "pod-created", minutes_ago=agent_ago)
    drift = _finding(runbook, "rlark.status.out-of-sync", "pod-created", minutes_ago=30)
    rels = relations([agent, drift])
    assert (("rlark.agent.disconnected", "rlark.status.out-of-sync") in rels) is explains
    ordered = rank([drift, agent])
    if not explains:
        assert ordered[0].id == "rlark.status.out-of-sync"  # it began first: the earlier failure leads
        assert "time" in ordered[0].why[1]
    else:
        assert ordered[0].id == "rlark.agent.disconnected"


def test_mutual_explanations_are_decided_by_the_stronger_relation(runbook: Runbook) -> None:
    cli = _finding(runbook, "rlark.ray.cli-missing", "ray-cli-checked")
    prepare = _finding(runbook, "rlark.ray.prepare-failed", "prepare-script")
    cli.explained_by = ["rlark.ray.prepare-failed"]  # the earlier line on the same pod (explain.py)
    rels = relations([cli, prepare])
    assert rels[("rlark.ray.cli-missing", "rlark.ray.prepare-failed")] is SUPERSEDES
    assert rels[("rlark.ray.prepare-failed", "rlark.ray.cli-missing")] is EARLIER_FAILURE
    by = explainers([cli, prepare], rels)
    assert by["rlark.ray.prepare-failed"] == [] and [a for a, _ in by["rlark.ray.cli-missing"]] == [
        "rlark.ray.prepare-failed"]


def test_the_earliest_stage_wins_among_unexplained_failures_and_says_so(runbook: Runbook) -> None:
    nccl = _finding(runbook, "rlark.run.nccl", "training-signal", minutes_ago=1)
    pull = _finding(runbook, "pod.image.pull-failed", "containers-started", minutes_ago=2)
    ordered = rank([nccl, pull])
    assert [f.id for f in ordered] == ["pod.image.pull-failed", "rlark.run.nccl"]
    assert "rule 'stage'" in ordered[0].why[1] and "containers-started before training-signal" in ordered[0].why[1]


def test_a_tie_is_said_to_be_a_tie(runbook: Runbook) -> None:
    a = _finding(runbook, "pod.run.disk-quota", "containers-started")
    b = _finding(runbook, "pod.run.stale-file-handle", "containers-started")
    ordered = rank([a, b])
    assert ordered[0].why[1].startswith("tied with")


# ------------------------------------------------------------------------------- from objects, end to end

WAITS = [("WaitForFirstConsumer", "waiting for first consumer to be created before binding"),
         ("WaitForPodScheduled", "waiting for pod trainer-0 to be scheduled")]


@pytest.mark.parametrize(("reason", "message"), WAITS)
def test_a_claim_waiting_for_its_pod_is_not_the_storage_fault(runbook: Runbook, reason: str, message: str) -> None:
    p = pod("trainer-0", selector={"pool": "train"}, requests={"nvidia.com/gpu": "8"})
    p.spec.volumes = [{"name": "data", "persistentVolumeClaim": {"claimName": "data-trainer-0"}}]
    taint = {"key": "team", "value": "vision", "effect": "NoSchedule"}
    nodes = [node(f"t{i}", labels={"pool": "train"}, taints=[taint],
                  allocatable={"nvidia.com/gpu": "8", "cpu": "64", "memory": "512Gi"}) for i in range(2)]
    claim = event("data-trainer-0", reason, message, kind="PersistentVolumeClaim", etype="Normal")
    diag = diagnose_pod(runbook, evidence(p, claim, *nodes), "trainer-0")
    ids = [f.id for f in diag.findings]
    assert ids[0] == "pod.schedule.node-unschedulable", ids
    if "pod.storage.pvc-unbound" in ids:
        assert diag.findings[ids.index("pod.storage.pvc-unbound")].explained_by == ["pod.schedule.node-unschedulable"]
    assert any("explains" in w or "before" in w for w in diag.why_first)


def test_a_claim_that_cannot_bind_on_its_own_is_the_answer(runbook: Runbook) -> None:
    p = pod("trainer-0", selector={"pool": "train"})
    p.spec.volumes = [{"name": "data", "persistentVolumeClaim": {"claimName": "data-trainer-0"}}]
    nodes = [node("t1", labels={"pool": "train"})]
    said = event("trainer-0", "FailedScheduling", '0/1 nodes are available: persistentvolumeclaim "data-trainer-0" '
                 "not found.", uid=p.metadata.uid)
    diag = diagnose_pod(runbook, evidence(p, said, *nodes), "trainer-0")
    assert [f.id for f in diag.findings][:1] == ["pod.storage.pvc-unbound"]


@pytest.mark.parametrize("line", ["aclrtMallocHostWithCfg failed, error code is 207001",
                                  "EL0004: Memory_Allocation_Failure while allocating pinned buffer"])
def test_a_superseding_log_case_never_discards_a_container_terminated_oomkilled(runbook: Runbook, line: str) -> None:
    p = pod("bench-0", node_name="npu-1", phase="Failed", statuses=[{
        "name": "main", "state": {"terminated": {"exitCode": 137, "reason": "OOMKilled", "finishedAt": stamp(1)}}}])
    diag = diagnose_pod(runbook, evidence(p, log("bench-0", f"{stamp(2)} running case 12\n{stamp(2)} {line}\n")),
                        "bench-0")
    assert "pod.run.oom-killed" in [f.id for f in diag.findings]
