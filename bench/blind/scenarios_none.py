# ruff: noqa: E501  (log and event text is quoted verbatim, one line per log line)
"""Scenarios whose right answer is `none`: healthy or still-starting jobs and runners with harmless scary lines."""

from __future__ import annotations

from pathlib import Path

import gen_k8s as k
import gen_logs as L
from gen_ci import CHECKOUT, NPU_SMI, CIBundle, CIPod, Ctr, Runner, runner_log, write_ci_bundle
from gen_ci import Ev as CEv
from gen_k8s import Scenario, at, mins, sec
from gen_rlark import AgentSpec, Ev, JobSpec, PodSpec, TaskSpec, gpu_nodes, write_job_bundle
from scenarios_ci import S3, a2_nodes, runner_pod, runner_waiting
from scenarios_rlark import RUN, S0, S1, run_start
from scenarios_rlark2 import NPU_TASK, npu_nodes, std_job

PREP_RETRY = L.PIP_EDITABLE.replace(
    "Requirement already satisfied: omegaconf",
    "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection "
    "broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f2e1c5d3a90>: "
    "Failed to establish a new connection: [Errno 101] Network is unreachable')': /simple/setuptools/\n"
    "Requirement already satisfied: omegaconf")


def w_healthy_noisy(out: Path) -> None:
    c = at(2026, 11, 23, 6, 0)
    t = c + mins(3)
    run = [*run_start(t, 3, 24), "(EmbodiedFSDPActor pid=2231, ip=10.0.1.12) /opt/conda/envs/rlinf/lib/python3.10/site-packages/torch/distributed/fsdp/_init_utils.py:444: UserWarning: FSDP is switching to use `NO_SHARD` instead of ShardingStrategy.FULL_SHARD since the world size is 1.", "(EmbodiedFSDPActor pid=2231, ip=10.0.1.12) NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0", "(EmbodiedFSDPActor pid=2231, ip=10.0.1.12) NCCL INFO comm 0x55d0c3a1e2b0 rank 0 nRanks 24 nNodes 3 localRanks 8 localRank 0 MNNVL 0", "(EmbodiedFSDPActor pid=2231, ip=10.0.1.12) NCCL INFO Init COMPLETE", "(EnvWorker pid=3107, ip=10.0.1.13) [ManiSkill] loaded 256 parallel envs, 0 errors, warmup done in 41.2s", "(EnvWorker pid=3107, ip=10.0.1.13) [W1123 06:04:02.118] gym.logger: WARN: env.reset() returned an info dict without 'success'; assuming False", L.rl(t + sec(70), "rlinf.runners.embodied_runner", "INFO", "validation: success_rate=0.082, error_rate=0.00, failed_episodes=0, episodes=256"), L.rl(t + sec(71), "rlinf.utils.timers", "WARNING", "timer 'rollout/env_step' exceeded its moving average by 2.3x (first step warm-up)"), *L.progress(t, 1, 40, 1000, 43.0)]
    job = std_job("ppo-healthy-1123", c, c + mins(33), run=run, prepare=PREP_RETRY, owner="alice",
                  head_log_kw={"counts": [1, 2, 2, 3]})
    job.tasks[1].pods[0].log = L.worker_log(rank=1, head="ppo-healthy-1123-actor-0.rlark-domain", ip="10.0.1.12",
                                            waits=6)
    write_job_bundle(job, out)


def w_young_pulling(out: Path) -> None:
    c = at(2026, 11, 23, 7, 0)
    img = "registry.rlinf.example/rlinf/rlinf:embodied-rlinf0.2.1-torch2.6-ray2.40"

    def pod(i: int, node: str) -> PodSpec:
        return PodSpec(i, node, phase="Pending", main={"waiting": {"reason": "ContainerCreating"}},
                       events=[Ev("Pulling", f'Pulling image "{img}"', 6, etype="Normal")])
    pull = {"pullProgress": [{"node": f"gpu-a-node-0{i}", "image": img, "progress": f"{p}%",
                              "downloaded": f"{p * 0.213:.1f}GB", "total": "21.3GB"}
                             for i, p in ((1, 46), (2, 41), (3, 44))],
            "events": [{"type": "Normal", "reason": "Pulling", "message": f'Pulling image "{img}"',
                        "lastTimestamp": k.ts(c + sec(58))}]}
    job = JobSpec("ppo-newimg-1123", c, c + mins(9), owner="liyang",
                  tasks=[TaskSpec("actor", "Actor", head=True, image=img, run=RUN, phase="Pending", status_extra=pull,
                                  pods=[pod(0, "gpu-a-node-01")]),
                         TaskSpec("rollout", "Rollout", replicas=2, image=img, phase="Pending", status_extra=pull,
                                  pods=[pod(0, "gpu-a-node-02"), pod(1, "gpu-a-node-03")])],
                  phase="Pending", agents={"gpu-a": AgentSpec(gpu_nodes("gpu-a-node", 4))})
    write_job_bundle(job, out)


