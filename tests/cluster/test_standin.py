"""The stand-in itself behaves like an API server: selectors, paging, 410, logs, faults."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest

from bot.cluster import resources as R
from cluster.standin import ClusterData, Fault, StandIn


def _pod(name: str, ns: str, labels: dict[str, str], phase: str = "Running", node: str = "n1") -> dict[str, Any]:
    return {"metadata": {"name": name, "namespace": ns, "labels": labels},
            "spec": {"nodeName": node, "containers": [{"name": "main"}, {"name": "side"}]},
            "status": {"phase": phase, "containerStatuses": [
                {"name": "main", "state": {"running": {}}}, {"name": "side", "state": {"waiting": {
                    "reason": "ContainerCreating"}}}]}}


@pytest.fixture
def api() -> Any:
    data = ClusterData()
    data.add(R.PODS, _pod("a-0", "ns1", {"app": "a", "tier": "x"}))
    data.add(R.PODS, _pod("a-1", "ns1", {"app": "a"}, phase="Pending", node=""))
    data.add(R.PODS, _pod("b-0", "ns1", {"app": "b", "tier": "y"}))
    data.add(R.PODS, _pod("c-0", "ns2", {"app": "c"}))
    data.add(R.EVENTS, {"metadata": {"name": "e1", "namespace": "ns1"}, "involvedObject": {
        "kind": "Pod", "name": "a-0", "namespace": "ns1"}, "reason": "Started", "type": "Normal"})
    data.add(R.EVENTS, {"metadata": {"name": "e2", "namespace": "ns1"}, "involvedObject": {
        "kind": "Pod", "name": "b-0", "namespace": "ns1"}, "reason": "BackOff", "type": "Warning"})
    data.add_log("ns1", "a-0", "main", "".join(f"line {i}\n" for i in range(10)))
    data.add_log("ns1", "a-0", "main", "previous crash\n", previous=True)
    with StandIn({"c1": data}) as s:
        yield s


def get(api: StandIn, path: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(api.url("c1") + path, timeout=5) as resp:
            body = resp.read().decode()
            return resp.status, json.loads(body) if resp.headers["Content-Type"] == "application/json" else body
    except urllib.error.HTTPError as exc:
        with exc:
            return exc.code, json.loads(exc.read())


def names(api: StandIn, path: str) -> list[str]:
    status, doc = get(api, path)
    assert status == 200, doc
    return [i["metadata"]["name"] for i in doc["items"]]


@pytest.mark.parametrize(("selector", "expected"), [
    ("app%3Da", ["a-0", "a-1"]),
    ("app%3D%3Da", ["a-0", "a-1"]),
    ("app!%3Da", ["b-0", "c-0"]),
    ("app%20in%20(a,c)", ["a-0", "a-1", "c-0"]),
    ("app%20notin%20(a,c)", ["b-0"]),
    ("tier", ["a-0", "b-0"]),
    ("!tier", ["a-1", "c-0"]),
    ("app%20in%20(a,b),tier%3Dx", ["a-0"]),
])
def test_label_selectors(api: StandIn, selector: str, expected: list[str]) -> None:
    assert names(api, f"/api/v1/pods?labelSelector={selector}") == expected


@pytest.mark.parametrize(("selector", "expected"), [
    ("metadata.name%3Da-0", ["a-0"]),
    ("status.phase%3DPending", ["a-1"]),
    ("status.phase!%3DPending,metadata.namespace%3Dns1", ["a-0", "b-0"]),
    ("spec.nodeName%3D", ["a-1"]),
])
def test_field_selectors(api: StandIn, selector: str, expected: list[str]) -> None:
    assert names(api, f"/api/v1/pods?fieldSelector={selector}") == expected


def test_event_field_selectors_and_unsupported_fields(api: StandIn) -> None:
    assert names(api, "/api/v1/namespaces/ns1/events?fieldSelector=involvedObject.name%3Db-0") == ["e2"]
    assert names(api, "/api/v1/namespaces/ns1/events?fieldSelector=type%3DWarning") == ["e2"]
    status, doc = get(api, "/api/v1/pods?fieldSelector=spec.schedulerName%3Dx")
    assert status == 400 and "field label not supported" in doc["message"]
    status, _ = get(api, "/apis/rlinf.io/v1alpha1/tasks?fieldSelector=status.phase%3DRunning")
    assert status == 400  # custom resources declare no selectable fields


def test_paging_and_expired_continue(api: StandIn) -> None:
    status, first = get(api, "/api/v1/pods?limit=3")
    assert [i["metadata"]["name"] for i in first["items"]] == ["a-0", "a-1", "b-0"]
    token = first["metadata"]["continue"]
    assert first["metadata"]["remainingItemCount"] == 1
    assert names(api, f"/api/v1/pods?limit=3&continue={token}") == ["c-0"]
    api.expire_tokens()
    status, doc = get(api, f"/api/v1/pods?limit=3&continue={token}")
    assert status == 410 and doc["reason"] == "Expired"


def test_logs(api: StandIn) -> None:
    base = "/api/v1/namespaces/ns1/pods/a-0/log"
    assert get(api, f"{base}?container=main&tailLines=2") == (200, "line 8\nline 9\n")
    assert get(api, f"{base}?container=main&limitBytes=9") == (200, "line 0\nli")
    assert get(api, f"{base}?container=main&previous=true") == (200, "previous crash\n")
    status, doc = get(api, base)
    assert status == 400 and "container name must be specified" in doc["message"]
    status, doc = get(api, f"{base}?container=side")
    assert status == 400 and "waiting to start" in doc["message"]
    status, doc = get(api, f"{base}?container=side&previous=true")
    assert status == 400 and "previous terminated container" in doc["message"]
    assert get(api, "/api/v1/namespaces/ns1/pods/zz/log?container=main")[0] == 404


def test_faults_and_request_log(api: StandIn) -> None:
    api.faults.append(Fault(path="/pods$", status=429, retry_after=2, times=1))
    api.faults.append(Fault(path="/events$", status=403))
    assert get(api, "/api/v1/pods")[0] == 429
    assert get(api, "/api/v1/pods")[0] == 200
    assert get(api, "/api/v1/namespaces/ns1/events")[0] == 403
    api.faults.append(Fault(path="/nodes$", drop=True, times=1))
    with pytest.raises((urllib.error.URLError, ConnectionError)):
        get(api, "/api/v1/nodes")
    req = urllib.request.Request(api.url("c1") + "/api/v1/namespaces/ns1/pods/a-0", method="DELETE")
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(req, timeout=5)
    err.value.close()
    assert [r.status for r in api.requests] == [429, 200, 403, 0, 405]
    assert api.requests[-1].method == "DELETE"
