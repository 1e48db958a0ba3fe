"""The RBAC in deploy/ grants exactly what the adapter reads (get/list/watch), nothing on Secrets, nothing writable;
and every request a real collection sends is allowed by the manifest for that kind of cluster."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.cluster import resources
from bot.cluster.collector import collect, collect_checks
from bot.cluster.errors import TargetNotFound
from bot.cluster.guard import GATEWAY_JOB_LOGS
from bot.models import Target
from bot.settings import Settings
from cluster.standin import GATEWAY, RequestRecord, StandIn

DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "components"  # <cluster>/<cluster>.yaml
READ_VERBS = {"get", "list", "watch"}
Rule = tuple[str | None, str, str]  # namespace (None: cluster-wide), api group, resource


def rules(manifest: str) -> dict[Rule, set[str]]:
    out: dict[Rule, set[str]] = {}
    for doc in yaml.safe_load_all((DEPLOY / manifest.removesuffix(".yaml") / manifest).read_text(encoding="utf-8")):
        if doc["kind"] not in ("Role", "ClusterRole"):
            continue
        ns = doc["metadata"].get("namespace") if doc["kind"] == "Role" else None
        for rule in doc["rules"]:
            for group in rule["apiGroups"]:
                for res in rule["resources"]:
                    out.setdefault((ns, group, res), set()).update(rule["verbs"])
    return out


MANIFESTS = sorted(p.name for p in DEPLOY.glob("*/*.yaml") if p.name != "kustomization.yaml")


def test_manifests_grant_exactly_the_adapters_reads() -> None:
    granted: dict[tuple[str, str], set[str]] = {}
    for manifest in MANIFESTS:
        for (_, group, res), verbs in rules(manifest).items():
            granted.setdefault((group, res), set()).update(verbs)
    assert set(granted) == set(resources.READS)
    for key, verbs in granted.items():
        assert verbs == READS_WITH_WATCH[key], key


# What RBAC should grant: the adapter's verbs, plus watch wherever it lists (a cache or informer may be added later).
READS_WITH_WATCH = {k: set(v) | ({"watch"} if "list" in v else set()) for k, v in resources.READS.items()}


@pytest.mark.parametrize("manifest", MANIFESTS)
def test_nothing_writable_no_secrets_no_wildcards(manifest: str) -> None:
    for (_, group, res), verbs in rules(manifest).items():
        assert verbs <= READ_VERBS, (manifest, res, verbs)
        assert "*" not in (group, res) and "*" not in verbs
        assert not res.startswith("secrets")


_PATH = re.compile(r"^/(?:api/v1|apis/(?P<group>[^/]+)/[^/]+)(?:/namespaces/(?P<ns>[^/]+))?/(?P<res>[^/]+)"
                   r"(?:/(?P<name>[^/]+)(?:/(?P<sub>[^/]+))?)?$")


def allowed(granted: dict[Rule, set[str]], rec: RequestRecord) -> bool:
    m = _PATH.match(rec.path)
    assert m, rec.path
    group, res = m["group"] or "", m["res"] + (f"/{m['sub']}" if m["sub"] else "")
    verb = "get" if m["name"] else "list"
    cluster_wide = granted.get((None, group, res), set())
    in_namespace = granted.get((m["ns"], group, res), set()) if m["ns"] else set()
    return verb in cluster_wide | in_namespace


def _check(api: StandIn, by_cluster: dict[str, str]) -> None:
    assert api.requests
    for rec in api.requests:
        if rec.cluster == GATEWAY:
            # Not a Kubernetes API, so no RBAC: held to its own guard instead, one GET path.
            assert rec.method == "GET" and GATEWAY_JOB_LOGS.match(rec.path), rec
            continue
        granted = rules(by_cluster[rec.cluster])
        assert allowed(granted, rec), f"{rec.cluster}: GET {rec.path} is not allowed by {by_cluster[rec.cluster]}"


def test_job_collection_is_allowed_by_control_plane_and_member_roles(standin: StandIn, kubeconfig: Path) -> None:
    collect(Target.parse("job/ppo-big"), kubeconfig=str(kubeconfig), context="kcp", namespace=None,
            settings=Settings())
    _check(standin, {"kcp": "control-plane.yaml", "gpu-a": "member-cluster.yaml", "gpu-b": "member-cluster.yaml"})


def test_job_collection_with_gateway_fallback_is_allowed(standin: StandIn, tmp_path: Path) -> None:
    kubeconfig = standin.write_kubeconfig(tmp_path / "kc", {"kcp": "kcp", "gpu-a": "gpu-a"}, current="kcp")
    collect(Target.parse("job/ppo-big"), kubeconfig=str(kubeconfig), context="kcp", namespace=None,
            settings=Settings(gateway_url=standin.gateway_url))
    assert any(r.cluster == GATEWAY for r in standin.requests)
    _check(standin, {"kcp": "control-plane.yaml", "gpu-a": "member-cluster.yaml"})


@pytest.mark.parametrize("target", ["pod/ppo-big-worker-gpu-b-7", "runner/ppo-big-worker-gpu-b-7"])
def test_pod_runner_and_check_collection_is_allowed_by_ci_role(standin: StandIn, kubeconfig: Path,
                                                                target: str) -> None:
    kwargs: dict[str, Any] = {"kubeconfig": str(kubeconfig), "context": "gpu-b", "settings": Settings()}
    # The runner does not exist in this world; its lookup still went over the wire.
    with contextlib.suppress(TargetNotFound):
        collect(Target.parse(target), namespace=None, **kwargs)
    collect_checks(**kwargs)
    _check(standin, {"gpu-b": "ci-cluster.yaml"})
