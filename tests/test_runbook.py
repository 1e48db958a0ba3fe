"""The runbook as data: catalog coverage, schema validity, the documents' prohibitions, loader errors, and
that a new log-signature case needs YAML only. Matching against evidence is the engine's test, not this one;
the pattern samples below only check each regex against single lines."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.runbook.loader import DEFAULT_DIR, RunbookError, load_file, load_runbook
from bot.runbook.schema import Case, LogCond, Runbook
from bot.signals.names import SIGNALS

RUNBOOK_DIR = DEFAULT_DIR

# CONTRACT.md section 4, in table order. This list is the contract: extend it only together with the contract.
CATALOG: tuple[str, ...] = (
    "pod.image.invalid-name",
    "pod.image.pull-failed",
    "pod.image.pull-unauthorized",
    "pod.image.mirror-not-synced",
    "pod.image.pull-slow",
    "pod.container.config-error",
    "pod.container.poststart-killed",
    "pod.schedule.selector-mismatch",
    "pod.schedule.insufficient-resources",
    "pod.schedule.node-unschedulable",
    "pod.storage.pvc-unbound",
    "pod.storage.hostpath-missing",
    "pod.run.crash-on-start",
    "pod.run.oom-killed",
    "pod.run.shm-exhausted",
    "pod.run.disk-full",
    "pod.run.disk-quota",
    "pod.run.stale-file-handle",
    "pod.run.stale-lock-hang",
    "pod.arch-mismatch",
    "pod.liqo.offloading-backoff",
    "rlark.task.no-worker",
    "rlark.task.unrouted",
    "rlark.agent.disconnected",
    "rlark.task.stopped",
    "rlark.spec.selector-invalid",
    "rlark.spec.selector-cross-cluster",
    "rlark.spec.selector-control-plane-label",
    "rlark.spec.head-invalid",
    "rlark.ray.multi-head",
    "rlark.ray.wrapper-failed",
    "rlark.ray.prepare-failed",
    "rlark.ray.cli-missing",
    "rlark.ray.waiting-for-nodes",
    "rlark.ray.head-unreachable",
    "rlark.ray.check-failed",
    "rlark.ray.worker-exit-nonzero",
    "rlark.ray.temp-dir",
    "rlark.run.nccl",
    "rlark.run.robot-device",
    "rlark.run.no-training-signal",
    "rlark.status.out-of-sync",
    "rlark.stop.workers-remain",
    "rlark.worker.replaced",
    "rlark.risk.credentials-exposed",
    "ci.runner.novolume",
    "ci.run.user-script",
    "ci.run.kubeconfig-wrong-cluster",
    "ci.run.upload-blocked",
    "ci.run.host-oom",
    "ci.build.parallel-oom",
    "ci.deps.cache",
    "ci.build.buildkit-cache",
    "ci.run.engine-hang",
    "ci.comm.hccl-port",
    "ci.env.model-cache",
    "ci.node.npu-busy",
    "ci.control-plane.blip",
    "ci.node.dns",
    "ci.node.hardware-fault",
    "ci.runner.version-too-old",
    "infra.pending.long",
    "infra.arc.stale-runner",
    "infra.karpenter.nodepool-unhealthy",
    "infra.arc.runner-too-old",
    "ci.node.mixed-schedulers",
    "ci.runner.dind-not-running",
    "rlark.run.device-oom",
    "rlark.ray.memory-killed",
    "rlark.ray.object-store-full",
    "rlark.run.import-error",
    "rlark.run.no-persistent-output",
)

# Section headings of the three source pages, as they appear there; a source must cite one of them.
HEADINGS: dict[str, frozenset[str]] = {
    "rlark-jobs": frozenset({
        "创建器无法进入下一步或提交", "Job 长时间处于 Pending", "尚未出现 Worker", "已出现 Worker，但仍为 Pending",
        "Worker 异常或日志显示进程失败", "按错误类型排查", "Ray 初始化或组网失败", "不要只凭 Head 就绪文本判断集群完整",
        "检查日志中的 Worker 退出码", "Job 与 Worker 状态不一致", "停止后仍看到 Worker", "WebTerminal 无法打开",
        "联系平台管理员时提供",
    }),
    "rlark-first-run": frozenset({
        "记录必要信息", "无法登录控制台", "找不到目标集群或节点", "创建向导无法继续", "确认任务是否提交成功",
        "处理没有 Worker 的任务", "处理长时间 Pending 的 Worker", "检查 Ray 是否包含所有 Worker",
        "处理没有 RLinf 训练信号的任务", "处理没有持久输出的任务", "遇到高风险情况时停止操作",
    }),
    "ci-runner": frozenset({
        "镜像名非法（InvalidImageName）",
        "镜像拉取失败（ErrImagePull）",
        "更换仓库后镜像拉取报 401",
        "镜像未同步到 SWR（not found）",
        "镜像拉取慢（Initialize containers 长时间卡住）",
        "Secret 配置错误（CreateContainerConfigError）",
        "容器启动即死：postStart 钩子 exit 137",
        "novolume 模式（runner-container-hooks）失败与额外耗时",
        "调度失败：nodeSelector 不匹配",
        "调度失败：资源超限",
        "调度失败：PVC 不存在（FailedBinding）",
        "调度到架构不匹配的节点",
        "Liqo namespace 未接管导致任务卡死（OffloadingBackOff）",
        "容器崩溃",
        "内存不足（OOMKilled）",
        "host 内存不足（aclrtMallocHostWithCfg 207001）",
        "/dev/shm 不足",
        "用户脚本报错（UserScriptError）",
        "kubeconfig / secret 指向错误集群",
        "上传日志 / 产物失败（需加网络白名单）",
        "安装 / 编译阶段 OOM（并行度过高）",
        "依赖缓存异常（pypi / rust）",
        "任务耗时异常（模型加载 / checkout）",
        "构建缓存损坏（BuildKit parent snapshot 不存在）",
        "任务长时间卡住 / 超时（引擎进程挂起）",
        "HCCL 通信端口被占用",
        "模型缓存缺失 / 不完整",
        "节点 NPU 被外部进程 / 带外容器占用",
        "共享盘空间不足 / 锁文件残留",
        "控制面 API 瞬断（cleanup 阶段 ECONNREFUSED / 403）",
        "节点维护后异常（共享盘未挂载 / 白名单缺失）",
        "节点 DNS 解析异常 / 时钟偏移",
        "节点硬件故障（NPU 挂死 / NotReady）",
        "弹性扩容失败 / 弹性节点不健康",
        "Runner 名额被残留 EphemeralRunner 占用",
        "Runner 版本过旧（GitHub 提升最低版本）",
    }),
}

# Catch-alls that must be generic (a specific case on the same pod outranks them); others may join them.
GENERIC = frozenset({
    "pod.run.crash-on-start", "ci.run.user-script", "rlark.ray.prepare-failed", "rlark.run.no-training-signal",
    "rlark.ray.worker-exit-nonzero", "rlark.task.no-worker", "rlark.status.out-of-sync", "infra.pending.long",
})


@pytest.fixture(scope="module")
def runbook() -> Runbook:
    return load_runbook(RUNBOOK_DIR, known_signals=SIGNALS)


def _texts(case: Case) -> list[tuple[str, str, str]]:
    """(where, zh, en) for every bilingual text of a case."""
    out = [("title", case.title.zh, case.title.en), ("symptom", case.symptom.zh, case.symptom.en)]
    out += [(f"next_steps[{i}]", b.zh, b.en) for i, b in enumerate(case.next_steps)]
    out += [(f"avoid[{i}]", b.zh, b.en) for i, b in enumerate(case.avoid)]
    return out


def _log_conds(rb: Runbook) -> list[tuple[str, LogCond]]:
    return [(c.id, t.log) for c in rb.cases.values() for t in c.when if t.log is not None]


def _all_regexes(rb: Runbook) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for case in rb.cases.values():
        for trig in case.when:
            for part in (trig.container, trig.pod, trig.event, trig.log):
                if part is None:
                    continue
                for _name, value in part:
                    if isinstance(value, re.Pattern):
                        found.append((case.id, value.pattern))
    return found


# ---------------------------------------------------------------------------------------------- (1) catalog


def test_catalog_list_is_unique() -> None:
    assert len(set(CATALOG)) == len(CATALOG)


def test_every_catalog_id_defined_exactly_once_and_nothing_else() -> None:
    seen: dict[str, list[str]] = {}
    for path in sorted(RUNBOOK_DIR.glob("*.yaml")):
        for case in load_file(path):
            seen.setdefault(case.id, []).append(path.name)
    dupes = {k: v for k, v in seen.items() if len(v) > 1}
    assert not dupes, f"defined more than once: {dupes}"
    assert sorted(set(CATALOG) - seen.keys()) == [], "catalog ids missing from the runbook"
    assert sorted(seen.keys() - set(CATALOG)) == [], "ids not in the CONTRACT catalog"


# ---------------------------------------------------------------------------------------------- (2) loading


def test_every_file_loads_and_the_whole_runbook_loads(runbook: Runbook) -> None:
    files = sorted(RUNBOOK_DIR.glob("*.yaml"))
    assert len(files) >= 10
    for path in files:
        assert load_file(path), path.name
        assert path.read_text(encoding="utf-8").lstrip().startswith("#"), f"{path.name}: header comment missing"
    assert len(runbook) == len(CATALOG)


def test_regexes_are_hyperscan_compatible(runbook: Runbook) -> None:
    hyperscan = pytest.importorskip("hyperscan")
    for case_id, pattern in _all_regexes(runbook):
        db = hyperscan.Database()
        try:
            db.compile(expressions=[pattern.encode()], flags=[hyperscan.HS_FLAG_UTF8 | hyperscan.HS_FLAG_SOM_LEFTMOST])
        except hyperscan.error as exc:  # pragma: no cover - the failure message is the point
            pytest.fail(f"{case_id}: {pattern!r} is not Hyperscan-compatible: {exc}")


# ---------------------------------------------------------------------------------------------- (3) content


def test_each_case_has_text_sources_steps_and_avoid(runbook: Runbook) -> None:
    for case in runbook.cases.values():
        for where, zh, en in _texts(case):
            assert zh.strip() and en.strip(), f"{case.id}.{where}: empty text"
            assert re.search(r"[\u4e00-\u9fff]", zh), f"{case.id}.{where}: zh text has no Chinese"
            assert not re.search(r"[\u4e00-\u9fff]", en), f"{case.id}.{where}: en text contains Chinese"
        assert case.sources and case.next_steps and case.avoid, case.id


# A `platform` source names the platform whose documentation the case restates, then the part of it.
PLATFORMS = ("PyTorch", "CANN / torch_npu", "Ray", "Python", "Actions Runner Controller")


def test_sources_cite_real_section_headings(runbook: Runbook) -> None:
    for case in runbook.cases.values():
        for src in case.sources:
            if src.page == "platform":
                assert src.section.startswith(tuple(p + ": " for p in PLATFORMS)), f"{case.id}: {src.section!r}"
                continue
            assert src.section in HEADINGS[src.page], f"{case.id}: {src.page} has no section {src.section!r}"


def test_no_shell_or_kubectl_commands_in_text(runbook: Runbook) -> None:
    command = re.compile(
        r"(\bkubectl\s+(get|describe|delete|logs|exec|apply|edit|patch|scale|cordon|drain|label|annotate)\b"
        r"|\bsudo\b|\brm\s+-|\bfind\s+\S+\s+-|\bsysctl\s+-w\b|\bnsenter\b|\bcurl\s+-|\bexport\s+[A-Z_]+=|&>|`)"
    )
    for case in runbook.cases.values():
        for where, zh, en in _texts(case):
            for text in (zh, en):
                assert not command.search(text), f"{case.id}.{where}: looks like a command: {text!r}"


def test_policy_fields(runbook: Runbook) -> None:
    cases = runbook.cases
    generic = {c.id for c in cases.values() if c.generic}
    assert generic >= GENERIC, f"catch-alls not marked generic: {sorted(GENERIC - generic)}"
    assert not {c.id for c in cases.values() if c.generic and (c.severity == "critical" or c.safety)}
    assert [c.id for c in cases.values() if c.safety] == ["rlark.run.robot-device"]
    robot = cases["rlark.run.robot-device"]
    assert (robot.severity, robot.escalate_to) == ("critical", "operator")
    cred = cases["rlark.risk.credentials-exposed"]
    assert (cred.severity, cred.category) == ("critical", "risk")
    assert cases["rlark.ray.multi-head"].severity == "critical"
    assert cases["rlark.task.stopped"].severity == "info"
    for case in cases.values():
        expected = "alert" if case.id.startswith("infra.") else ("risk" if case.id == cred.id else "cause")
        assert case.category == expected, case.id
        assert case.id not in case.supersedes, case.id


def test_robot_device_avoid_list_follows_the_safety_rules(runbook: Runbook) -> None:
    avoid = " ".join(b.en for b in runbook.cases["rlark.run.robot-device"].avoid).lower()
    steps = " ".join(b.en for b in runbook.cases["rlark.run.robot-device"].next_steps).lower()
    assert "retr" in avoid and "retr" in steps
    assert "operator" in steps
    assert "e-stop" in avoid and "never replaces" in avoid


def test_supersedes_has_no_cycles(runbook: Runbook) -> None:
    graph = {c.id: set(c.supersedes) for c in runbook.cases.values()}

    def reach(start: str) -> set[str]:
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            node = todo.pop()
            if node not in seen:
                seen.add(node)
                todo.extend(graph[node])
        return seen

    for case_id in graph:
        assert case_id not in reach(case_id), f"supersedes cycle through {case_id}"


# ------------------------------------------------------------------ (4) never recommend deleting objects

DELETE_EN = re.compile(
    r"\b(delet\w*|remov\w*|clean(s|ing)?[ -]up|purg\w*|wip(e|es|ing)\b|destroy\w*|recreat\w*|tear(s|ing)? down)",
    re.I,
)
OBJECTS_EN = re.compile(
    r"\b(jobs?|pods?|pvcs?|persistent ?volume ?claims?|namespaces?|statefulsets?|domains?)\b", re.I
)
NEGATION_EN = re.compile(r"\b(do not|don't|never|not|without|instead of|rather than|avoid)\b", re.I)
DELETE_ZH = re.compile(r"(删除|删掉|清理|清除|重建|移除)")
OBJECTS_ZH = re.compile(r"(Job|Pod|PVC|命名空间|namespace|StatefulSet|Domain)", re.I)
NEGATION_ZH = re.compile(r"(不要|不得|切勿|勿|禁止|无需|不能|不必)")


def _clauses(text: str, seps: str) -> list[str]:
    return [c for c in re.split(seps, text) if c.strip()]


def deletion_recommendations(en: str, zh: str) -> list[str]:
    """Clauses that mention deleting/cleaning up a protected object without negating it in the same clause.

    A clause is a piece between ., ;, : and a few conjunctions, so "Do not remove the Pod; instead delete the PVC"
    is caught (the second clause recommends deleting) while "Do not remove Jobs, Pods or PVCs" is not."""
    bad: list[str] = []
    for clause in _clauses(en, r"[.;:!?]|\b(?:then|and then|instead|but)\b"):
        if DELETE_EN.search(clause) and OBJECTS_EN.search(clause) and not NEGATION_EN.search(clause):
            bad.append(clause.strip())
    for clause in _clauses(zh, r"[。；：！？，,;]|然后|再|而是"):
        if DELETE_ZH.search(clause) and OBJECTS_ZH.search(clause) and not NEGATION_ZH.search(clause):
            bad.append(clause.strip())
    return bad


@pytest.mark.parametrize(
    ("en", "zh", "flagged"),
    [
        ("Delete the pod and re-run.", "删除 Pod 后重跑。", True),
        ("Do not remove the Pod; instead delete the PVC to reset it.", "不要重启 Pod，而是删除 PVC。", True),
        ("Clean up the namespace before retrying.", "重试前先清理命名空间。", True),
        ("Recreate the StatefulSet.", "重建 StatefulSet。", True),
        ("Do not remove Jobs, Pods or PVCs to clean up the scene.", "不要删除 Job、Pod 或 PVC 来清理现场。", False),
        ("Ask the CI infra team to remove the zombie EphemeralRunners.", "请 CI 基础设施团队移除僵尸 runner。", False),
        ("Re-run failed jobs.", "重跑失败的 job。", False),
        ("Never recreate the namespace; adding markers is enough.", "切勿重建命名空间，补标记即可。", False),
    ],
)
def test_deletion_checker_itself(en: str, zh: str, flagged: bool) -> None:
    assert bool(deletion_recommendations(en, zh)) is flagged


def test_no_text_recommends_deleting_jobs_pods_pvcs_or_namespaces(runbook: Runbook) -> None:
    for case in runbook.cases.values():
        for where, zh, en in _texts(case):
            if not where.startswith(("next_steps", "avoid")):
                continue
            assert not deletion_recommendations(en, zh), f"{case.id}.{where} recommends deleting: {en!r} / {zh!r}"


def test_avoid_items_are_prohibitions(runbook: Runbook) -> None:
    for case in runbook.cases.values():
        for i, item in enumerate(case.avoid):
            assert NEGATION_EN.search(item.en), f"{case.id}.avoid[{i}] is not phrased as a prohibition: {item.en!r}"
            assert NEGATION_ZH.search(item.zh), f"{case.id}.avoid[{i}] zh is not a prohibition: {item.zh!r}"


# ---------------------------------------------------------------------------------- (5) loader errors

MINIMAL: dict[str, Any] = {
    "id": "pod.example.case",
    "title": {"zh": "示例", "en": "Example"},
    "symptom": {"zh": "示例现象", "en": "Example symptom"},
    "severity": "error",
    "fails_at": "containers-started",
    "sources": [{"page": "ci-runner", "section": "容器崩溃"}],
    "when": [{"log": {"pattern": "example failure"}}],
    "next_steps": [{"zh": "查看日志", "en": "Read the log"}],
    "avoid": [{"zh": "不要反复重跑", "en": "Do not re-run repeatedly"}],
    "escalate_to": "user",
}


def _case(**changes: Any) -> dict[str, Any]:
    case: dict[str, Any] = yaml.safe_load(yaml.safe_dump(MINIMAL))
    case.update(changes)
    return case


def _write(directory: Path, name: str, cases: list[dict[str, Any]]) -> Path:
    path = directory / name
    path.write_text("# test runbook\n" + yaml.safe_dump({"cases": cases}, allow_unicode=True), encoding="utf-8")
    return path


def _load_error(directory: Path) -> str:
    with pytest.raises(RunbookError) as info:
        load_runbook(directory, known_signals=SIGNALS)
    message = str(info.value)
    assert "\n" not in message, f"not one line: {message!r}"
    return message


def test_minimal_case_loads(tmp_path: Path) -> None:
    _write(tmp_path, "ok.yaml", [_case()])
    assert load_runbook(tmp_path, known_signals=SIGNALS).get("pod.example.case") is not None


def test_unknown_key_names_file_and_path(tmp_path: Path) -> None:
    _write(tmp_path, "extra.yaml", [_case(), _case(id="pod.example.other", notes="x")])
    message = _load_error(tmp_path)
    assert message.startswith("extra.yaml: ")
    assert "cases[1](pod.example.other).notes" in message


def test_unknown_key_inside_a_trigger(tmp_path: Path) -> None:
    _write(tmp_path, "trig.yaml", [_case(when=[{"log": {"pattern": "x", "contains": "y"}}])])
    message = _load_error(tmp_path)
    assert message.startswith("trig.yaml: ") and "when[0].log.contains" in message


def test_bad_regex_names_file_and_path(tmp_path: Path) -> None:
    _write(tmp_path, "regex.yaml", [_case(when=[{"event": {"reason": "^Failed$", "message": "(unclosed"}}])])
    message = _load_error(tmp_path)
    assert message.startswith("regex.yaml: ")
    assert "cases[0](pod.example.case).when[0].event.message" in message
    assert "invalid regular expression" in message


def test_duplicate_id_across_files(tmp_path: Path) -> None:
    _write(tmp_path, "a.yaml", [_case()])
    _write(tmp_path, "b.yaml", [_case()])
    message = _load_error(tmp_path)
    assert message.startswith("b.yaml: pod.example.case: duplicate id") and "a.yaml" in message


def test_unknown_signal(tmp_path: Path) -> None:
    _write(tmp_path, "sig.yaml", [_case(when=[{"signal": "ray.no-such-thing"}])])
    message = _load_error(tmp_path)
    assert message.startswith("sig.yaml: pod.example.case.when[0].signal") and "ray.no-such-thing" in message


def test_unknown_supersedes_id(tmp_path: Path) -> None:
    _write(tmp_path, "sup.yaml", [_case(supersedes=["pod.not.there"])])
    message = _load_error(tmp_path)
    assert message.startswith("sup.yaml: pod.example.case.supersedes") and "pod.not.there" in message


def test_signal_trigger_must_stand_alone(tmp_path: Path) -> None:
    _write(tmp_path, "mix.yaml", [_case(when=[{"signal": "task.stopped", "log": {"pattern": "x"}}])])
    message = _load_error(tmp_path)
    assert message.startswith("mix.yaml: ") and "when[0]" in message


def test_invalid_yaml_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text("cases:\n  - id: [unclosed\n", encoding="utf-8")
    assert _load_error(tmp_path).startswith("broken.yaml: not valid YAML")


# ------------------------------------------------------------- (6) a new log-signature case is YAML only


def test_new_log_signature_case_needs_yaml_only(tmp_path: Path) -> None:
    for path in RUNBOOK_DIR.glob("*.yaml"):
        shutil.copy(path, tmp_path / path.name)
    new = _case(
        id="ci.run.example-signature",
        title={"zh": "示例：新的日志特征", "en": "Example - a new log signature"},
        sources=[{"page": "ci-runner", "section": "任务耗时异常（模型加载 / checkout）"}],
        when=[{"log": {"pattern": r"(?i)model load took [0-9]{4,} s", "unless": "cached"}}],
        supersedes=["ci.run.user-script"],
    )
    _write(tmp_path, "zz-extra.yaml", [new])
    rb = load_runbook(tmp_path, known_signals=SIGNALS)
    assert len(rb) == len(CATALOG) + 1
    case = rb.get("ci.run.example-signature")
    assert case is not None and case.supersedes == ["ci.run.user-script"]
    cond = case.when[0].log
    assert cond is not None and cond.unless is not None
    assert cond.pattern.search("INFO model load took 1100 s")
    assert cond.unless.search("model load took 1100 s (cached)")


# ------------------------------------------------------------------ log patterns against single lines

POSITIVE: list[tuple[str, str]] = [
    ("ERROR: failed to solve: swr.cn-southwest-2.myhuaweicloud.com/ci/vllm-ascend:v0.28.0-a3: failed to resolve "
     "source metadata for swr.cn-southwest-2.myhuaweicloud.com/ci/vllm-ascend:v0.28.0-a3: not found",
     "pod.image.mirror-not-synced"),
    ("exec /usr/local/bin/entrypoint.sh: exec format error", "pod.arch-mismatch"),
    ("ModuleNotFoundError: No module named 'rpds.rpds'", "pod.arch-mismatch"),
    ("RuntimeError: DataLoader worker (pid 2231) is killed by signal: Bus error. It is possible that dataloader's "
     "workers are out of shared memory.", "pod.run.shm-exhausted"),
    ("ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).",
     "pod.run.shm-exhausted"),
    ("RuntimeError: unable to write to file </torch_1234_5678_0>: No space left on device (28)",
     "pod.run.shm-exhausted"),
    ("OSError: [Errno 28] No space left on device: '/root/.cache/modelscope/hub/x'", "pod.run.disk-full"),
    ("failed to create temp dir: mkdir /var/lib/buildkit/tmp/x: no space left on device", "pod.run.disk-full"),
    ("OSError: [Errno 122] Disk quota exceeded: '/mnt/sfs_turbo/.cache/x'", "pod.run.disk-quota"),
    ("OSError: [Errno 116] Stale file handle", "pod.run.stale-file-handle"),
    ('  File "/usr/local/lib/python3.11/site-packages/torch/utils/file_baton.py", line 42, in wait',
     "pod.run.stale-lock-hang"),
    ("Error: Ray CLI is not found. Please ensure Ray is installed.", "rlark.ray.cli-missing"),
    ("Warning: Ray cluster check failed, proceeding anyway.", "rlark.ray.check-failed"),
    ("Ray worker process exited with code 1", "rlark.ray.worker-exit-nonzero"),
    ("PermissionError: [Errno 13] Permission denied: '/tmp/ray/session_2026-11-20_07-22-01_123456_1'",
     "rlark.ray.temp-dir"),
    ("OSError: AF_UNIX path length cannot exceed 107 bytes: '/mnt/data/very/long/ray/sockets/plasma_store'",
     "rlark.ray.temp-dir"),
    ("node-1:123:456 [0] NCCL WARN socketStartConnect: Connect to 10.0.0.2<45678> failed : Connection refused",
     "rlark.run.nccl"),
    ("[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, "
     "Timeout(ms)=600000) ran for 600012 milliseconds before timing out.", "rlark.run.nccl"),
    ("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, "
     "unhandled system error", "rlark.run.nccl"),
    ('libfranka: Move command aborted: motion aborted by reflex! ["communication_constraints_violation"]',
     "rlark.run.robot-device"),
    ("serial.serialutil.SerialException: [Errno 2] could not open port /dev/ttyUSB0: [Errno 2] No such file",
     "rlark.run.robot-device"),
    ("RuntimeError: No RealSense devices were found!", "rlark.run.robot-device"),
    ("[ERROR] [arm_driver]: Connection refused while connecting to robot at 172.16.0.2", "rlark.run.robot-device"),
    ("Error executing job with overrides: ['algorithm=ppo', 'runner.max_epochs=10']", "rlark.run.no-training-signal"),
    ("omegaconf.errors.ConfigAttributeError: Key 'actor' is not in struct", "rlark.run.no-training-signal"),
    ("##[error]Process completed with exit code 2.", "ci.run.user-script"),
    ("##[debug]The hash of the directory does not match the expected value; want='8426' got='b2e1'",
     "ci.runner.novolume"),
    ("python3: can't open file '/__w/repo/repo/.github/actions/setup/run.py': [Errno 2] No such file or directory",
     "ci.runner.novolume"),
    ("python3: can't open file '/home/runner/_work/repo/repo/.github/actions/collect-env/collect_env.py': "
     "[Errno 2] No such file or directory", "ci.runner.novolume"),
    ("ConnectionError: Read failed due to communication error on port /dev/ttyACM0 for group_key Present_Position",
     "rlark.run.robot-device"),
    ("[TxRxResult] There is no status packet!", "rlark.run.robot-device"),
    ("In 'ppo_franka': Could not find 'env/train/FrankaPickPlace'", "rlark.run.no-training-signal"),
    ("Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.", "rlark.run.no-training-signal"),
    ("Unable to connect to the server: dial tcp 10.1.2.3:5443: i/o timeout", "ci.run.kubeconfig-wrong-cluster"),
    ("Error: Upload progress stalled.", "ci.run.upload-blocked"),
    ("RuntimeError: call aclrtMallocHostWithCfg failed, error code is 207001", "ci.run.host-oom"),
    ("[ERROR] Memory_Allocation_Failure(EL0004): Failed to allocate memory.", "ci.run.host-oom"),
    ("    out = q.get_nowait() or await q.get()", "ci.run.engine-hang"),
    ("EI0019: Communication_Error_Bind_IP_Port(EI0019): Cannot bind IF. The IP and port have been bound already.",
     "ci.comm.hccl-port"),
    ("huggingface_hub.errors.IncompleteSnapshotError: The cached snapshot is incomplete: 2 file(s) are missing",
     "ci.env.model-cache"),
    ("huggingface_hub.errors.LocalEntryNotFoundError: Cannot find an appropriate cached snapshot folder for the "
     "specified revision on the local disk and outgoing traffic has been disabled.", "ci.env.model-cache"),
    ("KeyError: 'wkv.weight_offset'", "ci.env.model-cache"),
    ("dcmi model initialized failed, because the device is used. ret is -8020", "ci.node.npu-busy"),
    ("open device failed: davinci[davinci0] already in use", "ci.node.npu-busy"),
    ("FetchError: request to https://10.0.0.1/apis/authorization.k8s.io/v1/selfsubjectaccessreviews failed, "
     "reason: connect ECONNREFUSED 10.0.0.1:443", "ci.control-plane.blip"),
    ("curl: (6) Could not resolve host: pipelinesghubeus11.actions.githubusercontent.com", "ci.node.dns"),
    ("NPU 3 PCIe I/O error detected after reset", "ci.node.hardware-fault"),
    ("An error occurred: Runner version v2.328.0 is deprecated and cannot receive messages.",
     "ci.runner.version-too-old"),
    ("c++: fatal error: Killed signal terminated program cc1plus", "ci.build.parallel-oom"),
    ("ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE.", "ci.deps.cache"),
    ("error: Download failed because not enough bytes were received (1234/5678)", "ci.deps.cache"),
    ("error: HTTP status server error (503 Service Unavailable) for url (http://cache/simple/torch/)", "ci.deps.cache"),
    ("ERROR: failed to solve: failed to compute cache key: parent snapshot sha256:9f3c2a71be04 does not exist: "
     "not found", "ci.build.buildkit-cache"),
]

BENIGN: list[str] = [
    "Ran 120 tests in 31.2s: 0 errors, 0 failures",
    "step=100 loss=0.52 error_rate=0.01 grad_norm=1.3",
    "WARNING: the --foo option is deprecated and will be removed in a future release",
    "Requirement already satisfied: numpy<2.0 in /usr/local/lib/python3.11/site-packages (1.26.4)",
    "WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour",
    "WARNING: Retrying (Retry(total=4, connect=None, read=None)) after connection broken by "
    "'ReadTimeoutError(\"HTTPSConnectionPool(host='cache', port=443): Read timed out.\")': /simple/torch/",
    "Ray worker process exited with code 0",
    "RLINF_NODE_RANK: 1",
    "Executing prepare script...",
    "Connecting to Ray head at ppo-franka-0412-head-ray-head:6379...",
    "Waiting for head to be reachable at ppo-franka-0412-head-ray-head:6379... (attempt 1)",
    "Waiting for 4 nodes to join the Ray cluster...",
    "Current node count: 2",
    "Ray cluster is ready. Printing cluster information:",
    "Executing run script...",
    "node-1:123:456 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>",
    "robot_env: control_hz=20 timeout=30 retries=3",
    "Filesystem /dev/shm usage 12% of 1.0G",
    "  if-no-files-found: warn",
    "Uploaded bytes 48213",
    "Pulling image for arm64 node",
    "Using /root/.cache/torch_extensions/py311_cpu as PyTorch extensions root...",
    "##[group]Run actions/checkout@v4",
    "Job build-image (a3) completed with result: Succeeded",
    "Downloading model.safetensors: 100% 4.1G/4.1G",
    "INFO: cleaning up the workspace after the job",
    "(EnvWorker pid=644) WARNING:root:Motor bus read retry 1/3 on /dev/ttyACM0",
    "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue.",
    "socket.gaierror: [Errno -2] Name or service not known",
]


def _matching_cases(rb: Runbook, line: str) -> set[str]:
    return {
        case_id for case_id, cond in _log_conds(rb)
        if cond.pattern.search(line) and not (cond.unless is not None and cond.unless.search(line))
    }


@pytest.mark.parametrize(("line", "case_id"), POSITIVE)
def test_log_pattern_catches_real_error_line(runbook: Runbook, line: str, case_id: str) -> None:
    assert case_id in _matching_cases(runbook, line)


@pytest.mark.parametrize("line", BENIGN)
def test_log_patterns_ignore_ordinary_lines(runbook: Runbook, line: str) -> None:
    assert _matching_cases(runbook, line) == set()


def test_shm_lines_are_not_disk_full(runbook: Runbook) -> None:
    for line in ("RuntimeError: unable to write to file </torch_1234_5678_0>: No space left on device (28)",
                 "cp: error writing '/dev/shm/batch_17.npy': No space left on device"):
        matched = _matching_cases(runbook, line)
        assert "pod.run.shm-exhausted" in matched and "pod.run.disk-full" not in matched


def test_nccl_shared_memory_lines_are_shm_not_nccl(runbook: Runbook) -> None:
    matched = _matching_cases(runbook, "NCCL WARN Error while creating shared memory segment /dev/shm/nccl-abc")
    assert "pod.run.shm-exhausted" in matched and "rlark.run.nccl" not in matched
