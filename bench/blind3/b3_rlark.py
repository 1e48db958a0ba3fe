# ruff: noqa: E501  (log and event text is quoted verbatim, one line per log line)
"""RLark job situations of the third blind set (failures)."""

from __future__ import annotations

import sys
from pathlib import Path

from b3_common import HERE, S0, S1, Scenario

if str(HERE.parent / "blind2") not in sys.path:
    sys.path.append(str(HERE.parent / "blind2"))

import gen_k8s as k
import gen_logs as L
from b2_rlark import NPU_IMG, NPU_PREP, RUN, crashloop, job, npu_nodes, run_begin
from gen_k8s import at, mins, sec
from gen_rlark import AgentSpec, Ev, JobSpec, PodSpec, TaskSpec, gpu_nodes, write_job_bundle

NPU_TASK = {"image": NPU_IMG, "device": ("huawei.com/Ascend910", 8), "selector": {"rlinf.io/pool": "ascend-910b-math"},
            "prepare": NPU_PREP}
ZH = [{"name": "LANG", "value": "zh_CN.UTF-8"}, {"name": "LC_ALL", "value": "zh_CN.UTF-8"}]


def npu_job(name: str, c, cap, run, **kw):  # type: ignore[no-untyped-def]
    return job(name, c, cap, run=run, workers=kw.pop("workers", 1), nodes=npu_nodes(3), node_prefix="npu-b-910b",
               agent="npu-b", domain="math-rl", accel="NPU", gpus=8, prepare=L.PIP_NPU, head_ip="192.168.40.31",
               task=dict(NPU_TASK), **kw)


# ---------------------------------------------------------------- run-time failures

def w_hccl_ei0006(out: Path) -> None:
    c = at(2026, 12, 4, 1, 0)
    t = c + mins(4)
    pre = "(MegatronActor pid=31877, ip=192.168.40.32)"
    run = [*run_begin(t, 2, 16, cfg="qwen2.5-32b-grpo-megatron"),
           L.rl(t + sec(30), "rlinf.workers.actor.megatron_actor_worker", "INFO", "initializing model parallel: tp=4 pp=2 dp=2"),
           f"{pre} [W compiler_depend.ts:133] Warning: Warning: Device do not support double dtype now, dtype cast repalce with float. (function operator())",
           f"{pre} Traceback (most recent call last):",
           f'{pre}   File "/usr/local/python3.10/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 2501, in all_reduce',
           f"{pre}     work = group.allreduce([tensor], opts)",
           f"{pre} RuntimeError: createHCCLComm:torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:2155 HCCL function error: HcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 7",
           f"{pre} [ERROR] 2026-12-04-01:07:41 (PID:31877, Device:3, RankID:11) ERR02200 DIST call hccl api failed.",
           f"{pre} EI0006: [PID: 31877] 2026-12-04-01:07:41.219.553 Getting socket times out. Reason: 1. The remote does not initiate a connect request. some NPUs in the cluster are abnormal.    2. The remote does not initiate a connect request because the collective communication operator is started too late or is not started by some NPU in the cluster.    3. The communication link is disconnected. (For example, the IP addresses are not on the same network segment or the TLS configurations are inconsistent.)",
           f"{pre}         Solution: 1. Check the rank service processes with other errors or no errors in the cluster.2. If this error is reported on all NPUs, check whether the time difference between the earliest and latest errors is greater than the connect timeout interval (120s by default). If so, adjust the timeout interval by using the HCCL_CONNECT_TIMEOUT environment variable.3. Check the connectivity of the communication links between nodes. (For details, see the TLS command and HCCN connectivity check examples.)",
           "ray.exceptions.RayTaskError(RuntimeError): ray::MegatronActor.init_worker() (pid=31877, ip=192.168.40.32)",
           L.rl(t + mins(4), "rlinf.runners.reasoning_runner", "ERROR", "actor group failed to initialize")]
    j = npu_job("qwen32b-grpo-npu-1204", c, c + mins(12), run, owner="liuchang")
    write_job_bundle(j, out)


