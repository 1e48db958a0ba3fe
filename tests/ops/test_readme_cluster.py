"""README's "Run it in your cluster" says what the manifests and `serve` really do: the paths it names exist, the
Secret keys and settings are the ones the Deployment reads, the sizing and shutdown figures are the manifests' and
serve's, and the read-only access it describes covers every resource the RBAC grants, and nothing writable."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.commands import serve
from bot.process import root as serve_root
from bot.process.lifecycle import CLOSE_SECONDS, WORKER_STOP_SECONDS, stop_seconds

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
HEADING = "## Run it in your cluster"
WORDS = {2: "two", 3: "three", 4: "four"}
# How the README spells a granted resource, where that is not the resource's own name.
SPELLED = {"persistentvolumeclaims": "PVCs", "pods/log": "logs", "pods": "pods", "jobs": "Jobs", "tasks": "Tasks",
           "leases": "Leases", "statefulsets": "StatefulSets", "ephemeralrunners": "EphemeralRunners",
           "nodepools": "NodePools", "nodeclaims": "NodeClaims", "namespaceoffloadings": "NamespaceOffloadings"}


@pytest.fixture(scope="module")
def section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert text.count(HEADING) == 1
    body = text.split(HEADING, 1)[1]
    return body.split("\n## ", 1)[0]


def _docs(path: Path) -> list[Any]:
    return [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]


def _deployment(overlay: str | None = None) -> dict[str, Any]:
    path = DEPLOY / ("base" if overlay is None else f"overlays/{overlay}") / "deployment.yaml"
    (doc,) = _docs(path)
    return dict(doc)


def _expand(path: str) -> list[str]:
    """`a/{b,c}-d` -> `a/b-d`, `a/c-d` (the shell's brace expansion, one level)."""
    match = re.search(r"\{([^{}]*)\}", path)
    if match is None:
        return [path]
    return [path[:match.start()] + part + path[match.end():] for part in match.group(1).split(",")]


def test_every_path_it_names_exists(section: str) -> None:
    named = {p.rstrip(".,:)`") for p in re.findall(r"deploy/[\w./{},-]+", section)}
    assert "deploy/README.md" in named and "deploy/slack/manifest.yaml" in named
    missing = [p for raw in named for p in _expand(raw) if not (ROOT / p).exists()]
    assert not missing


def test_the_secret_keys_are_the_ones_the_deployment_reads(section: str) -> None:
    env = _deployment()["spec"]["template"]["spec"]["containers"][0]["env"]
    read = {e["valueFrom"]["secretKeyRef"]["key"] for e in env
            if e.get("valueFrom", {}).get("secretKeyRef", {}).get("name") == "rlark-bot-slack"}
    created = set(re.findall(r"--from-literal=([\w-]+)=", section))
    assert created == read
    assert "rlark-bot-kubeconfig" in section and "`config`" in section


def test_the_settings_it_names_are_in_the_configmap(section: str) -> None:
    (configmap,) = _docs(DEPLOY / "base" / "configmap.yaml")
    (ha,) = _docs(DEPLOY / "overlays" / "ha" / "configmap.yaml")
    known = set(configmap["data"]) | set(ha["data"])
    named = set(re.findall(r"\b(RLARK_BOT_[A-Z_]+|REDIS_URL)\b", section))
    assert named and named <= known


def _mib(quantity: str) -> str:
    number, unit = re.fullmatch(r"(\d+)(Mi|Gi)", quantity).groups()  # type: ignore[union-attr]
    return f"{number} {unit}B"


def test_sizing_and_shutdown_figures_are_the_manifests_and_serves(section: str) -> None:
    pod = _deployment()["spec"]["template"]["spec"]
    resources = pod["containers"][0]["resources"]
    text = " ".join(section.split())
    assert f"requests {resources['requests']['cpu']} CPU and {_mib(resources['requests']['memory'])}" in text
    assert f"limited to {resources['limits']['cpu']} CPUs and {_mib(resources['limits']['memory'])}" in text
    parser = argparse.ArgumentParser()
    serve.add_parser(parser.add_subparsers())
    grace = parser.parse_args(["serve"]).grace
    assert f"({grace:g} s at most, `--grace`)" in text
    assert f"({WORKER_STOP_SECONDS:g} s at most), closes ({CLOSE_SECONDS:g} s)" in text
    assert f"{stop_seconds(grace):g} s in all, inside the Deployment's" in text
    assert f"{pod['terminationGracePeriodSeconds']} s `terminationGracePeriodSeconds`" in text
    assert f"Up to {WORDS[serve_root.DIAGNOSIS_WORKERS]} diagnoses run at once" in text
    # the engine benchmark's latest figures, as bench/engine/RESULTS.md records them
    results = (ROOT / "bench" / "engine" / "RESULTS.md").read_text(encoding="utf-8")
    wall = re.search(r"diagnose wall, fresh process \(median of \d+\) \| ([\d.]+) s", results)
    peak = re.search(r"diagnose peak RSS \(max of runs\) \| (\d+) MiB", results)
    assert wall and peak, "bench/engine/RESULTS.md lost its wall time or peak RSS row"
    assert f"{float(wall[1]):.1f} s" in text and f"{peak[1]} MiB" in text and "1,001-pod" in text
    (pdb,) = _docs(DEPLOY / "overlays" / "ha" / "pdb.yaml")
    assert f"{WORDS[_deployment('ha')['spec']['replicas']]} replicas in HTTP mode" in text
    assert f"PodDisruptionBudget that keeps {WORDS[pdb['spec']['minAvailable']]}" in text
    assert _deployment("single")["spec"]["replicas"] == 1 and "one replica in Socket Mode" in text


def test_the_access_it_describes_is_what_the_rbac_grants(section: str) -> None:
    rules = [rule for path in sorted(DEPLOY.glob("components/*/*.yaml")) for doc in _docs(path)
             if doc.get("kind") in ("Role", "ClusterRole") for rule in doc["rules"]]
    assert rules
    verbs = {verb for rule in rules for verb in rule["verbs"]}
    assert verbs <= {"get", "list", "watch"}
    granted = {resource for rule in rules for resource in rule["resources"]}
    assert not {r for r in granted if r.split("/")[0] == "secrets"} and "*" not in granted
    text = " ".join(section.split())
    unsaid = sorted(r for r in granted if SPELLED.get(r, r).lower() not in text.lower())
    assert not unsaid
    for claim in ("`get`, `list` and `watch`", "nothing on Secrets", "no wildcards", "`exec`"):
        assert claim in text
