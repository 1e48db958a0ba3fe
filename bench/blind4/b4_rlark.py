# ruff: noqa: E501  (log and event text is quoted verbatim, one line per log line)
"""RLark job situations of the fourth blind set (failures)."""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from b4_common import HERE, S0, S1, Scenario

if str(HERE.parent / "blind2") not in sys.path:
    sys.path.append(str(HERE.parent / "blind2"))

import gen_k8s as k
import gen_logs as L
from b2_rlark import NPU_IMG, crashloop, job, npu_nodes, run_begin
from gen_k8s import at, mins, sec
from gen_rlark import Ev, PodSpec, TaskSpec, gpu_nodes, write_job_bundle

ZH = [{"name": "LANG", "value": "zh_CN.UTF-8"}, {"name": "LC_ALL", "value": "zh_CN.UTF-8"}]


# ---------------------------------------------------------------- evidence only in object state

def w_secret_env_config_error(out: Path) -> None:
    c = at(2026, 12, 5, 1, 0)
    name = "pi0-wandb-team-1205"
    cap = c + mins(14)
    msg = 'secret "wandb-team" not found'
    env = [{"name": "WANDB_PROJECT", "value": "pi0-libero"},
           {"name": "WANDB_API_KEY", "valueFrom": {"secretKeyRef": {"name": "wandb-team", "key": "api-key"}}}]
    state = k.waiting("CreateContainerConfigError", msg)
    j = job(name, c, cap, run=None, workers=1, owner="hanmei", domain="vla-team", phase="Pending",
            head_pod={"main": state, "log": None}, worker_pod={0: {"main": state, "log": None}},
            task={"env": env})
    for t in j.tasks:
        t.phase = "Pending"
        for p in t.pods:
            p.phase = "Pending"
    j.agents["gpu-a"].events_collected = False
    write_job_bundle(j, out)


def w_start_error_no_bash(out: Path) -> None:
    c = at(2026, 12, 5, 2, 0)
    name = "octo-jax-slim-1205"
    cap = c + mins(11)
    img = "harbor.rlinf-lab.internal/vla/octo-jax:0.4-distroless-py310"
    msg = ('failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: '
           'unable to start container process: exec: "bash": executable file not found in $PATH: unknown')

    def state(t_end: datetime) -> dict[str, Any]:
        return {"main": k.waiting("CrashLoopBackOff", "back-off 5m0s restarting failed container=main"),
                "last": k.terminated("StartError", 128, t_end, t_end, msg), "restarts": 6, "log": None}
    j = job(name, c, cap, run=None, workers=1, owner="majun", domain="vla-team",
            head_pod=state(cap - mins(3)), worker_pod={0: state(cap - mins(2))}, task={"image": img})
    j.agents["gpu-a"].events_collected = False
    write_job_bundle(j, out)


def w_mirror_pending_member_running(out: Path) -> None:
    c = at(2026, 12, 5, 3, 0)
    t = c + mins(3)
    cap = c + mins(52)
    run = [*run_begin(t, 3, 24), *L.progress(t, 1, 58, 1000, 45.0)]
    j = job("ppo-pickplace-1205", c, cap, run=run, owner="wuhao", domain="embodied-lab")
    for p in j.tasks[1].pods:
        p.mirror_phase = "Pending"
    write_job_bundle(j, out)


# ---------------------------------------------------------------- wrapper and Ray stages

