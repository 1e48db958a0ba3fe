"""Live collection of a job spread over two member clusters: budgets, partial failures, retries, paging."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bot.cluster.budget import Stats
from bot.cluster.collector import collect
from bot.cluster.errors import CollectionError, TargetNotFound
from bot.models import Evidence, Target
from bot.settings import CollectionBudget, Settings
from cluster.clock import FakeClock
from cluster.standin import Fault, StandIn

JOB = Target.parse("job/ppo-big")


def run(kubeconfig: Path, *, settings: Settings | None = None, target: Target = JOB, context: str = "kcp",
        stats: Stats | None = None, clock: FakeClock | None = None) -> Evidence:
    return collect(target, kubeconfig=str(kubeconfig), context=context, namespace=None,
                   settings=settings or Settings(), stats=stats,
                   clock=(clock or FakeClock()).clock).to_evidence()


def fast(**budget: float) -> Settings:
    return Settings(collection=CollectionBudget(**{"request_timeout_seconds": 1.0, "deadline_seconds": 10.0,
                                                   **budget}))


def test_two_clusters_complete_within_budget(standin: StandIn, kubeconfig: Path) -> None:
    stats = Stats()
    ev = run(kubeconfig, stats=stats)
    assert ev.problems == [] and not ev.incomplete
    assert ev.control_plane == "kcp" and ev.clusters == ["kcp", "gpu-a", "gpu-b"]
    assert {p.cluster for p in ev.pods} == {"gpu-a", "gpu-b"} and len(ev.pods) == 16
    assert len(ev.tasks) == 3 and len(ev.pod_mirrors) == 16 and len(ev.leases) == 2
    logs = {(x.source.pod, x.source.container, x.source.previous) for x in ev.logs}
    assert ("ppo-big-head-0", "main", False) in logs  # the Head
    assert ("ppo-big-worker-gpu-b-7", "main", False) in logs  # a crash-looping worker (last instance)
    assert stats.log_requests <= 16 and stats.requests - stats.log_requests <= 25
    gets = [r for r in standin.requests if not r.path.endswith("/log")]
    assert not any(r.path.startswith("/api/v1/namespaces/rlark-system/pods/") for r in gets)  # never GET per pod


def test_forbidden_member_is_a_problem_not_a_failure(standin: StandIn, kubeconfig: Path) -> None:
    standin.faults.append(Fault(cluster="gpu-b", path="/pods$", status=403))
    ev = run(kubeconfig)
    assert ev.incomplete
    assert any("gpu-b" in p and "403" in p for p in ev.problems)
    assert {p.cluster for p in ev.pods} == {"gpu-a"}
    assert ev.lacks("pods", cluster="gpu-b", namespace="rlark-system") and not ev.lacks("pods", cluster="gpu-a")
    assert "gpu-b/rlark-system/pods.json" in map(str, ev.not_collected)


def test_timing_out_member_respects_timeout_and_deadline(standin: StandIn, kubeconfig: Path) -> None:
    standin.faults.append(Fault(cluster="gpu-b", delay=5.0))
    started = time.monotonic()
    ev = run(kubeconfig, settings=fast(request_timeout_seconds=0.3, retries=1, deadline_seconds=3.0))
    assert time.monotonic() - started < 4.0
    assert any(p.startswith("gpu-b: ") and "unreachable" in p for p in ev.problems)
    assert len([p for p in ev.problems if p.startswith("gpu-b")]) == 1  # one line, not one per read
    assert {p.cluster for p in ev.pods} == {"gpu-a"}


def test_unreachable_member(standin: StandIn, kubeconfig: Path, tmp_path: Path) -> None:
    text = kubeconfig.read_text().replace(standin.url("gpu-b"), "http://127.0.0.1:9/clusters/gpu-b")
    (tmp_path / "kc2").write_text(text)
    ev = run(tmp_path / "kc2", settings=fast(retries=1))
    assert any("gpu-b" in p and "unreachable" in p for p in ev.problems)
    assert {p.cluster for p in ev.pods} == {"gpu-a"}


def test_member_without_context_falls_back_to_control_plane(standin: StandIn, tmp_path: Path) -> None:
    kc = standin.write_kubeconfig(tmp_path / "kc", {"kcp": "kcp", "gpu-a": "gpu-a"}, current="kcp")
    ev = run(kc)
    assert any("gpu-b" in p and "no kubeconfig context" in p for p in ev.problems)
    assert "gpu-b/ (cluster directory)" in map(str, ev.not_collected) and ev.lacks("events", cluster="gpu-b")
    assert len([m for m in ev.pod_mirrors if m.namespace == "rlark-gpu-b"]) == 8  # mirrors still tell something


def test_settings_map_agents_to_contexts(standin: StandIn, tmp_path: Path) -> None:
    kc = standin.write_kubeconfig(tmp_path / "kc", {"kcp": "kcp", "a": "gpu-a", "b-ctx": "gpu-b"}, current="kcp")
    ev = run(kc, settings=Settings(cluster_contexts={"gpu-a": "a", "gpu-b": "b-ctx"}))
    assert ev.problems == [] and {p.cluster for p in ev.pods} == {"gpu-a", "gpu-b"}


def test_stale_heartbeat_is_reported(tmp_path: Path) -> None:
    from cluster.world import build_world

    with StandIn(build_world(job="ppo-big", workers={"gpu-a": 3, "gpu-b": 3}, stale_agents=("gpu-b",))) as api:
        kc = api.write_kubeconfig(tmp_path / "kc", {"kcp": "kcp", "gpu-a": "gpu-a", "gpu-b": "gpu-b"}, current="kcp")
        ev = run(kc)
    assert [p for p in ev.problems if "heartbeat" in p and p.startswith("gpu-b")]


@pytest.mark.parametrize("fault", [
    Fault(path="/pods$", status=429, retry_after=0.05, times=2),
    Fault(path="/events$", status=500, times=2),
    Fault(path="/nodes$", status=503, times=1),
    Fault(path="/statefulsets$", drop=True, times=2),
])
def test_transient_faults_are_retried(standin: StandIn, kubeconfig: Path, fault: Fault) -> None:
    standin.faults.append(fault)
    stats, clock = Stats(), FakeClock()
    ev = run(kubeconfig, stats=stats, clock=clock)
    assert ev.problems == []
    assert stats.retries >= 1 and len(ev.pods) == 16
    assert len(clock.slept) == stats.retries and all(0 < s <= 30 for s in clock.slept)  # a backoff before each retry


def test_retry_after_is_honoured(standin: StandIn, kubeconfig: Path) -> None:
    standin.faults.append(Fault(cluster="kcp", path="/jobs/", status=429, retry_after=0.4, times=1))
    clock = FakeClock()
    ev = run(kubeconfig, clock=clock)
    assert clock.slept == [0.4] and ev.problems == []  # the server's wish, not the client's own backoff


def test_retries_are_bounded(standin: StandIn, kubeconfig: Path) -> None:
    standin.faults.append(Fault(cluster="gpu-a", path="/pods$", status=500))
    clock, stats = FakeClock(), Stats()
    ev = run(kubeconfig, settings=fast(retries=2), clock=clock, stats=stats)
    assert any("gpu-a" in p and "500" in p for p in ev.problems)
    assert len(clock.slept) == stats.retries >= 2 and max(clock.slept) <= 30  # one bounded pause per retry
    assert len([r for r in standin.requests if r.cluster == "gpu-a" and r.path.endswith("/pods")]) == 3


def test_paging_restarts_on_410(standin: StandIn, kubeconfig: Path) -> None:
    standin.faults.append(Fault(cluster="gpu-b", path="/pods$", status=410, only_continue=True, times=1))
    ev = run(kubeconfig, settings=fast(page_size=3))
    assert ev.problems == []
    assert len([p for p in ev.pods if p.cluster == "gpu-b"]) == 8
    pages = [r for r in standin.requests if r.cluster == "gpu-b" and r.path.endswith("/pods")]
    assert any(r.status == 410 for r in pages) and sum("continue" not in r.query for r in pages) == 2


def test_logs_are_bounded(standin: StandIn, kubeconfig: Path) -> None:
    ev = run(kubeconfig, settings=fast(log_tail_lines=50, log_limit_bytes=1024, max_log_requests=3))
    assert 0 < len(ev.logs) <= 3
    head = next(x for x in ev.logs if x.source.pod == "ppo-big-head-0")
    assert head.text.count("\n") <= 50 and head.truncated
    logs = [r for r in standin.requests if r.path.endswith("/log")]
    assert all(r.query["tailLines"] == ["50"] and r.query["limitBytes"] == ["1024"] for r in logs)


def test_previous_log_when_a_running_container_restarted(tmp_path: Path) -> None:
    from bot.cluster import resources as R
    from cluster.world import build_world

    world = build_world(job="j", workers={"gpu-a": 2})
    pod = next(p for p in world["gpu-a"].objects[R.PODS] if p["metadata"]["name"] == "j-worker-gpu-a-1")
    pod["status"]["containerStatuses"][0].update(restartCount=1, lastState={"terminated": {"exitCode": 137}})
    world["gpu-a"].add_log("rlark-system", "j-worker-gpu-a-1", "main", "Killed\n", previous=True)
    with StandIn(world) as api:
        kc = api.write_kubeconfig(tmp_path / "kc", {"kcp": "kcp", "gpu-a": "gpu-a"}, current="kcp")
        ev = run(kc, target=Target.parse("job/j"))
    got = {(x.source.pod, x.source.previous): x.text for x in ev.logs if x.source.container == "main"}
    assert got[("j-worker-gpu-a-1", True)] == "Killed\n" and ("j-worker-gpu-a-1", False) in got


@pytest.mark.parametrize(("target", "context"), [("job/nope", "kcp"), ("pod/nope", "gpu-a"),
                                                 ("runner/nope", "gpu-a")])
def test_missing_target(standin: StandIn, kubeconfig: Path, target: str, context: str) -> None:
    with pytest.raises(TargetNotFound) as err:
        run(kubeconfig, target=Target.parse(target), context=context)
    assert context in err.value.where


def test_unusable_kubeconfig_is_one_line(tmp_path: Path, kubeconfig: Path) -> None:
    with pytest.raises(CollectionError, match="no such file"):
        run(tmp_path / "missing")
    (tmp_path / "bad").write_text("{{{")
    with pytest.raises(CollectionError) as err:
        run(tmp_path / "bad")
    assert "\n" not in str(err.value)
    with pytest.raises(CollectionError, match="no context 'other'"):
        run(kubeconfig, context="other")


def test_unreadable_job_is_a_collection_error(standin: StandIn, kubeconfig: Path) -> None:
    standin.faults.append(Fault(cluster="kcp", path="/jobs/", status=403))
    with pytest.raises(CollectionError, match="403"):
        run(kubeconfig)


def test_pod_target_by_name_across_namespaces(standin: StandIn, kubeconfig: Path) -> None:
    ev = run(kubeconfig, target=Target.parse("pod/ppo-big-worker-gpu-b-7"), context="gpu-b")
    [target] = [p for p in ev.pods if p.name == "ppo-big-worker-gpu-b-7"]
    # Besides the target, only the pods sharing its node (read by node, for what they hold there).
    assert all(p.spec.node_name == target.spec.node_name for p in ev.pods)
    assert {e.involved_object.name for e in ev.events} == {"ppo-big-worker-gpu-b-7"}
    assert ev.logs and ev.control_plane is None
