"""What the engine says when the evidence itself is the problem: orphan Tasks, a runner that failed a moment
ago, logs that were never collected, the role's own Ray temp dir, robot errors in Chinese."""

from __future__ import annotations

import json
import re
import shutil
from datetime import timedelta
from pathlib import Path

import pytest

from bot.bundle import read_bundle
from bot.diagnose import Diagnosis, diagnose
from bot.models import Target, parse_time
from bot.redact import Redactor
from bot.runbook import Runbook
from bot.settings import Thresholds

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
REDACTOR = Redactor()


def _copy(name: str, tmp_path: Path) -> Path:
    dst = tmp_path / name
    shutil.copytree(SCENARIOS / name / "bundle", dst)
    return dst


def _diagnose(bundle: Path, target: str, runbook: Runbook, *, namespace: str = "", shift: float = 0.0) -> Diagnosis:
    ev = read_bundle(bundle)
    assert ev.captured_at is not None
    return diagnose(ev, runbook, now=ev.captured_at + timedelta(seconds=shift), target=Target.parse(target, namespace),
                    redactor=REDACTOR, thresholds=Thresholds())


def test_tasks_whose_job_is_gone_are_not_a_job(runbook: Runbook, tmp_path: Path) -> None:
    bundle = _copy("healthy-single-node", tmp_path)
    jobs = bundle / "control-plane" / "jobs.rlinf.io.json"
    doc = json.loads(jobs.read_text(encoding="utf-8"))
    name = doc["items"][0]["metadata"]["name"]
    doc["items"] = []
    jobs.write_text(json.dumps(doc), encoding="utf-8")
    diag = _diagnose(bundle, f"job/{name}", runbook)
    assert not diag.found and not diag.findings
    assert "the Job object does not exist" in diag.where and f"{name}-" in diag.where


def test_tasks_alone_still_diagnose_when_the_job_list_was_not_collected(runbook: Runbook, tmp_path: Path) -> None:
    bundle = _copy("healthy-single-node", tmp_path)
    name = json.loads((bundle / "control-plane" / "jobs.rlinf.io.json").read_text())["items"][0]["metadata"]["name"]
    (bundle / "control-plane" / "jobs.rlinf.io.json").unlink()
    diag = _diagnose(bundle, f"job/{name}", runbook)
    assert diag.found


def test_a_runner_that_failed_a_minute_ago_is_not_stale(runbook: Runbook, tmp_path: Path) -> None:
    bundle = _copy("infra-arc-stale-runner-too-many-failures", tmp_path)
    runners = next(bundle.rglob("ephemeralrunners.actions.github.com.json"))
    doc = json.loads(runners.read_text(encoding="utf-8"))
    failed = next(r for r in doc["items"] if r["status"].get("phase") == "Failed")
    last = max(failed["status"]["failures"].values())
    ev = read_bundle(bundle)
    assert ev.captured_at is not None
    target = Target.parse(f"runner/{failed['metadata']['name']}", failed["metadata"]["namespace"])
    failed_at = parse_time(last)
    assert failed_at is not None
    limit = Thresholds().stale_runner_seconds
    soon = diagnose(ev, runbook, now=failed_at + timedelta(seconds=90), target=target, redactor=REDACTOR)
    late = diagnose(ev, runbook, now=failed_at + timedelta(seconds=limit + 60), target=target, redactor=REDACTOR)
    assert "infra.arc.stale-runner" not in [f.id for f in soon.findings]
    assert "infra.arc.stale-runner" in [f.id for f in late.findings]


def test_a_job_without_any_log_is_not_healthy(runbook: Runbook, tmp_path: Path) -> None:
    bundle = _copy("healthy-ppo-four-nodes", tmp_path)
    name = json.loads(next(bundle.rglob("jobs.rlinf.io.json")).read_text())["items"][0]["metadata"]["name"]
    complete = _diagnose(bundle, f"job/{name}", runbook)
    assert complete.healthy and not complete.incomplete
    for log in bundle.rglob("*logs.txt"):
        log.unlink()
    diag = _diagnose(bundle, f"job/{name}", runbook)
    assert not diag.healthy and diag.incomplete
    assert any("no container log was collected" in p for p in diag.problems)
    assert any(re.match(r"logs of \d+ of \d+ pods", g) for g in diag.not_collected)