def w_ray_temp_socket_path(out: Path) -> None:
    c = at(2026, 12, 5, 4, 0)
    name = "libero-goal-ppo-1205"
    tmp = f"/mnt/shared-scratch/rlark-jobs/{name}/ray-tmp/actor-0"
    sock = f"{tmp}/session_2026-12-05_04-01-31_604118_1/sockets/plasma_store"
    assert len(sock) > 107
    py = "/opt/conda/envs/rlinf/lib/python3.10/site-packages"
    tail = ["Did not find any active Ray processes.",
            "Waiting for domain IP from /etc/hosts... (attempt 1)",
            f"Resolved domain IP: 100.96.0.5 ({name}-actor-0.libero-sim.rlark-domain)",
            "Usage stats collection is disabled.",
            "",
            "Traceback (most recent call last):",
            '  File "/opt/conda/envs/rlinf/bin/ray", line 8, in <module>',
            "    sys.exit(main())",
            f'  File "{py}/ray/scripts/scripts.py", line 2691, in main',
            "    return cli()",
            f'  File "{py}/ray/scripts/scripts.py", line 880, in start',
            "    node = ray._private.node.Node(",
            f'  File "{py}/ray/_private/node.py", line 244, in __init__',
            "    self._plasma_store_socket_name = self._prepare_socket_file(",
            f'  File "{py}/ray/_private/node.py", line 1047, in _prepare_socket_file',
            "    raise OSError(",
            f"OSError: AF_UNIX path length cannot exceed 107 bytes: '{sock}'"]
    head = "\n".join(["RLINF_NODE_RANK: 0", "rlark-sshd started on port 22", "Executing prepare script...",
                      L.PIP_EDITABLE, *tail])
    env = [{"name": "RAY_TEMP_DIR", "value": tmp}]
    mounts = [{"name": "scratch", "mountPath": "/mnt/shared-scratch"}]
    vols = [{"name": "scratch", "persistentVolumeClaim": {"claimName": "shared-scratch"}}]
    cap = c + mins(10)
    j = job(name, c, cap, run=None, workers=2, owner="zhouyu", domain="libero-sim",
            head_pod={**crashloop(cap - mins(1), 1, restarts=4), "log": head, "prev_log": head},
            worker_log={0: {"waits": 48, "reachable": False}, 1: {"waits": 47, "reachable": False}},
            task={"env": env, "mounts": mounts, "volumes": vols})
    write_job_bundle(j, out)


def w_worker_pending_check_failed(out: Path) -> None:
    c = at(2026, 12, 5, 5, 0)
    name = "maniskill-ppo-3node-1205"
    t = c + mins(17) + sec(30)
    msg = ("0/3 nodes are available: 1 Insufficient nvidia.com/gpu, 2 node(s) didn't match pod anti-affinity rules. "
           "preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not "
           "helpful for scheduling.")
    counts = [1] + [2] * 90
    run = ["Using Python at /opt/conda/envs/rlinf/bin/python",
           L.ray_py(t, "INFO", "worker.py:1654", "Connecting to existing Ray cluster at address: 100.96.0.5:6379..."),
           L.ray_py(t, "INFO", "worker.py:1832", "Connected to Ray cluster."),
           L.rl(t + sec(2), "rlinf.scheduler.cluster", "INFO", "Ray cluster has 2 nodes with 16 accelerators in total"),
           "Error executing job with overrides: ['cluster.num_nodes=3', 'actor.model.micro_batch_size=8']",
           "Traceback (most recent call last):",
           '  File "/workspace/RLinf/examples/embodiment/train_embodied_agent.py", line 38, in main',
           "    component_placement = HybridComponentPlacement(cfg, cluster)",
           '  File "/workspace/RLinf/rlinf/utils/placement.py", line 214, in __init__',
           "    assert self._cluster_num_accelerators >= self._required_accelerators, (",
           "AssertionError: component placement maniskill_ppo_openvlaoft needs accelerators 0-23 (24) but the Ray cluster has 16",
           "",
           "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace."]
    nodes = gpu_nodes("gpu-a-node", 3)
    nodes[0].used_device = 8
    nodes[1].used_device = 8
    nodes[2].used_device = 6
    j = job(name, c, t + mins(1), run=run, workers=2, owner="qianlin", nodes=nodes,
            head_log={"counts": counts, "check_failed": True, "status_nodes": 2})
    j.tasks[1].pods[1] = PodSpec(1, None, phase="Pending", sched_message=msg, default_events=False, mirror_message=msg,
                                 events=[Ev("FailedScheduling", msg, 2, 1080, 19, component="default-scheduler")])
    write_job_bundle(j, out)


