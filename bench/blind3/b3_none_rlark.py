# ruff: noqa: E501  (log and event text is quoted verbatim, one line per log line)
"""RLark jobs of the third blind set whose right answer is `none`: healthy or still inside a normal start-up."""

from __future__ import annotations

import sys
from pathlib import Path

from b3_common import HERE, S0, Scenario

if str(HERE.parent / "blind2") not in sys.path:
    sys.path.append(str(HERE.parent / "blind2"))

import gen_k8s as k
import gen_logs as L
from b2_rlark import NPU_IMG, NPU_PREP, job, npu_nodes, run_begin
from gen_k8s import at, mins, sec
from gen_rlark import Ev, write_job_bundle

NPU_TASK = {"image": NPU_IMG, "device": ("huawei.com/Ascend910", 8), "selector": {"rlinf.io/pool": "ascend-910b-math"},
            "prepare": NPU_PREP}


def w_npu_warnings(out: Path) -> None:
    c = at(2026, 12, 4, 1, 30)
    t = c + mins(4)
    pre = "(MegatronActor pid=20533, ip=192.168.40.32)"
    run = [*run_begin(t, 2, 16, cfg="qwen2.5-7b-grpo-megatron"),
           f"{pre} [W compiler_depend.ts:133] Warning: Warning: Device do not support double dtype now, dtype cast repalce with float. (function operator())",
           f"{pre} [W compiler_depend.ts:51] Warning: CAUTION: The operator 'aten::isin.Tensor_Tensor_out' is not currently supported on the NPU backend and will fall back to run on the CPU. This may have performance implications. (function npu_cpu_fallback)",
           f"{pre} /usr/local/python3.10/lib/python3.10/site-packages/torch_npu/utils/storage.py:38: UserWarning: TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the only storage class.",
           f"{pre} [W ProcessGroupHCCL.cpp:1044] Warning: HCCL_ASYNC_ERROR_HANDLING is deprecated, use TORCH_HCCL_ASYNC_ERROR_HANDLING instead (function operator())"]
    for i in range(1, 31):
        run.append(f"Global Step: {int(100 * i / 200):3d}%| | {i}/200 [{i * 2:02d}:{(i * 17) % 60:02d}<5:{(60 - i) % 60:02d}:00, 118.4s/it]")
        if i % 10 == 0:
            run.append(L.rl(t + sec(118 * i), "rlinf.runners.reasoning_runner", "INFO",
                            f"step {i}: rollout/reward_mean={0.21 + 0.01 * i:.4f} rollout/format_error_ratio={0.09 - 0.002 * i:.3f} rollout/truncated_error_count=0 actor/grad_norm=0.3{i % 7}1"))
    j = job("qwen-grpo-npu-1204b", c, t + sec(118 * 30) + mins(1), run=run, workers=1, nodes=npu_nodes(3),
            node_prefix="npu-b-910b", agent="npu-b", domain="math-rl", owner="liuchang", accel="NPU", gpus=8,
            prepare=L.PIP_NPU, head_ip="192.168.40.31", task=dict(NPU_TASK))
    write_job_bundle(j, out)


def w_pip_retry_forming(out: Path) -> None:
    c = at(2026, 12, 4, 2, 30)
    retry = ("WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by "
             "'ReadTimeoutError(\"HTTPSConnectionPool(host='pypi.tuna.tsinghua.edu.cn', port=443): Read timed out. (read timeout=15)\")': /simple/gymnasium/")
    prep = "\n".join(["Looking in indexes: https://pypi.tuna.tsinghua.edu.cn/simple", "Collecting gymnasium==0.29.1", retry,
                      "  Downloading https://pypi.tuna.tsinghua.edu.cn/packages/a8/4d/gymnasium-0.29.1-py3-none-any.whl (953 kB)",
                      "Installing collected packages: gymnasium", "Successfully installed gymnasium-0.29.1", L.PIP_EDITABLE])
    still = "\n".join(["RLINF_NODE_RANK: 2", "SSH public key injected into authorized_keys", "Executing prepare script...",
                       "Looking in indexes: https://pypi.tuna.tsinghua.edu.cn/simple", "Collecting gymnasium==0.29.1", retry,
                       retry.replace("total=4", "total=3")])
    j = job("ppo-gym-1204", c, c + mins(3) + sec(10), run=None, owner="renjie", prepare=prep,
            head_log={"counts": [1, 1, 2, 2, 2]})
    j.tasks[1].pods[1].log = still
    write_job_bundle(j, out)


