"""Every scenario directory is a well-formed bundle with a valid expect.yaml (no engine involved)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
import yaml
from scenario_expect import load_expect

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "tests" / "scenarios"
RUNBOOKS = ROOT / "runbooks"
EXAMPLES = ROOT / "examples"

ALLOWED_KEYS = {"description", "target", "namespace", "first", "includes", "excludes", "last_stage", "healthy",
                "incomplete", "checks"}
STAGES = ["submitted", "task-created", "pod-created", "scheduled", "containers-started", "rank-assigned",
          "prepare-script", "ray-cli-checked", "ray-cluster-forming", "ray-cluster-ready", "run-script",
          "training-signal"]


def _scenario_dirs() -> list[Path]:
    if not SCENARIOS.is_dir():
        return []
    return sorted(d for d in SCENARIOS.iterdir() if d.is_dir())


def _example_dirs() -> list[Path]:
    if not EXAMPLES.is_dir():
        return []
    return sorted(d for d in EXAMPLES.iterdir() if d.is_dir())


@cache
def _known_case_ids() -> frozenset[str] | None:
    files = sorted([*RUNBOOKS.glob("*.yaml"), *RUNBOOKS.glob("*.yml")]) if RUNBOOKS.is_dir() else []
    if not files:
        return None
    ids: set[str] = set()
    for f in files:
        for doc in yaml.safe_load_all(f.read_text(encoding="utf-8")):
            entries = doc if isinstance(doc, list) else [doc]
            for entry in entries:
                if isinstance(entry, dict):
                    if isinstance(entry.get("id"), str):
                        ids.add(entry["id"])
                    for sub in ("cases", "runbooks", "entries"):
                        for item in entry.get(sub) or []:
                            if isinstance(item, dict) and isinstance(item.get("id"), str):
                                ids.add(item["id"])
    return frozenset(ids) or None


def test_there_are_scenarios() -> None:
    assert _scenario_dirs(), "tests/scenarios holds no scenario directories"


@pytest.mark.parametrize("scenario", _scenario_dirs(), ids=lambda d: d.name)
def test_expect_yaml(scenario: Path) -> None:
    assert (scenario / "bundle").is_dir(), "missing bundle/"
    path = scenario / "expect.yaml"
    assert path.is_file(), "missing expect.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(doc, dict)
    assert set(doc) <= ALLOWED_KEYS, f"unknown keys {sorted(set(doc) - ALLOWED_KEYS)}"
    load_expect(path)  # the typed schema the scenario test reads it with (unknown nested keys fail too)
    assert isinstance(doc.get("description"), str) and doc["description"].strip()
    target = doc.get("target")
    assert isinstance(target, str) and target.split("/", 1)[0] in ("job", "pod", "runner") and "/" in target
    healthy = doc.get("healthy", False)
    assert isinstance(healthy, bool)
    if not healthy:
        assert isinstance(doc.get("first"), str), "`first` is required unless healthy: true"
    for key in ("includes", "excludes"):
        assert isinstance(doc.get(key, []), list)
    if "last_stage" in doc:
        assert doc["last_stage"] in STAGES
    if "incomplete" in doc:
        assert isinstance(doc["incomplete"], bool)
    first = doc.get("first")
    mentioned = [first] if first else []
    mentioned += doc.get("includes", []) + doc.get("excludes", [])
    assert not set(doc.get("includes", [])) & set(doc.get("excludes", [])), "a case is both included and excluded"
    assert first not in doc.get("excludes", []), "`first` is also excluded"
    known = _known_case_ids()
    if known is None:
        pytest.skip("runbooks/*.yaml not present yet: case ids not checked")
    unknown = sorted(c for c in mentioned if c not in known)
    assert not unknown, f"case ids not in runbooks/: {unknown}"


def _bundle_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


@pytest.mark.parametrize("bundle", [*(d / "bundle" for d in _scenario_dirs()), *_example_dirs()],
                         ids=lambda d: d.parent.name if d.name == "bundle" else f"examples/{d.name}")
def test_bundle_files_wellformed(bundle: Path) -> None:
    files = _bundle_files(bundle)
    assert files, "empty bundle"
    for f in files:
        rel = f.relative_to(bundle)
        if f.suffix == ".json":
            doc = json.loads(f.read_text(encoding="utf-8"))
            assert isinstance(doc, dict) and str(doc.get("kind", "")).endswith("List"), f"{rel}: not a List"
            assert isinstance(doc.get("items"), list), f"{rel}: items is not a list"
        elif f.name in ("logs.txt", "previous-logs.txt"):
            text = f.read_text(encoding="utf-8")
            assert text.startswith("==== START logs for container "), f"{rel}: missing kubectl section marker"
        elif f.name == "snapshot.yaml":
            doc = yaml.safe_load(f.read_text(encoding="utf-8"))
            assert isinstance(doc, dict) and isinstance(doc.get("clusters", []), list)
            for c in doc.get("clusters", []):
                assert (bundle / c).is_dir(), f"snapshot.yaml lists {c} but there is no such directory"
