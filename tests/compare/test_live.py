"""`compare` against live clusters (the API stand-in serving a pair of runs) says what it says from the bundle."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cluster.standin import StandIn, load_bundle

from bot.cli import main
from tests.compare.pairs import A, B, build, set_digest

IMG2 = "registry.rlinf.example/rlinf/rlinf:embodied-rlinf0.3-torch2.6-ray2.40"
NOW = "2026-11-20T08:00:00Z"


def test_live_equals_bundle(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RLARK_BOT_COLLECTION__REQUEST_TIMEOUT_SECONDS", "30")  # slow machines: not a budget test
    monkeypatch.setenv("RLARK_BOT_COLLECTION__DEADLINE_SECONDS", "120")
    bundle = build(tmp_path, b={"head": {"image": IMG2}, "worker": {"image": IMG2}}, a_outcome="cli-missing")
    set_digest(bundle, A, "a1")
    set_digest(bundle, B, "b2")
    # The live reader ages the agent's heartbeat by the wall clock: renewed just now, for both reads.
    for leases in bundle.glob("control-plane/*/leases.json"):
        doc = json.loads(leases.read_text(encoding="utf-8"))
        for lease in doc["items"]:
            lease["spec"]["renewTime"] = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.000000Z")
        leases.write_text(json.dumps(doc), encoding="utf-8")
    argv = ["compare", f"job/{A}", f"job/{B}", "--format", "json", "--now", NOW]
    assert main([*argv, "--snapshot", str(bundle)]) == 0
    from_bundle = json.loads(capsys.readouterr().out)
    clusters = load_bundle(bundle)
    with StandIn(clusters) as api:
        kubeconfig = api.write_kubeconfig(tmp_path / "kubeconfig", {c: c for c in clusters}, current="control-plane")
        status = main([*argv, "--kubeconfig", str(kubeconfig)])
        out, err = capsys.readouterr()
    assert status == 0, err
    assert {r.method for r in api.requests} == {"GET"}
    live = json.loads(out)
    assert live == from_bundle
    assert live["categories_changed"] == ["image"]
    assert {c["field"] for c in live["spec_changes"]} == {"main.image", "main.digest"}