def w_ray_window_open(out: Path) -> None:
    c = at(2026, 11, 23, 8, 0)
    job = std_job("ppo-latejoin-1123", c, c + mins(7), run=None, workers=3, owner="wangfang",
                  head_log_kw={"counts": [1, 2, 2] + [3] * 26})
    late = job.tasks[1].pods[2]
    late.created = 5 * 60 + 10
    late.log = "\n".join(["RLINF_NODE_RANK: 3", "SSH public key injected into authorized_keys",
                          "Executing prepare script...", "Obtaining file:///workspace/RLinf",
                          "  Installing build dependencies: started"])
    write_job_bundle(job, out)


def w_just_submitted(out: Path) -> None:
    c = at(2026, 11, 23, 9, 0)
    job = JobSpec("ppo-fresh-1123", c, c + sec(25), owner="zhaolei", phase="Pending",
                  tasks=[TaskSpec("actor", "Actor", head=True, run=RUN, phase="Pending"),
                         TaskSpec("rollout", "Rollout", replicas=2, phase="Pending")],
                  agents={"gpu-a": AgentSpec(gpu_nodes("gpu-a-node", 4))})
    write_job_bundle(job, out)


def w_old_events(out: Path) -> None:
    c = at(2026, 11, 23, 10, 0)
    t = c + mins(3)
    run = run_start(t, 3, 24) + L.progress(t, 1, 70, 1000, 43.0)
    job = std_job("ppo-steady-1123", c, c + mins(55), run=run, owner="chenjie")
    old = at(2026, 10, 30, 3, 12)
    for n in job.agents["gpu-a"].nodes:
        n.rlark_events = [
            {"type": "Warning", "reason": "NodeNotReady", "message": f"Node {n.name} status is now: NodeNotReady",
             "lastTimestamp": k.ts(old)},
            {"type": "Normal", "reason": "NodeReady", "message": f"Node {n.name} status is now: NodeReady",
             "lastTimestamp": k.ts(old + mins(9))},
            {"type": "Warning", "reason": "Rebooted", "message": f"Node {n.name} has been rebooted, boot id: 3c1f0a7e-9d2b-4e51-8f6a-0b7c2d9e4f13",
             "lastTimestamp": k.ts(old + mins(8))}]
    prev = "ppo-steady-1122-rollout-1"
    job.agents["gpu-a"].extra_events = [
        k.event("Pod", "rlark-system", prev, k.uid("pod", prev), "FailedScheduling",
                "0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: "
                "4 No preemption victims found for incoming pod.", at(2026, 11, 20, 22, 4), count=3,
                etype="Warning", component="default-scheduler"),
        k.event("Pod", "rlark-system", prev, k.uid("pod", prev), "Killing", "Stopping container main",
                at(2026, 11, 21, 6, 30), host="gpu-a-node-03"),
    ]
    write_job_bundle(job, out)


def w_npu_healthy(out: Path) -> None:
    c = at(2026, 11, 23, 11, 0)
    t = c + mins(4)
    run = [*run_start(t, 2, 16, cfg="qwen2.5-1.5b-grpo-npu"), "(MegatronActor pid=8812, ip=192.168.30.22) [W compiler_depend.ts:133] Warning: Warning: Device do not support double dtype now, dtype cast repalce with float. (function operator())", "(MegatronActor pid=8812, ip=192.168.30.22) [WARNING] HCCL_CONNECT_TIMEOUT is not set, using the default 120s", "(MegatronActor pid=8812, ip=192.168.30.22) [W compiler_depend.ts:27] Warning: The oprator of MoeGatingTopK is executed, Currently High Accuracy but Low Performance OP with 64-bit has been used, Please Do Some Cast at Python Functions with 32-bit for Better Performance! (function operator())", "(vLLMRolloutWorker pid=9004, ip=192.168.30.21) INFO 11-23 11:06:12 [executor_base.py:112] # npu blocks: 23114, # CPU blocks: 8738", *L.progress(t, 1, 30, 300, 95.0)]
    job = std_job("qwen-grpo-npu-1123", c, c + mins(52), run=run, workers=1, accel="NPU", prepare=L.PIP_NPU,
                  nodes=npu_nodes(3), node_prefix="npu-a-910b", agent="npu-a", task_kw=NPU_TASK, domain="llm-rl",
                  owner="huangtao")
    write_job_bundle(job, out)


