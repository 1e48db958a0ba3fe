"""Live mode fails only what it could not read: one slow list is that list's problem, not the cluster's;
and `check` reads every member cluster it has a context for, as it does every cluster of a bundle."""

from __future__ import annotations

from pathlib import Path

from bot.cluster.collector import collect, collect_checks
from bot.models import Target
from bot.settings import CollectionBudget, Settings
from cluster.standin import Fault, StandIn

JOB = Target.parse("job/ppo-big")


def fast(**budget: float) -> Settings:
    return Settings(collection=CollectionBudget(**{"request_timeout_seconds": 0.4, "retries": 1,
                                                   "deadline_seconds": 8.0, **budget}))


def test_one_slow_pvc_list_fails_only_that_list(standin: StandIn, kubeconfig: Path) -> None:
    standin.faults.append(Fault(cluster="gpu-b", path="/persistentvolumeclaims$", delay=3.0))
    ev = collect(JOB, kubeconfig=str(kubeconfig), context="kcp", namespace=None, settings=fast()).to_evidence()
    assert ev.incomplete
    gpu_b = [p for p in ev.problems if p.startswith("gpu-b")]
    assert len(gpu_b) == 1 and "persistentvolumeclaims" in gpu_b[0] and "unreachable" not in gpu_b[0]
    assert ev.lacks("persistentvolumeclaims", cluster="gpu-b", namespace="rlark-system")
    assert "gpu-b/rlark-system/persistentvolumeclaims.json" in map(str, ev.not_collected)
    assert {p.cluster for p in ev.pods} == {"gpu-a", "gpu-b"}  # the cluster was not dropped
    assert any(x.source.cluster == "gpu-b" and x.source.container == "main" for x in ev.logs)  # nor its logs


def test_one_slow_log_fails_only_that_log(standin: StandIn, kubeconfig: Path) -> None:
    standin.faults.append(Fault(cluster="gpu-b", path="/pods/ppo-big-worker-gpu-b-7/log$", delay=3.0))
    ev = collect(JOB, kubeconfig=str(kubeconfig), context="kcp", namespace=None, settings=fast()).to_evidence()
    assert any("ppo-big-worker-gpu-b-7" in p and "unreachable" not in p for p in ev.problems)
    others = {x.source.pod for x in ev.logs if x.source.cluster == "gpu-b"}
    assert others and "ppo-big-worker-gpu-b-7" not in others


def test_a_cluster_that_never_answers_is_still_one_line(standin: StandIn, kubeconfig: Path) -> None:
    standin.faults.append(Fault(cluster="gpu-b", delay=3.0))
    ev = collect(JOB, kubeconfig=str(kubeconfig), context="kcp", namespace=None, settings=fast()).to_evidence()
    gpu_b = [p for p in ev.problems if p.startswith("gpu-b")]
    assert len(gpu_b) == 1 and "unreachable" in gpu_b[0]
    assert {p.cluster for p in ev.pods} == {"gpu-a"}


def test_check_reads_every_member_cluster_with_a_context(standin: StandIn, kubeconfig: Path) -> None:
    ev = collect_checks(kubeconfig=str(kubeconfig), context="kcp", settings=fast()).to_evidence()
    assert {"kcp", "gpu-a", "gpu-b"} <= set(ev.clusters)
    read = {r.cluster for r in standin.requests}
    assert {"kcp", "gpu-a", "gpu-b"} <= read


def test_check_follows_the_context_mapping(standin: StandIn, tmp_path: Path) -> None:
    kc = standin.write_kubeconfig(tmp_path / "kc", {"kcp": "kcp", "prod-gpu-a": "gpu-a"}, current="kcp")
    settings = fast().model_copy(update={"cluster_contexts": {"gpu-a": "prod-gpu-a"}})
    ev = collect_checks(kubeconfig=str(kc), context="kcp", settings=settings).to_evidence()
    assert "gpu-a" in ev.clusters and "gpu-b" not in {p.cluster for p in ev.pods}
    assert {r.cluster for r in standin.requests} >= {"kcp", "gpu-a"}
    assert "gpu-b" not in {r.cluster for r in standin.requests}