def w_nccl_info_noise(out: Path) -> None:
    c = at(2026, 12, 4, 3, 30)
    t = c + mins(3)
    pre = "(EmbodiedFSDPActor pid=7702, ip=10.0.1.13)"
    run = [*run_begin(t, 3, 24),
           f"{pre} gpu-a-node-03:7702:7702 [0] NCCL INFO Bootstrap : Using eth0:10.0.1.13<0>",
           f"{pre} gpu-a-node-03:7702:7702 [0] NCCL INFO NET/Plugin : Plugin load (libnccl-net.so) returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory",
           f"{pre} gpu-a-node-03:7702:7702 [0] NCCL INFO NET/Plugin : No plugin found, using internal implementation",
           f"{pre} gpu-a-node-03:7702:7702 [0] NCCL INFO Using network IB",
           f"{pre} gpu-a-node-03:7702:8101 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB eth0:10.0.1.13<0>",
           f"{pre} gpu-a-node-03:7702:8101 [0] NCCL INFO Channel 00/0 : 16[0] -> 8[0] [receive] via NET/IB/0/GDRDMA",
           f"{pre} gpu-a-node-03:7702:8101 [0] NCCL INFO Connected all rings",
           f"{pre} gpu-a-node-03:7702:8101 [0] NCCL INFO ncclCommInitRank comm 0x55d1c8a3e2b0 rank 16 nranks 24 cudaDev 0 nvmlDev 0 busId 18000 commId 0x8d3f1a2b4c5d6e7f - Init COMPLETE",
           f"{pre} /opt/conda/envs/rlinf/lib/python3.10/site-packages/torch/distributed/fsdp/_init_utils.py:444: UserWarning: FSDP is switching to use `NO_SHARD` instead of ShardingStrategy.FULL_SHARD since the world size is 1.",
           *L.progress(t, 1, 64, 1000, 40.0)]
    j = job("openvla-ppo-1204n", c, t + sec(40 * 64) + mins(1), run=run, owner="tangli")
    write_job_bundle(j, out)


def w_pull_retry_then_running(out: Path) -> None:
    c = at(2026, 12, 4, 4, 30)
    t = c + mins(6)
    img = "harbor.rlinf-lab.internal/rlinf/rlinf:embodied-0.2.1-torch2.6"
    evs = [Ev("Pulling", f'Pulling image "{img}"', 4, 190, 2, etype="Normal"),
           Ev("Failed", f'Failed to pull image "{img}": rpc error: code = Unknown desc = failed to pull and unpack image "{img}": failed to copy: httpReadSeeker: failed open: failed to do request: Get "https://harbor.rlinf-lab.internal/v2/rlinf/rlinf/blobs/sha256:6f1d0c4b9a2e": net/http: TLS handshake timeout', 118),
           Ev("Failed", "Error: ErrImagePull", 118),
           Ev("BackOff", f'Back-off pulling image "{img}"', 119, etype="Normal"),
           Ev("Pulled", f'Successfully pulled image "{img}" in 2m51.412s (2m51.412s including waiting). Image size: 21874310452 bytes.', 362, etype="Normal"),
           Ev("Created", "Created container main", 362, etype="Normal"), Ev("Started", "Started container main", 363, etype="Normal")]
    run = [*run_begin(t, 3, 24), *L.progress(t, 1, 9, 500, 42.0)]
    j = job("bridge-ppo-1204", c, t + mins(8), run=run, owner="wuhao", task={"image": img},
            head_log={"t0": c + mins(5) + sec(5)},
            head_pod={"events": evs, "default_events": False, "main": k.running(c + sec(363))})
    write_job_bundle(j, out)


def w_old_failed_scheduling(out: Path) -> None:
    c = at(2026, 12, 4, 5, 30)
    t = c + mins(15)
    msg = ("0/5 nodes are available: 3 Insufficient nvidia.com/gpu, 2 node(s) didn't match Pod's node affinity/selector. "
           "preemption: 0/5 nodes are available: 2 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.")
    evs = [Ev("FailedScheduling", msg, 2, 640, 9, component="default-scheduler"),
           Ev("Scheduled", "Successfully assigned rlark-system/ppo-queue-1204-actor-0 to gpu-a-node-01", 700, etype="Normal", component="default-scheduler"),
           Ev("Pulled", 'Container image "ghcr.io/rlinf/rlinf:embodied-0.2.1-torch2.6" already present on machine', 702, etype="Normal"),
           Ev("Created", "Created container main", 702, etype="Normal"), Ev("Started", "Started container main", 703, etype="Normal")]
    run = [*run_begin(t, 3, 24), *L.progress(t, 1, 21, 600, 41.0)]
    j = job("ppo-queue-1204", c, t + mins(16), run=run, owner="zhuwen", head_pod={"events": evs, "default_events": False, "main": k.running(c + sec(703))},
            head_log={"t0": c + mins(12)}, worker_log={0: {"waits": 61}, 1: {"waits": 59}})
    write_job_bundle(j, out)


