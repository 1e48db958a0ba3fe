"""The admin ticket's change since the last run, worked out where the Slack app's diagnoses run, from live clusters
(the API stand-in serving a pair of runs): a live read holds only the Job asked about, so the predecessor is found
among the control plane's Jobs and read on its own; the line is the one a bundle of the same clusters gives."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cluster.standin import StandIn, load_bundle

from bot.models import Target, TargetKind
from bot.redact import Redactor
from bot.service import Service
from bot.settings import Settings
from bot.sources import BundleSource, LiveSource
from bot.workers.command_tasks import CommandTask, run_command
from tests.compare.pairs import A, B, build, set_digest

IMG2 = "registry.rlinf.example/rlinf/rlinf:embodied-rlinf0.3-torch2.6-ray2.40"


def test_live_predecessor_gives_the_bundle_s_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RLARK_BOT_COLLECTION__REQUEST_TIMEOUT_SECONDS", "30")  # slow machines: not a budget test
    monkeypatch.setenv("RLARK_BOT_COLLECTION__DEADLINE_SECONDS", "120")
    bundle = build(tmp_path, b={"head": {"image": IMG2}, "worker": {"image": IMG2}})
    set_digest(bundle, A, "a1")
    set_digest(bundle, B, "b2")
    for leases in bundle.glob("control-plane/*/leases.json"):  # the agent's heartbeat, renewed just now
        doc = json.loads(leases.read_text(encoding="utf-8"))
        for lease in doc["items"]:
            lease["spec"]["renewTime"] = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.000000Z")
        leases.write_text(json.dumps(doc), encoding="utf-8")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    service = Service(settings=settings, redactor=Redactor())
    task = CommandTask(verb="since", args=(B,))
    from_bundle = run_command(task, service=service, source=BundleSource(bundle))
    assert from_bundle.text.startswith(f"job/{A} → job/{B}: 1 change (image: ")
    assert from_bundle.data == {"predecessor": A}
    clusters = load_bundle(bundle)
    with StandIn(clusters) as api:
        kubeconfig = api.write_kubeconfig(tmp_path / "kubeconfig", {c: c for c in clusters}, current="control-plane")
        live = LiveSource(kubeconfig=str(kubeconfig), context=None, settings=settings)
        alone = [j.name for j in live.for_target(Target(kind=TargetKind.JOB, name=B)).evidence.jobs]
        found = run_command(task, service=service, source=live)
        first = run_command(CommandTask(verb="since", args=(A,)), service=service, source=live)
    assert {r.method for r in api.requests} == {"GET"}
    assert alone == [B]  # what a live read of B holds: the predecessor had to be found among the Jobs
    assert (found.text, found.data) == (from_bundle.text, from_bundle.data)
    assert (first.text, first.data) == ("", {"predecessor": ""})  # the first run has none