def w_ray_memory_then_nccl(out: Path) -> None:
    c = at(2026, 12, 4, 2, 0)
    t = c + mins(3)
    pre2 = "(EmbodiedFSDPActor pid=8812, ip=10.0.1.12)"
    run = [*run_begin(t, 3, 24), *L.progress(t, 1, 33, 1000, 40.0),
           L.ray_py(t + mins(23), "WARNING", "worker.py:1473", "A worker died or was killed while executing a task by an unexpected system error. To troubleshoot the problem, check the logs for the dead worker."),
           "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.",
           "Memory on the node (IP: 10.0.1.13, ID: 7c2e91f0d4a35b6e8f1c0a9d2b4e6f8a1c3e5d7b9f0a2c4e6d8b1a3c) where the task (actor ID: 4f6a8c0e2b4d6f8a0c2e4a6c01000000, name=EnvWorker.__init__, pid=9921, memory used=61.40GB) was running was 482.37GB / 503.53GB (0.957979), which exceeds the memory usage threshold of 0.95. Ray killed this worker (ID: 1b3d5f7a9c0e2a4c6e8a0b2d4f6a8c0e2b4d6f8a0c2e4a6c8e0a2b4d) because it was the most recently scheduled task; to see more information about memory usage on this node, use `ray logs raylet.out -ip 10.0.1.13`. To see the logs of the worker, use `ray logs worker-1b3d5f7a9c0e2a4c6e8a0b2d4f6a8c0e2b4d6f8a0c2e4a6c8e0a2b4d*out -ip 10.0.1.13. Top 10 memory users:",
           "PID\tMEM(GB)\tCOMMAND",
           "9921\t61.40\tray::EnvWorker",
           "9873\t58.77\tray::EnvWorker",
           "9790\t12.31\tray::EmbodiedFSDPActor",
           "Refer to the documentation on how to address the out of memory issue: https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html. Consider provisioning more memory on this node or reducing task parallelism by requesting more CPUs per task. To adjust the kill threshold, set the environment variable `RAY_memory_usage_threshold` when starting Ray. To disable worker killing, set the environment variable `RAY_memory_monitor_refresh_ms` to zero.",
           f"{pre2} [rank4]:[E1204 02:27:10.551204 8812 ProcessGroupNCCL.cpp:616] [Rank 4] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4121, OpType=ALLGATHER, NumelIn=1, NumelOut=24, Timeout(ms)=600000) ran for 600084 milliseconds before timing out.",
           f"{pre2} [rank4]:[E1204 02:27:10.553018 8812 ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) Rank 4] Exception (either an error before or timeout detected by the watchdog): NCCL timeout",
           f"{pre2} terminate called after throwing an instance of 'c10::DistBackendError'",
           "ray.exceptions.RayTaskError(DistBackendError): ray::EmbodiedFSDPActor.run_training() (pid=8812, ip=10.0.1.12)"]
    j = job("maniskill-ppo-bigenv-1204", c, c + mins(38), run=run, owner="qianlin")
    write_job_bundle(j, out)


def w_object_store_full(out: Path) -> None:
    c = at(2026, 12, 4, 3, 0)
    t = c + mins(3)
    run = [*run_begin(t, 3, 24), *L.progress(t, 1, 7, 300, 48.0),
           L.ray_py(t + mins(6), "INFO", "worker.py:2004", "Spilled 40113 MiB, 612 objects, write throughput 1388 MiB/s. Set RAY_verbose_spill_logs=0 to disable this message."),
           L.ray_py(t + mins(7), "ERROR", "local_object_manager.cc:458", "Failed to spill objects. Error: IOError: Failed to write spilled object: No space left on device"),
           "ray.exceptions.RayTaskError(ObjectStoreFullError): ray::RolloutWorker.generate() (pid=6120, ip=10.0.1.12, actor_id=2a4c6e8a0b2d4f6a8c0e2b4d01000000)",
           "ray.exceptions.ObjectStoreFullError: Failed to put object 00ffffffffffffffffffffffffffffffffffffff0100000002e1f505 in object store because it is full. Object size is 2147483648 bytes.",
           "Plasma store status:",
           "- num bytes created total: 412316860416",
           "1 pending objects of total size 2048MB",
           "- objects spillable: 0",
           "- bytes spillable: 0",
           "- objects unsealed: 0",
           "- bytes unsealed: 0",
           "- objects in use: 93",
           "- bytes in use: 195925934080",
           "The local object store is full of objects that are still in scope and cannot be evicted. Tip: Use the `ray memory` command to list active objects in the cluster."]
    j = job("vla-rollout-big-1204", c, c + mins(14), run=run, owner="tangli")
    write_job_bundle(j, out)


def w_npu_device_oom(out: Path) -> None:
    c = at(2026, 12, 4, 4, 0)
    t = c + mins(4)
    pre = "(MegatronActor pid=22410, ip=192.168.40.31)"
    run = [*run_begin(t, 2, 16, cfg="qwen2.5-14b-grpo-megatron"),
           *[f"Global Step: {p}" for p in ("  2%|2         | 1/50 [02:31<2:03:39, 151.4s/it]",)],
           f"{pre} [W compiler_depend.ts:305] Warning: HCCL_BUFFSIZE is not set, using default 200MB (function operator())",
           f"{pre} Traceback (most recent call last):",
           f'{pre}   File "/workspace/RLinf/rlinf/workers/actor/megatron_actor_worker.py", line 612, in run_training',
           f"{pre}     loss.backward()",
           f"{pre} RuntimeError: NPU out of memory. Tried to allocate 3.75 GiB (NPU 5; 60.96 GiB total capacity; 55.02 GiB already allocated; 55.02 GiB current active; 1.62 GiB free; 57.88 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.",
           "ray.exceptions.RayTaskError(RuntimeError): ray::MegatronActor.run_training() (pid=22410, ip=192.168.40.31)"]
    j = npu_job("qwen14b-grpo-npu-1204", c, c + mins(15), run, owner="zhaoqi")
    write_job_bundle(j, out)