def w_ci_passed(out: Path) -> None:
    c = at(2026, 11, 23, 12, 0)
    rn = "linux-aarch64-a2-1-kq7xv-runner-p0s3d"
    steps = [("actions/checkout@v4", CHECKOUT), ("npu-smi info", NPU_SMI),
             ("pip install -r requirements-dev.txt", [
                 "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ReadTimeoutError(\"HTTPConnectionPool(host='pypi-cache.ci.internal', port=80): Read timed out. (read timeout=15)\")': /simple/pytest-xdist/",
                 "Successfully installed pytest-xdist-3.6.1"]),
             ("pytest -sv tests/ut -p no:cacheprovider", [
                 "tests/ut/test_error_handling.py::test_error_is_reported PASSED",
                 "tests/ut/ops/test_fused_moe.py::test_quant_w4a8 XFAIL (kernel not available on 910B3)",
                 "tests/ut/test_platform.py::test_oom_message_format PASSED",
                 "WARNING  vllm_ascend.utils:utils.py:412 ACL graph mode disabled: torch_npu 2.5.1 < 2.6.0",
                 "====== 1283 passed, 14 skipped, 2 xfailed, 37 warnings in 603.02s (0:10:03) ======"]),
             ("python tools/check_errors.py", ["Checked 412 error codes: 0 errors, 0 duplicates"])]
    log = runner_log(start=c + sec(16), job="ut (a2-1)", steps=steps, result="Succeeded")
    pod = runner_pod(rn, c, "npu-a2-01", log=log, phase="Succeeded",
                     state=k.terminated("Completed", 0, c + sec(16), c + mins(14)))
    b = CIBundle(c + mins(15), a2_nodes(), [pod], [Runner(rn, c - sec(1), phase="Succeeded", job="ut (a2-1)")])
    write_ci_bundle(b, out)


def w_ci_young_pull(out: Path) -> None:
    c = at(2026, 11, 23, 13, 0)
    rn = "linux-aarch64-a2-1-kq7xv-runner-k3v1n"
    img = "swr.cn-southwest-2.myhuaweicloud.com/ascend-ci/vllm-ascend:main-a2"
    wf = CIPod(f"{rn}-workflow", "npu-a2-02", c + sec(40),
               [Ctr("job", img, state=k.waiting("ContainerCreating"), pulled=False)], phase="Pending",
               workflow_of=rn, node_selector={"ascend-ci/npu-type": "a2"}, ip="172.16.146.57",
               events=[CEv("Pulling", f'Pulling image "{img}"', 2, etype="Normal")])
    b = CIBundle(c + mins(3), a2_nodes(), [runner_waiting(rn, c, "npu-a2-02", "e2e-singlecard (a2-1)"), wf],
                 [Runner(rn, c - sec(1), job="e2e-singlecard (a2-1)")])
    write_ci_bundle(b, out)


def w_ci_running(out: Path) -> None:
    c = at(2026, 11, 23, 14, 0)
    rn = "linux-aarch64-a2-4-j2k8h-runner-r6t9b"
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest -sv tests/e2e/multicard", [
                 "tests/e2e/multicard/test_expert_parallel.py::test_ep_correctness PASSED",
                 "tests/e2e/multicard/test_fault_tolerance.py::test_engine_recovers_after_error PASSED",
                 "(EngineCore_DP0 pid=5521) WARNING 11-23 14:21:07 [npu_worker.py:233] Injected error for test: "
                 "RuntimeError('simulated HCCL failure'); restarting worker as expected",
                 "tests/e2e/multicard/test_fault_tolerance.py::test_engine_restart_count PASSED",
                 "tests/e2e/multicard/test_pipeline_parallel.py::test_pp2_tp2 "])]
    log = runner_log(start=c + sec(16), job="e2e-multicard (a2-4)", steps=steps, result=None, step_s=1200)
    pod = runner_pod(rn, c, "npu-a2-02", log=log)
    b = CIBundle(c + mins(24), a2_nodes(), [pod], [Runner(rn, c - sec(1), job="e2e-multicard (a2-4)",
                                                          scale_set="linux-aarch64-a2-4")])
    write_ci_bundle(b, out)


