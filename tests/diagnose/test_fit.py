"""Scheduling decided from objects, as the scheduler's filters decide it (bot.scope.fit), and the cases it feeds."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from bot.models import Evidence
from bot.runbook import Runbook
from bot.scope.fit import NodeShape, PodShape, Requirement, Taint, Toleration, fit, judge, quantity
from bot.scope.fitobjects import node_shapes, pod_shape
from diagnose.objects import NOW, diagnose_pod, event, evidence, node, pod, stamp


@pytest.mark.parametrize(("text", "value"), [("500m", "0.5"), ("4Gi", str(4 * 2**30)), ("1k", "1000"), ("8", "8"),
                                             ("1e3", "1000"), ("2.5", "2.5"), (16, "16")])
def test_quantities_read_as_the_api_server_writes_them(text: object, value: str) -> None:
    assert quantity(text) == Decimal(value)


@pytest.mark.parametrize("text", ["", "lots", "4Gx", True])
def test_a_value_that_is_no_quantity_is_none(text: object) -> None:
    assert quantity(text) is None


@pytest.mark.parametrize(("taint", "tolerations", "blocked"), [
    (Taint("gpu", "reserved", "NoSchedule"), (), True),
    (Taint("team.example.org/owner", "vision", "NoExecute"), (), True),
    (Taint("gpu", "reserved", "PreferNoSchedule"), (), False),  # a preference, not a filter
    (Taint("gpu", "reserved", "NoSchedule"), (Toleration("gpu", "Equal", "reserved", "NoSchedule"),), False),
    (Taint("gpu", "reserved", "NoSchedule"), (Toleration("gpu", "Equal", "other", "NoSchedule"),), True),
    (Taint("gpu", "reserved", "NoSchedule"), (Toleration("gpu", "Exists"),), False),
    (Taint("gpu", "reserved", "NoSchedule"), (Toleration("gpu", "Exists", effect="NoExecute"),), True),
    (Taint("anything", "x", "NoSchedule"), (Toleration("", "Exists"),), False),
])
def test_any_taint_is_judged_against_the_pods_tolerations(taint: Taint, tolerations: tuple[Toleration, ...],
                                                         blocked: bool) -> None:
    verdict = judge(PodShape(tolerations=tolerations), NodeShape("n1", taints=(taint,)))
    assert (verdict.kind == "taint") is blocked
    if blocked:
        assert str(taint) in verdict.reason


def test_a_cordoned_node_is_closed_unless_the_pod_tolerates_the_cordon() -> None:
    assert judge(PodShape(), NodeShape("n1", unschedulable=True)).kind == "unschedulable"
    tolerant = PodShape(tolerations=(Toleration("node.kubernetes.io/unschedulable", "Exists"),))
    assert judge(tolerant, NodeShape("n1", unschedulable=True)).kind == "fits"


@pytest.mark.parametrize(("terms", "labels", "selected"), [
    (((Requirement("zone", "In", ("a", "b")),),), {"zone": "b"}, True),
    (((Requirement("zone", "In", ("a", "b")),),), {"zone": "c"}, False),
    (((Requirement("zone", "NotIn", ("a",)),),), {}, True),
    (((Requirement("gpu", "Exists"),),), {"gpu": "h100"}, True),
    (((Requirement("gpu", "DoesNotExist"),),), {"gpu": "h100"}, False),
    (((Requirement("cores", "Gt", ("64",)),),), {"cores": "128"}, True),
    (((Requirement("cores", "Lt", ("64",)),),), {"cores": "128"}, False),
    # terms are ORed, expressions in a term ANDed
    (((Requirement("a", "Exists"), Requirement("b", "Exists")), (Requirement("c", "Exists"),)), {"c": "1"}, True),
    (((Requirement("a", "Exists"), Requirement("b", "Exists")),), {"a": "1"}, False),
])
def test_required_node_affinity(terms: tuple[tuple[Requirement, ...], ...], labels: dict[str, str],
                                selected: bool) -> None:
    assert PodShape(affinity_terms=terms).selects(labels) is selected


def test_room_is_allocatable_minus_what_bound_pods_request() -> None:
    want = PodShape(requests={"nvidia.com/gpu": Decimal(4), "cpu": Decimal("0.5")})
    roomy = NodeShape("n1", allocatable={"nvidia.com/gpu": Decimal(8), "cpu": Decimal(8)},
                      requested={"nvidia.com/gpu": Decimal(4)})
    full = NodeShape("n2", allocatable={"nvidia.com/gpu": Decimal(8), "cpu": Decimal(8)},
                     requested={"nvidia.com/gpu": Decimal(6)})
    none = NodeShape("n3", allocatable={"cpu": Decimal(8)})
    report = fit(want, [roomy, full, none])
    assert report.fitting == ["n1"]
    assert [v.reason for v in report.verdicts[1:]] == ["insufficient nvidia.com/gpu", "insufficient nvidia.com/gpu"]


def test_the_first_failing_filter_names_the_node_and_the_summary_counts_per_reason() -> None:
    want = PodShape(node_selector={"pool": "gpu"}, requests={"nvidia.com/gpu": Decimal(8)})
    nodes = [NodeShape(f"t{i}", labels={"pool": "gpu"}, taints=(Taint("gpu", "reserved", "NoSchedule"),))
             for i in range(3)]
    nodes += [NodeShape(f"r{i}", labels={"pool": "gpu"}, allocatable={"nvidia.com/gpu": Decimal(4)}) for i in range(2)]
    nodes += [NodeShape("cpu-1", labels={"pool": "cpu"})]
    report = fit(want, nodes)
    assert report.summary() == ("3 nodes: untolerated taint gpu=reserved:NoSchedule; 2 nodes: insufficient "
                                "nvidia.com/gpu; 1 node: did not match the pod's selector/affinity pool=gpu")
    assert report.blocker == "resources"  # a node it asked for is open to it, only short of room


@pytest.mark.parametrize(("nodes", "blocker"), [
    ([NodeShape("a", labels={"pool": "cpu"})], "selector"),
    # a node it never asked for is cordoned: still "nothing matches"
    ([NodeShape("a", labels={"pool": "cpu"}, unschedulable=True)], "selector"),
    ([NodeShape("a", labels={"pool": "gpu"}, unschedulable=True)], "unschedulable"),
    ([NodeShape("a", labels={"pool": "gpu"}, down="Offline")], "unschedulable"),
    ([NodeShape("a", labels={"pool": "gpu"}, taints=(Taint("maint", "", "NoExecute"),)),
      NodeShape("b", labels={"pool": "gpu"}, unschedulable=True)], "taint"),
    ([NodeShape("a", labels={"pool": "gpu"})], "fits"),
])
def test_why_no_node_takes_the_pod_is_read_from_the_nodes_it_asked_for(nodes: list[NodeShape], blocker: str) -> None:
    assert fit(PodShape(node_selector={"pool": "gpu"}), nodes).blocker == blocker


def test_shapes_read_from_objects_count_the_pods_already_bound() -> None:
    gpu = {"cpu": "64", "memory": "512Gi", "nvidia.com/gpu": "8", "pods": "110"}
    nodes = [node("g1", allocatable=gpu), node("g2", allocatable=gpu)]
    bound = [pod("a", node_name="g1", phase="Running", requests={"nvidia.com/gpu": "8"}),
             pod("b", node_name="g2", phase="Succeeded", requests={"nvidia.com/gpu": "8"})]  # finished: frees its GPUs
    want = pod("new", requests={"nvidia.com/gpu": "4", "memory": "64Gi"})
    report = fit(pod_shape(want), node_shapes(nodes, [*bound, want], exclude=want))
    assert report.fitting == ["g2"]
    assert report.verdicts[0].reason == "insufficient nvidia.com/gpu"


def test_tolerations_and_affinity_are_read_from_the_pod_spec() -> None:
    shape = pod_shape(pod("p", tolerations=[{"key": "gpu", "operator": "Exists", "effect": "NoSchedule"}],
                          affinity={"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
                              "nodeSelectorTerms": [{"matchExpressions": [
                                  {"key": "zone", "operator": "In", "values": ["z1"]}]}]}}}))
    assert shape.tolerations == (Toleration("gpu", "Exists", "", "NoSchedule"),)
    assert shape.affinity_terms == ((Requirement("zone", "In", ("z1",)),),)


# ------------------------------------------------------------------------------------ the cases, from objects


def _cluster(taint_key: str) -> list[object]:
    gpu = {"cpu": "64", "memory": "512Gi", "nvidia.com/gpu": "8", "pods": "110"}
    return [node("t1", labels={"pool": "train"}, allocatable=gpu,
                 taints=[{"key": taint_key, "value": "yes", "effect": "NoSchedule"}]),
            node("t2", labels={"pool": "train"}, allocatable=gpu,
                 taints=[{"key": taint_key, "value": "yes", "effect": "NoSchedule"}]),
            node("c1", labels={"pool": "cpu"})]


@pytest.mark.parametrize("taint_key", ["gpu", "example.com/dedicated", "maintenance-window"])
def test_untolerated_taint_on_every_node_asked_for_is_the_answer_whatever_the_scheduler_wording(
        runbook: Runbook, taint_key: str) -> None:
    p = pod("trainer-0", selector={"pool": "train"}, requests={"nvidia.com/gpu": "8"})
    # a wording no pattern knows: the objects decide
    said = event("trainer-0", "FailedScheduling", "no fit: 3 candidates rejected by filter plugins", uid=p.metadata.uid)
    diag = diagnose_pod(runbook, evidence(p, said, *_cluster(taint_key)), "trainer-0")
    first = diag.findings[0]
    assert first.id == "pod.schedule.node-unschedulable"
    assert f"2 nodes: untolerated taint {taint_key}=yes:NoSchedule" in first.evidence[0].text
    assert "1 node: did not match" in first.evidence[0].text


def test_tolerated_taint_and_full_nodes_is_room_not_the_taint(runbook: Runbook) -> None:
    p = pod("trainer-0", selector={"pool": "train"}, requests={"nvidia.com/gpu": "8"},
            tolerations=[{"key": "gpu", "operator": "Exists"}])
    busy = [pod(f"other-{n}", node_name=n, phase="Running", requests={"nvidia.com/gpu": "4"}) for n in ("t1", "t2")]
    said = event("trainer-0", "FailedScheduling", "0/3 nodes are available: 2 Insufficient nvidia.com/gpu, 1 node(s) "
                 "didn't match Pod's node affinity/selector.", uid=p.metadata.uid)
    diag = diagnose_pod(runbook, evidence(p, said, *busy, *_cluster("gpu")), "trainer-0")
    assert diag.findings[0].id == "pod.schedule.insufficient-resources"
    assert "2 nodes: insufficient nvidia.com/gpu" in diag.findings[0].evidence[0].text


def test_no_node_with_the_selected_labels_without_any_event(runbook: Runbook) -> None:
    p = pod("lint-0", selector={"pool": "arm-ci"}, created_minutes_ago=30)  # the events aged out
    diag = diagnose_pod(runbook, evidence(p, *_cluster("gpu")), "lint-0")
    assert diag.findings[0].id == "pod.schedule.selector-mismatch"
    assert "0/3 nodes can take it" in diag.findings[0].evidence[0].text  # each node counted once, by its first filter


def test_a_pod_seconds_old_that_the_scheduler_has_not_tried_is_still_starting(runbook: Runbook) -> None:
    p = pod("lint-0", selector={"pool": "arm-ci"}, created_minutes_ago=0.2)
    diag = diagnose_pod(runbook, evidence(p, *_cluster("gpu")), "lint-0")
    assert not [f.id for f in diag.findings if f.severity in ("critical", "error")]


def test_when_some_node_fits_the_objects_claim_nothing(runbook: Runbook) -> None:
    p = pod("web-0", selector={"pool": "cpu"}, created_minutes_ago=30)
    diag = diagnose_pod(runbook, evidence(p, *_cluster("gpu")), "web-0")
    assert not [f.id for f in diag.findings if f.id.startswith("pod.schedule.")]


# ---------------------------------------------------------------- a Task whose pods never appear: RLark Nodes


def _job_with_pending_task(rnodes: list[dict[str, Any]]) -> Evidence:
    from bot.models import Job, RNode, Task

    job = Job.model_validate({"metadata": {"name": "ppo-x", "namespace": "default"},
                              "spec": {"tasks": [{"name": "actor", "head": True, "nodeSelector": {"gpu": "h100"}}]}})
    task = Task.model_validate({
        "metadata": {"name": "ppo-x-actor", "namespace": "rlark-gpu-a", "labels": {"rlinf.io/job": "ppo-x"},
                     "creationTimestamp": stamp(30)},
        "spec": {"name": "actor", "head": True, "nodeSelector": {"gpu": "h100"},
                 "kubernetes": {"workload": {"kind": "StatefulSet", "replicas": 1, "template": {"spec": {
                     "containers": [{"name": "main", "resources": {"limits": {"nvidia.com/gpu": "8"}}}]}}}}},
        "status": {"phase": "Pending"}})
    job.cluster = task.cluster = "control-plane"
    ev = Evidence(captured_at=NOW, clusters=["control-plane"], jobs=[job], tasks=[task])
    for raw in rnodes:
        n = RNode.model_validate(raw)
        n.cluster = "control-plane"
        ev.rlark_nodes.append(n)
    return ev


def _rnode(name: str, *, labels: dict[str, str], phase: str = "Online", unschedulable: bool = False,
           gpus: str = "8", used: str = "0") -> dict[str, Any]:
    meta = {"name": name, "namespace": "rlark-gpu-a", "labels": {"rlark.io/cluster-id": "gpu-a", **labels}}
    return {"metadata": meta,
            "spec": {"unschedulable": unschedulable},
            "status": {"phase": phase, "allocatable": {"nvidia.com/gpu": gpus}, "used": {"nvidia.com/gpu": used}}}


@pytest.mark.parametrize(("rnodes", "case", "says"), [
    ([_rnode("g1", labels={"gpu": "h100"}, unschedulable=True), _rnode("g2", labels={"gpu": "a100"})],
     "pod.schedule.node-unschedulable", "1 node: unschedulable (cordoned)"),
    ([_rnode("g1", labels={"gpu": "h100"}, phase="Offline")], "pod.schedule.node-unschedulable", "node Offline"),
    ([_rnode("g1", labels={"gpu": "h100"}, used="4")], "pod.schedule.insufficient-resources",
     "insufficient nvidia.com/gpu"),
    ([_rnode("g1", labels={"gpu": "a100"})], "pod.schedule.selector-mismatch", "did not match"),
])
def test_a_task_whose_pods_never_appear_is_judged_against_the_rlark_nodes(
        runbook: Runbook, rnodes: list[dict[str, Any]], case: str, says: str) -> None:
    from bot.diagnose import diagnose
    from bot.models import Target
    from bot.redact import Redactor

    diag = diagnose(_job_with_pending_task(rnodes), runbook, now=NOW, target=Target.parse("job/ppo-x"),
                    redactor=Redactor())
    ids = [f.id for f in diag.findings]
    assert ids[:1] == [case], ids
    assert any(says in e.text for e in diag.findings[0].evidence)