def w_stale_handle(out: Path) -> None:
    c = at(2026, 12, 4, 5, 0)
    t = c + mins(3)
    run = [*run_begin(t, 3, 24), *L.progress(t, 1, 50, 400, 41.0),
           L.rl(t + mins(35), "rlinf.runners.embodied_runner", "INFO", "saving checkpoint to /mnt/nfs/ckpt/ppo-lift-1204/global_step_50"),
           "Traceback (most recent call last):",
           '  File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/torch/serialization.py", line 652, in save',
           "    with _open_zipfile_writer(f) as opened_zipfile:",
           "OSError: [Errno 116] Stale file handle: '/mnt/nfs/ckpt/ppo-lift-1204/global_step_50/actor/optim_rank0.pt'",
           "ray.exceptions.RayTaskError(OSError): ray::EmbodiedFSDPActor.save_checkpoint() (pid=5521, ip=10.0.1.11)"]
    mounts = [{"name": "nfs", "mountPath": "/mnt/nfs"}]
    vols = [{"name": "nfs", "nfs": {"server": "10.0.9.20", "path": "/export/rl"}}]
    j = job("ppo-lift-1204", c, c + mins(40), run=run, owner="wuhao", task={"mounts": mounts, "volumes": vols})
    write_job_bundle(j, out)


def w_quota_zh(out: Path) -> None:
    c = at(2026, 12, 4, 6, 0)
    t = c + mins(3)
    runscript = RUN + " && tar -czf /mnt/home/liwei/results/ppo-door-1204.tar.gz /workspace/RLinf/logs/ppo-door-1204"
    run = [*run_begin(t, 3, 24), *L.progress(t, 1, 20, 20, 39.0),
           L.rl(t + mins(14), "rlinf.runners.embodied_runner", "INFO", "training finished at step 20"),
           "tar: 正从成员名中删除开头的“/”",
           "tar (child): /mnt/home/liwei/results/ppo-door-1204.tar.gz：无法 write: 超出磁盘限额",
           "tar (child): Error is not recoverable: exiting now",
           "gzip: stdout: 超出磁盘限额",
           "tar: Child returned status 2",
           "tar: Error is not recoverable: exiting now"]
    mounts = [{"name": "home", "mountPath": "/mnt/home"}]
    vols = [{"name": "home", "persistentVolumeClaim": {"claimName": "home-liwei"}}]
    j = job("ppo-door-1204", c, c + mins(20), run=run, owner="liwei",
            task={"run": runscript, "env": ZH, "mounts": mounts, "volumes": vols})
    write_job_bundle(j, out)


def w_undefined_symbol(out: Path) -> None:
    c = at(2026, 12, 4, 7, 0)
    t = c + mins(3)
    run = [*run_begin(t, 3, 24),
           L.rl(t + sec(8), "rlinf.workers.rollout", "INFO", "building vLLM rollout engine (tp=2)"),
           "(RolloutWorker pid=4410, ip=10.0.1.12) Traceback (most recent call last):",
           '(RolloutWorker pid=4410, ip=10.0.1.12)   File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py", line 10, in <module>',
           "(RolloutWorker pid=4410, ip=10.0.1.12)     import flash_attn_2_cuda as flash_attn_gpu",
           "(RolloutWorker pid=4410, ip=10.0.1.12) ImportError: /opt/conda/envs/rlinf/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
           "ray.exceptions.RayTaskError(ImportError): ray::RolloutWorker.init_worker() (pid=4410, ip=10.0.1.12)"]
    prep = L.PIP_EDITABLE + "\nCollecting torch==2.7.0\n  Downloading torch-2.7.0-cp310-cp310-manylinux_2_28_x86_64.whl (865.2 MB)\nSuccessfully installed torch-2.7.0 triton-3.3.0"
    j = job("openvla-vllm-1204", c, c + mins(9), run=run, owner="dengke", prepare=prep)
    write_job_bundle(j, out)


# ---------------------------------------------------------------- wrapper stages

def w_temp_dir_ro_zh(out: Path) -> None:
    c = at(2026, 12, 4, 8, 0)
    name = "ppo-stack-ro-1204"
    tail = ["mkdir: 无法创建目录 \"/tmp/ray\": 只读文件系统",
            "Traceback (most recent call last):",
            '  File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/ray/_private/utils.py", line 271, in try_make_directory_shared',
            "    os.makedirs(directory_path, exist_ok=True)",
            "OSError: [Errno 30] Read-only file system: '/tmp/ray'"]
    head = "\n".join(["RLINF_NODE_RANK: 0", "rlark-sshd started on port 22", "Executing prepare script...", L.PIP_EDITABLE,
                      "Did not find any active Ray processes.", "Waiting for domain IP from /etc/hosts... (attempt 1)",
                      f"Resolved domain IP: 100.96.0.5 ({name}-actor-0.rlark-domain)", *tail])
    cap = c + mins(8)
    hp = crashloop(cap - mins(1), 1, restarts=3)
    j = job(name, c, cap, run=None, owner="fengyi", head_pod={**hp, "log": head, "prev_log": head},
            task={"env": ZH}, worker_log={0: {"waits": 30, "reachable": False}, 1: {"waits": 30, "reachable": False}})
    write_job_bundle(j, out)