SCENARIOS = [
    Scenario("none-rlark-healthy-noisy", w_healthy_noisy,
             "A healthy 3-node job at step 40 whose logs hold harmless scary lines: a pip retry that succeeded, six "
             "head-reachability attempts before success, FSDP and gym warnings, '0 errors', error_rate=0.00.",
             S0 + " § Worker 异常或日志显示进程失败 (定位第一条错误，而不是只看最后一行)", "job/ppo-healthy-1123",
             "none", last_stage="training-signal", healthy=True),
    Scenario("none-rlark-pulling-nine-minutes", w_young_pulling,
             "A job submitted nine minutes ago with a new 21 GB image: all pods are scheduled and still pulling "
             "(about 45%), no error yet.",
             S0 + " § 已出现 Worker，但仍为 Pending (不要把 Pod 已创建当作应用已启动)", "job/ppo-newimg-1123", "none",
             last_stage="scheduled", healthy=True),
    Scenario("none-rlark-ray-window-open", w_ray_window_open,
             "Seven minutes in, the Head has 3 of 4 nodes with most of its check window left; the last worker pod was "
             "created two minutes ago and is still running its prepare script.",
             S0 + " § Ray 初始化或组网失败 (Head 启动和节点检查)", "job/ppo-latejoin-1123", "none",
             last_stage="ray-cluster-forming", healthy=True),
    Scenario("none-rlark-just-submitted", w_just_submitted,
             "The job was submitted 25 seconds ago: Tasks exist and are Pending, the agent has not created pods yet.",
             S0 + " § Job 与 Worker 状态不一致 (刚完成以下操作时，短暂不一致是正常的)", "job/ppo-fresh-1123", "none",
             last_stage="task-created", healthy=True),
    Scenario("none-rlark-old-node-events", w_old_events,
             "A healthy job at step 70. The Nodes carry NotReady/Rebooted events from three weeks ago and the event "
             "list still holds a FailedScheduling of the previous day's job.",
             S0 + " § 联系平台管理员时提供 (事件与时间线)", "job/ppo-steady-1123", "none",
             last_stage="training-signal", healthy=True),
    Scenario("none-rlark-npu-cann-warnings", w_npu_healthy,
             "A healthy Ascend GRPO run at step 30 with the usual CANN/torch_npu warnings (double dtype cast, "
             "HCCL_CONNECT_TIMEOUT default, low-performance operator).",
             S1 + " § 处理没有 RLinf 训练信号的任务 (训练信号存在)", "job/qwen-grpo-npu-1123", "none",
             last_stage="training-signal", healthy=True),
    Scenario("none-ci-passed-with-xfail", w_ci_passed,
             "A unit-test job that succeeded: a retried cache read, XFAIL tests, warnings, '0 errors', tests named "
             "after errors and OOM messages.",
             S3 + " § 正常流程", "pod/linux-aarch64-a2-1-kq7xv-runner-p0s3d", "none", namespace="arc-runners",
             healthy=True),
    Scenario("none-ci-workflow-pulling-3min", w_ci_young_pull,
             "The job pod was scheduled three minutes ago and is pulling its image, which is normal.",
             S3 + " § 正常流程", "pod/linux-aarch64-a2-1-kq7xv-runner-k3v1n-workflow", "none",
             namespace="arc-runners", last_stage="scheduled", healthy=True),
    Scenario("none-ci-running-fault-injection", w_ci_running,
             "A multicard e2e job 24 minutes in, still running; a fault-tolerance test deliberately injects an HCCL "
             "RuntimeError and logs the expected restart.",
             S3 + " § 正常流程", "pod/linux-aarch64-a2-4-j2k8h-runner-r6t9b", "none", namespace="arc-runners",
             last_stage="containers-started", healthy=True),
]
