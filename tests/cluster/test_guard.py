"""Read-only by construction: the guard refuses writes and Secrets, and no collection ever sends a non-GET."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from bot.cluster import kubeconfig as kc
from bot.cluster.collector import collect
from bot.cluster.errors import ReadOnlyViolation, TargetNotFound
from bot.cluster.guard import check, check_gateway
from bot.models import Target
from bot.settings import CollectionBudget, Settings
from cluster.standin import GATEWAY, StandIn

HOST = "http://127.0.0.1:1/clusters/x"


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
def test_write_verbs_are_refused(method: str) -> None:
    with pytest.raises(ReadOnlyViolation):
        check(method, f"{HOST}/api/v1/namespaces/a/pods/b", host=HOST)


@pytest.mark.parametrize("path", [
    "/api/v1/secrets", "/api/v1/namespaces/a/secrets", "/api/v1/namespaces/a/secrets/token",
    "/api/v1/namespaces/a/configmaps", "/apis/rbac.authorization.k8s.io/v1/clusterroles",
    "/api/v1/namespaces/a/pods/b/exec", "/api/v1/namespaces/a/pods/b/attach", "/api/v1/namespaces/a/pods/b/proxy",
])
def test_undeclared_resources_and_secrets_are_refused(path: str) -> None:
    with pytest.raises(ReadOnlyViolation):
        check("GET", HOST + path, host=HOST)


@pytest.mark.parametrize("path", [
    "/api/v1/nodes", "/api/v1/namespaces/rlark-system/pods", "/api/v1/namespaces/a/pods/b/log",
    "/apis/rlinf.io/v1alpha1/jobs/j", "/apis/rlinf.io/v1alpha1/tasks", "/apis/coordination.k8s.io/v1/leases",
])
def test_declared_reads_pass(path: str) -> None:
    check("GET", HOST + path, host=HOST)


def test_guard_sits_below_the_sdk(standin: StandIn, kubeconfig: Path) -> None:
    """Even the SDK's own generated API classes cannot write through a guarded client."""
    from kubernetes import client

    api = kc.new_api_client(kc.load_source(str(kubeconfig)), "gpu-a", budget=CollectionBudget())
    try:
        core = client.CoreV1Api(api)
        with pytest.raises(ReadOnlyViolation):
            core.delete_namespaced_pod("ppo-big-head-0", "rlark-system")
        with pytest.raises(ReadOnlyViolation):
            core.list_namespaced_secret("rlark-system")
        with pytest.raises(ReadOnlyViolation):
            core.patch_node("gpu-a-node-0", {"spec": {"unschedulable": True}})
    finally:
        api.close()
        api.rest_client.close()
    assert standin.requests == []


@pytest.mark.parametrize("target", ["job/ppo-big", "pod/ppo-big-worker-gpu-b-7", "runner/nope"])
def test_collection_sends_only_gets(standin: StandIn, kubeconfig: Path, target: str) -> None:
    context = "kcp" if target.startswith("job/") else "gpu-b"
    # runner/nope does not exist (TargetNotFound); what matters is what went over the wire.
    with contextlib.suppress(TargetNotFound):
        collect(Target.parse(target), kubeconfig=str(kubeconfig), context=context, namespace=None,
                settings=Settings())
    assert standin.requests
    assert {r.method for r in standin.requests} == {"GET"}
    assert not any("secrets" in r.path for r in standin.requests)


GW = "https://rlark.example/gw"


def test_gateway_allows_only_a_get_of_job_logs() -> None:
    check_gateway("GET", f"{GW}/api/v1/rlinf.io/v1alpha1/jobs/ppo-big/logs", base=GW)
    for method in ("POST", "PUT", "PATCH", "DELETE", "HEAD"):
        with pytest.raises(ReadOnlyViolation):
            check_gateway(method, f"{GW}/api/v1/rlinf.io/v1alpha1/jobs/ppo-big/logs", base=GW)


@pytest.mark.parametrize("url", [
    f"{GW}/api/v1/rlinf.io/v1alpha1/jobs/ppo-big",  # a read, but not the one declared
    f"{GW}/api/v1/rlinf.io/v1alpha1/jobs",
    f"{GW}/api/v1/rlinf.io/v1alpha1/pods/p/terminal",
    f"{GW}/api/v1/certificates/agent",
    f"{GW}/api/v1/rlinf.io/v1alpha1/jobs/ppo-big/logs?x=1",
    f"{GW}/api/v1/rlinf.io/v1alpha1/jobs/a/b/logs",
    "https://elsewhere.example/gw/api/v1/rlinf.io/v1alpha1/jobs/ppo-big/logs",
    "https://rlark.example/api/v1/rlinf.io/v1alpha1/jobs/ppo-big/logs",  # outside the configured base path
])
def test_gateway_refuses_everything_else(url: str) -> None:
    with pytest.raises(ReadOnlyViolation):
        check_gateway("GET", url, base=GW)


def test_collection_with_gateway_fallback_sends_only_gets(standin: StandIn, tmp_path: Path) -> None:
    kubeconfig = standin.write_kubeconfig(tmp_path / "kc", {"kcp": "kcp", "gpu-a": "gpu-a"}, current="kcp")
    ev = collect(Target.parse("job/ppo-big"), kubeconfig=str(kubeconfig), context="kcp", namespace=None,
                 settings=Settings(gateway_url=standin.gateway_url)).to_evidence()
    assert [x for x in ev.logs if x.source.cluster == "gpu-b"]
    assert {r.method for r in standin.requests} == {"GET"}
    to_gateway = [(r.method, r.path) for r in standin.requests if r.cluster == GATEWAY]
    assert to_gateway == [("GET", "/api/v1/rlinf.io/v1alpha1/jobs/ppo-big/logs")]