def w_cli_missing(out: Path) -> None:
    c = at(2026, 12, 4, 9, 0)
    name = "pi0-custom-img-1204"
    img = "harbor.rlinf-lab.internal/vla/pi0-openpi:cu124-slim"
    prep = "pip install -e /workspace/RLinf --no-deps -q"
    head = "\n".join(["RLINF_NODE_RANK: 0", "rlark-sshd started on port 22", "Executing prepare script...",
                      "WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour with the system package manager.",
                      "Error: Ray CLI is not found. Please ensure Ray is installed."])
    wlog = "\n".join(["RLINF_NODE_RANK: 1", "SSH public key injected into authorized_keys", "Executing prepare script...",
                      "WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour with the system package manager.",
                      "Error: Ray CLI is not found. Please ensure Ray is installed."])
    cap = c + mins(7)
    j = job(name, c, cap, run=None, workers=1, owner="guoqiang", domain="vla-team",
            head_pod={**crashloop(cap - mins(1), 1), "log": head, "prev_log": head},
            worker_pod={0: {**crashloop(cap - mins(2), 1), "log": wlog, "prev_log": wlog}},
            task={"image": img, "prepare": prep})
    write_job_bundle(j, out)


def w_multi_head(out: Path) -> None:
    c = at(2026, 12, 4, 10, 0)
    name = "ppo-twohead-1204"
    t = c + mins(3)
    run = [*run_begin(t, 2, 16), *L.progress(t, 1, 3, 500, 45.0)]
    other = L.head_log(t0=c + mins(1), total=2, host=f"{name}-actor-1", ip="100.96.0.9", rank=0,
                       run=["Using Python at /opt/conda/envs/rlinf/bin/python",
                            L.ray_py(t, "INFO", "worker.py:1654", "Connecting to existing Ray cluster at address: 100.96.0.9:6379..."),
                            L.rl(t + sec(3), "rlinf.scheduler.cluster", "INFO", "Ray cluster has 1 nodes with 8 accelerators in total"),
                            *L.progress(t, 1, 2, 500, 47.0)],
                       counts=[1, 1, 1], check_failed=True, status_nodes=1)
    j = job(name, c, c + mins(10), run=run, workers=1, owner="kongwei", head_log={"total": 2})
    j.tasks[0].replicas = 2
    j.tasks[0].pods.append(PodSpec(1, "gpu-a-node-03", log=other, ip="10.42.3.21"))
    write_job_bundle(j, out)


# ---------------------------------------------------------------- routing, scheduling and object state

def w_cluster_id_selector(out: Path) -> None:
    c = at(2026, 12, 4, 11, 0)
    sel = {"rlark.io/cluster-id": "gpu-a"}
    msg = ("0/5 nodes are available: 5 node(s) didn't match Pod's node affinity/selector. preemption: 0/5 nodes are "
           "available: 5 Preemption is not helpful for scheduling.")

    def pod(i: int) -> PodSpec:
        return PodSpec(i, None, phase="Pending", sched_message=msg, default_events=False, mirror_message=msg,
                       events=[Ev("FailedScheduling", msg, 2, 1500, 23, component="default-scheduler")])
    nodes = gpu_nodes("gpu-a-node", 5)
    for n in nodes:
        n.rlark_events = []
    j = JobSpec("ppo-clusterpin-1204", c, c + mins(26), owner="hanmei", domain="sim-team", phase="Pending",
                tasks=[TaskSpec("actor", "Actor", head=True, selector=sel, run=RUN, phase="Pending", pods=[pod(0)]),
                       TaskSpec("rollout", "Rollout", replicas=2, selector=sel, phase="Pending", pods=[pod(0), pod(1)])],
                agents={"gpu-a": AgentSpec(nodes)})
    write_job_bundle(j, out)


