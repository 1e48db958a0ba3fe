"""Every engine scenario, served by the stand-in and collected live, gives the findings the bundle gives;
and the bundle the `snapshot` writer makes from the live evidence gives them again (round trip)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.bundle import read_bundle
from bot.bundle.writer import write_bundle
from bot.cluster import resources as R
from bot.cluster.collector import collect
from bot.diagnose import diagnose_target
from bot.models import Evidence, Target, TargetKind
from bot.redact import Redactor
from bot.runbook import Runbook
from bot.settings import Settings
from cluster.conftest import scenario_dirs
from cluster.standin import ClusterData, StandIn, load_bundle

SCENARIOS = scenario_dirs()
CREDENTIALS = "rlark.risk.credentials-exposed"


def _cluster_of(target: Target, clusters: dict[str, ClusterData], control_plane: str | None) -> str:
    if target.kind is TargetKind.JOB:
        return control_plane or next(iter(clusters))
    res = R.PODS if target.kind is TargetKind.POD else R.EPHEMERAL_RUNNERS
    for name, data in clusters.items():
        if any((o.get("metadata") or {}).get("name") == target.name for o in data.objects.get(res, [])):
            return name
    return next(iter(clusters))


REDACTOR = Redactor()  # built once: the same configuration for every scenario, as in one bot process


def _findings(evidence: Evidence, target: Target, runbook: Runbook, settings: Settings) -> tuple[list[str], str]:
    assert evidence.captured_at is not None
    diag = diagnose_target(evidence, target, runbook=runbook, now=evidence.captured_at, settings=settings,
                           redactor=REDACTOR)
    return [f.id for f in diag.findings], diag.last_stage


@pytest.mark.skipif(not SCENARIOS, reason="no scenario bundles under tests/scenarios yet")
@pytest.mark.parametrize("scenario", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_live_equals_bundle_and_round_trip(scenario: Path, runbook: Runbook, tmp_path: Path) -> None:
    expect: dict[str, Any] = yaml.safe_load((scenario / "expect.yaml").read_text(encoding="utf-8"))
    target = Target.parse(expect["target"], expect.get("namespace", ""))
    settings = Settings()
    from_bundle = read_bundle(scenario / "bundle")
    clusters = load_bundle(scenario / "bundle")
    context = _cluster_of(target, clusters, from_bundle.control_plane)
    with StandIn(clusters) as api:
        kubeconfig = api.write_kubeconfig(tmp_path / "kubeconfig", {c: c for c in clusters}, current=context)
        collected = collect(target, kubeconfig=str(kubeconfig), context=context,
                            namespace=target.namespace or None, settings=settings, now=from_bundle.captured_at)
    assert {r.method for r in api.requests} == {"GET"}
    live = collected.to_evidence()
    expected = _findings(from_bundle, target, runbook, settings)
    assert _findings(live, target, runbook, settings) == expected

    report = write_bundle(live, tmp_path / "snap", redactor=REDACTOR, listed=collected.listed)
    ids, stage = _findings(read_bundle(tmp_path / "snap"), target, runbook, settings)
    # The written bundle is redacted; its masks still prove the exposure, so the answer is the same.
    if CREDENTIALS in expected[0]:
        assert report.redacted > 0
    assert (ids, stage) == expected
