"""Every Kustomize overlay renders with `kubectl kustomize`, validates offline against Kubernetes 1.31, and
keeps the promises of deploy/: probes, a locked-down pod, tokens only by reference, read-only RBAC scoped as
narrowly as the reads allow, one replica with the embedded store or three with a shared Redis."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from bot.redact import Redactor
from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
OVERLAYS = sorted(p.parent.name for p in (DEPLOY / "overlays").glob("*/kustomization.yaml"))
BOT_OVERLAYS = ("single", "ha")
READER_OVERLAYS = ("control-plane-reader", "member-cluster-reader", "ci-cluster-reader")
K8S_VERSION = "1.31"  # the version deploy/README.md names; the schemas ship with kubernetes-validate

# The environment the Slack app reads (CONTRACT §5, and §6 for the checks), plus KUBECONFIG, the standard
# variable the Kubernetes client reads for the kubeconfig path.
CONTRACT_ENV = {
    "SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN", "SLACK_API_BASE_URL", "REDIS_URL",
    "RLARK_BOT_DATA_DIR", "RLARK_BOT_CHANNELS", "RLARK_BOT_ADMIN_CHANNEL", "RLARK_BOT_ALERTS_CHANNEL",
    "RLARK_BOT_ADMIN_USERGROUP", "RLARK_BOT_CHECKS__INTERVAL_SECONDS", "RLARK_BOT_SLASH_COMMAND", "PORT", "HOST",
    "RLARK_BOT_CHECKS__CLEAR_AFTER_TICKS",
    "RLARK_BOT_ALERTS__AUTO_DIAGNOSE", "RLARK_BOT_DOC_URLS", "RLARK_BOT_UI_URL",  # CONTRACT §11
}
ALLOWED_ENV = CONTRACT_ENV | {"KUBECONFIG"}
REQUIRED_ENV = {"SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN", "RLARK_BOT_CHANNELS",
                "RLARK_BOT_ADMIN_CHANNEL", "RLARK_BOT_ALERTS_CHANNEL", "RLARK_BOT_ADMIN_USERGROUP",
                "RLARK_BOT_CHECKS__INTERVAL_SECONDS", "RLARK_BOT_DATA_DIR", "PORT"}
SLACK_SECRET = "rlark-bot-slack"
SLACK_KEYS = {"SLACK_BOT_TOKEN": "slack-bot-token", "SLACK_SIGNING_SECRET": "slack-signing-secret",
              "SLACK_APP_TOKEN": "slack-app-token"}
READ_VERBS = {"get", "list", "watch"}
# Resources that exist only cluster-wide; anything else a ClusterRole grants must be a deliberate choice below.
CLUSTER_SCOPED = {("", "nodes"), ("rlinf.io", "jobs"), ("karpenter.sh", "nodepools"), ("karpenter.sh", "nodeclaims"),
                  ("rlinf.io", "domains"), ("storage.k8s.io", "storageclasses")}
# ClusterRoles that grant namespaced resources, and why no single namespace would do.
CLUSTER_WIDE_BY_DESIGN = {
    "rlark-bot-control-plane-reader": "Tasks, Pod mirrors, RLark Nodes and Leases sit in one rlark-<agent> "
                                      "namespace per member cluster, and agents come and go",
    "rlark-bot-ci-reader": "runner pods and EphemeralRunners may be in any runner namespace; checks list them all",
    "rlark-bot-node-reader": "node events are listed across namespaces by the node they are about",
}
CLUSTER_SCOPED_KINDS = {"Namespace", "ClusterRole", "ClusterRoleBinding"}

Doc = dict[str, Any]


def _render(overlay: str) -> list[Doc]:
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        pytest.skip("kubectl not found on PATH: cannot render deploy/overlays (install kubectl >= 1.27)")
    proc = subprocess.run([kubectl, "kustomize", str(DEPLOY / "overlays" / overlay)], capture_output=True,
                          text=True, timeout=120, check=False)
    assert proc.returncode == 0, f"kubectl kustomize deploy/overlays/{overlay}: {proc.stderr.strip()}"
    return [d for d in yaml.safe_load_all(proc.stdout) if d]


@pytest.fixture(scope="module")
def rendered() -> dict[str, list[Doc]]:
    return {overlay: _render(overlay) for overlay in OVERLAYS}


def one(docs: list[Doc], kind: str, name: str = "rlark-bot") -> Doc:
    found = [d for d in docs if d["kind"] == kind and d["metadata"]["name"] == name]
    assert len(found) == 1, (kind, name, [(d["kind"], d["metadata"]["name"]) for d in docs])
    return found[0]


def container(docs: list[Doc]) -> Doc:
    (c,) = one(docs, "Deployment")["spec"]["template"]["spec"]["containers"]
    return dict(c)


def test_the_overlays_are_the_two_bot_installs_and_the_three_readers() -> None:
    assert set(OVERLAYS) == {*BOT_OVERLAYS, *READER_OVERLAYS}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_rendered_object_validates_against_kubernetes(rendered: dict[str, list[Doc]], overlay: str) -> None:
    assert rendered[overlay]
    for doc in rendered[overlay]:
        kubernetes_validate.validate(doc, K8S_VERSION, strict=True)
        if doc["kind"] not in CLUSTER_SCOPED_KINDS:
            assert doc["metadata"].get("namespace"), (doc["kind"], doc["metadata"]["name"], "has no namespace")


def test_the_validation_is_not_vacuous(rendered: dict[str, list[Doc]]) -> None:
    deployment = yaml.safe_load(yaml.safe_dump(one(rendered["single"], "Deployment")))
    deployment["spec"]["template"]["spec"]["containers"][0]["livenessProbe"]["httpGet"]["pth"] = "/healthz"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, K8S_VERSION, strict=True)
    assert f"Kubernetes {K8S_VERSION}" in (DEPLOY / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("overlay", BOT_OVERLAYS)
def test_probes_port_and_command(rendered: dict[str, list[Doc]], overlay: str) -> None:
    c = container(rendered[overlay])
    assert c["command"] == ["rlark-bot", "serve"]
    assert c["ports"] == [{"name": "http", "containerPort": 3000, "protocol": "TCP"}]
    assert c["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert c["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    env = {e["name"]: e for e in c["env"]}
    assert env["PORT"]["value"] == "3000"


def _quantity(text: str) -> float:
    units = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "m": 1e-3, "": 1}
    m = re.fullmatch(r"([0-9.]+)(Ki|Mi|Gi|m|)", str(text))
    assert m, text
    return float(m[1]) * units[m[2]]


@pytest.mark.parametrize("overlay", BOT_OVERLAYS)
def test_the_pod_is_locked_down_and_sized(rendered: dict[str, list[Doc]], overlay: str) -> None:
    pod = one(rendered[overlay], "Deployment")["spec"]["template"]["spec"]
    c = container(rendered[overlay])
    sc = c["securityContext"]
    assert sc["runAsNonRoot"] is True and isinstance(sc["runAsUser"], int) and sc["runAsUser"] > 0
    assert sc["readOnlyRootFilesystem"] is True and sc["allowPrivilegeEscalation"] is False
    assert sc["capabilities"] == {"drop": ["ALL"]} and sc["seccompProfile"] == {"type": "RuntimeDefault"}
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    assert pod["serviceAccountName"] == "rlark-bot"
    volumes = {v["name"]: v for v in pod["volumes"]}
    mounts = {m["mountPath"]: m["name"] for m in c["volumeMounts"]}
    assert "emptyDir" in volumes[mounts["/data"]] and "emptyDir" in volumes[mounts["/tmp"]]
    res = c["resources"]
    # A resident set of 300-500 MiB must fit the request; the limit leaves headroom for one large diagnosis.
    assert 500 * 2**20 <= _quantity(res["requests"]["memory"]) <= _quantity(res["limits"]["memory"]) <= 2 * 2**30
    assert _quantity(res["requests"]["cpu"]) <= _quantity(res["limits"]["cpu"])


def _env_names(docs: list[Doc]) -> set[str]:
    names = {e["name"] for e in container(docs)["env"]}
    names |= set(one(docs, "ConfigMap", "rlark-bot-settings")["data"])
    return names


@pytest.mark.parametrize("overlay", BOT_OVERLAYS)
def test_environment_names_are_the_contracts(rendered: dict[str, list[Doc]], overlay: str) -> None:
    names = _env_names(rendered[overlay])
    assert names <= ALLOWED_ENV, names - ALLOWED_ENV
    assert names >= REQUIRED_ENV, REQUIRED_ENV - names
    (source,) = container(rendered[overlay])["envFrom"]
    assert source == {"configMapRef": {"name": "rlark-bot-settings"}}


@pytest.mark.parametrize("overlay", BOT_OVERLAYS)
def test_tokens_come_from_the_operators_secret_by_reference(rendered: dict[str, list[Doc]], overlay: str) -> None:
    docs = rendered[overlay]
    env = {e["name"]: e for e in container(docs)["env"]}
    for name, key in SLACK_KEYS.items():
        assert "value" not in env[name], name
        ref = env[name]["valueFrom"]["secretKeyRef"]
        assert (ref["name"], ref["key"]) == (SLACK_SECRET, key)
    assert env["SLACK_BOT_TOKEN"]["valueFrom"]["secretKeyRef"].get("optional", False) is False
    assert env["SLACK_SIGNING_SECRET"]["valueFrom"]["secretKeyRef"].get("optional", False) is False
    # Socket Mode cannot run without the app-level token; HTTP mode does not use it.
    assert env["SLACK_APP_TOKEN"]["valueFrom"]["secretKeyRef"].get("optional", False) is (overlay == "ha")
    assert not {k for k in one(docs, "ConfigMap", "rlark-bot-settings")["data"] if k in SLACK_KEYS}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_no_secret_object_and_no_credential_anywhere(rendered: dict[str, list[Doc]], overlay: str) -> None:
    docs = rendered[overlay]
    assert not [d for d in docs if d["kind"] == "Secret"]
    assert _credentials(docs) == []


def test_the_credential_scan_sees_a_planted_token(rendered: dict[str, list[Doc]]) -> None:
    planted = list(yaml.safe_load_all(yaml.safe_dump_all(rendered["single"])))  # a deep copy
    one(planted, "ConfigMap", "rlark-bot-settings")["data"]["SLACK_BOT_TOKEN"] = "xoxb-" + "1234567890-" * 2 + "abcDEF"
    assert [key for _, key in _credentials(planted)] == ["SLACK_BOT_TOKEN"]


def _credentials(docs: list[Doc]) -> list[tuple[str, str]]:
    redactor = Redactor()
    found = []
    for where, key, value in _leaves(docs):
        if key == "topologyKey":
            continue  # a label key, not a credential (the redactor's key heuristic reads "...Key" as one)
        if redactor.scan(f"{key}: {value}"):
            found.append((where, key))
    return found


def _leaves(node: object, where: str = "") -> Iterator[tuple[str, str, str]]:
    if isinstance(node, dict):
        for k, v in node.items():
            if isinstance(v, dict | list):
                yield from _leaves(v, f"{where}.{k}")
            else:
                yield where, str(k), str(v)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _leaves(v, f"{where}[{i}]")


def _rbac(docs: list[Doc]) -> Iterator[tuple[Doc, str, str, list[str]]]:
    for doc in docs:
        if doc["kind"] in ("Role", "ClusterRole"):
            for rule in doc["rules"]:
                assert not rule.get("nonResourceURLs"), doc["metadata"]["name"]
                for group in rule["apiGroups"]:
                    for res in rule["resources"]:
                        yield doc, group, res, rule["verbs"]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_rbac_is_read_only_without_secrets_or_wildcards(rendered: dict[str, list[Doc]], overlay: str) -> None:
    grants = list(_rbac(rendered[overlay]))
    assert grants
    for doc, group, res, verbs in grants:
        where = (overlay, doc["metadata"]["name"], group, res)
        assert set(verbs) <= READ_VERBS, where
        assert "*" not in verbs and "*" not in group and "*" not in res, where
        assert res.split("/")[0] != "secrets", where
        if res.endswith("/log"):
            assert verbs == ["get"], where


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_namespace_roles_where_a_namespace_suffices(rendered: dict[str, list[Doc]], overlay: str) -> None:
    for doc, group, res, _ in _rbac(rendered[overlay]):
        if doc["kind"] == "ClusterRole" and (group, res) not in CLUSTER_SCOPED:
            assert doc["metadata"]["name"] in CLUSTER_WIDE_BY_DESIGN, (overlay, doc["metadata"]["name"], res)
    if overlay == "member-cluster-reader":
        # The job's workload lives in rlark-system: its pods, logs, PVCs and StatefulSets are granted there only.
        workload = {("", "pods"), ("", "pods/log"), ("", "persistentvolumeclaims"), ("apps", "statefulsets")}
        for doc, group, res, _ in _rbac(rendered[overlay]):
            if (group, res) in workload:
                assert doc["kind"] == "Role" and doc["metadata"]["namespace"] == "rlark-system", res


@pytest.mark.parametrize(("overlay", "group", "res"), [("control-plane-reader", "rlinf.io", "domains"),
                                                      ("member-cluster-reader", "storage.k8s.io", "storageclasses")])
def test_preflight_reads_are_granted_read_only_cluster_wide(rendered: dict[str, list[Doc]], overlay: str,
                                                            group: str, res: str) -> None:
    # preflight checks spec.domain against the Domains and pvcStorageMap against each member's StorageClasses.
    grants = [(doc, verbs) for doc, g, r, verbs in _rbac(rendered[overlay]) if (g, r) == (group, res)]
    assert grants, (overlay, res)
    for doc, verbs in grants:
        assert doc["kind"] == "ClusterRole" and sorted(verbs) == ["get", "list", "watch"], (overlay, res, verbs)
    for other in READER_OVERLAYS:  # and nowhere else among the reader installs
        if other != overlay:
            assert not any((g, r) == (group, res) for _, g, r, _ in _rbac(rendered[other])), (other, res)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_bindings_bind_the_bots_account_to_roles_in_the_same_install(rendered: dict[str, list[Doc]],
                                                                      overlay: str) -> None:
    docs = rendered[overlay]
    roles = {(d["kind"], d["metadata"]["name"]) for d in docs if d["kind"] in ("Role", "ClusterRole")}
    bindings = [d for d in docs if d["kind"] in ("RoleBinding", "ClusterRoleBinding")]
    assert len(bindings) == len(roles)
    for b in bindings:
        assert (b["roleRef"]["kind"], b["roleRef"]["name"]) in roles, b["metadata"]["name"]
        assert b["subjects"] == [{"kind": "ServiceAccount", "name": "rlark-bot", "namespace": "rlark-bot"}]
    account = one(docs, "ServiceAccount")
    assert account["metadata"]["namespace"] == "rlark-bot"


def test_single_is_one_socket_mode_replica_with_the_embedded_store(rendered: dict[str, list[Doc]]) -> None:
    docs = rendered["single"]
    spec = one(docs, "Deployment")["spec"]
    assert spec["replicas"] == 1 and spec["strategy"] == {"type": "Recreate"}
    assert "--http" not in container(docs).get("args", [])
    assert "REDIS_URL" not in yaml.safe_dump_all(docs)
    assert not [d for d in docs if d["kind"] == "PodDisruptionBudget"]
    assert "topologySpreadConstraints" not in spec["template"]["spec"]


def test_ha_is_three_http_replicas_sharing_redis_spread_and_guarded(rendered: dict[str, list[Doc]]) -> None:
    docs = rendered["ha"]
    spec = one(docs, "Deployment")["spec"]
    assert spec["replicas"] == 3
    assert spec["strategy"]["type"] == "RollingUpdate" and spec["strategy"]["rollingUpdate"]["maxUnavailable"] == 1
    assert container(docs)["args"] == ["--http"]
    redis = one(docs, "ConfigMap", "rlark-bot-settings")["data"]["REDIS_URL"]
    assert re.match(r"^(rediss?|redis\+sentinel)://", redis)
    pdb = one(docs, "PodDisruptionBudget")
    pod_labels = spec["template"]["metadata"]["labels"]
    assert pdb["spec"]["minAvailable"] == 2
    assert pdb["spec"]["selector"]["matchLabels"].items() <= pod_labels.items()
    spread = {t["topologyKey"]: t for t in spec["template"]["spec"]["topologySpreadConstraints"]}
    assert set(spread) == {"kubernetes.io/hostname", "topology.kubernetes.io/zone"}
    for t in spread.values():
        assert t["labelSelector"]["matchLabels"].items() <= pod_labels.items()
    assert spread["kubernetes.io/hostname"]["whenUnsatisfiable"] == "DoNotSchedule"


@pytest.mark.parametrize("overlay", BOT_OVERLAYS)
def test_the_service_exposes_metrics_for_scraping(rendered: dict[str, list[Doc]], overlay: str) -> None:
    docs = rendered[overlay]
    svc = one(docs, "Service")
    assert svc["spec"]["ports"] == [{"name": "http", "port": 3000, "targetPort": "http", "protocol": "TCP"}]
    notes = svc["metadata"]["annotations"]
    assert notes == {"prometheus.io/scrape": "true", "prometheus.io/port": "3000", "prometheus.io/path": "/metrics"}
    assert svc["spec"]["selector"].items() <= one(docs, "Deployment")["spec"]["template"]["metadata"]["labels"].items()


@pytest.mark.parametrize("overlay", BOT_OVERLAYS)
def test_the_settings_in_the_configmap_are_accepted_by_the_bot(rendered: dict[str, list[Doc]], overlay: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith(("RLARK_BOT_", "SLACK_")) or name in ("REDIS_URL", "PORT", "HOST"):
            monkeypatch.delenv(name)
    docs = rendered[overlay]
    for name, value in one(docs, "ConfigMap", "rlark-bot-settings")["data"].items():
        monkeypatch.setenv(name, value)
    for e in container(docs)["env"]:
        if "value" in e and e["name"] != "KUBECONFIG":
            monkeypatch.setenv(e["name"], e["value"])
    settings = Settings(_env_file=None)
    assert settings.channels and all(b.alerts for b in settings.channels.values())
    assert settings.checks.interval_seconds == 60 and settings.port == 3000
    assert str(settings.data_dir) == "/data"
    assert settings.admin_usergroup and settings.admin_channel and settings.alerts_channel
    assert (settings.redis_url is not None) is (overlay == "ha")


@pytest.mark.parametrize("overlay", BOT_OVERLAYS)
def test_without_the_kubeconfig_secret_the_bot_reads_the_cluster_it_runs_in(rendered: dict[str, list[Doc]],
                                                                            overlay: str,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.cluster.kubeconfig import load_source

    docs = rendered[overlay]
    c = container(docs)
    path = next(e["value"] for e in c["env"] if e["name"] == "KUBECONFIG")
    pod = one(docs, "Deployment")["spec"]["template"]["spec"]
    volume = next(v for v in pod["volumes"] if v["name"] == "kubeconfig")
    mount = next(m for m in c["volumeMounts"] if m["name"] == "kubeconfig")
    assert volume["secret"]["secretName"] == "rlark-bot-kubeconfig" and volume["secret"]["optional"] is True
    assert mount["readOnly"] is True
    assert f"{mount['mountPath']}/{volume['secret']['items'][0]['path']}" == path  # the Secret's file is KUBECONFIG
    assert not Path(path).exists()  # as in a pod whose operator created no rlark-bot-kubeconfig
    monkeypatch.setenv("KUBECONFIG", path)
    monkeypatch.setenv("KUBERNETES_SERVICE_HOST", "10.0.0.1")
    assert load_source(None).in_cluster


@pytest.mark.parametrize("overlay", BOT_OVERLAYS)
def test_the_kubelet_waits_longer_than_serve_drains(rendered: dict[str, list[Doc]], overlay: str) -> None:
    from bot.cli import build_parser

    pod = one(rendered[overlay], "Deployment")["spec"]["template"]["spec"]
    args = build_parser().parse_args(["serve", *container(rendered[overlay]).get("args", [])])
    assert pod["terminationGracePeriodSeconds"] > args.grace


def test_the_readme_names_what_the_manifests_use(rendered: dict[str, list[Doc]]) -> None:
    readme = (DEPLOY / "README.md").read_text(encoding="utf-8")
    for named in re.findall(r"deploy/overlays/([a-z-]+)", readme):
        assert named in OVERLAYS, named
    assert {*OVERLAYS} - {"control-plane-reader", "member-cluster-reader", "ci-cluster-reader"} <= \
        set(re.findall(r"overlays/([a-z-]+)", readme))
    refs = {(r["name"], r["key"]) for e in container(rendered["single"])["env"]
            if (r := e.get("valueFrom", {}).get("secretKeyRef"))}
    for name, key in refs:
        assert re.search(rf"create secret generic {name}\b", readme) and f"--from-literal={key}=" in readme, key
    assert "create secret generic rlark-bot-kubeconfig --from-file=config=" in readme