def w_notready_state_only(out: Path) -> None:
    c = at(2026, 12, 4, 12, 0)
    sel = {"rlinf.io/pool": "h800-train"}
    down = at(2026, 12, 3, 22, 14, 9)
    taint = [{"key": "node.kubernetes.io/unreachable", "effect": "NoSchedule", "timeAdded": k.ts(down)},
             {"key": "node.kubernetes.io/unreachable", "effect": "NoExecute", "timeAdded": k.ts(down + sec(5))}]
    nodes = gpu_nodes("gpu-a-node", 3) + gpu_nodes("gpu-a-h800", 2, pool="h800-train", start_ip=71,
                                                    product="NVIDIA-H800", taints=taint, ready=False,
                                                    not_ready_since=down)
    pods = [PodSpec(0, None, phase="Pending", default_events=False)]
    wpods = [PodSpec(0, None, phase="Pending", default_events=False)]
    j = JobSpec("octo-h800-1204", c, c + mins(33), owner="majun", domain="vla-team", phase="Pending",
                tasks=[TaskSpec("actor", "Actor", head=True, selector=sel, run=RUN, phase="Pending", pods=pods),
                       TaskSpec("rollout", "Rollout", replicas=1, selector=sel, phase="Pending", pods=wpods)],
                agents={"gpu-a": AgentSpec(nodes, events_collected=False)})
    write_job_bundle(j, out)


def w_oomkilled_state(out: Path) -> None:
    c = at(2026, 12, 4, 13, 0)
    t = c + mins(3)
    cap = c + mins(31)
    run = [*run_begin(t, 3, 24), *L.progress(t, 1, 22, 600, 42.0),
           L.ray_py(t + mins(17), "WARNING", "worker.py:2380", "The node with node id: 5d7f9b1a3c5e7a9b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f and address: 10.0.1.13 and node name: 10.0.1.13 has been marked dead because the detector has missed too many heartbeats from it."),
           "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.",
           "The actor is dead because its node has died. Node Id: 5d7f9b1a3c5e7a9b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f"]
    wl = L.worker_log(rank=2, head="ppo-mem-1204-actor-0.embodied-lab", ip="10.0.1.13", waits=1)
    j = job("ppo-mem-1204", c, cap, run=run, owner="yangfan", task={"cpu_mem": ("32", "128Gi")},
            worker_pod={1: {"last": k.terminated("OOMKilled", 137, c + mins(2), t + mins(17)), "restarts": 1,
                            "main": k.running(t + mins(17) + sec(4)), "log": wl, "prev_log": wl}})
    write_job_bundle(j, out)


def w_hostpath_dataset(out: Path) -> None:
    c = at(2026, 12, 4, 14, 0)
    name = "libero-sft-1204"
    msg = ('MountVolume.SetUp failed for volume "datasets" : hostPath type check failed: /data/datasets/libero_90 is not a directory')
    mounts = [{"name": "datasets", "mountPath": "/data/datasets"}]
    vols = [{"name": "datasets", "hostPath": {"path": "/data/datasets/libero_90", "type": "Directory"}}]

    def pod(i: int, node: str) -> PodSpec:
        return PodSpec(i, node, phase="Pending", main=k.waiting("ContainerCreating"), default_events=False,
                       events=[Ev("Scheduled", f"Successfully assigned rlark-system/{name}-x to {node}", 3, etype="Normal", component="default-scheduler"),
                               Ev("FailedMount", msg, 4, 960, 17)])
    j = JobSpec(name, c, c + mins(17), owner="zhouyu", domain="libero-sim", phase="Pending",
                tasks=[TaskSpec("actor", "Actor", head=True, run=RUN, mounts=mounts, volumes=vols, phase="Pending",
                                pods=[pod(0, "gpu-a-node-01")]),
                       TaskSpec("rollout", "Rollout", replicas=1, mounts=mounts, volumes=vols, phase="Pending",
                                pods=[pod(0, "gpu-a-node-02")])],
                agents={"gpu-a": AgentSpec(gpu_nodes("gpu-a-node", 3))})
    write_job_bundle(j, out)


def w_pvc_rwx_local_path(out: Path) -> None:
    c = at(2026, 12, 4, 15, 0)
    name = "ppo-shared-ckpt-1204"
    claim = f"{name}-ckpt"
    msg = ("0/5 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/5 nodes are "
           "available: 5 Preemption is not helpful for scheduling.")
    mounts = [{"name": "ckpt", "mountPath": "/mnt/ckpt"}]
    vols = [{"name": "ckpt", "persistentVolumeClaim": {"claimName": claim}}]
    pvc = {"kind": "PersistentVolumeClaim", "apiVersion": "v1",
           "metadata": k.meta(claim, c + sec(4), "rlark-system",
                              annotations={"volume.beta.kubernetes.io/storage-provisioner": "rancher.io/local-path",
                                           "volume.kubernetes.io/storage-provisioner": "rancher.io/local-path"}),
           "spec": {"accessModes": ["ReadWriteMany"], "storageClassName": "local-path",
                    "resources": {"requests": {"storage": "2Ti"}}, "volumeMode": "Filesystem"},
           "status": {"phase": "Pending"}}
    pvc_ev = k.event("PersistentVolumeClaim", "rlark-system", claim, pvc["metadata"]["uid"], "ProvisioningFailed",
                     'failed to provision volume with StorageClass "local-path": Only support ReadWriteOnce access mode',
                     c + sec(6), last=c + mins(22), count=14, etype="Warning",
                     component="rancher.io/local-path_local-path-provisioner-6c86858495-7xq2m_3f0b1c2d")

    def pod(i: int) -> PodSpec:
        return PodSpec(i, None, phase="Pending", sched_message=msg, default_events=False, mirror_message=msg,
                       events=[Ev("FailedScheduling", msg, 5, 1300, 8, component="default-scheduler")])
    j = JobSpec(name, c, c + mins(23), owner="sunhao", domain="sim-team", phase="Pending",
                tasks=[TaskSpec("actor", "Actor", head=True, run=RUN, phase="Pending", mounts=mounts, volumes=vols,
                                pvc_map={"ckpt": "local-path"}, pods=[pod(0)]),
                       TaskSpec("rollout", "Rollout", replicas=2, phase="Pending", mounts=mounts, volumes=vols,
                                pvc_map={"ckpt": "local-path"}, pods=[pod(0), pod(1)])],
                agents={"gpu-a": AgentSpec(gpu_nodes("gpu-a-node", 5), pvcs=[pvc], extra_events=[pvc_ev])})
    write_job_bundle(j, out)


