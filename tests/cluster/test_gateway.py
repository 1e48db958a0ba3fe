"""The RLark gateway fallback: member clusters the bot cannot read get their pods' `main` log tails from the
gateway's job-logs endpoint, one GET, and the answer still says it is less complete."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.bundle import read_bundle
from bot.bundle.writer import write_bundle
from bot.cluster import resources as R
from bot.cluster.budget import Stats
from bot.cluster.collector import collect
from bot.diagnose import diagnose_target
from bot.models import Evidence, Target
from bot.redact import Redactor
from bot.runbook import Runbook
from bot.settings import CollectionBudget, Settings
from cluster.conftest import SCENARIOS
from cluster.standin import GATEWAY, ClusterData, Fault, StandIn, load_bundle

JOB = Target.parse("job/ppo-big")
LOGS_PATH = "/api/v1/rlinf.io/v1alpha1/jobs/ppo-big/logs"
TOKEN = "gw-token-0123456789"


def settings(api: StandIn, **budget: float) -> Settings:
    return Settings(gateway_url=api.gateway_url, gateway_token=SecretStr(TOKEN),
                    collection=CollectionBudget(**{"request_timeout_seconds": 2.0, "deadline_seconds": 20.0,
                                                   **budget}))


def without_gpu_b(api: StandIn, tmp_path: Path) -> Path:
    return api.write_kubeconfig(tmp_path / "kc", {"kcp": "kcp", "gpu-a": "gpu-a"}, current="kcp")


def run(kubeconfig: Path, cfg: Settings, *, target: Target = JOB, context: str = "kcp",
        stats: Stats | None = None) -> Evidence:
    return collect(target, kubeconfig=str(kubeconfig), context=context, namespace=None, settings=cfg,
                   stats=stats).to_evidence()


def gateway_requests(api: StandIn) -> list[tuple[str, str]]:
    return [(r.method, r.path) for r in api.requests if r.cluster == GATEWAY]


def test_member_without_context_gets_gateway_logs(standin: StandIn, tmp_path: Path) -> None:
    stats = Stats()
    ev = run(without_gpu_b(standin, tmp_path), settings(standin), stats=stats)
    assert gateway_requests(standin) == [("GET", LOGS_PATH)]
    assert {r.authorization for r in standin.requests if r.cluster == GATEWAY} == {f"Bearer {TOKEN}"}
    from_gateway = [x for x in ev.logs if x.source.cluster == "gpu-b"]
    assert {x.source.pod for x in from_gateway} == {f"ppo-big-worker-gpu-b-{k}" for k in range(8)}
    assert all(x.source.namespace == "rlark-system" and x.source.container == "main" and x.truncated
               and not x.source.previous for x in from_gateway)
    # gpu-a was read directly: its logs are its own reads, not the gateway's copies.
    assert any(r.cluster == "gpu-a" and r.path.endswith("/log") for r in standin.requests)
    assert len([x for x in ev.logs if x.source.pod == "ppo-big-head-0"]) == 1
    # Still less complete than a member read, and the line says where the logs came from.
    assert ev.incomplete and "gpu-b/ (cluster directory)" in map(str, ev.not_collected)
    line = next(p for p in ev.problems if p.startswith("gpu-b:"))
    assert "no kubeconfig context" in line and "RLark gateway" in line and "1000 lines" in line
    assert len(ev.problems) == 1
    assert stats.log_requests >= 1 and stats.requests == len(standin.requests)


def test_head_unreachable_is_found_only_with_the_gateway_logs(runbook: Runbook, tmp_path: Path) -> None:
    """The member cluster holds the Head and every worker; without its logs nothing says the head is unreachable."""
    bundle = SCENARIOS / "rlark-ray-head-unreachable" / "bundle"
    expected = read_bundle(bundle)
    target = Target.parse("job/ppo-franka-0412")
    found: dict[bool, list[str]] = {}
    for with_gateway in (False, True):
        with StandIn(load_bundle(bundle)) as api:
            kc = api.write_kubeconfig(tmp_path / "kc", {"control-plane": "control-plane"}, current="control-plane")
            cfg = Settings(gateway_url=api.gateway_url) if with_gateway else Settings()
            collected = collect(target, kubeconfig=str(kc), context="control-plane", namespace=None, settings=cfg,
                                now=expected.captured_at)
        ev = collected.to_evidence()
        assert {r.method for r in api.requests} == {"GET"}
        assert ev.incomplete and any("gpu-a" in p and "no kubeconfig context" in p for p in ev.problems)
        assert expected.captured_at is not None
        diag = diagnose_target(ev, target, runbook=runbook, now=expected.captured_at, settings=cfg,
                                redactor=Redactor())
        found[with_gateway] = [f.id for f in diag.findings]
    assert "rlark.ray.head-unreachable" not in found[False]
    assert found[True][0] == "rlark.ray.head-unreachable"
    # A snapshot of that answer keeps the gateway's logs and gives the same findings.
    write_bundle(ev, tmp_path / "snap", redactor=Redactor(), listed=collected.listed)
    again = diagnose_target(read_bundle(tmp_path / "snap"), target, runbook=runbook, now=expected.captured_at,
                            settings=Settings(), redactor=Redactor())
    assert [f.id for f in again.findings] == found[True]


def test_unreachable_member_falls_back_to_the_gateway(standin: StandIn, kubeconfig: Path, tmp_path: Path) -> None:
    text = kubeconfig.read_text().replace(standin.url("gpu-b"), "http://127.0.0.1:9/clusters/gpu-b")
    (tmp_path / "kc2").write_text(text)
    ev = run(tmp_path / "kc2", settings(standin, retries=1))
    line = next(p for p in ev.problems if p.startswith("gpu-b:"))
    assert "unreachable" in line and "RLark gateway" in line
    assert {x.source.cluster for x in ev.logs} == {"gpu-a", "gpu-b"}


def test_gateway_is_not_asked_when_every_member_was_read(standin: StandIn, kubeconfig: Path) -> None:
    ev = run(kubeconfig, settings(standin))
    assert ev.problems == [] and gateway_requests(standin) == []


def test_no_gateway_configured_is_todays_behaviour(standin: StandIn, tmp_path: Path) -> None:
    ev = run(without_gpu_b(standin, tmp_path), Settings())
    assert gateway_requests(standin) == []
    assert not [x for x in ev.logs if x.source.cluster == "gpu-b"]
    line = next(p for p in ev.problems if p.startswith("gpu-b:"))
    assert "no kubeconfig context" in line and "gateway" not in line


@pytest.mark.parametrize(("fault", "says"), [
    (Fault(cluster=GATEWAY, status=403), "403 Forbidden"),
    (Fault(cluster=GATEWAY, status=500), "gave up after 2 attempts"),
    (Fault(cluster=GATEWAY, body="<html>login</html>"), "not JSON"),
    (Fault(cluster=GATEWAY, body='{"error": "nope"}'), "no `pods` list"),
    (Fault(cluster=GATEWAY, drop=True), "unreachable"),
])
def test_gateway_failure_is_one_line_and_diagnosis_goes_on(standin: StandIn, tmp_path: Path, fault: Fault,
                                                           says: str) -> None:
    standin.faults.append(fault)
    ev = run(without_gpu_b(standin, tmp_path), settings(standin, retries=1))
    gateway_lines = [p for p in ev.problems if p.startswith("RLark gateway")]
    assert len(gateway_lines) == 1 and says in gateway_lines[0] and "gpu-b" in gateway_lines[0]
    assert not [x for x in ev.logs if x.source.cluster == "gpu-b"]
    assert len([m for m in ev.pod_mirrors if m.namespace == "rlark-gpu-b"]) == 8  # the rest was still read
    assert {p.cluster for p in ev.pods} == {"gpu-a"} and ev.incomplete


def test_gateway_timeout_respects_the_budget(standin: StandIn, tmp_path: Path) -> None:
    standin.faults.append(Fault(cluster=GATEWAY, delay=5.0))
    stats = Stats()
    started = time.monotonic()
    ev = run(without_gpu_b(standin, tmp_path), settings(standin, request_timeout_seconds=0.3, retries=1),
             stats=stats)
    assert time.monotonic() - started < 4.0
    # The stand-in records a request once it answers, after the delay: count what the bot sent instead.
    member_logs = len([r for r in standin.requests if r.path.endswith("/log")])
    assert stats.log_requests == member_logs + 2  # the gateway tried twice (retries=1), then gave up
    assert any(p.startswith("RLark gateway") and "unreachable" in p for p in ev.problems)
    assert {p.cluster for p in ev.pods} == {"gpu-a"}


def test_transient_gateway_fault_is_retried(standin: StandIn, tmp_path: Path) -> None:
    standin.faults.append(Fault(cluster=GATEWAY, status=503, retry_after=0.05, times=1))
    stats = Stats()
    ev = run(without_gpu_b(standin, tmp_path), settings(standin), stats=stats)
    assert stats.retries == 1 and len(gateway_requests(standin)) == 2
    assert len([x for x in ev.logs if x.source.cluster == "gpu-b"]) == 8
    assert not any(p.startswith("RLark gateway") for p in ev.problems)


def test_placeholders_are_skipped_and_fetch_errors_reported(world: dict[str, ClusterData], tmp_path: Path) -> None:
    mirrors = {m["metadata"]["labels"]["rlark.io/local-pod-name"]: m for m in world["kcp"].objects[R.POD_MIRRORS]}
    mirrors["ppo-big-worker-gpu-b-0"]["status"]["phase"] = "Pending"
    world["gpu-b"].objects[R.PODS] = [p for p in world["gpu-b"].objects[R.PODS]
                                      if p["metadata"]["name"] != "ppo-big-worker-gpu-b-1"]
    with StandIn(world) as api:
        ev = run(without_gpu_b(api, tmp_path), settings(api))
    pods = {x.source.pod for x in ev.logs if x.source.cluster == "gpu-b"}
    assert pods == {f"ppo-big-worker-gpu-b-{k}" for k in range(2, 8)}
    errors = [p for p in ev.problems if "error fetching logs" in p]
    assert len(errors) == 1 and errors[0].startswith("gpu-b: RLark gateway: ppo-big-worker-gpu-b-1:")
    assert not any("no logs available" in p for p in ev.problems)


def test_gateway_logs_stay_within_the_log_budget(standin: StandIn, tmp_path: Path) -> None:
    ev = run(without_gpu_b(standin, tmp_path), settings(standin, max_log_pods=3, log_limit_bytes=1024))
    from_gateway = [x for x in ev.logs if x.source.cluster == "gpu-b"]
    assert len(from_gateway) == 3 and all(len(x.text.encode()) <= 1024 for x in from_gateway)
    assert any("3 of 8 of its pods" in p for p in ev.problems)


def test_settings_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RLARK_BOT_GATEWAY_URL", "https://rlark.example/")
    monkeypatch.setenv("RLARK_BOT_GATEWAY_TOKEN", TOKEN)
    cfg = Settings()
    assert cfg.gateway_url == "https://rlark.example"
    assert cfg.gateway_token is not None and cfg.gateway_token.get_secret_value() == TOKEN
    assert TOKEN not in repr(cfg)
    assert TOKEN in [s.get_secret_value() for s in cfg.redaction_with_own_secrets().known_secrets]


@pytest.mark.parametrize(("name", "value"), [("GATEWAY_URL", "rlark.example"), ("GATEWAY_TOKEN", "abc")])
def test_bad_gateway_setting_is_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path, name: str, value: str) -> None:
    from bot.cli import main

    monkeypatch.setenv(f"RLARK_BOT_{name}", value)
    (tmp_path / "x.log").write_text("hello\n", encoding="utf-8")
    status = main(["redact", str(tmp_path / "x.log")])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.startswith(f"rlark-bot: bad setting RLARK_BOT_{name}:") and err.count("\n") == 1


def test_gateway_token_is_redacted_from_output(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from bot.cli import main

    monkeypatch.setenv("RLARK_BOT_GATEWAY_TOKEN", TOKEN)
    # Plain text no pattern would catch: only the configured token makes it a secret.
    (tmp_path / "x.log").write_text(f"seen {TOKEN} here\n", encoding="utf-8")
    assert main(["redact", str(tmp_path / "x.log")]) == 0
    assert capsys.readouterr().out == "seen [REDACTED:known-secret] here\n"