def w_worker_ssh_key_permission_zh(out: Path) -> None:
    c = at(2026, 12, 5, 9, 0)
    name = "dexgrasp-ppo-uid1000-1205"
    img = "harbor.rlinf-lab.internal/dex/dexgrasp-isaac:4.2-user1000"
    wlog = "\n".join(["RLINF_NODE_RANK: {rank}",
                      "mkdir: 无法创建目录 \"/root/.ssh\": 权限不够",
                      "/rlark/scripts/ray_worker.sh: 第 31 行： /root/.ssh/authorized_keys: 没有那个文件或目录"])
    cap = c + mins(8)
    j = job(name, c, cap, run=None, workers=2, owner="fengyi", domain="dex-lab",
            head_log={"counts": [1] * 30},
            worker_pod={i: {**crashloop(cap - mins(1) + sec(20 * i), 1, restarts=5), "log": wlog.format(rank=1 + i),
                            "prev_log": wlog.format(rank=1 + i)} for i in range(2)},
            task={"env": ZH}, wtask={"image": img})
    write_job_bundle(j, out)


def w_rollout_replicas_zero(out: Path) -> None:
    c = at(2026, 12, 5, 10, 0)
    name = "openvla-ppo-norollout-1205"
    t = c + mins(3)
    run = ["Using Python at /opt/conda/envs/rlinf/bin/python",
           L.ray_py(t, "INFO", "worker.py:1654", "Connecting to existing Ray cluster at address: 100.96.0.5:6379..."),
           L.ray_py(t, "INFO", "worker.py:1832", "Connected to Ray cluster."),
           L.rl(t + sec(2), "rlinf.scheduler.cluster", "INFO", "Ray cluster has 1 nodes with 8 accelerators in total"),
           "Error executing job with overrides: ['cluster.num_nodes=2']",
           "Traceback (most recent call last):",
           '  File "/workspace/RLinf/examples/embodiment/train_embodied_agent.py", line 38, in main',
           "    component_placement = HybridComponentPlacement(cfg, cluster)",
           '  File "/workspace/RLinf/rlinf/utils/placement.py", line 214, in __init__',
           "    assert self._cluster_num_accelerators >= self._required_accelerators, (",
           "AssertionError: component placement maniskill_ppo_openvlaoft needs accelerators 0-15 (16) but the Ray cluster has 8",
           "",
           "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace."]
    j = job(name, c, c + mins(12), run=run, workers=0, owner="dengke", head_log={"total": 1, "counts": [1]})
    j.tasks.append(TaskSpec("rollout", "Rollout", replicas=0, phase="Running", pods=[]))
    write_job_bundle(j, out)


# ---------------------------------------------------------------- run-time failures

def w_npu_libhccl_import(out: Path) -> None:
    c = at(2026, 12, 5, 6, 0)
    t = c + mins(4)
    site = "/usr/local/python3.10/lib/python3.10/site-packages"
    run = ["Using Python at /usr/local/python3.10/bin/python3",
           L.ray_py(t, "INFO", "worker.py:1654", "Connecting to existing Ray cluster at address: 192.168.40.31:6379..."),
           L.ray_py(t, "INFO", "worker.py:1832", "Connected to Ray cluster."),
           "Traceback (most recent call last):",
           '  File "/workspace/RLinf/examples/reasoning/main_grpo.py", line 12, in <module>',
           "    from rlinf.runners.reasoning_runner import ReasoningRunner",
           '  File "/workspace/RLinf/rlinf/runners/reasoning_runner.py", line 21, in <module>',
           "    import torch_npu  # noqa: F401",
           f'  File "{site}/torch_npu/__init__.py", line 17, in <module>',
           "    import torch_npu.npu",
           f'  File "{site}/torch_npu/npu/__init__.py", line 114, in <module>',
           "    from torch_npu.utils import _should_print_warning",
           f'  File "{site}/torch_npu/utils/__init__.py", line 1, in <module>',
           "    from torch_npu import _C",
           "ImportError: libhccl.so: cannot open shared object file: No such file or directory. Please check that the cann package is installed. Please run 'source set_env.sh' in the CANN installation path.",
           "[ERROR] 2026-12-05-06:04:09 (PID:2231, Device:-1, RankID:-1) ERR00008 PTA resource not found"]
    prep = "pip install -e /workspace/RLinf --no-deps -q"
    task = {"image": NPU_IMG, "device": ("huawei.com/Ascend910", 8), "selector": {"rlinf.io/pool": "ascend-910b-math"},
            "prepare": prep, "run": "cd /workspace/RLinf && python examples/reasoning/main_grpo.py --config-name qwen2.5-7b-grpo-megatron"}
    j = job("qwen7b-grpo-npu-1205", c, c + mins(9), run=run, workers=1, nodes=npu_nodes(3), node_prefix="npu-b-910b",
            agent="npu-b", domain="math-rl", accel="NPU", gpus=8, owner="liuchang", head_ip="192.168.40.31",
            prepare="WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour with the system package manager.",
            task=task)
    write_job_bundle(j, out)


