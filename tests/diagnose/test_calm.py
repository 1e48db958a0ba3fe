"""Healthy jobs stay healthy by the values in their evidence, and a real failure planted among the same noise is
still the first answer: a warning whose step went on, a configured timeout, a replaced instance whose replacement
has settled (tests/scenarios/calm-* are the whole bundles)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bot.bundle import read_bundle
from bot.diagnose import diagnose
from bot.diagnose.result import Diagnosis
from bot.models import Target
from bot.redact import Redactor
from bot.runbook import Runbook
from bot.scope.lineclass import Kind, classify, warned_then_went_on, zero_stripped
from bot.settings import Thresholds

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"

# ------------------------------------------------------------------------------------ a warning the step went past

WENT_ON = [
    ("actor-0:2231:2409 [0] NCCL WARN NET/Socket : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'",
     "actor-0:2231:2409 [0] NCCL INFO Connected all rings"),
    ("node-3:811:902 [2] NCCL WARN NET/IB : No device found.", "node-3:811:902 [2] NCCL INFO comm 0x1 Init COMPLETE"),
    ("[WARNING] dataloader worker 3 is slow to start", "[INFO] dataloader ready."),
    ("WARN  [hf_hub] mirror did not answer within the budget, using the next one", "Download complete: 14 files"),
    ("W1203 22:01:02.000 rendezvous store not up yet", "I1203 22:01:09.000 rendezvous established with 32 ranks"),
]
NOT_EXCUSED = [
    # a warning that names a failure
    ("actor-0:2231:2409 [0] NCCL WARN Cuda failure 'out of memory'", "NCCL INFO Connected all rings"),
    ("node-3:811:902 [2] NCCL WARN Call to connect returned Connection refused, retrying",
     "NCCL INFO Connected all trees"),
    # no success after it, a failure first
    ("actor-0:2231:2409 [0] NCCL WARN socketProgress: Connection closed by remote peer",
     "RuntimeError: NCCL communicator was aborted on rank 3.\nNCCL INFO Connected all rings"),
    # the log ends: nothing says the step went on
    ("actor-0:2231:2409 [0] NCCL WARN NET/Socket : message truncated", ""),
    # not a warning at all
    ("actor-0:2231:2409 [0] NCCL error in: /opt/pytorch/nccl.cpp:1970, remote process exited", "Connected"),
]


@pytest.mark.parametrize(("line", "after"), WENT_ON)
def test_a_warning_followed_by_success_went_on(line: str, after: str) -> None:
    text = f"{line}\nsome other line\n{after}\n"
    assert warned_then_went_on(line, text, len(line))


@pytest.mark.parametrize(("line", "after"), NOT_EXCUSED)
def test_a_warning_that_fails_or_is_not_followed_by_success_is_not_excused(line: str, after: str) -> None:
    text = f"{line}\n{after}\n" if after else f"{line}\n"
    assert not warned_then_went_on(line, text, len(line))


# ------------------------------------------------------------------------------------ a configured timeout

SETTINGS = [
    "[INFO] HCCL(2231,python) [hccl_comm.cc:211] HCCL exec timeout is set to 1800s, connect timeout 120s",
    "NCCL_TIMEOUT: 600",
    "torch.distributed init_process_group(backend='nccl', timeout=1800)",
    "ray.get with a timeout of 30 s",
    "HCCL_CONNECT_TIMEOUT=1200",
    "stream sync timeout set to 600 s",
    "连接超时时间：120 秒",
]
HAPPENED = [
    "Timeout of 1800s exceeded while waiting for rank 3",
    "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, Timeout(ms)=1800000) ran "
    "for 1800006 milliseconds before timing out.",
    "EI0006: Getting socket times out. timeout=120",
    "connection timed out after 30s",
    "HCCL timeout",
    "请求超时，已重试 3 次仍然失败",
]


@pytest.mark.parametrize("line", SETTINGS)
def test_a_configured_timeout_is_a_value_not_a_failure(line: str) -> None:
    assert classify(line) is not Kind.ERROR
    assert "timeout" not in zero_stripped(line).lower() or "=" not in zero_stripped(line)


@pytest.mark.parametrize("line", HAPPENED)
def test_a_timeout_that_happened_stays_a_failure(line: str) -> None:
    assert classify(line) is Kind.ERROR


# ------------------------------------------------------------------------------ whole bundles, healthy and planted


def _copy(name: str, tmp_path: Path) -> tuple[Path, str]:
    src = SCENARIOS / name
    dst = tmp_path / name
    shutil.copytree(src / "bundle", dst)
    target = next(ln.split(":", 1)[1].strip() for ln in (src / "expect.yaml").read_text().splitlines()
                  if ln.startswith("target:"))
    return dst, target


def _diagnose(bundle: Path, target: str, runbook: Runbook, thresholds: Thresholds | None = None) -> Diagnosis:
    evidence = read_bundle(bundle)
    assert evidence.captured_at is not None
    return diagnose(evidence, runbook, now=evidence.captured_at, target=Target.parse(target), redactor=Redactor(),
                    thresholds=thresholds or Thresholds())


def _errors(diag: Diagnosis) -> list[str]:
    return [f.id for f in diag.findings if f.severity in ("critical", "error")]


def _plant_in_head(bundle: Path, lines: str) -> None:
    head = next(bundle.rglob("*-actor-0/logs.txt"))
    text = head.read_text(encoding="utf-8")
    at = text.index("==== END logs for container main")
    head.write_text(text[:at] + lines + text[at:], encoding="utf-8")


@pytest.mark.parametrize("name", ["calm-nccl-info-warn", "calm-hccl-settings", "calm-evicted-long-ago"])
def test_the_healthy_bundle_has_no_error(runbook: Runbook, tmp_path: Path, name: str) -> None:
    bundle, target = _copy(name, tmp_path)
    assert _errors(_diagnose(bundle, target, runbook)) == []


@pytest.mark.parametrize(("name", "planted"), [
    ("calm-nccl-info-warn", "actor-0:2231:2409 [0] NCCL WARN Cuda failure 'out of memory'\n"
                            "actor-0:2231:2409 [0] NCCL INFO Connected all rings\n"),
    ("calm-nccl-info-warn", "actor-0:2231:2409 [0] NCCL WARN socketProgress: Connection closed by remote peer\n"
                            "RuntimeError: NCCL communicator was aborted on rank 3.\n"),
    ("calm-hccl-settings", "[ERROR] HCCL(2231,python) EI0006: Getting socket times out. Reason: remote rank 12 "
                           "did not connect within 120 s\n"),
    ("calm-hccl-settings", "[ERROR] HCCL(2231,python) HcclAllReduce execute failed, notify wait timeout 1800s "
                           "exceeded on rank 5\n"),
])
def test_a_planted_collective_failure_is_still_the_first_answer(runbook: Runbook, tmp_path: Path, name: str,
                                                               planted: str) -> None:
    bundle, target = _copy(name, tmp_path)
    _plant_in_head(bundle, planted)
    got = [f.id for f in _diagnose(bundle, target, runbook).findings]
    assert got and got[0] == "rlark.run.nccl", got



def test_an_old_eviction_is_history_once_the_replacement_settled(runbook: Runbook, tmp_path: Path) -> None:
    bundle, target = _copy("calm-evicted-long-ago", tmp_path)
    diag = _diagnose(bundle, target, runbook)
    assert "pod.run.disk-full" not in [f.id for f in diag.findings]
    assert "rlark.worker.replaced" in [f.id for f in diag.findings]  # the note stays


def test_the_eviction_explains_while_the_replacement_is_young(runbook: Runbook, tmp_path: Path) -> None:
    bundle, target = _copy("calm-evicted-long-ago", tmp_path)
    # the same evidence, read with a settling window longer than the replacement has run
    diag = _diagnose(bundle, target, runbook, Thresholds(settled_seconds=10 ** 7))
    assert "pod.run.disk-full" in _errors(diag)


def test_the_eviction_explains_when_the_replacement_restarts(runbook: Runbook, tmp_path: Path) -> None:
    bundle, target = _copy("calm-evicted-long-ago", tmp_path)
    pods_file = bundle / "gpu-a" / "rlark-system" / "pods.json"
    pods = json.loads(pods_file.read_text(encoding="utf-8"))
    for p in pods["items"]:
        if p["metadata"]["name"].endswith("-rollout-1"):
            for cs in p["status"]["containerStatuses"]:
                if cs["name"] == "main":
                    cs["restartCount"] = 4
                    cs["ready"] = False
    pods_file.write_text(json.dumps(pods), encoding="utf-8")
    diag = _diagnose(bundle, target, runbook)
    assert "pod.run.disk-full" in _errors(diag)
    assert _errors(diag)[0] == "pod.run.disk-full"