def w_agent_stale_pending(out: Path) -> None:
    c = at(2026, 12, 4, 16, 0)
    sel = {"rlinf.io/pool": "l40s-sim"}
    nodes = gpu_nodes("gpu-e-l40s", 4, pool="l40s-sim", start_ip=121, product="NVIDIA-L40S")
    j = JobSpec("maniskill-l40s-1204", c, c + mins(19), agent="gpu-e", owner="qianlin", domain="sim-team",
                phase="Pending",
                tasks=[TaskSpec("actor", "Actor", head=True, selector=sel, run=RUN, phase=None),
                       TaskSpec("rollout", "Rollout", replicas=2, selector=sel, phase=None)],
                agents={"gpu-e": AgentSpec(nodes, lease_age=mins(53).total_seconds(), member=False)})
    write_job_bundle(j, out)


def w_wandb_key_env(out: Path) -> None:
    c = at(2026, 12, 4, 17, 0)
    t = c + mins(3)
    env = [{"name": "WANDB_PROJECT", "value": "rlinf-embodied"},
           {"name": "WANDB_API_KEY", "value": "9f3c1e7a5b2d4f6081a3c5e7b9d1f2a4c6e8b0d2"},
           {"name": "HF_HUB_OFFLINE", "value": "1"}]
    run = [*run_begin(t, 3, 24),
           "wandb: Currently logged in as: rl-team (rlinf-lab). Use `wandb login --relogin` to force relogin",
           "wandb: Tracking run with wandb version 0.18.7",
           "wandb: Run data is saved locally in /workspace/RLinf/wandb/run-20261204_170412-k2x9p1qz",
           *L.progress(t, 1, 16, 800, 41.0)]
    j = job("ppo-wandb-1204", c, c + mins(16), run=run, owner="yangfan", task={"env": env})
    write_job_bundle(j, out)


def w_apt_zh_prepare(out: Path) -> None:
    c = at(2026, 12, 4, 18, 0)
    name = "robotwin-ppo-1204"
    prep = "apt-get update -qq && apt-get install -y -qq libosmesa6-dev libegl1-mesa && pip install -e /workspace/RLinf --no-deps -q"
    apt = ["正在读取软件包列表...", "正在分析软件包的依赖关系树...", "正在读取状态信息...",
           "没有可用的软件包 libegl1-mesa，但是它被其它的软件包引用了。",
           "这可能意味着这个缺失的软件包可能已被废弃，",
           "或者只能在其他发布源中找到",
           "然而下列软件包会取代它：",
           "  libegl1 libegl-mesa0",
           "",
           "E: 软件包 libegl1-mesa 没有可安装候选"]
    head = "\n".join(["RLINF_NODE_RANK: 0", "rlark-sshd started on port 22", "Executing prepare script...", *apt])
    wlog = "\n".join(["RLINF_NODE_RANK: 1", "SSH public key injected into authorized_keys", "Executing prepare script...", *apt])
    cap = c + mins(9)
    j = job(name, c, cap, run=None, workers=1, owner="fengyi", domain="dex-lab",
            head_pod={**crashloop(cap - mins(1), 100, restarts=4), "log": head, "prev_log": head},
            worker_pod={0: {**crashloop(cap - mins(2), 100, restarts=4), "log": wlog, "prev_log": wlog}},
            task={"prepare": prep, "env": ZH})
    write_job_bundle(j, out)


