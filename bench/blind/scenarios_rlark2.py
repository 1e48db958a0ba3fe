# ruff: noqa: E501  (log and event text is quoted verbatim, one line per log line)
"""RLark job scenarios, part 2: Ray cluster forming, run script, devices, storage, lifecycle, safety."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import gen_logs as L
from gen_k8s import NodeSpec, Scenario, at, mins, sec, ts
from gen_rlark import AgentSpec, JobSpec, PodSpec, TaskSpec, gpu_nodes, write_job_bundle
from scenarios_rlark import RUN, S0, S1, run_start

S3 = "seeds/003_c40242c02c0bfd09.txt (runner pod 任务失败案例参考)"


def crash_state(t_end: datetime, code: int = 1, restarts: int = 1, reason: str = "Error") -> dict[str, Any]:
    return {"main": {"waiting": {"reason": "CrashLoopBackOff",
                                 "message": "back-off 40s restarting failed container=main"}},
            "last": {"terminated": {"exitCode": code, "reason": reason, "startedAt": ts(t_end - mins(9)),
                                    "finishedAt": ts(t_end)}},
            "restarts": restarts}


def std_job(name: str, c: datetime, cap: datetime, *, run: list[str] | None, workers: int = 2,
            worker_tail: dict[int, list[str]] | None = None, worker_exit: dict[int, int] | None = None,
            head_kw: dict[str, Any] | None = None, worker_kw: dict[int, dict[str, Any]] | None = None,
            nodes: list[NodeSpec] | None = None, owner: str = "alice", domain: str | None = "franka-lab",
            task_kw: dict[str, Any] | None = None, worker_task_kw: dict[str, Any] | None = None,
            head_log_kw: dict[str, Any] | None = None, accel: str = "GPU", gpus: int = 8,
            prepare: str = L.PIP_EDITABLE, agent: str = "gpu-a", node_prefix: str = "gpu-a-node",
            worker_prepare: str | None = None, phase: str = "Running") -> JobSpec:
    total = 1 + workers
    hl_kw: dict[str, Any] = {"t0": c + sec(75), "total": total, "host": f"{name}-actor-0", "prepare": prepare,
                             "run": run, "gpus_per_node": gpus, "accel": accel}
    hl_kw.update(head_log_kw or {})
    head = L.head_log(**hl_kw)
    hhost = f"{name}-actor-0.rlark-domain" if domain else f"{name}-actor-ray-head"
    wpods = []
    for i in range(workers):
        ip = f"10.0.1.{12 + i}"
        wl = L.worker_log(rank=1 + i, head=hhost, ip=ip, prepare=worker_prepare or prepare,
                          tail=(worker_tail or {}).get(i), exit_code=(worker_exit or {}).get(i))
        kw: dict[str, Any] = {"log": wl, "ip": ip}
        kw.update((worker_kw or {}).get(i, {}))
        wpods.append(PodSpec(i, f"{node_prefix}-{i + 2:02d}", **kw))
    hk: dict[str, Any] = {"log": head, "ip": "10.42.1.17"}
    hk.update(head_kw or {})
    tk: dict[str, Any] = {"run": RUN}
    tk.update(task_kw or {})
    wk: dict[str, Any] = {}
    wk.update(worker_task_kw or {})
    if "image" in tk and "image" not in wk:
        wk["image"] = tk["image"]
    if "device" in tk and "device" not in wk:
        wk["device"] = tk["device"]
    if "selector" in tk and "selector" not in wk:
        wk["selector"] = tk["selector"]
    tasks = [TaskSpec("actor", "Actor", head=True, pods=[PodSpec(0, f"{node_prefix}-01", **hk)], **tk)]
    if workers:
        tasks.append(TaskSpec("rollout", "Rollout", replicas=workers, pods=wpods, **wk))
    return JobSpec(name, c, cap, tasks=tasks, owner=owner, domain=domain, agent=agent, phase=phase,
                   agents={agent: AgentSpec(nodes or gpu_nodes(node_prefix, total + 1))})


def tb(*frames: str, exc: str) -> list[str]:
    out = ["Traceback (most recent call last):"]
    for f in frames:
        path, line, fn, code = f.split("|")
        out += [f'  File "{path}", line {line}, in {fn}', f"    {code}"]
    out += exc.split("\n")
    return out


MAIN_FRAMES = ("/workspace/RLinf/examples/embodiment/train_embodied_agent.py|52|main|runner.run()",
               "/workspace/RLinf/rlinf/runners/embodied_runner.py|188|run|actor_futures.wait()")


# ---------------------------------------------------------------- check failed, worker logs not collected

def w_check_failed(out: Path) -> None:
    c = at(2026, 11, 3, 10, 0)
    t = c + mins(19)
    run = [*run_start(t, 2, 16), L.rl(t + sec(9), "rlinf.runners.embodied_runner", "WARNING", "expected 4 nodes from config cluster.num_nodes, found 2; continuing with 16 accelerators"), *L.progress(t, 1, 6, 500, 61.0)]
    job = std_job("franka-reach-1103", c, c + mins(27), run=run, workers=3,
                  head_log_kw={"counts": [1, 2] + [2] * 88, "check_failed": True, "status_nodes": 2},
                  worker_kw={i: {"log": None} for i in range(3)})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- workers cannot reach the Head

def w_head_unreachable(out: Path) -> None:
    c = at(2026, 11, 4, 21, 30)
    job = std_job("bridge-ppo-1104", c, c + mins(24), run=None, workers=2, domain="bridge-sim",
                  head_log_kw={"counts": [1] * 70})
    for p in job.tasks[1].pods:
        p.log = L.worker_log(rank=1 + p.ordinal, head="bridge-ppo-1104-actor-0.rlark-domain", ip=p.ip or "",
                             head_ip="100.96.0.5", waits=84, reachable=False)
    write_job_bundle(job, out)


# ---------------------------------------------------------------- NCCL init socket failure

def w_nccl_socket(out: Path) -> None:
    c = at(2026, 11, 5, 6, 10)
    t = c + mins(3)
    err = tb(*MAIN_FRAMES,
             "/opt/conda/envs/rlinf/lib/python3.10/site-packages/ray/_private/worker.py|2755|get|raise value.as_instanceof_cause()",
             exc="ray.exceptions.RayTaskError(DistBackendError): \x1b[36mray::EmbodiedFSDPActor.init_worker()\x1b[39m "
                 "(pid=2231, ip=10.0.1.12, actor_id=4f1a0c3e9b7d2a61f0c5e8d201000000, repr=<rlinf.workers.actor.EmbodiedFSDPActor object at 0x7f3a1c2b9d50>)\n"
                 "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:2006, "
                 "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\n"
                 "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n"
                 "Last error:\nsocketStartConnect: Connect to 10.42.3.18<45127> failed : Software caused connection abort")
    run = [*run_start(t, 3, 24), "(EmbodiedFSDPActor pid=2231, ip=10.0.1.12) NCCL INFO Bootstrap : Using eth0:10.42.3.17<0>", "(EmbodiedFSDPActor pid=2231, ip=10.0.1.12) NCCL INFO NET/Plugin: No plugin found (libnccl-net.so), using internal implementation", "(EmbodiedFSDPActor pid=2231, ip=10.0.1.12) NCCL INFO NET/Socket : Using [0]eth0:10.42.3.17<0> [1]rlark0:100.96.1.5<0>", *err]
    st = crash_state(c + mins(6))
    job = std_job("ppo-stackcube-1105", c, c + mins(8), run=run,
                  head_kw={"main": st["main"], "last": st["last"], "restarts": 1, "prev_log": None})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- NCCL watchdog timeout after training started

def w_nccl_watchdog(out: Path) -> None:
    c = at(2026, 11, 6, 0, 0)
    t = c + mins(3)
    steps = L.progress(t, 1, 118, 1000, 38.0)
    wd = [
        "(EmbodiedFSDPActor pid=2417, ip=10.0.1.13) [rank9]:[E1106 01:26:07.551372118 ProcessGroupNCCL.cpp:616] [Rank 9] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=3541, OpType=_ALLGATHER_BASE, NumelIn=42467328, NumelOut=679477248, Timeout(ms)=1800000) ran for 1800043 milliseconds before timing out.",
        "(EmbodiedFSDPActor pid=2417, ip=10.0.1.13) [rank9]:[E1106 01:26:07.551809342 ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) Rank 9] Exception (either an error or timeout) detected by watchdog at work: 3541, last enqueued NCCL work: 3543, last completed NCCL work: 3540.",
        "(EmbodiedFSDPActor pid=2417, ip=10.0.1.13) [rank9]:[E1106 01:26:07.612004511 ProcessGroupNCCL.cpp:630] [Rank 9] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.",
        "(raylet, ip=10.0.1.13) A worker died or was killed while executing a task by an unexpected system error. To troubleshoot the problem, check the logs for the dead worker. RayTask ID: ffffffffffffffff9d2c5e8a1b4f703e01000000 Worker ID: 8e1f0a6b27c3d954 Node ID: 3c0ad7e1f94b6a25 Worker IP address: 10.0.1.13 Worker port: 10251 Worker PID: 2417 Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file.",
    ]
    job = std_job("ppo-openvla-1106", c, c + mins(95), run=run_start(t, 3, 24) + steps + wd)
    write_job_bundle(job, out)


# ---------------------------------------------------------------- HCCL socket timeout on Ascend

def npu_nodes(n: int, prefix: str = "npu-a-910b") -> list[NodeSpec]:
    return [NodeSpec(f"{prefix}-{i + 1:02d}", arch="arm64", ip=f"192.168.30.{21 + i}",
                     device=("huawei.com/Ascend910", 8), cpu="192", memory="1584313416Ki",
                     kernel="5.10.0-182.0.0.95.oe2203sp3.aarch64", os_image="openEuler 22.03 (LTS-SP3)",
                     labels={"rlinf.io/pool": "ascend-910b", "accelerator": "huawei-Ascend910",
                             "node.kubernetes.io/npu.chip.name": "910B3"}) for i in range(n)]


NPU_IMG = "swr.cn-southwest-2.myhuaweicloud.com/rlinf/rlinf:math-cann8.0-torch2.5-ray2.40"
NPU_TASK = {"image": NPU_IMG, "device": ("huawei.com/Ascend910", 8), "selector": {"rlinf.io/pool": "ascend-910b"}}


def w_hccl_timeout(out: Path) -> None:
    c = at(2026, 11, 7, 3, 20)
    t = c + mins(4)
    run = [*run_start(t, 2, 16, cfg="qwen2.5-1.5b-grpo-npu"), "(MegatronActor pid=8812, ip=192.168.30.22) [W compiler_depend.ts:133] Warning: Warning: Device do not support double dtype now, dtype cast repalce with float. (function operator())", "(MegatronActor pid=8812, ip=192.168.30.22) Traceback (most recent call last):", '(MegatronActor pid=8812, ip=192.168.30.22)   File "/workspace/RLinf/rlinf/hybrid_engines/megatron/megatron_model_manager.py", line 311, in setup_model_and_optimizer', "(MegatronActor pid=8812, ip=192.168.30.22)     torch.distributed.barrier()", "(MegatronActor pid=8812, ip=192.168.30.22) RuntimeError: create:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 7", "(MegatronActor pid=8812, ip=192.168.30.22) [ERROR] 2026-11-07-03:31:52 (PID:8812, Device:3, RankID:11) ERR02200 DIST call hccl api failed.", "(MegatronActor pid=8812, ip=192.168.30.22) EI0006: [PID: 8812] 2026-11-07-03:31:52.114.305 Getting socket times out. Reason: 1. The remote does not initiate a connect request. some NPUs in the cluster are abnormal. 2. The remote does not initiate a connect request because the collective communication operator is started too late or is not started by some NPU in the cluster. 3. The communication link is disconnected. (For example, the IP addresses are not on the same network segment or the TLS configurations are inconsistent.)", "(MegatronActor pid=8812, ip=192.168.30.22)         Solution: 1. Check the rank service processes with other errors or no errors in the cluster.2. If this error is reported for all NPUs, check whether the time difference between the earliest and latest errors is greater than the connect timeout interval (120s by default). If so, adjust the timeout interval by using the HCCL_CONNECT_TIMEOUT environment variable.3. Check the connectivity of the communication link between nodes. (For details, see the TLS command and HCCN connectivity check examples.). For details:https://www.hiascend.com/document"]
    job = std_job("qwen-grpo-npu-1107", c, c + mins(15), run=run, workers=1, accel="NPU",
                  prepare=L.PIP_NPU, nodes=npu_nodes(3), node_prefix="npu-a-910b", agent="npu-a",
                  task_kw=NPU_TASK, domain="llm-rl", owner="huangtao")
    write_job_bundle(job, out)


# ---------------------------------------------------------------- hang: log stops after weight sync

def w_hang_after_sync(out: Path) -> None:
    c = at(2026, 11, 8, 12, 0)
    t = c + mins(3)
    steps = L.progress(t, 1, 57, 2000, 41.0)
    tail = [
        L.rl(t + sec(57 * 41 + 2), "rlinf.workers.actor", "INFO", "global_step=57: syncing actor weights to rollout workers (nccl broadcast, 15.2 GB)"),
        "(EmbodiedFSDPActor pid=2231, ip=10.0.1.12) NCCL INFO comm 0x55d0c3a1e2b0 rank 0 nRanks 24 nNodes 3 localRanks 8 localRank 0 MNNVL 0",
        "(EmbodiedFSDPActor pid=2231, ip=10.0.1.12) NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0",
        "(MultiStepRolloutWorker pid=3304, ip=10.0.1.14) NCCL INFO Channel 00/0 : 16[0] -> 0[0] [receive] via NET/IB/0",
    ]
    job = std_job("vla-dppo-1108", c, c + mins(3 + 57 * 41 / 60 + 170), run=run_start(t, 3, 24) + steps + tail)
    write_job_bundle(job, out)


# ---------------------------------------------------------------- CUDA out of memory

def w_cuda_oom(out: Path) -> None:
    c = at(2026, 11, 9, 5, 40)
    t = c + mins(3)
    oom = tb(*MAIN_FRAMES,
             "/workspace/RLinf/rlinf/workers/actor/fsdp_actor_worker.py|412|run_training|loss.backward()",
             "/opt/conda/envs/rlinf/lib/python3.10/site-packages/torch/autograd/graph.py|825|_engine_run_backward|return Variable._execution_engine.run_backward(",
             exc="torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.91 GiB. GPU 2 has a total capacity of 79.15 GiB of which 2.07 GiB is free. "
                 "Including non-PyTorch memory, this process has 77.06 GiB memory in use. Of the allocated memory 71.88 GiB is allocated by PyTorch, "
                 "and 3.62 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting "
                 "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  "
                 "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)")
    run = [*run_start(t, 3, 24, cfg="libero_spatial_grpo_openvlaoft"), "(EmbodiedFSDPActor pid=2231, ip=10.0.1.12) /opt/conda/envs/rlinf/lib/python3.10/site-packages/torch/utils/checkpoint.py:92: UserWarning: None of the inputs have requires_grad=True. Gradients will be None", *L.progress(t, 1, 2, 1000, 95.0), *oom]
    st = crash_state(c + mins(8))
    job = std_job("libero-grpo-1109", c, c + mins(10), run=run, owner="liyang",
                  head_kw={"main": st["main"], "last": st["last"], "restarts": 1})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- NPU out of memory

def w_npu_oom(out: Path) -> None:
    c = at(2026, 11, 10, 18, 0)
    t = c + mins(4)
    oom = [
        "(MegatronActor pid=9120, ip=192.168.30.21) [ERROR] 2026-11-10-18:21:07 (PID:9120, Device:0, RankID:0) ERR00100 PTA call acl api failed",
        "(MegatronActor pid=9120, ip=192.168.30.21) Traceback (most recent call last):",
        "(MegatronActor pid=9120, ip=192.168.30.21)   File \"/workspace/RLinf/rlinf/workers/actor/megatron_actor_worker.py\", line 655, in run_training",
        "(MegatronActor pid=9120, ip=192.168.30.21)     losses_reduced = forward_backward_func(",
        "(MegatronActor pid=9120, ip=192.168.30.21) RuntimeError: NPU out of memory. Tried to allocate 2.44 GiB (NPU 0; 60.96 GiB total capacity; 55.71 GiB already allocated; 55.71 GiB current active; 1.02 GiB free; 58.93 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.",
    ]
    run = run_start(t, 2, 16, cfg="qwen2.5-7b-grpo-npu") + L.progress(t, 1, 3, 300, 210.0) + oom
    job = std_job("qwen7b-grpo-npu-1110", c, c + mins(26), run=run, workers=1, accel="NPU",
                  prepare=L.PIP_NPU, nodes=npu_nodes(3), node_prefix="npu-a-910b", agent="npu-a",
                  task_kw=NPU_TASK, domain="llm-rl", owner="huangtao")
    write_job_bundle(job, out)


# ---------------------------------------------------------------- worker container OOMKilled

def w_oomkilled(out: Path) -> None:
    c = at(2026, 11, 11, 2, 0)
    t = c + mins(3)
    run = run_start(t, 3, 24) + L.progress(t, 1, 14, 1000, 44.0) + [
        "(raylet) The node with node id: 5b0f2c61a9e3d4f7e8a9 and address: 10.0.1.13 and node name: 10.0.1.13 has been "
        "marked dead because the detector has missed too many heartbeats from it. This can happen when a \t(1) raylet "
        "crashes unexpectedly (OOM, etc.) \n\t(2) raylet has lagging heartbeats due to slow network or busy workload.",
    ]
    hhost = "envsim-ppo-1111-actor-0.rlark-domain"
    prev = L.worker_log(rank=2, head=hhost, ip="10.0.1.13", tail=[
        "(EnvWorker pid=3120) [ManiSkill] creating 2048 parallel envs on cpu backend",
        "(EnvWorker pid=3120) [ManiSkill] env memory estimate: 71.4 GB"])
    cur = L.worker_log(rank=2, head=hhost, ip="10.0.1.13")
    job = std_job("envsim-ppo-1111", c, c + mins(22), run=run, worker_task_kw={"cpu_mem": ("48", "96Gi")},
                  worker_kw={1: {"log": cur, "prev_log": prev, "restarts": 1,
                                 "last": {"terminated": {"exitCode": 137, "reason": "OOMKilled",
                                                         "startedAt": ts(c + mins(1)), "finishedAt": ts(c + mins(13))}}}})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- Ray memory monitor kills a worker

def w_ray_mem_killed(out: Path) -> None:
    c = at(2026, 11, 12, 9, 0)
    t = c + mins(3)
    kill = ["(raylet, ip=10.0.1.12) [2026-11-12 09:41:18,002 E 91 91] (raylet) node_manager.cc:3193: 1 Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: 7aa90c4e1b2d3f56a7b8c9d0e1f20314, IP: 10.0.1.12) over the last time period. To see more information about the Workers killed on this node, use `ray logs raylet.out -ip 10.0.1.12`", "(raylet, ip=10.0.1.12) ", "(raylet, ip=10.0.1.12) Refer to the documentation on how to address the out of memory issue: https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html. Consider provisioning more memory on this node or reducing task parallelism by requesting more CPUs per task. To adjust the kill threshold, set the environment variable `RAY_memory_usage_threshold` when starting Ray. To disable worker killing, set the environment variable `RAY_memory_monitor_refresh_ms` to zero.", *tb(*MAIN_FRAMES, exc="ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n" "Memory on the node (IP: 10.0.1.12, ID: 7aa90c4e1b2d3f56a7b8c9d0e1f20314) where the task (actor ID: 9c1e5f3a0b7d2c4e8f6a1b3d01000000, " "name=EnvWorker.__init__, pid=4410, memory used=61.37GB) was running was 1918.22GB / 2015.59GB (0.951692), which exceeds the memory " "usage threshold of 0.95. Ray killed this worker (ID: 0d4b8e2f6a1c3e5b7d9f) because it was the most recently scheduled task; to see " "more information about memory usage on this node, use `ray logs raylet.out -ip 10.0.1.12`. To see the logs of the worker, use " "`ray logs worker-0d4b8e2f6a1c3e5b7d9f*out -ip 10.0.1.12. Top 10 memory users:\nPID\tMEM(GB)\tCOMMAND\n4410\t61.37\tray::EnvWorker.__init__\n" "4398\t60.92\tray::EnvWorker\n4377\t60.55\tray::EnvWorker")]
    run = run_start(t, 3, 24, cfg="maniskill_ppo_mlp_4096envs") + L.progress(t, 1, 37, 1000, 60.0) + kill
    job = std_job("mlp-ppo-4096env-1112", c, c + mins(44), run=run, owner="zhaolei")
    write_job_bundle(job, out)


# ---------------------------------------------------------------- object store full

def w_object_store(out: Path) -> None:
    c = at(2026, 11, 13, 20, 0)
    t = c + mins(3)
    err = tb(*MAIN_FRAMES,
             "/workspace/RLinf/rlinf/scheduler/channel/channel.py|241|put|ref = ray.put(item)",
             exc="ray.exceptions.ObjectStoreFullError: Failed to put object 00ffffffffffffffffffffffffffffffffffffff0100000011000000 in object store because it is full. "
                 "Object size is 12884901888 bytes.\nThe local object store is full of objects that are still in scope and cannot be evicted. "
                 "Tip: Use the `ray memory` command to list active objects in the cluster.")
    run = [*run_start(t, 3, 24, cfg="maniskill_ppo_openvlaoft_video"), "(raylet, ip=10.0.1.12) Spilled 40961 MiB, 11 objects, write throughput 1934 MiB/s. Set RAY_verbose_spill_logs=0 to disable this message.", *L.progress(t, 1, 5, 500, 120.0), *err]
    job = std_job("video-ppo-1113", c, c + mins(18), run=run, owner="sunmin")
    write_job_bundle(job, out)


# ---------------------------------------------------------------- import error (undefined symbol)

def w_import_error(out: Path) -> None:
    c = at(2026, 11, 14, 7, 0)
    err = [
        "Traceback (most recent call last):",
        '  File "/workspace/RLinf/examples/embodiment/train_embodied_agent.py", line 24, in <module>',
        "    from rlinf.runners.embodied_runner import EmbodiedRunner",
        '  File "/workspace/RLinf/rlinf/models/embodiment/openvla_oft/modeling.py", line 31, in <module>',
        "    from flash_attn import flash_attn_func",
        '  File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py", line 10, in <module>',
        "    import flash_attn_2_cuda as flash_attn_gpu",
        "ImportError: /opt/conda/envs/rlinf/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
    ]
    prep = ("source /opt/conda/bin/activate rlinf && pip install -e /workspace/RLinf --no-deps -q && "
            "pip install torch==2.7.0 -q")
    run = ["Using Python at /opt/conda/envs/rlinf/bin/python", *err]
    job = std_job("oft-finetune-1114", c, c + mins(9), run=run, owner="chenjie", task_kw={"prepare": prep},
                  worker_task_kw={"prepare": prep})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- Hydra override rejected

def w_hydra(out: Path) -> None:
    c = at(2026, 11, 15, 11, 0)
    run_script = ("cd /workspace/RLinf && bash examples/embodiment/run_embodiment.sh maniskill_ppo_openvlaoft "
                  "algorithm.rollout_micro_bsz=16 runner.logger.log_path=/data/tensorboard/${RLINF_JOB_NAME}")
    err = [
        "Using Python at /opt/conda/envs/rlinf/bin/python",
        "Could not override 'algorithm.rollout_micro_bsz'.",
        "To append to your config use +algorithm.rollout_micro_bsz=16",
        "Key 'rollout_micro_bsz' is not in struct",
        "    full_key: algorithm.rollout_micro_bsz",
        "    object_type=dict",
        "",
        "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.",
    ]
    job = std_job("ppo-microbsz-1115", c, c + mins(7), run=err, task_kw={"run": run_script}, owner="wangfang")
    write_job_bundle(job, out)


# ---------------------------------------------------------------- outputs written outside every mount

def w_outputs_lost(out: Path) -> None:
    c = at(2026, 11, 16, 1, 0)
    t = c + mins(3)
    run_script = ("cd /workspace/RLinf && bash examples/embodiment/run_embodiment.sh maniskill_ppo_openvlaoft "
                  "runner.output_dir=/workspace/outputs/${RLINF_JOB_NAME} runner.logger.log_path=/data/tensorboard/${RLINF_JOB_NAME}")
    mounts = [{"name": "ckpt", "mountPath": "/mnt/ckpt"}]
    vols = [{"name": "ckpt", "persistentVolumeClaim": {"claimName": "ppo-ckpt-1116-ckpt"}}]
    end = [
        L.rl(t + mins(150), "rlinf.runners.embodied_runner", "INFO", "Saving checkpoint to /workspace/outputs/ppo-ckpt-1116/checkpoints/global_step_200"),
        L.rl(t + mins(151), "rlinf.utils.ckpt", "INFO", "saved actor (7.54 GB) and optimizer states (15.1 GB) to /workspace/outputs/ppo-ckpt-1116/checkpoints/global_step_200"),
        L.rl(t + mins(151), "rlinf.runners.embodied_runner", "INFO", "Training finished: 200 steps, best eval success_rate=0.71 at step 180"),
    ]
    run = run_start(t, 3, 24) + L.progress(t, 190, 200, 200, 45.0) + end
    job = std_job("ppo-ckpt-1116", c, c + mins(160), run=run, owner="zhangwei",
                  task_kw={"run": run_script, "mounts": mounts, "volumes": vols, "pvc_map": {"ckpt": "rclone-oss"}})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- real robot: libfranka network timeout

def w_robot(out: Path) -> None:
    c = at(2026, 11, 17, 14, 0)
    t = c + mins(3)
    err = [
        "(FrankaEnvWorker pid=512, ip=10.0.1.12) [franka_env] connected to robot 172.16.0.2, gripper homed",
        "(FrankaEnvWorker pid=512, ip=10.0.1.12) [franka_env] episode 12 reset done (joint error 0.004 rad)",
        "(FrankaEnvWorker pid=512, ip=10.0.1.12) Exception in control loop: libfranka: UDP receive: Timeout",
        "(FrankaEnvWorker pid=512, ip=10.0.1.12) franka.NetworkException: libfranka: UDP receive: Timeout",
        "(FrankaEnvWorker pid=512, ip=10.0.1.12) [franka_env] reconnect attempt 1/3 to 172.16.0.2 failed: libfranka: Connection timeout",
        L.rl(t + mins(16), "rlinf.runners.realworld_runner", "ERROR", "env worker 0 raised NetworkException; rollout aborted at episode 12, step 87"),
    ]
    run = run_start(t, 2, 9, cfg="realworld_franka_pickplace_sac") + L.progress(t, 1, 11, 300, 80.0, label="Episode") + err
    nodes = gpu_nodes("gpu-lab-ws", 3, pool="franka-ws", start_ip=121, product="NVIDIA-GeForce-RTX-4090")
    job = std_job("franka-sac-real-1117", c, c + mins(20), run=run, workers=1, nodes=nodes,
                  node_prefix="gpu-lab-ws", owner="sunmin", domain="franka-lab",
                  task_kw={"selector": {"rlinf.io/pool": "franka-ws"}, "device": ("nvidia.com/gpu", 1)})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- robot fault followed by a collective timeout

def w_robot_then_nccl(out: Path) -> None:
    c = at(2026, 11, 18, 15, 0)
    t = c + mins(3)
    err = [
        "(FrankaEnvWorker pid=733, ip=10.0.1.13) libfranka: Move command aborted: motion aborted by reflex! [\"cartesian_reflex\", \"joint_reflex\"]",
        "(FrankaEnvWorker pid=733, ip=10.0.1.13) franka.ControlException: libfranka: Move command aborted: motion aborted by reflex! [\"cartesian_reflex\", \"joint_reflex\"]",
        "(FrankaEnvWorker pid=733, ip=10.0.1.13) [franka_env] robot entered Reflex mode; waiting for automatic error recovery",
        "(EmbodiedFSDPActor pid=2201, ip=10.0.1.12) [rank0]:[E1118 15:51:40.004918224 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=812, OpType=BROADCAST, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600021 milliseconds before timing out.",
    ]
    run = run_start(t, 3, 17, cfg="realworld_franka_peginsert_ppo") + L.progress(t, 1, 8, 200, 220.0, label="Episode") + err
    nodes = gpu_nodes("gpu-lab-ws", 4, pool="franka-ws", start_ip=121, product="NVIDIA-GeForce-RTX-4090")
    job = std_job("franka-peg-real-1118", c, c + mins(53), run=run, workers=2, nodes=nodes,
                  node_prefix="gpu-lab-ws", owner="sunmin", domain="franka-lab",
                  task_kw={"selector": {"rlinf.io/pool": "franka-ws"}, "device": ("nvidia.com/gpu", 1)})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- credential printed by a traced prepare script

def w_cred_log(out: Path) -> None:
    c = at(2026, 11, 19, 9, 0)
    t = c + mins(3)
    prep = ("set -x; export HF_TOKEN=hf_QpWmT3vKzL8xNa2RbYc7DeFg5HsJk9UoPq; "
            "source /opt/conda/bin/activate rlinf && pip install -e /workspace/RLinf --no-deps -q")
    prep_log = ("+ export HF_TOKEN=hf_QpWmT3vKzL8xNa2RbYc7DeFg5HsJk9UoPq\n+ HF_TOKEN=hf_QpWmT3vKzL8xNa2RbYc7DeFg5HsJk9UoPq\n"
                "+ source /opt/conda/bin/activate rlinf\n+ pip install -e /workspace/RLinf --no-deps -q\n" + L.PIP_EDITABLE)
    run = run_start(t, 3, 24) + L.progress(t, 1, 9, 1000, 43.0)
    job = std_job("pi0-sft-rl-1119", c, c + mins(11), run=run, prepare=prep_log, owner="liyang",
                  task_kw={"prepare": prep}, worker_task_kw={"prepare": prep})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- credential in the spec and a failing import

def w_cred_and_import(out: Path) -> None:
    c = at(2026, 11, 20, 13, 0)
    env = [{"name": "AWS_ACCESS_KEY_ID", "value": "AKIAZ7QX4LMN2PRT5VWY"},
           {"name": "AWS_SECRET_ACCESS_KEY", "value": "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"},
           {"name": "DATASET_URI", "value": "s3://robot-demos/bridge_v2/"}]
    err = ["Using Python at /opt/conda/envs/rlinf/bin/python", "Traceback (most recent call last):",
           '  File "/workspace/RLinf/examples/embodiment/train_embodied_agent.py", line 19, in <module>',
           "    from rlinf.envs.bridge.bridge_env import BridgeEnv",
           '  File "/workspace/RLinf/rlinf/envs/bridge/bridge_env.py", line 8, in <module>',
           "    import simpler_env",
           "ModuleNotFoundError: No module named 'simpler_env'"]
    job = std_job("bridge-s3-1120", c, c + mins(8), run=err, owner="zhaolei",
                  task_kw={"env": env}, worker_task_kw={"env": env})
    write_job_bundle(job, out)


SCENARIOS = [
    Scenario("rlark-ray-check-failed-two-of-four", w_check_failed,
             "The Head waited the full check window with only 2 of 4 nodes, printed 'Ray cluster check failed, "
             "proceeding anyway' and started training on half the GPUs. The worker pods are Running but their logs "
             "were not collected.",
             S0 + " § 不要只凭 Head 就绪文本判断集群完整; " + S1 + " § 检查 Ray 是否包含所有 Worker",
             "job/franka-reach-1103", "rlark.ray.check-failed"),
    Scenario("rlark-workers-cannot-reach-head", w_head_unreachable,
             "Both rollout workers resolve the Head's domain name but keep printing 'Waiting for head to be reachable' "
             "(84 attempts) while the Head waits with one node.",
             S0 + " § Ray 初始化或组网失败 (Worker 解析和连接 Head)",
             "job/bridge-ppo-1104", "rlark.ray.head-unreachable", last_stage="ray-cluster-forming"),
    Scenario("rlark-nccl-socket-abort", w_nccl_socket,
             "Ray formed with all 3 nodes and the run script started, then NCCL communicator init failed with "
             "'socketStartConnect: Connect to ... failed : Software caused connection abort' and the Head restarted.",
             S0 + " § 按错误类型排查 (NCCL 初始化、socket、timeout)", "job/ppo-stackcube-1105", "rlark.run.nccl"),
    Scenario("rlark-nccl-watchdog-allgather", w_nccl_watchdog,
             "Training ran 118 steps, then an _ALLGATHER_BASE timed out after 30 minutes in the NCCL watchdog on "
             "rank 9 and Ray reported the actor dead.",
             S0 + " § 按错误类型排查 (collective hang / timeout); public: hiyouga/LlamaFactory#7396",
             "job/ppo-openvla-1106", "rlark.run.nccl", last_stage="training-signal"),
    Scenario("rlark-hccl-socket-timeout", w_hccl_timeout,
             "On an Ascend 910B cluster the Megatron actor's HCCL communicator init failed with error code 7 and "
             "EI0006 'Getting socket times out'.",
             S0 + " § 按错误类型排查 (NCCL 初始化、socket、timeout); public: Ascend CANN EI0006 reports",
             "job/qwen-grpo-npu-1107", "rlark.run.nccl"),
    Scenario("rlark-hang-after-weight-sync", w_hang_after_sync,
             "After step 57 the actor logged an NCCL broadcast of weights to the rollout workers and then nothing "
             "for almost three hours; the pods are still Running.",
             S0 + " § 按错误类型排查 (collective hang)", "job/vla-dppo-1108", "rlark.run.nccl",
             last_stage="training-signal"),
    Scenario("rlark-cuda-oom-backward", w_cuda_oom,
             "In the second training step loss.backward() raised torch.OutOfMemoryError (CUDA out of memory, 3.91 GiB "
             "requested, 2.07 GiB free) and the Head container restarted.",
             "CONTRACT §4 rlark.run.device-oom (platform PyTorch)", "job/libero-grpo-1109", "rlark.run.device-oom"),
    Scenario("rlark-npu-oom-megatron", w_npu_oom,
             "A 7B GRPO run on Ascend 910B failed in the fourth step: 'NPU out of memory. Tried to allocate 2.44 GiB'.",
             "CONTRACT §4 rlark.run.device-oom (platform CANN); public: vllm-project/vllm-ascend#19",
             "job/qwen7b-grpo-npu-1110", "rlark.run.device-oom"),
    Scenario("rlark-worker-oomkilled", w_oomkilled,
             "Rollout worker 1 (96Gi memory limit) was OOMKilled by the kernel 13 minutes in and restarted; Ray "
             "marked its node dead.",
             S3 + " § 内存不足（OOMKilled）", "job/envsim-ppo-1111", "pod.run.oom-killed"),
    Scenario("rlark-ray-memory-monitor", w_ray_mem_killed,
             "With 4096 parallel environments, Ray's memory monitor killed an EnvWorker when node memory passed 95% "
             "and the driver failed with ray.exceptions.OutOfMemoryError.",
             "CONTRACT §4 rlark.ray.memory-killed (platform Ray); public: ray-project/ray#30312",
             "job/mlp-ppo-4096env-1112", "rlark.ray.memory-killed"),
    Scenario("rlark-object-store-full", w_object_store,
             "Video observations were put into the object store as 12 GiB objects; after some normal spilling the "
             "driver failed with ObjectStoreFullError.",
             "CONTRACT §4 rlark.ray.object-store-full (platform Ray)", "job/video-ppo-1113",
             "rlark.ray.object-store-full"),
    Scenario("rlark-flash-attn-undefined-symbol", w_import_error,
             "The prepare script upgrades torch to 2.7.0, so the prebuilt flash_attn extension no longer loads: "
             "ImportError ... undefined symbol, right after 'Executing run script...'.",
             S1 + " § 处理没有 RLinf 训练信号的任务; CONTRACT §4 rlark.run.import-error",
             "job/oft-finetune-1114", "rlark.run.import-error", last_stage="run-script"),
    Scenario("rlark-hydra-override-not-in-struct", w_hydra,
             "The run script overrides algorithm.rollout_micro_bsz, a key the config does not have; Hydra refuses "
             "('Key ... is not in struct') and no training signal ever appears.",
             S1 + " § 处理没有 RLinf 训练信号的任务", "job/ppo-microbsz-1115", "rlark.run.no-training-signal",
             last_stage="run-script"),
    Scenario("rlark-checkpoints-outside-mount", w_outputs_lost,
             "Training finished and saved its checkpoint to /workspace/outputs/..., while the only persistent mount "
             "is /mnt/ckpt; the checkpoint is lost with the container.",
             S1 + " § 处理没有持久输出的任务", "job/ppo-ckpt-1116", "rlark.run.no-persistent-output"),
    Scenario("rlark-franka-udp-timeout", w_robot,
             "A real-robot SAC run lost the Franka arm: libfranka 'UDP receive: Timeout', one failed reconnect, and "
             "the rollout was aborted mid-episode.",
             S0 + " § 按错误类型排查 (机器人 SDK、连接、超时或设备错误); " + S1 + " § 遇到高风险情况时停止操作",
             "job/franka-sac-real-1117", "rlark.run.robot-device"),
    Scenario("rlark-franka-reflex-then-nccl", w_robot_then_nccl,
             "The Franka arm stopped on a cartesian/joint reflex, the env worker blocked, and ten minutes later the "
             "actor's NCCL broadcast timed out. The robot fault must come first.",
             S0 + " § 按错误类型排查 (机器人); CONTRACT §3 (robot-device always ranks first)",
             "job/franka-peg-real-1118", "rlark.run.robot-device"),
    Scenario("rlark-hf-token-in-trace", w_cred_log,
             "The prepare script runs under set -x and exports a Hugging Face token, which bash echoes into the log; "
             "the job itself trains normally.",
             S0 + " § 创建器无法进入下一步或提交 (不要把凭据加入); " + S1 + " § 遇到高风险情况时停止操作",
             "job/pi0-sft-rl-1119", "rlark.risk.credentials-exposed"),
    Scenario("rlark-aws-keys-and-missing-module", w_cred_and_import,
             "AWS access keys are set as plain env values in the Job spec, and the run script fails at once with "
             "ModuleNotFoundError: simpler_env. The failure ranks first, the credential right after.",
             S1 + " § 处理没有 RLinf 训练信号的任务; CONTRACT §3 (credentials rank after the failure cause)",
             "job/bridge-s3-1120", "rlark.run.import-error", last_stage="run-script"),
]