def test_one_missing_worker_log_is_listed_but_does_not_make_it_incomplete(runbook: Runbook, tmp_path: Path) -> None:
    bundle = _copy("healthy-ppo-four-nodes", tmp_path)
    name = json.loads(next(bundle.rglob("jobs.rlinf.io.json")).read_text())["items"][0]["metadata"]["name"]
    worker_log = next(p for p in bundle.rglob("logs.txt") if "actor" not in p.parent.name)
    worker_log.unlink()
    diag = _diagnose(bundle, f"job/{name}", runbook)
    assert not diag.incomplete
    assert any(worker_log.parent.name in g for g in diag.not_collected)


ZH_ROBOT = [
    "[franka_env][ERROR] - 机械臂急停已触发，当前状态未知",
    "夹爪连接超时，重试 3/3",
    "串口 /dev/ttyUSB0 打开失败: [Errno 2] 没有那个文件或目录",
    "[piper] 机械臂使能失败，关节 3 未响应",
    "与机器人通信中断",
    "ur_rtde: RTDEControlInterface: lost connection to controller 192.168.10.21:30004",
    "safety mode PROTECTIVE_STOP detected, servoJ refused",
]
ZH_NOISE = [
    "控制频率 20Hz，相机超时阈值 5000ms",
    "急停按钮状态: 正常",
    "CUDA 设备: cuda:0, 超时设置 30s",
    "机械臂型号: Franka Panda, 关节数 7",
]


@pytest.mark.parametrize("line", ZH_ROBOT)
def test_robot_and_device_errors_match_in_both_languages(runbook: Runbook, line: str) -> None:
    conds = [t.log for t in runbook.cases["rlark.run.robot-device"].when if t.log is not None]
    assert any(c.pattern.search(line) for c in conds)


@pytest.mark.parametrize("line", ZH_NOISE)
def test_robot_settings_and_status_lines_are_not_errors(runbook: Runbook, line: str) -> None:
    conds = [t.log for t in runbook.cases["rlark.run.robot-device"].when if t.log is not None]
    assert not any(c.pattern.search(line) for c in conds)


ZH_LOCALE = [  # what glibc and Python print under a zh_CN locale
    ("pod.run.disk-full", "OSError: [Errno 28] 设备上没有空间: '/data/ckpt/step_400.pt'"),
    ("pod.run.disk-quota", "cp: 写入'/home/ci/cache/x.bin' 出错: 超出磁盘限额"),
    ("pod.run.stale-file-handle", "ls: 无法访问'/mnt/nfs/datasets': 陈旧的文件句柄"),
    ("pod.run.shm-exhausted", "RuntimeError: unable to write to /dev/shm/torch_1234: 设备上没有空间"),
    ("pod.arch-mismatch", "exec /usr/bin/python3: 可执行文件格式错误"),
    ("ci.node.dns", "socket.gaierror: [Errno -3] 域名解析暂时失败"),
    ("rlark.ray.temp-dir", "PermissionError: [Errno 13] 权限不够: '/tmp/ray/session_2026-11-20_07-44-31_508214_1'"),
]


@pytest.mark.parametrize(("case", "line"), ZH_LOCALE)
def test_chinese_locale_wording_matches_its_case(runbook: Runbook, case: str, line: str) -> None:
    conds = [t.log for t in runbook.cases[case].when if t.log is not None]
    assert any(c.pattern.search(line) and not (c.unless and c.unless.search(line)) for c in conds)


@pytest.mark.parametrize(("scenario", "target", "cause_line"), [
    ("cause-temp-dir-readonly-mount", "job/ppo-franka-0412", "Read-only file system: '/mnt/ray-scratch"),
    ("cause-conda-env-then-cli-missing", "job/ppo-franka-0412", "Could not find conda environment: rlinf-sim"),
    ("cause-temp-dir-previous-only", "job/ppo-franka-0412", "Permission denied: '/scratch/ray/sockets/raylet'"),
    ("seen-robot-rtde-lost-en", "job/ppo-ur5-pick-1121", "lost connection to controller"),
])
def test_the_first_error_is_the_answers_own_line(runbook: Runbook, scenario: str, target: str,
                                                  cause_line: str) -> None:
    diag = _diagnose(SCENARIOS / scenario / "bundle", target, runbook)
    assert diag.first_error is not None and cause_line in diag.first_error.text
    assert diag.first_error.line is not None and diag.first_error.context