SCENARIOS: list[Scenario] = [
    Scenario("rlark-hccl-ei0006-socket-timeout", "rlark", w_hccl_ei0006,
             "An Ascend GRPO job fails while the Megatron actors build their HCCL communicator: HcclCommInitRootInfoConfig error code 7 and EI0006 'Getting socket times out' on rank 11; a float-dtype warning precedes it.",
             S0 + " § 按错误类型排查 (NCCL 初始化、socket、timeout); public: vllm-project/vllm-ascend#486 and #1955, hiyouga/LlamaFactory#5071 (EI0006 Getting socket times out)",
             "job/qwen32b-grpo-npu-1204", "rlark.run.nccl", last_stage="run-script"),
    Scenario("rlark-ray-memory-killer-then-nccl-timeout", "rlark", w_ray_memory_then_nccl,
             "Ray's memory monitor kills an EnvWorker on 10.0.1.13 (node memory 0.958 above the 0.95 threshold); ten minutes later the surviving FSDP ranks report an NCCL ALLGATHER watchdog timeout, which is the late symptom.",
             S0 + " § Worker 异常或日志显示进程失败 (定位第一条错误，而不是只看最后一行); CONTRACT §4 rlark.ray.memory-killed; public: ray-project/ray#30312 (memory monitor message), ray-project/ray#32730",
             "job/maniskill-ppo-bigenv-1204", "rlark.ray.memory-killed", last_stage="training-signal"),
    Scenario("rlark-object-store-spill-failed", "rlark", w_object_store_full,
             "Rollouts fill the Ray object store; spilling fails ('Failed to spill objects … No space left on device') and a 2 GiB put raises ObjectStoreFullError.",
             "CONTRACT §4 rlark.ray.object-store-full (platform Ray); public: ray-project/ray ObjectStoreFullError / spilling reports",
             "job/vla-rollout-big-1204", "rlark.ray.object-store-full", last_stage="training-signal"),
    Scenario("rlark-npu-device-oom-backward", "rlark", w_npu_device_oom,
             "An Ascend Megatron actor hits 'RuntimeError: NPU out of memory. Tried to allocate 3.75 GiB (NPU 5; 60.96 GiB total capacity …)' in loss.backward() after the first step.",
             "CONTRACT §4 rlark.run.device-oom (platform CANN/torch_npu); public: Ascend/pytorch NPU out of memory reports",
             "job/qwen14b-grpo-npu-1204", "rlark.run.device-oom", last_stage="training-signal"),
    Scenario("rlark-nfs-stale-handle-checkpoint", "rlark", w_stale_handle,
             "At step 50 the checkpoint save to an NFS mount fails with 'OSError: [Errno 116] Stale file handle'.",
             "CONTRACT §4 pod.run.stale-file-handle (Errno 116); public: NFS stale file handle reports on torch.save",
             "job/ppo-lift-1204", "pod.run.stale-file-handle", last_stage="training-signal"),
    Scenario("rlark-results-tar-quota-zh", "rlark", w_quota_zh,
             "Training finished; the run script's tar of the results into the user's home PVC fails in zh_CN: 无法 write: 超出磁盘限额 (EDQUOT), gzip: stdout: 超出磁盘限额.",
             "CONTRACT §4 pod.run.disk-quota (EDQUOT, not ENOSPC)",
             "job/ppo-door-1204", "pod.run.disk-quota", last_stage="training-signal"),
    Scenario("rlark-flash-attn-undefined-symbol", "rlark", w_undefined_symbol,
             "The prepare script upgraded torch to 2.7.0; the vLLM rollout worker's import of flash_attn_2_cuda fails with 'undefined symbol: _ZN3c105ErrorC2…'.",
             S1 + " § 处理没有 RLinf 训练信号的任务; CONTRACT §4 rlark.run.import-error (undefined symbol); public: Dao-AILab/flash-attention undefined symbol issues",
             "job/openvla-vllm-1204", "rlark.run.import-error", last_stage="run-script"),
    Scenario("rlark-ray-tmp-readonly-zh", "rlark", w_temp_dir_ro_zh,
             "The head's prepare script succeeds, then creating /tmp/ray fails (zh_CN: mkdir: 无法创建目录 \"/tmp/ray\": 只读文件系统; OSError Errno 30); the head crash-loops and the workers keep waiting for it.",
             S0 + " § Ray 初始化或组网失败 (Head 和 Worker 默认把 Ray 临时文件放在 /tmp/ray…临时目录、权限); CONTRACT §4 rlark.ray.temp-dir",
             "job/ppo-stack-ro-1204", "rlark.ray.temp-dir", last_stage="prepare-script"),
    Scenario("rlark-custom-image-no-ray-cli", "rlark", w_cli_missing,
             "A custom pi0 image without Ray: after the prepare script both pods print 'Error: Ray CLI is not found. Please ensure Ray is installed.' and crash-loop.",
             S0 + " § Ray 初始化或组网失败 (Ray CLI 检查: 激活后的环境中没有可执行的 ray)",
             "job/pi0-custom-img-1204", "rlark.ray.cli-missing", last_stage="prepare-script"),
    Scenario("rlark-head-task-two-replicas", "rlark", w_multi_head,
             "The head Task (actor) has replicas: 2; actor-0 and actor-1 both printed 'Executing run script...' and both train, actor-1 in a one-node Ray cluster after 'Ray cluster check failed'.",
             S0 + " § Ray 初始化或组网失败 (head: true 的 Task 副本数必须为 1; 若多个 Pod 都出现该标记，先按多 Head 副本缺陷处理); CONTRACT §4 rlark.spec.head-invalid and rlark.ray.multi-head both describe it",
             "job/ppo-twohead-1204", "rlark.spec.head-invalid", also=["rlark.ray.multi-head"]),
    Scenario("rlark-selector-cluster-id-label", "rlark", w_cluster_id_selector,
             "The Tasks select rlark.io/cluster-id=gpu-a, a label only the RLark Node objects carry; the Task is routed to gpu-a but every pod is FailedScheduling on node affinity/selector.",
             S0 + " § Job 长时间处于 Pending › 尚未出现 Worker (核对 Task 的 nodeSelector); CONTRACT §4 rlark.spec.selector-control-plane-label",
             "job/ppo-clusterpin-1204", "rlark.spec.selector-control-plane-label"),
    Scenario("rlark-pool-nodes-notready-state-only", "rlark", w_notready_state_only,
             "The only two nodes of the selected h800-train pool have been Ready=Unknown (Kubelet stopped posting node status) with unreachable taints since last night, while their RLark Node objects still say Online; pods are Pending and no events were collected.",
             S0 + " § Job 长时间处于 Pending › 尚未出现 Worker (检查匹配节点是否为 Online 且没有被标记为不可调度; 不要把 Online 当作资源充足)",
             "job/octo-h800-1204", "pod.schedule.node-unschedulable"),
    Scenario("rlark-worker-oomkilled-state-only", "rlark", w_oomkilled_state,
             "Ray marks rollout-1's node dead and an actor dies; the only cause is the pod's lastState: terminated OOMKilled exit 137 with one restart (128Gi limit), no event message.",
             "CONTRACT §4 pod.run.oom-killed; " + S0 + " § Worker 异常或日志显示进程失败 (定位第一条错误)",
             "job/ppo-mem-1204", "pod.run.oom-killed"),
    Scenario("rlark-hostpath-dataset-not-directory", "rlark", w_hostpath_dataset,
             "Both pods stay ContainerCreating: FailedMount 'hostPath type check failed: /data/datasets/libero_90 is not a directory'.",
             S0 + " § 已出现 Worker，但仍为 Pending (hostPath是否存在于实际调度节点); CONTRACT §4 pod.storage.hostpath-missing",
             "job/libero-sft-1204", "pod.storage.hostpath-missing", last_stage="scheduled"),
    Scenario("rlark-pvc-rwx-on-local-path", "rlark", w_pvc_rwx_local_path,
             "The checkpoint PVC asks ReadWriteMany from the local-path StorageClass: ProvisioningFailed 'Only support ReadWriteOnce access mode'; every pod is FailedScheduling on unbound immediate PersistentVolumeClaims.",
             S0 + " § 已出现 Worker，但仍为 Pending (PVC 是否能通过所选 StorageClass 创建和挂载); public: rancher/local-path-provisioner#70 (only ReadWriteOnce)",
             "job/ppo-shared-ckpt-1204", "pod.storage.pvc-unbound"),
    Scenario("rlark-agent-lease-stale-before-pods", "rlark", w_agent_stale_pending,
             "A new Job routed to cluster gpu-e never gets pods: its Tasks have no status and the gpu-e agent's heartbeat Lease was last renewed 53 minutes ago, although its Node objects still say Online.",
             S0 + " § Job 长时间处于 Pending › 尚未出现 Worker (检查角色选择的集群是否仍在线); CONTRACT §4 rlark.agent.disconnected",
             "job/maniskill-l40s-1204", "rlark.agent.disconnected"),
    Scenario("rlark-wandb-key-in-task-env", "rlark", w_wandb_key_env,
             "A healthy run at step 16 whose Task env sets WANDB_API_KEY to a literal 40-hex key in the Job spec.",
             S1 + " § 遇到高风险情况时停止操作 (YAML 中出现凭据); CONTRACT §4 rlark.risk.credentials-exposed",
             "job/ppo-wandb-1204", "rlark.risk.credentials-exposed", last_stage="training-signal"),
    Scenario("rlark-prepare-apt-no-candidate-zh", "rlark", w_apt_zh_prepare,
             "The prepare script's apt-get install fails in zh_CN: 'E: 软件包 libegl1-mesa 没有可安装候选' (package replaced by libegl1 on the newer base image); both pods crash-loop with exit 100.",
             S0 + " § Ray 初始化或组网失败 (角色准备脚本: 后续第一条错误来自该角色的 prepareScript)",
             "job/robotwin-ppo-1204", "rlark.ray.prepare-failed", last_stage="prepare-script"),
]