def w_realsense_frame_timeout(out: Path) -> None:
    c = at(2026, 12, 5, 7, 0)
    t = c + mins(3)
    pre = "(RealWorldEnvWorker pid=3311, ip=10.0.1.12)"
    run = [*run_begin(t, 2, 16, cfg="ur5e_realworld_sac"),
           f"{pre} [INFO] ur5e: RTDE connected to 192.168.1.10:30004, protective stop cleared",
           f"{pre} [INFO] camera wrist_d435 (serial 135122071234) streaming 640x480@30",
           *L.progress(t, 1, 9, 200, 61.0),
           f"{pre} [WARNING] camera wrist_d435: no frame for 1.2s, retrying (1/3)",
           f"{pre} [WARNING] camera wrist_d435: no frame for 1.2s, retrying (2/3)",
           f"{pre} Traceback (most recent call last):",
           f'{pre}   File "/workspace/RLinf/rlinf/envs/realworld/cameras/realsense.py", line 88, in read',
           f"{pre}     frames = self._pipeline.wait_for_frames(timeout_ms=5000)",
           f"{pre} RuntimeError: Frame didn't arrive within 5000",
           "ray.exceptions.RayTaskError(RuntimeError): ray::RealWorldEnvWorker.step() (pid=3311, ip=10.0.1.12, actor_id=7a1c3e5f9b2d4f6a8c0e2b4d01000000)",
           L.rl(t + mins(11), "rlinf.runners.embodied_runner", "ERROR", "env worker failed during rollout; aborting"),
           "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.",
           "\tclass_name: RealWorldEnvWorker",
           "\tactor_id: 7a1c3e5f9b2d4f6a8c0e2b4d01000000",
           "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file."]
    j = job("ur5e-sac-real-1205", c, c + mins(15), run=run, workers=1, owner="kongwei", domain="ur5-lab")
    write_job_bundle(j, out)


def w_torch_shm_no_space(out: Path) -> None:
    c = at(2026, 12, 5, 8, 0)
    t = c + mins(3)
    pre = "(EmbodiedFSDPActor pid=6204, ip=10.0.1.11)"
    run = [*run_begin(t, 3, 24, cfg="libero_spatial_sft_ppo"),
           L.rl(t + sec(20), "rlinf.data.lerobot_dataset", "INFO", "loaded 432 episodes (52970 frames) from /data/datasets/libero_spatial_lerobot; num_workers=16"),
           *L.progress(t, 1, 2, 500, 52.0),
           f"{pre} Traceback (most recent call last):",
           f'{pre}   File "/opt/conda/envs/rlinf/lib/python3.10/multiprocessing/queues.py", line 244, in _feed',
           f"{pre}     obj = _ForkingPickler.dumps(obj)",
           f'{pre}   File "/opt/conda/envs/rlinf/lib/python3.10/multiprocessing/reduction.py", line 51, in dumps',
           f"{pre}     cls(buf, protocol).dump(obj)",
           f'{pre}   File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/torch/multiprocessing/reductions.py", line 568, in reduce_storage',
           f"{pre}     fd, size = storage._share_fd_cpu_()",
           f'{pre}   File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/torch/storage.py", line 374, in _share_fd_cpu_',
           f"{pre}     return super()._share_fd_cpu_(*args, **kwargs)",
           f"{pre} RuntimeError: unable to write to file </torch_6391_2861094385_0>: No space left on device (28)",
           f"{pre} RuntimeError: DataLoader worker (pid(s) 6391, 6392) exited unexpectedly",
           "ray.exceptions.RayTaskError(RuntimeError): ray::EmbodiedFSDPActor.run_training() (pid=6204, ip=10.0.1.11)"]
    mounts = [{"name": "datasets", "mountPath": "/data/datasets"}]
    vols = [{"name": "datasets", "persistentVolumeClaim": {"claimName": "datasets-ro"}}]
    j = job("libero-sft-ppo-1205", c, c + mins(8), run=run, owner="tangli", domain="libero-sim",
            task={"mounts": mounts, "volumes": vols})
    write_job_bundle(j, out)


