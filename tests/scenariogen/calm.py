"""Healthy and still-starting situations whose logs and events look alarming to a reader of words:
`python -m tests.scenariogen.calm` rewrites tests/scenarios/calm-*.

Every bundle here is a job that is fine, or one that is minutes old and still within the window of the step it
is in; nothing at error level or above may be reported. They print what real training and CI runs print while
nothing is wrong: Ray's own WARNING lines, NCCL INFO/WARN of a working ring, retries that succeed later, counters
at zero, configs with `timeout` and `failed_steps: 0`, deprecation warnings that mention errors, XFAIL tests,
`set -x` echoes, zh_CN informational lines, events from before the pod existed.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable

from tests.scenariogen import ci
from tests.scenariogen.rlark import (
    SCENARIOS,
    PodM,
    Scenario,
    event,
    fill_healthy_logs,
    head_ip,
    lts,
    main_logs,
    pod_event,
    prepare_ok,
    rank_lines,
    ray_check,
    ray_head_start,
    stable_uid,
    standard_job,
    ts,
    waiting,
    worker_connect,
)

PREFIX = "calm-"
AnyScenario = Scenario | ci.Scenario
REGISTRY: list[Callable[[], AnyScenario]] = []
NO_ERROR = "No finding at error level or above."


def scenario(fn: Callable[[], AnyScenario]) -> Callable[[], AnyScenario]:
    REGISTRY.append(fn)
    return fn


def _append_head(sc: Scenario, text: str, *, steps: int = 12) -> None:
    """A healthy job of four pods whose Head log gets `text` after its training steps."""
    job = sc.jobs[0]
    fill_healthy_logs(job, steps=steps)
    head = job.head.pods[0] if job.head else None
    assert head is not None
    head.logs["main"] += text


def _healthy(name: str, *, age: float = 90) -> tuple[Scenario, PodM]:
    sc = Scenario(name)
    sc.cluster("gpu-a")
    job = standard_job(sc, f"ppo-{name.removeprefix(PREFIX)[:18].rstrip('-')}", workers=3, age_min=age)
    assert job.head is not None
    return sc, job.head.pods[0]


# --------------------------------------------------------------------------------------------------- running, noisy


@scenario
def ray_own_warnings() -> Scenario:
    sc, head = _healthy("calm-ray-own-warnings")
    m = head.started_min - 3
    _append_head(sc, (
        f"{lts(m, 5)}\tWARNING services.py:2022 -- WARNING: The object store is using /tmp instead of /dev/shm "
        "because /dev/shm has only 67108864 bytes available. This will harm performance!\n"
        f"{lts(m, 9)}\tWARNING worker.py:2053 -- Warning: The remote function rlinf.scheduler.get_ip is very "
        "large (11 MiB). Check that its definition is not implicitly capturing a large array.\n"
        "(raylet) [2026-12-03 22:14:07,118 W 412 412] (raylet) metric_exporter.cc:105: [1] Export metrics to agent "
        "failed: RpcError: RPC Error message: failed to connect to all addresses; RPC Error details: . This "
        "won't affect Ray, but you can lose metrics from the cluster.\n"
        f"{lts(m - 0.5, 3)}\tINFO worker.py:1832 -- Connected to Ray cluster.\n"
        "(autoscaler +2m11s) Tip: use `ray status` to view detailed cluster status. To disable these messages, "
        "set RAY_SCHEDULER_EVENTS=0.\n"
        f"[{lts(m - 1, 40)}][rlinf.utils.retry][INFO] - retry policy: catches ray.exceptions.RayActorError and "
        "ray.exceptions.GetTimeoutError (max 3 attempts); none raised so far\n"))
    sc.expects("A healthy PPO run whose Head log carries Ray's own WARNING lines (object store in /tmp, large remote "
               "function, the metrics exporter) and a retry policy naming ray.exceptions classes. " + NO_ERROR,
               healthy=True, last_stage="training-signal")
    return sc


@scenario
def nccl_info_warn() -> Scenario:
    sc, head = _healthy("calm-nccl-info-warn")
    ip = head_ip(head)
    _append_head(sc, (
        f"actor-0:2231:2231 [0] NCCL INFO Bootstrap : Using eth0:{ip}<0>\n"
        "actor-0:2231:2231 [0] NCCL INFO NET/Plugin: No plugin found (libnccl-net.so), using internal "
        "implementation\n"
        "actor-0:2231:2231 [0] NCCL INFO cudaDriverVersion 12040\n"
        "NCCL version 2.21.5+cuda12.4\n"
        "actor-0:2231:2409 [0] NCCL INFO NET/IB : No device found.\n"
        "actor-0:2231:2409 [0] NCCL WARN NET/Socket : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'\n"
        "actor-0:2231:2409 [0] NCCL INFO NET/Socket : Using [0]eth0:10.42.3.17<0>\n"
        "actor-0:2231:2409 [0] NCCL INFO Using network Socket\n"
        "actor-0:2231:2409 [0] NCCL INFO comm 0x5594c1d0 rank 0 nranks 32 cudaDev 0 nvmlDev 0 busId 18000 "
        "commId 0x8a4f2c1d9e3b7a60 - Init START\n"
        "actor-0:2231:2409 [0] NCCL INFO Channel 00/02 :    0   1   2   3   4   5   6   7\n"
        "actor-0:2231:2409 [0] NCCL INFO Connected all rings\n"
        "actor-0:2231:2409 [0] NCCL INFO Connected all trees\n"
        "actor-0:2231:2409 [0] NCCL INFO comm 0x5594c1d0 rank 0 nranks 32 cudaDev 0 busId 18000 - Init COMPLETE\n"
        "actor-0:2231:2409 [0] NCCL INFO NCCL_ASYNC_ERROR_HANDLING=1 NCCL_TIMEOUT=1800 (watchdog enabled)\n"))
    sc.expects("A working 32-rank NCCL ring prints INFO lines and one NCCL WARN about GPU Direct RDMA on a socket "
               "transport, then trains. " + NO_ERROR, healthy=True, last_stage="training-signal")
    return sc


@scenario
def retry_then_success() -> Scenario:
    sc, head = _healthy("calm-retry-then-success")
    m = head.started_min - 3
    _append_head(sc, (
        f"[{lts(m, 1)}][rlinf.data.hf][WARNING] - Connection to hf-mirror.internal timed out (read timeout=10). "
        "Retrying in 5s (attempt 1/5)\n"
        f"[{lts(m - 0.1, 2)}][rlinf.data.hf][WARNING] - 503 Service Unavailable from hf-mirror.internal. Retrying "
        "in 5s (attempt 2/5)\n"
        f"[{lts(m - 0.2, 3)}][rlinf.data.hf][INFO] - Downloaded openvla/openvla-7b/config.json (attempt 3/5)\n"
        f"[{lts(m - 0.3, 4)}][rlinf.data.hf][INFO] - snapshot complete: 14 files, 15.2 GB\n"))
    sc.expects("A dataset download times out twice and says 'Retrying in 5s', then completes on the third "
               "attempt; training goes on. " + NO_ERROR, healthy=True, last_stage="training-signal")
    return sc


@scenario
def checkpoint_tqdm_nan_guard() -> Scenario:
    sc, head = _healthy("calm-checkpoint-tqdm-nan-guard")
    m = head.started_min - 4
    _append_head(sc, (
        "Generating rollouts:  37%|███▋      | 95/256 [00:41<01:10,  2.29it/s, reward=0.41, nan_frac=0.00]\r"
        "Generating rollouts: 100%|██████████| 256/256 [01:52<00:00,  2.28it/s, reward=0.43, nan_frac=0.00]\n"
        f"[{lts(m, 7)}][rlinf.runners.embodied_runner][INFO] - step 100: loss=0.3127 grad_norm=1.84 "
        "nan_loss_steps=0 skipped_nan_batches=0 detect_anomaly=False\n"
        f"[{lts(m - 0.1, 8)}][rlinf.utils.nan_guard][INFO] - NaN/Inf guard: checked 4096 tensors, found nan=0 "
        "inf=0; abort_on_nan=True (not triggered)\n"
        f"[{lts(m - 0.2, 9)}][rlinf.utils.ckpt][INFO] - Saving checkpoint to /data/ckpt/global_step_100 ...\n"
        f"[{lts(m - 0.4, 10)}][rlinf.utils.ckpt][INFO] - Checkpoint saved: /data/ckpt/global_step_100 "
        "(actor, critic, optimizer; 28.4 GB in 61.2s), 0 shards failed\n"))
    sc.expects("tqdm bars, a NaN guard that checked and found nothing, and a checkpoint saved with '0 shards "
               "failed'. " + NO_ERROR, healthy=True, last_stage="training-signal")
    return sc


@scenario
def memory_summary_zero_oom() -> Scenario:
    sc, _head = _healthy("calm-memory-summary-zero-oom")
    _append_head(sc, (
        "|===========================================================================|\n"
        "|                  PyTorch CUDA memory summary, device ID 0                 |\n"
        "|---------------------------------------------------------------------------|\n"
        "|            CUDA OOMs: 0            |        cudaMalloc retries: 0         |\n"
        "|===========================================================================|\n"
        "|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |\n"
        "| Allocated memory      |  61204 MiB |  70931 MiB | 912.3 TiB  | 912.2 TiB  |\n"
        "|===========================================================================|\n"
        "memory stats: num_ooms=0 num_alloc_retries=0 out_of_memory_events: 0 oom_kill_count 0\n"
        "NPU memory: 52.1/64.0 GB used, HBM OOM count 0, ACL error count 0\n"))
    sc.expects("A CUDA memory summary with 'CUDA OOMs: 0' and counters 'num_ooms=0', 'oom_kill_count 0' on a "
               "healthy run. " + NO_ERROR, healthy=True, last_stage="training-signal")
    return sc


@scenario
def deprecation_mentions_error() -> Scenario:
    sc, _head = _healthy("calm-deprecation-mentions-error")
    _append_head(sc, (
        "/opt/conda/envs/rlinf/lib/python3.10/site-packages/transformers/generation/configuration_utils.py:818: "
        "UserWarning: `return_dict_in_generate` is NOT set to `True`, but `output_scores` is. This will raise an "
        "error in v4.47.\n"
        "/opt/conda/envs/rlinf/lib/python3.10/site-packages/torch/utils/checkpoint.py:92: FutureWarning: "
        "`use_reentrant` will default to False; passing it explicitly will be an error in a future release.\n"
        "/opt/conda/envs/rlinf/lib/python3.10/site-packages/gymnasium/core.py:311: DeprecationWarning: the "
        "`errors` argument of env.step is deprecated and ignored.\n"))
    sc.expects("Deprecation and future warnings whose text says 'error'. " + NO_ERROR, healthy=True,
               last_stage="training-signal")
    return sc


@scenario
def config_dump_words() -> Scenario:
    sc, _head = _healthy("calm-config-dump-words")
    _append_head(sc, (
        "runner:\n"
        "  max_steps: 1000\n"
        "  failed_steps: 0\n"
        "  on_error: skip_batch\n"
        "  raise_on_error: false\n"
        "  timeout: 1800\n"
        "  ray_get_timeout_s: 600\n"
        "  nccl_timeout: 1800\n"
        "  max_restarts: 3\n"
        "  oom_retry: false\n"
        "  exceptions_to_ignore: [ray.exceptions.ObjectLostError]\n"
        "metrics: error_rate=0.0 failures=0 timeouts=0 crash_count=0 killed=0\n"), steps=20)
    sc.expects("A printed Hydra config with keys timeout, failed_steps: 0, on_error, raise_on_error, and metrics "
               "'error_rate=0.0 failures=0'. " + NO_ERROR, healthy=True, last_stage="training-signal")
    return sc


@scenario
def node_events_before_pod() -> Scenario:
    sc, head = _healthy("calm-node-events-before-pod", age=120)
    _append_head(sc, "", steps=40)
    node = head.node or "gpu-a-node-01"
    nuid = stable_uid("node", node)
    c = sc.clusters["gpu-a"]
    for reason, msg, minutes, etype in (
            ("NodeNotReady", f"Node {node} status is now: NodeNotReady", 4300.0, "Normal"),
            ("SystemOOM", "System OOM encountered, victim process: python, pid: 88121", 4310.0, "Warning"),
            ("NodeHasDiskPressure", f"Node {node} status is now: NodeHasDiskPressure", 2900.0, "Normal"),
            ("NodeReady", f"Node {node} status is now: NodeReady", 2880.0, "Normal")):
        e = event("default", kind="Node", name=node, uid=nuid, reason=reason, message=msg, first=ts(minutes),
                  etype=etype, component="kubelet", host=node)
        c.extra_events.append(e)
    sc.expects("The Head's node had a SystemOOM, NotReady and disk pressure two to three days before the job was "
               "created; the job has trained for two hours since. " + NO_ERROR, healthy=True,
               last_stage="training-signal")
    return sc


@scenario
def evicted_long_ago() -> Scenario:
    sc, _head = _healthy("calm-evicted-long-ago", age=6000)
    _append_head(sc, "", steps=60)
    w = sc.jobs[0].task("rollout").pods[1]
    w.started_min = 4000
    old_uid = stable_uid("member-pod", "gpu-a", w.name, "before-eviction")
    c = sc.clusters["gpu-a"]
    c.extra_events.append(event("rlark-system", kind="Pod", name=w.name, uid=old_uid, reason="Evicted",
                                message="The node was low on resource: ephemeral-storage. Threshold quantity: "
                                        "10Gi, available: 8Gi. Container main was using 41Gi, request is 0.",
                                first=ts(4002), etype="Warning", host=w.node or ""))
    c.extra_events.append(event("rlark-system", kind="Pod", name=w.name, uid=old_uid, reason="Killing",
                                message="Stopping container main", first=ts(4001.9), host=w.node or ""))
    sc.expects("Rollout pod 1 was evicted almost three days ago and its replacement has run since without "
               "restarts. A note at most. " + NO_ERROR, healthy=True)
    return sc


@scenario
def hccl_settings() -> Scenario:
    sc, _head = _healthy("calm-hccl-settings")
    _append_head(sc, (
        "[INFO] HCCL(2231,python):2026-12-03-22:01:02.123.456 [hccl_comm.cc:211] HCCL exec timeout is set to "
        "1800s, connect timeout 120s\n"
        "[INFO] HCCL(2231,python):2026-12-03-22:01:02.223.456 [op_base.cc:402] rank 0 of 32: "
        "HcclCommInitRootInfo success, take time 4123 us\n"
        "[INFO] RUNTIME(2231,python):2026-12-03-22:01:03.001.002 [stream.cc:88] stream sync timeout set to 600 s\n"
        "NPU health: 8/8 OK, ECC errors 0, link down count 0\n"))
    sc.expects("An Ascend run prints its HCCL and runtime timeout settings and a successful communicator init. "
               + NO_ERROR, healthy=True, last_stage="training-signal")
    return sc


@scenario
def object_spilling() -> Scenario:
    sc, _head = _healthy("calm-object-spilling")
    _append_head(sc, (
        "(raylet) Spilled 2048 MiB, 12 objects, write throughput 912 MiB/s. Set RAY_verbose_spill_logs=0 to disable "
        "this message.\n"
        "(raylet) Restored 512 MiB, 3 objects, read throughput 1.2 GiB/s\n"
        "object store: 18.2 GiB / 40.0 GiB used (45.5%), spilled 2.0 GiB, 0 objects evicted, 0 workers killed "
        "by the memory monitor (threshold 0.95)\n"))
    sc.expects("Ray spills and restores objects to disk, as it is built to; the object store is half full and "
               "the memory monitor killed nothing. " + NO_ERROR, healthy=True, last_stage="training-signal")
    return sc


@scenario
def zh_cn_prepare() -> Scenario:
    sc, _head = _healthy("calm-zh-cn-prepare")
    _append_head(sc, (
        "[信息] 数据集检查完成：共 1,024 条轨迹，损坏 0 条，缺失 0 条\n"
        "[信息] 已成功加载模型权重 /data/models/openvla-7b（耗时 42.1 秒）\n"
        "[提示] 若出现“连接超时”，可调大 RLINF_HTTP_TIMEOUT（当前 120 秒）\n"
        "[信息] 第 100 步：回报 0.43，失败回合 0 个\n"))
    sc.expects("zh_CN informational lines from the training script: counts at zero and a hint that quotes "
               "'连接超时'. " + NO_ERROR, healthy=True, last_stage="training-signal")
    return sc


@scenario
def tensorboard_sidecar_noise() -> Scenario:
    sc, _head = _healthy("calm-tensorboard-sidecar-noise")
    _append_head(sc, "")
    for t in sc.jobs[0].tasks:
        for p in t.pods:
            if "tensorboard" in p.logs:
                p.logs["tensorboard"] = (
                    "2026-12-03 22:00:11.118 W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could "
                    "not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared "
                    "object file: No such file or directory\n"
                    "2026-12-03 22:00:11.119 I tensorflow/stream_executor/cuda/cudart_stub.cc:29] Ignore above cudart "
                    "dlerror if you do not have a GPU set up on your machine.\n"
                    "TensorFlow installation not found - running with reduced feature set.\n"
                    "Serving TensorBoard on localhost; to expose to the network, use a proxy or pass --bind_all\n"
                    "TensorBoard 2.18.0 at http://localhost:6006/ (Press CTRL+C to quit)\n")
    sc.expects("The TensorBoard sidecar prints TensorFlow's usual 'Could not load dynamic library' on a CPU-only "
               "container, then serves. " + NO_ERROR, healthy=True, last_stage="training-signal")
    return sc


@scenario
def set_x_prepare() -> Scenario:
    sc, head = _healthy("calm-set-x-prepare")
    fill_healthy_logs(sc.jobs[0], steps=12)
    trace = ("+ set -x\n"
             "+ df -h /dev/shm /tmp\n"
             "+ grep -q 'No space left on device' /tmp/prepare.log\n"
             "+ echo 'prepare: no errors, no OOM, 0 failed downloads'\n"
             "prepare: no errors, no OOM, 0 failed downloads\n"
             "+ export NCCL_DEBUG=WARN TORCH_NCCL_ASYNC_ERROR_HANDLING=1\n"
             "+ python -c 'import torch; assert torch.cuda.is_available(), \"CUDA error: no device\"'\n")
    head.logs["main"] = head.logs["main"].replace("Executing prepare script...\n",
                                                  "Executing prepare script...\n" + trace, 1)
    sc.expects("The prepare script runs under `set -x`: the echoed commands quote 'No space left on device', "
               "'CUDA error' and an error-handling variable. " + NO_ERROR, healthy=True,
               last_stage="training-signal")
    return sc


# --------------------------------------------------------------------------------------------------- still starting


@scenario
def pulling_minutes_old() -> Scenario:
    sc = Scenario("calm-pulling-minutes-old")
    sc.cluster("gpu-a")
    job = standard_job(sc, "grpo-pull-1203", workers=3, age_min=4)
    for t in job.tasks:
        for p in t.pods:
            p.phase = "Pending"
            p.waiting_all = waiting("ContainerCreating")
            p.collect_logs = False
            p.events.append(pod_event(p, "Pulling", f'Pulling image "{t.d.image}"', 3.6, etype="Normal"))
    sc.expects("Four minutes old: every pod is scheduled and pulling the 20 GB image, nothing failed. Still "
               "starting. " + NO_ERROR, healthy=True)
    return sc


@scenario
def ray_check_in_window() -> Scenario:
    sc = Scenario("calm-ray-check-in-window")
    sc.cluster("gpu-a")
    job = standard_job(sc, "ppo-window-1203", workers=3, age_min=3)
    head = job.head.pods[0]  # type: ignore[union-attr]
    head.logs = main_logs(head, rank_lines(head) + prepare_ok(head, head.started_min - 0.1) +
                          ray_head_start(head, head.started_min - 0.5) +
                          ray_check(head, 4, [1, 1, 2, 2, 3, 3], head.started_min - 0.7, finished=False))
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, p.started_min - 0.1) +
                           worker_connect(p, attempts_unreachable=1))
    sc.expects("Three minutes old: Ray's node check has seen 3 of 4 nodes and is a minute into its 15-minute "
               "window. Still starting. " + NO_ERROR, healthy=True)
    return sc


@scenario
def worker_waits_30s() -> Scenario:
    sc = Scenario("calm-worker-waits-30s")
    sc.cluster("gpu-a")
    job = standard_job(sc, "sft-wait-1203", workers=2, age_min=1.6)
    head = job.head.pods[0]  # type: ignore[union-attr]
    head.logs = main_logs(head, rank_lines(head) + prepare_ok(head, head.started_min - 0.1))
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, p.started_min - 0.05) +
                           worker_connect(p, attempts_unreachable=6, reachable=False))
    sc.expects("Ninety seconds old: the Head is still running its prepare script and the workers have waited "
               "for it for 30 seconds. Still starting. " + NO_ERROR, healthy=True)
    return sc


@scenario
def pending_not_tried() -> Scenario:
    sc = Scenario("calm-pending-not-tried")
    sc.cluster("gpu-a")
    job = standard_job(sc, "ppo-new-1203", workers=1, age_min=0.35)
    for t in job.tasks:
        for p in t.pods:
            p.node, p.ip, p.phase, p.collect_logs = None, None, "Pending", False
            p.conditions = []
    sc.expects("Twenty seconds old: both pods are Pending and the scheduler has not tried them yet (no "
               "PodScheduled condition, no event). Still starting. " + NO_ERROR, healthy=True)
    return sc


# --------------------------------------------------------------------------------------------------- CI runners


def _ci_job(name: str, description: str, lines: list[str], *, result: str | None = None, salt: str) -> ci.Scenario:
    runner = ci.runner_name("linux-aarch64-a2-1", salt[:5], salt[5:10])
    s = ci.Scenario(name, description, f"pod/{runner}")
    steps = ci.steplog(12, ci.checkout_steps(ci.REPO_VLLM, ci.GIT_SHA) + lines)
    ci.add_job(s, runner, node="npu-a2-01", hook=True, job="unit-test (a2-1)", repo=ci.REPO_VLLM,
               run_id=19385300000 + ci.hash_int(name) % 10000, created=14, steps=steps, result=result,
               end=1.0)
    return ci.expect(s, healthy=True)


@scenario
def ci_xfail_skipped() -> ci.Scenario:
    return _ci_job("calm-ci-xfail-skipped", "pytest passes with XFAIL, XPASS and SKIPPED tests whose names carry "
                   "error words. " + NO_ERROR, [
                       *ci.pytest_head("tests/ut"),
                       "tests/ut/test_errors.py::test_raises_on_bad_dtype XFAIL (dtype bf16 unsupported on 310P)",
                       "tests/ut/test_errors.py::test_timeout_error_message PASSED",
                       "tests/ut/test_ops.py::test_oom_fallback SKIPPED (requires 64 GB HBM)",
                       "tests/ut/test_ops.py::test_segfault_guard XPASS",
                       "tests/ut/test_hccl.py::test_hccl_error_code_EI0006_parsing PASSED",
                       "=========== 412 passed, 7 skipped, 3 xfailed, 1 xpassed, 2 warnings in 318.22s ===========",
                   ], salt="xf1s2k8d3q")


@scenario
def ci_set_x_echo() -> ci.Scenario:
    return _ci_job("calm-ci-set-x-echo", "A `set -x` script echoes commands containing 'error', 'fatal' and "
                   "'Killed' strings, none of which ran into a failure. " + NO_ERROR, [
                       "##[group]Run bash -x .github/scripts/check_log.sh",
                       "+ set -euxo pipefail",
                       "+ grep -c -E 'ERROR|fatal|Killed|Traceback' /tmp/server.log",
                       "+ count=0",
                       "+ '[' 0 -ne 0 ']'",
                       "+ echo 'no error lines in server log'",
                       "no error lines in server log",
                       "+ export VLLM_LOGGING_LEVEL=ERROR",
                       "+ VLLM_LOGGING_LEVEL=ERROR",
                       "+ python -c 'import torch_npu; print(\"ok\")'",
                       "ok",
                       "##[endgroup]",
                   ], salt="sx9q2w4e7r")


@scenario
def ci_zh_cn_info() -> ci.Scenario:
    return _ci_job("calm-ci-zh-cn-info", "A zh_CN locale prints informational lines: downloads, installs, "
                   "'0 个错误', a check that found nothing. " + NO_ERROR, [
                       "##[group]Run ./scripts/install_cann.sh",
                       "正在读取软件包列表... 完成",
                       "正在分析软件包的依赖关系树... 完成",
                       "升级了 0 个软件包，新安装了 3 个软件包，要卸载 0 个软件包，有 0 个软件包未被升级。",
                       "正在设置 libnuma1:arm64 (2.0.14-3ubuntu2) ...",
                       "[INFO] 安装完成：0 个错误，0 个警告",
                       "[INFO] 检查 NPU 设备：8 个设备正常，故障设备数：0",
                       "[INFO] 未发现超时或失败的任务",
                       "##[endgroup]",
                   ], salt="zh3c7n1i5o")


@scenario
def ci_retry_then_success() -> ci.Scenario:
    return _ci_job("calm-ci-retry-then-success", "A download is retried twice with 'Retrying in 5s' and then "
                   "succeeds; the tests pass. " + NO_ERROR, [
                       "##[group]Run pip install -r requirements-dev.txt",
                       "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after "
                       "connection broken by 'ReadTimeoutError(\"HTTPSConnectionPool(host='mirrors.internal', "
                       "port=443): Read timed out. (read timeout=15)\")': /simple/modelscope/",
                       "Retrying in 5s ...",
                       "Collecting modelscope==1.29.1",
                       "  Downloading modelscope-1.29.1-py3-none-any.whl (5.9 MB)",
                       "Successfully installed modelscope-1.29.1",
                       "##[endgroup]",
                       *ci.pytest_head("tests/ut"),
                       "=========== 87 passed in 41.02s ===========",
                   ], salt="rt4s8c1x9v")


@scenario
def ci_succeeded_handled_exception() -> ci.Scenario:
    return _ci_job("calm-ci-succeeded-handled-exception", "The job Succeeded; a test logged a handled "
                   "exception (caught, with 'expected error') and a fallback warning. " + NO_ERROR, [
                       *ci.pytest_head("tests/e2e/singlecard"),
                       "WARNING 12-03 23:01:12 [worker.py:311] Falling back to eager mode: graph capture raised "
                       "RuntimeError (handled)",
                       "INFO 12-03 23:01:13 [test_guard.py:42] expected error raised and caught: ValueError: "
                       "max_tokens must be positive",
                       "tests/e2e/singlecard/test_guard.py::test_rejects_negative_max_tokens PASSED",
                       "=========== 23 passed, 1 skipped in 512.40s ===========",
                   ], result="Succeeded", salt="sh5x2e8c4p")


@scenario
def ci_handled_traceback_succeeded() -> ci.Scenario:
    return _ci_job("calm-ci-handled-traceback-succeeded", "The job Succeeded; with `pytest -s` a test printed a "
                   "traceback that the code under test logged and handled before retrying. " + NO_ERROR, [
                       *ci.pytest_head("tests/ut/test_client.py"),
                       "WARNING 12-03 23:02:41 [client.py:88] request failed, will retry once:",
                       "Traceback (most recent call last):",
                       '  File "/__w/vllm-ascend/vllm-ascend/vllm_ascend/client.py", line 84, in _post',
                       "    resp = self._session.post(url, json=body, timeout=5)",
                       "ConnectionResetError: [Errno 104] Connection reset by peer",
                       "INFO 12-03 23:02:42 [client.py:91] retry succeeded (200 OK)",
                       "tests/ut/test_client.py::test_post_retries_once_on_reset PASSED",
                       "=========== 14 passed in 9.81s ===========",
                   ], result="Succeeded", salt="hb7t2r5s1q")


@scenario
def ci_pending_not_tried() -> ci.Scenario:
    runner = ci.runner_name("linux-aarch64-a2-1", "pn2t8", "q4w7e")
    s = ci.Scenario("calm-ci-pending-not-tried", "A runner pod created twenty seconds ago is Pending and the "
                    "scheduler has not tried it yet (no PodScheduled condition, no event). Still starting. "
                    + NO_ERROR, f"pod/{runner}")
    s.pods.append(ci.runner_pod(runner, created=ci.t(0.35), phase="Pending", node=None, hook=True,
                                conditions=[], statuses=[]))
    return ci.expect(s, healthy=True)


def main(argv: list[str] | None = None) -> int:
    SCENARIOS.mkdir(parents=True, exist_ok=True)
    for d in SCENARIOS.iterdir():
        if d.is_dir() and d.name.startswith(PREFIX):
            shutil.rmtree(d)
    names: set[str] = set()
    for fn in REGISTRY:
        sc = fn()
        if sc.name in names or not sc.name.startswith(PREFIX):
            raise SystemExit(f"{sc.name}: duplicate or not a {PREFIX} name")
        names.add(sc.name)
        if isinstance(sc, ci.Scenario):
            sc.write(SCENARIOS / sc.name)
        else:
            sc.write()
    print(f"wrote {len(names)} bundles", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