def w_prepare_downloading(out: Path) -> None:
    c = at(2026, 12, 4, 6, 30)
    prep_cmd = ("pip install -e /workspace/RLinf --no-deps -q && huggingface-cli download openvla/openvla-7b "
                "--local-dir /data/models/openvla-7b")
    dl = ["Executing prepare script...",
          "WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour with the system package manager. It is recommended to use a virtual environment instead: https://pip.pypa.io/warnings/venv",
          "/opt/conda/envs/rlinf/lib/python3.10/site-packages/huggingface_hub/file_download.py:797: FutureWarning: `resume_download` is deprecated and will be removed in version 1.0.0. Downloads always resume when possible. If you want to force a new download, use `force_download=True`.",
          "Fetching 12 files:   0%|          | 0/12 [00:00<?, ?it/s]",
          "Fetching 12 files:   8%|8         | 1/12 [00:01<00:13,  1.21s/it]",
          "model-00001-of-00003.safetensors:  41%|####1     | 2.05G/4.97G [01:02<01:28, 33.0MB/s]"]

    def log(rank: int, first: str) -> str:
        return "\n".join([f"RLINF_NODE_RANK: {rank}", first, *dl])
    mounts = [{"name": "models", "mountPath": "/data/models"}]
    vols = [{"name": "models", "persistentVolumeClaim": {"claimName": "vla-models"}}]
    j = job("openvla-ppo-dl-1204", c, c + mins(2) + sec(40), run=None, owner="xiaoyu",
            task={"prepare": prep_cmd, "mounts": mounts, "volumes": vols},
            head_pod={"log": log(0, "rlark-sshd started on port 22")})
    for i, p in enumerate(j.tasks[1].pods):
        p.log = log(1 + i, "SSH public key injected into authorized_keys")
    write_job_bundle(j, out)


SCENARIOS: list[Scenario] = [
    Scenario("none-rlark-npu-warnings-format-error-metric", "none", w_npu_warnings,
             "An Ascend GRPO job at step 30 of 200: torch_npu warnings (double dtype cast, CPU fallback for aten::isin as in hiyouga/LlamaFactory#5071, deprecated HCCL env var) and metrics named format_error_ratio / truncated_error_count=0; nothing failed.",
             S0 + " § Worker 异常或日志显示进程失败 (定位第一条错误): warnings and metric names are not errors",
             "job/qwen-grpo-npu-1204b", "none", healthy=True, last_stage="training-signal"),
    Scenario("none-rlark-pip-retry-cluster-forming", "none", w_pip_retry_forming,
             "Three minutes after submission the Head counts 2 of 3 nodes; the last worker is still in its prepare script where pip retried a read timeout on the mirror (Retry total=4, then 3) — the other pods' pip retried once and installed.",
             S0 + " § Ray 初始化或组网失败 (Head 启动和节点检查: 各 Worker 是否已经…完成准备脚本); § 已出现 Worker，但仍为 Pending (初始化或准备脚本是否仍在执行)",
             "job/ppo-gym-1204", "none", healthy=True, last_stage="ray-cluster-forming"),
    Scenario("none-rlark-nccl-info-plugin-not-found", "none", w_nccl_info_noise,
             "Healthy training at step 64; a worker's NCCL INFO lines say 'NET/Plugin : Plugin load (libnccl-net.so) returned 2 : … cannot open shared object file' and 'No plugin found, using internal implementation' before using the internal IB plugin and 'Init COMPLETE'; an FSDP UserWarning.",
             S0 + " § 按错误类型排查 (NCCL 初始化… only when it fails); public: NVIDIA/nccl#162 (maintainer: that INFO message is normal behaviour), NVIDIA/nccl#1059",
             "job/openvla-ppo-1204n", "none", healthy=True, last_stage="training-signal"),
    Scenario("none-rlark-image-pull-retried-then-running", "none", w_pull_retry_then_running,
             "The head's first image pull failed with a TLS handshake timeout (ErrImagePull, one back-off), the retry pulled the 21.9 GB image in 2m51s; the job now trains at step 9.",
             S0 + " § 已出现 Worker，但仍为 Pending (镜像是否能在该集群拉取: the later Pulled/Started events supersede the failure)",
             "job/bridge-ppo-1204", "none", healthy=True, last_stage="training-signal"),
    Scenario("none-rlark-waited-for-gpus-then-scheduled", "none", w_old_failed_scheduling,
             "The head pod waited about ten minutes with FailedScheduling 'Insufficient nvidia.com/gpu' (9 times) until another job freed GPUs, then was scheduled and started; training is at step 21.",
             S0 + " § Job 与 Worker 状态不一致 / 已出现 Worker，但仍为 Pending: resolved scheduling waits are history",
             "job/ppo-queue-1204", "none", healthy=True, last_stage="training-signal"),
    Scenario("none-rlark-prepare-downloading-model", "none", w_prepare_downloading,
             "Two minutes forty after submission every pod is still in its prepare script downloading openvla-7b to a PVC (41% of the first shard at 33 MB/s) with a huggingface_hub FutureWarning; no Ray yet.",
             S0 + " § 已出现 Worker，但仍为 Pending (初始化或准备脚本是否仍在执行; 不要把 Pod 已创建当作应用已启动)",
             "job/openvla-ppo-dl-1204", "none", healthy=True, last_stage="prepare-script"),
]