SCENARIOS: list[Scenario] = [
    Scenario("rlark-secret-env-config-error-state-only", "rlark", w_secret_env_config_error,
             "Every pod of the Job is scheduled but main waits in CreateContainerConfigError: the Task's WANDB_API_KEY env comes from Secret 'wandb-team', which does not exist in the member cluster. No events were collected and there are no logs; only the container state says it.",
             S0 + " § 已出现 Worker，但仍为 Pending (记录 Worker 的 Pod 名称、目标节点和状态消息); CONTRACT §4 pod.container.config-error (missing Secret or ConfigMap)",
             "job/pi0-wandb-team-1205", "pod.container.config-error", last_stage="scheduled"),
    Scenario("rlark-image-no-bash-start-error", "rlark", w_start_error_no_bash,
             "A distroless custom image has no bash, so the wrapper command 'bash /rlark/scripts/ray_*.sh' cannot start: main's last state is StartError exit 128 'exec: \"bash\": executable file not found in $PATH', CrashLoopBackOff, no log lines and no events collected.",
             S0 + " § Worker 异常或日志显示进程失败 (某个 Worker 没有日志…还应查看 Pod 阶段; 控制台不显示容器重启次数、终止详情); CONTRACT §4 pod.run.crash-on-start (container exits non-zero right after start)",
             "job/octo-jax-slim-1205", "pod.run.crash-on-start"),
    Scenario("rlark-mirror-pending-member-running", "rlark", w_mirror_pending_member_running,
             "Job and Tasks are Running and training is at step 58 after 49 minutes, the agent's heartbeat is fresh, but both rollout Pod mirrors (pods.rlinf.io) still say Pending while the member pods have been Running for 48 minutes.",
             S0 + " § Job 与 Worker 状态不一致 (如果只有一层长时间不更新); CONTRACT §4 rlark.status.out-of-sync",
             "job/ppo-pickplace-1205", "rlark.status.out-of-sync"),
    Scenario("rlark-ray-temp-dir-socket-path-too-long", "rlark", w_ray_temp_socket_path,
             "The Head task sets RAY_TEMP_DIR to a deep path on a shared PVC; 'ray start --head' fails with 'OSError: AF_UNIX path length cannot exceed 107 bytes' for the plasma_store socket, the Head crash-loops and the workers keep waiting for it (the late symptom).",
             S0 + " § Ray 初始化或组网失败 (只有对应角色显式设置 RAY_TEMP_DIR 时才会改用其他路径…核对该角色 YAML 中的 RAY_TEMP_DIR); public: ray-project/ray#7945, #7724, verl-project/verl#1120",
             "job/libero-goal-ppo-1205", "rlark.ray.temp-dir"),
    Scenario("rlark-worker-pending-then-check-failed", "rlark", w_worker_pending_check_failed,
             "One of two rollout pods stays Pending (1 Insufficient nvidia.com/gpu: another job holds 6 GPUs on the third node); the Head's 15-minute node check gives up with 2 of 3 nodes, prints 'Warning: Ray cluster check failed, proceeding anyway.', and the run script then fails on placement needing 24 accelerators.",
             S0 + " § 不要只凭 Head 就绪文本判断集群完整 and § Ray 初始化或组网失败 (Head 启动和节点检查: 对照预期副本数检查各 Worker 是否已经产生 Pod); § 已出现 Worker，但仍为 Pending (节点是否有足够的 CPU、内存和 GPU)",
             "job/maniskill-ppo-3node-1205", "pod.schedule.insufficient-resources"),
    Scenario("rlark-worker-ssh-key-permission-zh", "rlark", w_worker_ssh_key_permission_zh,
             "The rollout role's custom image runs as uid 1000: both rollout workers stop right after 'RLINF_NODE_RANK' because the wrapper cannot create /root/.ssh for the SSH key (zh_CN: 无法创建目录 \"/root/.ssh\": 权限不够), crash-loop, and never print 'Executing prepare script...'; the Head keeps waiting with 1 of 3 nodes (the late symptom).",
             S0 + " § Ray 初始化或组网失败 (rank 计算或包装脚本准备: RLINF_NODE_RANK:；可选的网络等待或 SSH 公钥注入信息…如果在准备脚本标记前终止，记录该 Worker 的第一条错误，检查包装脚本所需的 Pod 信息和所选平台配置)",
             "job/dexgrasp-ppo-uid1000-1205", "rlark.ray.wrapper-failed"),
    Scenario("rlark-rollout-replicas-zero", "rlark", w_rollout_replicas_zero,
             "The Job's rollout Task was submitted with replicas 0 (the Job is not stopped): its StatefulSet has no pods, Ray forms with the Head alone (1 of 1 nodes), and the run script then fails because placement needs 16 accelerators (the late symptom).",
             S0 + " § 尚未出现 Worker (核对副本数是否大于 0; Stopped Job 的 Kubernetes Task 会被协调为 0 副本); " + S1 + " § 处理没有 Worker 的任务; CONTRACT §4 rlark.task.no-worker (replicas 0 without stop)",
             "job/openvla-ppo-norollout-1205", "rlark.task.no-worker"),
    Scenario("rlark-npu-libhccl-import-error", "rlark", w_npu_libhccl_import,
             "An Ascend GRPO job whose prepare script no longer sources the CANN set_env.sh: the run script's 'import torch_npu' fails with 'ImportError: libhccl.so: cannot open shared object file' and ERR00008 PTA resource not found.",
             S1 + " § 处理没有 RLinf 训练信号的任务 (保留第一条业务错误，再回到工作负载项目验证入口); CONTRACT §4 rlark.run.import-error; public: vllm-project/vllm-ascend#262, LinZhekai/X-Oscar#4 (libhccl.so, source set_env.sh)",
             "job/qwen7b-grpo-npu-1205", "rlark.run.import-error", last_stage="run-script"),
    Scenario("rlark-realsense-frame-timeout-then-actor-died", "rlark", w_realsense_frame_timeout,
             "A real-robot UR5e SAC job: after 9 steps the wrist RealSense camera stops delivering frames ('RuntimeError: Frame didn't arrive within 5000' in RealWorldEnvWorker.step); the env actor then dies and the runner aborts (late symptoms).",
             S0 + " § 按错误类型排查 (机器人 SDK、连接、超时或设备错误: 停止自动重试，通知现场操作员); " + S1 + " § 遇到高风险情况时停止操作 (外部设备出现异常动作、断连); public: realsenseai/librealsense#4835, #12097",
             "job/ur5e-sac-real-1205", "rlark.run.robot-device", last_stage="training-signal"),
    Scenario("rlark-torch-shm-unable-to-write", "rlark", w_torch_shm_no_space,
             "At step 2 the actor's DataLoader workers cannot pass batches: 'RuntimeError: unable to write to file </torch_6391_…>: No space left on device (28)' from torch's shared-memory file sharing, then 'DataLoader worker … exited unexpectedly'. The words /dev/shm never appear.",
             S0 + " § 按错误类型排查 (No space left on device、/dev/shm 或 shared-memory 错误: 创建器不能配置 /dev/shm); CONTRACT §4 pod.run.shm-exhausted; public: idiap/ESLAM#20, MIC-DKFZ/nnUNet#2162, pytorch/pytorch#3948 (ran out of shared memory)",
             "job/libero-sft-ppo-1205", "pod.run.shm-exhausted", last_stage="training-signal"),
]
