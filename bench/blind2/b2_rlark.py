# ruff: noqa: E501  (log and event text is quoted verbatim, one line per log line)
"""RLark job situations of the second blind set (failures)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import gen_k8s as k
import gen_logs as L
from b2_common import S0, S1, Scenario
from gen_k8s import NodeSpec, at, mins, sec
from gen_rlark import AgentSpec, Ev, JobSpec, PodSpec, TaskSpec, gpu_nodes, write_job_bundle

RUN = ("cd /workspace/RLinf && bash examples/embodiment/run_embodiment.sh maniskill_ppo_openvlaoft "
       "runner.logger.log_path=/data/tensorboard/${RLINF_JOB_NAME}")
NPU_IMG = "swr.cn-southwest-2.myhuaweicloud.com/rlinf/rlinf:reasoning-cann8.1-torch2.5-ray2.40"
NPU_PREP = "source /usr/local/Ascend/ascend-toolkit/set_env.sh && pip install -e /workspace/RLinf --no-deps -q"


def npu_nodes(n: int, prefix: str = "npu-b-910b", used: int = 0) -> list[NodeSpec]:
    return [NodeSpec(f"{prefix}-{i + 1:02d}", arch="arm64", ip=f"192.168.40.{31 + i}",
                     device=("huawei.com/Ascend910", 8), used_device=used, cpu="192", memory="1584313416Ki",
                     kernel="5.10.0-216.0.0.115.oe2203sp4.aarch64", os_image="openEuler 22.03 (LTS-SP4)",
                     labels={"rlinf.io/pool": "ascend-910b-math", "accelerator": "huawei-Ascend910",
                             "node.kubernetes.io/npu.chip.name": "910B2"}) for i in range(n)]


def run_begin(t: datetime, nodes: int, accel: int, cfg: str = "maniskill_ppo_openvlaoft") -> list[str]:
    return [
        "Using Python at /opt/conda/envs/rlinf/bin/python",
        L.ray_py(t, "INFO", "worker.py:1654", "Connecting to existing Ray cluster at address: 100.96.0.5:6379..."),
        L.ray_py(t, "INFO", "worker.py:1832", "Connected to Ray cluster."),
        L.rl(t + sec(2), "rlinf.scheduler.cluster", "INFO", f"Ray cluster has {nodes} nodes with {accel} accelerators in total"),
        L.rl(t + sec(4), "rlinf.utils.placement", "INFO", f"component placement (config {cfg}): actor=0-{accel - 1}, rollout=0-{accel - 1}, env=0-{accel - 1}"),
    ]


def job(name: str, c: datetime, cap: datetime, *, run: list[str] | None, workers: int = 2,
        worker_tail: dict[int, list[str]] | None = None, worker_exit: dict[int, int] | None = None,
        head_pod: dict[str, Any] | None = None, worker_pod: dict[int, dict[str, Any]] | None = None,
        head_log: dict[str, Any] | None = None, worker_log: dict[int, dict[str, Any]] | None = None,
        task: dict[str, Any] | None = None, wtask: dict[str, Any] | None = None,
        nodes: list[NodeSpec] | None = None, node_prefix: str = "gpu-a-node", agent: str = "gpu-a",
        domain: str | None = "embodied-lab", owner: str = "alice", phase: str = "Running",
        prepare: str = L.PIP_EDITABLE, accel: str = "GPU", gpus: int = 8, head_ip: str = "100.96.0.5") -> JobSpec:
    """A head (actor) plus `workers` rollout pods, each on its own node, with the wrapper's logs."""
    total = 1 + workers
    hk = {"t0": c + sec(75), "total": total, "host": f"{name}-actor-0", "prepare": prepare, "run": run,
          "gpus_per_node": gpus, "accel": accel, "ip": head_ip}
    hk.update(head_log or {})
    hhost = f"{name}-actor-0.{domain}" if domain else f"{name}-actor-ray-head"
    wpods = []
    for i in range(workers):
        ip = f"10.0.1.{12 + i}"
        wk: dict[str, Any] = {"rank": 1 + i, "head": hhost, "ip": ip, "prepare": prepare, "head_ip": head_ip,
                              "tail": (worker_tail or {}).get(i), "exit_code": (worker_exit or {}).get(i)}
        wk.update((worker_log or {}).get(i, {}))
        pk: dict[str, Any] = {"log": L.worker_log(**wk), "ip": ip}
        pk.update((worker_pod or {}).get(i, {}))
        wpods.append(PodSpec(i, f"{node_prefix}-{i + 2:02d}", **pk))
    hp: dict[str, Any] = {"log": L.head_log(**hk), "ip": "10.42.1.17"}
    hp.update(head_pod or {})
    tk: dict[str, Any] = {"run": RUN}
    tk.update(task or {})
    wt: dict[str, Any] = {k_: tk[k_] for k_ in ("image", "device", "selector", "env", "prepare") if k_ in tk}
    wt.update(wtask or {})
    tasks = [TaskSpec("actor", "Actor", head=True, pods=[PodSpec(0, f"{node_prefix}-01", **hp)], **tk)]
    if workers:
        tasks.append(TaskSpec("rollout", "Rollout", replicas=workers, pods=wpods, **wt))
    return JobSpec(name, c, cap, tasks=tasks, owner=owner, domain=domain, agent=agent, phase=phase,
                   agents={agent: AgentSpec(nodes or gpu_nodes(node_prefix, total + 1))})


def crashloop(t_end: datetime, code: int, restarts: int = 3) -> dict[str, Any]:
    return {"main": k.waiting("CrashLoopBackOff", 'back-off 2m40s restarting failed container=main pod=x'),
            "last": k.terminated("Error", code, t_end - sec(40), t_end), "restarts": restarts}


# ---------------------------------------------------------------- routing and scheduling

def w_selector_case(out: Path) -> None:
    c = at(2026, 12, 1, 2, 14)
    sel = {"rlinf.io/pool": "A800-Train"}
    j = JobSpec("octo-ppo-1201", c, c + mins(26), phase="Pending", domain="sim-team", owner="hanmei",
                tasks=[TaskSpec("actor", "Actor", head=True, selector=sel, run=RUN, agent="default", phase=None),
                       TaskSpec("rollout", "Rollout", replicas=2, selector=sel, agent="default", phase=None)],
                agents={"gpu-a": AgentSpec(gpu_nodes("gpu-a-node", 5))})
    write_job_bundle(j, out)


def w_cordoned_no_events(out: Path) -> None:
    c = at(2026, 12, 1, 3, 5)
    sel = {"rlinf.io/pool": "h20-train"}
    nodes = gpu_nodes("gpu-a-node", 4) + gpu_nodes("gpu-a-h20", 3, pool="h20-train", start_ip=61,
                                                   product="NVIDIA-H20", unschedulable=True,
                                                   not_ready_since=at(2026, 11, 30, 22, 40))
    pods = [PodSpec(0, None, phase="Pending", default_events=False)]
    wpods = [PodSpec(i, None, phase="Pending", default_events=False) for i in range(2)]
    j = JobSpec("pi0-h20-1201", c, c + mins(44), owner="guoqiang", domain="vla-team", phase="Pending",
                tasks=[TaskSpec("actor", "Actor", head=True, selector=sel, run=RUN, phase="Pending", pods=pods),
                       TaskSpec("rollout", "Rollout", replicas=2, selector=sel, phase="Pending", pods=wpods)],
                agents={"gpu-a": AgentSpec(nodes, events_collected=False)})
    write_job_bundle(j, out)


def w_npu_allocatable(out: Path) -> None:
    c = at(2026, 12, 1, 4, 30)
    sel = {"rlinf.io/pool": "ascend-910b-math"}
    nodes = npu_nodes(2, used=6)
    dev = ("huawei.com/Ascend910", 4)
    j = JobSpec("qwen-grpo-npu-1201", c, c + mins(38), owner="liuchang", domain="math-rl", phase="Pending",
                agent="npu-b",
                tasks=[TaskSpec("actor", "Actor", head=True, selector=sel, run=RUN, phase="Pending", image=NPU_IMG,
                                device=dev, prepare=NPU_PREP,
                                pods=[PodSpec(0, None, phase="Pending", default_events=False)]),
                       TaskSpec("rollout", "Rollout", replicas=1, selector=sel, phase="Pending", image=NPU_IMG,
                                device=dev, prepare=NPU_PREP,
                                pods=[PodSpec(0, None, phase="Pending", default_events=False)])],
                agents={"npu-b": AgentSpec(nodes, events_collected=False)})
    write_job_bundle(j, out)


def w_head_pending(out: Path) -> None:
    c = at(2026, 12, 1, 5, 10)
    name = "libero-ppo-1201"
    msg = ("0/5 nodes are available: 1 Insufficient nvidia.com/gpu, 4 node(s) didn't match Pod's node "
           "affinity/selector. preemption: 0/5 nodes are available: 1 No preemption victims found for incoming "
           "pod, 4 Preemption is not helpful for scheduling.")
    nodes = gpu_nodes("gpu-a-node", 5)
    nodes[0].used_device = 8
    hsel = {"rlinf.io/pool": "a800-train", "kubernetes.io/hostname": "gpu-a-node-01"}
    hhost = f"{name}-actor-0.libero-sim"
    wl = [L.worker_log(rank=1 + i, head=hhost, ip=f"10.0.1.{12 + i}", head_ip="", waits=64, reachable=False)
          for i in range(2)]
    j = JobSpec(name, c, c + mins(21), owner="zhouyu", domain="libero-sim", phase="Pending",
                tasks=[TaskSpec("actor", "Actor", head=True, selector=hsel, run=RUN, phase="Pending",
                                pods=[PodSpec(0, None, phase="Pending", sched_message=msg, default_events=False,
                                              mirror_message=msg,
                                              events=[Ev("FailedScheduling", msg, 2, 1230, 19, component="default-scheduler")])]),
                       TaskSpec("rollout", "Rollout", replicas=2, phase="Running",
                                pods=[PodSpec(i, f"gpu-a-node-{i + 2:02d}", log=wl[i], ip=f"10.0.1.{12 + i}")
                                      for i in range(2)])],
                agents={"gpu-a": AgentSpec(nodes)})
    write_job_bundle(j, out)


def w_pull_nxdomain(out: Path) -> None:
    c = at(2026, 12, 1, 6, 0)
    img = "harbor.rlinf-lab.internal/rlinf/rlinf:embodied-0.2.1-torch2.6"
    err = (f'Failed to pull image "{img}": rpc error: code = Unknown desc = failed to pull and unpack image '
           f'"{img}": failed to resolve reference "{img}": failed to do request: Head '
           '"https://harbor.rlinf-lab.internal/v2/rlinf/rlinf/manifests/embodied-0.2.1-torch2.6": dial tcp: '
           "lookup harbor.rlinf-lab.internal on 10.96.0.10:53: no such host")

    def pod(i: int, node: str) -> PodSpec:
        return PodSpec(i, node, phase="Pending",
                       main=k.waiting("ImagePullBackOff", f'Back-off pulling image "{img}"'),
                       mirror_message=f'Back-off pulling image "{img}"',
                       events=[Ev("Pulling", f'Pulling image "{img}"', 4, 610, 6, etype="Normal"),
                               Ev("Failed", err, 5, 611, 6), Ev("Failed", "Error: ErrImagePull", 5, 611, 6),
                               Ev("BackOff", f'Back-off pulling image "{img}"', 9, 700, 41, etype="Normal"),
                               Ev("Failed", "Error: ImagePullBackOff", 9, 700, 41)])
    j = JobSpec("bridge-ppo-1201", c, c + mins(12), owner="wuhao", domain="bridge", phase="Pending",
                tasks=[TaskSpec("actor", "Actor", head=True, image=img, run=RUN, phase="Pending",
                                pods=[pod(0, "gpu-a-node-01")]),
                       TaskSpec("rollout", "Rollout", replicas=1, image=img, phase="Pending",
                                pods=[pod(0, "gpu-a-node-02")])],
                agents={"gpu-a": AgentSpec(gpu_nodes("gpu-a-node", 3))})
    write_job_bundle(j, out)


def w_agent_offline_running(out: Path) -> None:
    c = at(2026, 12, 1, 7, 0)
    nodes = gpu_nodes("gpu-d-l20", 3, pool="l20-sim", start_ip=91, product="NVIDIA-L20", phase="Offline")
    sel = {"rlinf.io/pool": "l20-sim"}
    j = JobSpec("maniskill-ppo-1201", c, c + mins(190), agent="gpu-d", owner="qianlin", domain="sim-team",
                tasks=[TaskSpec("actor", "Actor", head=True, selector=sel, run=RUN, phase="Running",
                                pods=[PodSpec(0, "gpu-d-l20-01")]),
                       TaskSpec("rollout", "Rollout", replicas=2, selector=sel, phase="Running",
                                pods=[PodSpec(i, f"gpu-d-l20-{i + 2:02d}") for i in range(2)])],
                agents={"gpu-d": AgentSpec(nodes, lease_age=mins(27).total_seconds(), member=False)})
    write_job_bundle(j, out)


# ---------------------------------------------------------------- wrapper stages

def w_prepare_perm_zh(out: Path) -> None:
    c = at(2026, 12, 1, 8, 0)
    name = "dexvla-sft-1201"
    prep = "/mnt/nas/envs/setup_rlinf.sh && pip install -e /workspace/RLinf --no-deps -q"
    err = "/rlark/scripts/ray_head.sh: 第 43 行: /mnt/nas/envs/setup_rlinf.sh: 权限不够"
    werr = "/rlark/scripts/ray_worker.sh: 第 38 行: /mnt/nas/envs/setup_rlinf.sh: 权限不够"
    head = "\n".join(["RLINF_NODE_RANK: 0", "rlark-sshd started on port 22", "Executing prepare script...", err])
    wlog = "\n".join(["RLINF_NODE_RANK: 1", "SSH public key injected into authorized_keys", "Executing prepare script...", werr])
    env = [{"name": "LANG", "value": "zh_CN.UTF-8"}, {"name": "LC_ALL", "value": "zh_CN.UTF-8"}]
    mounts = [{"name": "nas", "mountPath": "/mnt/nas"}]
    vols = [{"name": "nas", "persistentVolumeClaim": {"claimName": f"{name}-nas"}}]
    cap = c + mins(9)
    hp = crashloop(cap - mins(1), 126, restarts=4)
    wp = crashloop(cap - mins(2), 126, restarts=4)
    j = JobSpec(name, c, cap, owner="fengyi", domain="dex-lab",
                tasks=[TaskSpec("actor", "Actor", head=True, run=RUN, prepare=prep, env=env, mounts=mounts,
                                volumes=vols, pods=[PodSpec(0, "gpu-a-node-01", log=head, prev_log=head, **hp,
                                                            events=[Ev("BackOff", "Back-off restarting failed container main in pod " + f"{name}-actor-0_rlark-system", 120, 500, 18)])]),
                       TaskSpec("rollout", "Rollout", replicas=1, prepare=prep, env=env, mounts=mounts, volumes=vols,
                                pods=[PodSpec(0, "gpu-a-node-02", log=wlog, prev_log=wlog, **wp)])],
                agents={"gpu-a": AgentSpec(gpu_nodes("gpu-a-node", 3))})
    write_job_bundle(j, out)


# ---------------------------------------------------------------- run-time failures

def w_hccl_ei0002(out: Path) -> None:
    c = at(2026, 12, 2, 10, 0)
    t = c + mins(4)
    pre = "(MegatronActor pid=20417, ip=192.168.40.32)"
    run = [*run_begin(t, 2, 16, cfg="qwen2.5-7b-grpo-megatron"),
           *[f"Global Step: {p}" for p in ("  6%|6         | 1/17 [01:52<29:55, 112.2s/it]", " 12%|#1        | 2/17 [03:41<27:41, 110.7s/it]")],
           L.rl(t + mins(4), "rlinf.runners.reasoning_runner", "INFO", "step 2: rollout/reward_mean=0.3125 actor/pg_loss=0.0141 actor/grad_norm=0.377"),
           f"{pre} [rank9]:[E1202 10:38:12.902137] [PG ID 2 PG GUID 2(default_pg) Rank 9] HCCL ProcessGroup watchdog caught collective operation timeout",
           f"{pre} EI0002: [PID: 20417] 2026-12-02-10:38:12.884.310 The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [3].base information: [streamID:[7], taskID[41], taskType[Notify Wait], tag[AllReduce_192.168.40.31%eth0_60000_0_1733135001451]]. task information: ",
           f"{pre}         Solution: 1. Check the rank service processes with other errors or no errors in the cluster.2. If this error is reported for all NPUs, check whether the time difference between the earliest and latest errors is greater than the connect timeout interval (120s by default). If so, adjust the timeout interval by using the HCCL_CONNECT_TIMEOUT environment variable.3. Check the connectivity of the communication link between nodes. (For details, see the TLS command and HCCN connectivity check examples.). For details:https://www.hiascend.com/document",
           f"{pre}         TraceBack (most recent call last):",
           f"{pre}         The error from device(chipId:1, dieId:0), serial number is 12, event wait timeout occurred during task execution, stream_id:7, sq_id:7, task_id:41, event_id=0, timeout=1868.[FUNC:ProcessStarsWaitTimeoutErrorInfo][FILE:device_error_proc.cc][LINE:1440]",
           f"{pre} RuntimeError: ACL stream synchronize failed, error code:507048",
           "ray.exceptions.RayTaskError(RuntimeError): ray::MegatronActor.run_training() (pid=20417, ip=192.168.40.32, actor_id=7c0f1e9b42d5a81f3e6b0c2d01000000, repr=<rlinf.workers.actor.megatron_actor_worker.MegatronActor object at 0xfffd1c2b6a90>)",
           "RuntimeError: ACL stream synchronize failed, error code:507048"]
    nodes = npu_nodes(3)
    j = job("qwen-grpo-npu-1202", c, c + mins(42), run=run, workers=1, nodes=nodes, node_prefix="npu-b-910b",
            agent="npu-b", domain="math-rl", owner="liuchang", accel="NPU", gpus=8, prepare=L.PIP_NPU,
            head_ip="192.168.40.31",
            task={"image": NPU_IMG, "device": ("huawei.com/Ascend910", 8), "selector": {"rlinf.io/pool": "ascend-910b-math"},
                  "prepare": NPU_PREP})
    write_job_bundle(j, out)


def w_nccl_ib(out: Path) -> None:
    c = at(2026, 12, 2, 11, 0)
    t = c + mins(3)
    pre = "(EmbodiedFSDPActor pid=7731, ip=10.0.1.13)"
    tail = [f"{pre} gpu-a-node-03:7731:8120 [5] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB eth0:10.0.1.13<0>",
            f"{pre} gpu-a-node-03:7731:8391 [5] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.0.1.12<47213> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.0.1.13 remoteGids::ffff:10.0.1.12",
            f"{pre} gpu-a-node-03:7731:8391 [5] NCCL INFO transport/net.cc:1302 -> 6",
            f"{pre} gpu-a-node-03:7731:8391 [5] NCCL INFO proxy.cc:698 -> 6 [Progress Thread]",
            f"{pre} [rank21]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, remote process exited or there was a network error, NCCL version 2.21.5",
            f"{pre} [rank21]: ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
            f"{pre} [rank21]: Last error:",
            f"{pre} [rank21]: NET/IB : Got completion from peer 10.0.1.12<47213> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.0.1.13 remoteGids::ffff:10.0.1.12"]
    run = [*run_begin(t, 3, 24), *L.progress(t, 1, 55, 800, 38.0),
           L.rl(t + mins(36), "rlinf.runners.embodied_runner", "ERROR", "actor group failed during run_training: DistBackendError on rank 21 (EmbodiedFSDPActor, 10.0.1.13)"),
           "ray.exceptions.RayTaskError(DistBackendError): ray::EmbodiedFSDPActor.run_training() (pid=7731, ip=10.0.1.13)"]
    j = job("openvla-ppo-1202", c, c + mins(41), run=run, worker_tail={1: tail}, owner="tangli")
    write_job_bundle(j, out)


def w_hang_silent(out: Path) -> None:
    c = at(2026, 12, 2, 12, 0)
    t = c + mins(3)
    run = [*run_begin(t, 3, 24)]
    for i in range(1, 89):
        run += L.progress(t, i, i, 1000, 41.0)
        if i % 20 == 0:
            run.append(L.rl(t + sec(41 * i), "rlinf.runners.embodied_runner", "INFO",
                            f"step {i}: rollout/success_rate={0.04 + 0.002 * i:.3f} time/step=41.0s"))
    last = t + sec(41 * 88)
    run.append(L.rl(last + sec(2), "rlinf.runners.embodied_runner", "INFO", "syncing actor weights to rollout workers (step 88)"))
    j = job("ppo-pegins-1202", c, last + mins(131), run=run, owner="yangfan")
    write_job_bundle(j, out)


def w_worker_recreated(out: Path) -> None:
    c = at(2026, 12, 2, 13, 0)
    name = "ppo-drawer-1202"
    t = c + mins(3)
    gone_at = t + mins(29)
    run = [*run_begin(t, 3, 24), *L.progress(t, 1, 40, 600, 42.0),
           L.ray_py(gone_at, "WARNING", "worker.py:2380", "The node with node id: 3f1b5e0c8d2a47e1b96c0a4f5d7e1c2b3a4f5e6d7c8b9a0f1e2d3c4b and address: 10.0.1.13 and node name: 10.0.1.13 has been marked dead because the detector has missed too many heartbeats from it. This can happen when a \t(1) raylet crashes unexpectedly (OOM, etc.) \n\t(2) raylet has lagging heartbeats due to slow network or busy workload."),
           "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.",
           "\tclass_name: EnvWorker",
           "\tactor_id: 9e2c7a1f0b3d5e8c4a6f1d2b01000000",
           "\tpid: 5120",
           "\tnamespace: 1c4e8a2d-7b3f-4e91-a5c6-0d2f8b1e3a7c",
           "\tip: 10.0.1.13",
           "The actor is dead because its node has died. Node Id: 3f1b5e0c8d2a47e1b96c0a4f5d7e1c2b3a4f5e6d7c8b9a0f1e2d3c4b"]
    hhost = f"{name}-actor-0.embodied-lab"
    newlog = L.worker_log(rank=2, head=hhost, ip="10.42.9.31", waits=1)
    recreated = 60 + mins(36).total_seconds()
    ev_old = [k.event("Pod", "rlark-system", f"{name}-rollout-1", k.uid("pod", name, "rollout", "1", "first"),
                      "NodeNotReady", "Node is not ready", gone_at - sec(38), etype="Warning", component="node-controller"),
              k.event("Pod", "rlark-system", f"{name}-rollout-1", k.uid("pod", name, "rollout", "1", "first"),
                      "TaintManagerEviction", f"Marking for deletion Pod rlark-system/{name}-rollout-1", gone_at + mins(5),
                      etype="Normal", component="taint-eviction-controller")]
    nodes = gpu_nodes("gpu-a-node", 5)
    j = job(name, c, c + mins(47), run=run, owner="baijing",
            worker_pod={1: {"log": newlog, "ip": "10.42.9.31", "created": recreated,
                            "uid_seed": "second",
                            "history": [("first", "10.0.1.13", "gpu-a-node-03", "Failed", 50.0)]}},
            nodes=nodes)
    j.tasks[1].pods[1].node = "gpu-a-node-05"
    j.agents["gpu-a"].extra_events = ev_old
    write_job_bundle(j, out)


def w_numpy_abi(out: Path) -> None:
    c = at(2026, 12, 2, 14, 0)
    t = c + mins(3)
    run = ["Using Python at /opt/conda/envs/rlinf/bin/python",
           "",
           "A module that was compiled using NumPy 1.x cannot be run in",
           "NumPy 2.1.3 as it may crash. To support both 1.x and 2.x",
           "versions of NumPy, modules must be compiled with NumPy 2.0.",
           "Some module may need to rebuild instead e.g. with 'pybind11>=2.12'.",
           "",
           "If you are a user of the module, the easiest solution will be to",
           "downgrade to 'numpy<2' or try to upgrade the affected module.",
           "We expect that some modules will need time to support NumPy 2.",
           "",
           "Traceback (most recent call last):",
           '  File "/workspace/RLinf/examples/embodiment/train_embodied_agent.py", line 19, in <module>',
           "    from rlinf.envs.maniskill import ManiSkillEnv",
           '  File "/workspace/RLinf/rlinf/envs/maniskill/__init__.py", line 3, in <module>',
           "    import mani_skill.envs",
           '  File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/mani_skill/envs/__init__.py", line 1, in <module>',
           "    import sapien",
           '  File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/sapien/__init__.py", line 6, in <module>',
           "    from . import pysapien",
           "AttributeError: _ARRAY_API not found",
           "Traceback (most recent call last):",
           '  File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/sapien/__init__.py", line 6, in <module>',
           "    from . import pysapien",
           "ImportError: numpy.core.multiarray failed to import"]
    prep = L.PIP_EDITABLE + "\nCollecting numpy>=2.0\n  Downloading numpy-2.1.3-cp310-cp310-manylinux_2_17_x86_64.manylinux2014_x86_64.whl (16.3 MB)\nSuccessfully installed numpy-2.1.3"
    cap = c + mins(14)
    j = job("maniskill-grpo-1202", c, cap, run=run, owner="dengke", prepare=prep,
            head_pod=crashloop(cap - mins(1), 1, restarts=3), head_log={"t0": t - mins(2)})
    j.tasks[0].pods[0].prev_log = j.tasks[0].pods[0].log
    write_job_bundle(j, out)


def w_hydra_missing(out: Path) -> None:
    c = at(2026, 12, 2, 15, 0)
    run = ["Using Python at /opt/conda/envs/rlinf/bin/python",
           "Cannot find primary config 'maniskill_ppo_openvla_oft'. Check that it's in your config search path.",
           "",
           "Config search path:",
           "\tprovider=hydra, path=pkg://hydra.conf",
           "\tprovider=main, path=file:///workspace/RLinf/examples/embodiment/config",
           "\tprovider=schema, path=structured://",
           "",
           "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace."]
    runscript = "cd /workspace/RLinf && bash examples/embodiment/run_embodiment.sh maniskill_ppo_openvla_oft"
    cap = c + mins(11)
    j = job("openvla-oft-ppo-1202", c, cap, run=run, owner="xiaoyu", task={"run": runscript},
            head_pod=crashloop(cap - mins(1), 1, restarts=2))
    j.tasks[0].pods[0].prev_log = j.tasks[0].pods[0].log
    write_job_bundle(j, out)


def w_robot_serial(out: Path) -> None:
    c = at(2026, 12, 2, 16, 0)
    t = c + mins(3)
    pre = "(RealWorldEnvWorker pid=2286, ip=10.0.1.12)"
    run = [*run_begin(t, 2, 9, cfg="realworld_piper_sac"),
           f"{pre} [piper] CAN bus can0 up, arm enabled, joint limits loaded",
           f"{pre} [gripper] opening Dynamixel port /dev/ttyUSB0 @ 57600 baud",
           f"{pre} Traceback (most recent call last):",
           f'{pre}   File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/serial/serialposix.py", line 322, in open',
           f"{pre}     self.fd = os.open(self.portstr, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)",
           f"{pre} FileNotFoundError: [Errno 2] No such file or directory: '/dev/ttyUSB0'",
           f"{pre} During handling of the above exception, another exception occurred:",
           f"{pre} serial.serialutil.SerialException: [Errno 2] could not open port /dev/ttyUSB0: [Errno 2] No such file or directory: '/dev/ttyUSB0'",
           "ray.exceptions.RayTaskError(SerialException): ray::RealWorldEnvWorker.reset() (pid=2286, ip=10.0.1.12)",
           L.rl(t + sec(40), "rlinf.runners.realworld_runner", "ERROR", "env reset failed on 1/1 robots; arm state: enabled, last command: hold position")]
    j = job("piper-sac-real-1202", c, c + mins(6), run=run, workers=1, owner="majun", domain="real-robot",
            task={"device": ("nvidia.com/gpu", 1)})
    write_job_bundle(j, out)


def w_cred_prepare(out: Path) -> None:
    c = at(2026, 12, 2, 17, 0)
    t = c + mins(3)
    prep = ("git clone https://oauth2:glpat-Xq8vR2mZ4kT7nB1wY6pL@gitlab.rlinf-lab.internal/embodied/rlinf-ext.git "
            "/workspace/rlinf-ext && pip install -e /workspace/rlinf-ext --no-deps -q && " + "source /opt/conda/bin/activate rlinf")
    plog = "Cloning into '/workspace/rlinf-ext'...\n" + L.PIP_EDITABLE
    run = [*run_begin(t, 3, 24), *L.progress(t, 1, 25, 500, 40.0)]
    j = job("ppo-ext-1202", c, c + mins(22), run=run, owner="sunhao", prepare=plog, task={"prepare": prep})
    write_job_bundle(j, out)


def w_worker_segv_zh(out: Path) -> None:
    c = at(2026, 12, 2, 18, 0)
    t = c + mins(3)
    run = [*run_begin(t, 3, 24), *L.progress(t, 1, 18, 500, 44.0)]
    tail = ["/rlark/scripts/ray_worker.sh: 第 57 行:   318 段错误               (核心已转储) ray start --address=ppo-wipe-1202-actor-0.embodied-lab:6379 --block"]
    cap = c + mins(19)
    j = job("ppo-wipe-1202", c, cap, run=run, owner="zhuwen", worker_tail={0: tail}, worker_exit={0: 139},
            worker_pod={0: {"main": k.terminated("Completed", 0, c + mins(1), cap - mins(2))}},
            task={"env": [{"name": "LANG", "value": "zh_CN.UTF-8"}]})
    write_job_bundle(j, out)


def w_ckpt_copy_enospc_zh(out: Path) -> None:
    c = at(2026, 12, 3, 1, 0)
    t = c + mins(3)
    runscript = (RUN + " && cp -r /workspace/RLinf/logs/ppo-cabinet-1203/checkpoints /mnt/nas/ckpt/ppo-cabinet-1203")
    run = [*run_begin(t, 3, 24), *L.progress(t, 1, 30, 30, 40.0),
           L.rl(t + mins(21), "rlinf.runners.embodied_runner", "INFO", "training finished at step 30; saving checkpoint"),
           "cp: 写入 '/mnt/nas/ckpt/ppo-cabinet-1203/checkpoints/global_step_30/actor/model-00003-of-00004.safetensors' 出错: 设备上没有空间",
           "cp: 无法创建目录 '/mnt/nas/ckpt/ppo-cabinet-1203/checkpoints/global_step_30/rollout': 设备上没有空间"]
    env = [{"name": "LANG", "value": "zh_CN.UTF-8"}]
    mounts = [{"name": "nas", "mountPath": "/mnt/nas"}]
    vols = [{"name": "nas", "persistentVolumeClaim": {"claimName": "ppo-cabinet-1203-nas"}}]
    j = job("ppo-cabinet-1203", c, c + mins(26), run=run, owner="chenhui",
            task={"run": runscript, "env": env, "mounts": mounts, "volumes": vols})
    write_job_bundle(j, out)


def w_nccl_shm(out: Path) -> None:
    c = at(2026, 12, 3, 2, 0)
    t = c + mins(3)
    pre = "(EmbodiedFSDPActor pid=3350, ip=10.0.1.12)"
    tail = [f"{pre} gpu-a-node-02:3350:3611 [2] NCCL INFO Channel 00/0 : 2[2] -> 3[3] via SHM/direct/direct",
            f"{pre} gpu-a-node-02:3350:3611 [2] misc/shmutils.cc:88 NCCL WARN Error: failed to extend /dev/shm/nccl-Qw3xKp to 9637892 bytes, error: No space left on device (28)",
            f"{pre} gpu-a-node-02:3350:3611 [2] misc/shmutils.cc:132 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-Qw3xKp (size 9637888), error: No space left on device (28)",
            f"{pre} gpu-a-node-02:3350:3611 [2] NCCL INFO transport/shm.cc:551 -> 2",
            f"{pre} [rank10]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5",
            f"{pre} [rank10]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. ",
            f"{pre} [rank10]: Last error:",
            f"{pre} [rank10]: Error while creating shared memory segment /dev/shm/nccl-Qw3xKp (size 9637888), error: No space left on device (28)"]
    run = [*run_begin(t, 3, 24),
           L.rl(t + sec(30), "rlinf.workers.actor.fsdp_actor_worker", "INFO", "initializing process group (backend=nccl, world_size=24)"),
           "ray.exceptions.RayTaskError(DistBackendError): ray::EmbodiedFSDPActor.init_worker() (pid=3350, ip=10.0.1.12)"]
    j = job("ppo-stack-1203", c, c + mins(8), run=run, worker_tail={0: tail}, owner="lujia")
    write_job_bundle(j, out)


def w_outputs_in_container(out: Path) -> None:
    c = at(2026, 12, 3, 3, 0)
    t = c + mins(3)
    runscript = RUN + " runner.output_dir=/root/rlinf_out/${RLINF_JOB_NAME}"
    run = [*run_begin(t, 3, 24), *L.progress(t, 1, 100, 400, 40.0),
           L.rl(t + sec(4001), "rlinf.utils.checkpoint", "INFO", "Saving checkpoint to /root/rlinf_out/ppo-pour-1203/checkpoints/global_step_100"),
           L.rl(t + sec(4040), "rlinf.utils.checkpoint", "INFO", "Checkpoint saved: /root/rlinf_out/ppo-pour-1203/checkpoints/global_step_100 (actor 13.6 GB, optimizer 27.1 GB)"),
           *L.progress(t, 101, 104, 400, 40.0)]
    mounts = [{"name": "results", "mountPath": "/data/results"}]
    vols = [{"name": "results", "persistentVolumeClaim": {"claimName": "ppo-pour-1203-results"}}]
    j = job("ppo-pour-1203", c, c + mins(75), run=run, owner="heyan",
            task={"run": runscript, "mounts": mounts, "volumes": vols, "pvc_map": {"results": "rclone-oss"}})
    write_job_bundle(j, out)



def rotated(t: datetime, first: int, last: int, total: int) -> list[str]:
    """A head log that kubelet rotated: it starts mid-training, without any wrapper marker."""
    out = ["it/s, rollout/rewards=0.612, train/actor/policy_loss=-0.0043, train/actor/grad_norm=0.412]"]
    for i in range(first, last + 1):
        pct = 100 * i // total
        el, rest = 40 * i, 40 * (total - i)
        out.append(f"Global Step: {pct:3d}%|{'#' * (pct // 10):<10}| {i}/{total} [{el // 3600}:{el // 60 % 60:02d}:{el % 60:02d}"
                   f"<{rest // 3600}:{rest // 60 % 60:02d}:{rest % 60:02d}, 40.00s/it, rollout/rewards={0.55 + 0.00002 * i:.3f}, "
                   f"train/actor/policy_loss={-0.004 - 0.000001 * i:.4f}, train/actor/grad_norm={0.41 - 0.00001 * i:.3f}]")
        if i % 25 == 0:
            out.append(L.rl(t + sec(40 * (i - first)), "rlinf.runners.embodied_runner", "INFO",
                            f"step {i}: rollout/success_rate={0.55 + 0.0001 * i:.3f} time/step=40.1s"))
    return out


def w_rotated_oom(out: Path) -> None:
    c = at(2026, 12, 3, 4, 0)
    t = c + mins(60 * 26)
    pre = "(VLLMRolloutWorker pid=4127, ip=10.42.1.17)"
    log = [*rotated(t, 2301, 2350, 3000),
           f"{pre} ERROR 12-04 06:34:12 [core.py:405] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.52 GiB. GPU 3 has a total capacity of 79.33 GiB of which 2.91 GiB is free. Including non-PyTorch memory, this process has 76.41 GiB memory in use. Of the allocated memory 71.02 GiB is allocated by PyTorch, and 4.12 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)",
           "ray.exceptions.RayTaskError(OutOfMemoryError): ray::VLLMRolloutWorker.generate() (pid=4127, ip=10.42.1.17)",
           L.rl(t + sec(40 * 50 + 12), "rlinf.runners.embodied_runner", "ERROR", "rollout group failed at step 2351; stopping")]
    j = job("ppo-longrun-1203", c, t + sec(40 * 50 + 300), run=[], owner="songyi",
            head_pod={"log": "\n".join(log)})
    write_job_bundle(j, out)


SCENARIOS = [
    Scenario("rlark-selector-value-wrong-case", "rlark", w_selector_case,
             "Both Tasks select rlinf.io/pool=A800-Train; the Nodes carry a800-train (label values are case-sensitive), so the Tasks sit in namespace default with no phase, 26 minutes on.",
             S0 + " § 尚未出现 Worker (核对 Task 的 nodeSelector; 选择器…落到默认命名空间); CONTRACT §1 tasks.rlinf.io default namespace",
             "job/octo-ppo-1201", "rlark.task.unrouted", last_stage="task-created"),
    Scenario("rlark-cordoned-no-events", "rlark", w_cordoned_no_events,
             "Pods Pending for 44 minutes with no scheduler message and no events collected; the only Nodes matching the selector are cordoned (spec.unschedulable and the unschedulable taint).",
             S0 + " § 尚未出现 Worker (匹配节点是否为 Online 且没有被标记为不可调度)",
             "job/pi0-h20-1201", "pod.schedule.node-unschedulable", last_stage="pod-created"),
    Scenario("rlark-npu-allocatable-used", "rlark", w_npu_allocatable,
             "Ascend job asking 4 NPUs per pod; both matching Nodes have 8 allocatable with 6 already used. Pods Pending 38 minutes, no events and no scheduler message: only allocatable-used explains it.",
             S0 + " § 已出现 Worker，但仍为 Pending (节点是否有足够的 CPU、内存和 GPU 可分配资源; 不要把 Online 当作资源充足)",
             "job/qwen-grpo-npu-1201", "pod.schedule.insufficient-resources", last_stage="pod-created"),
    Scenario("rlark-head-unschedulable-workers-wait", "rlark", w_head_pending,
             "The Head's selector pins one node whose 8 GPUs are all used: the Head pod is Pending (Insufficient nvidia.com/gpu) while both workers repeat 'Waiting for head to be reachable' 64 times.",
             S0 + " § 已出现 Worker，但仍为 Pending (节点是否有足够的 GPU); § Ray 初始化或组网失败 (检查 Head Pod… 不要只重启 Worker)",
             "job/libero-ppo-1201", "pod.schedule.insufficient-resources"),
    Scenario("rlark-image-registry-nxdomain", "rlark", w_pull_nxdomain,
             "ImagePullBackOff on every pod: the member cluster cannot resolve the private registry (lookup harbor.rlinf-lab.internal: no such host).",
             S0 + " § 按错误类型排查 (镜像拉取…目标集群网络); § 尚未出现 Worker (核对镜像名称、拉取权限和目标集群的网络连通性)",
             "job/bridge-ppo-1201", "pod.image.pull-failed", last_stage="scheduled"),
    Scenario("rlark-agent-offline-mid-run", "rlark", w_agent_offline_running,
             "A job that was Running for three hours: its cluster's heartbeat Lease was last renewed 27 minutes ago, its Nodes are Offline and the member cluster could not be collected.",
             S0 + " § 尚未出现 Worker (检查角色选择的集群是否仍在线); § Job 与 Worker 状态不一致 (数据面 Agent 重连); CONTRACT §1 Lease heartbeat",
             "job/maniskill-ppo-1201", "rlark.agent.disconnected"),
    Scenario("rlark-prepare-permission-zh", "rlark", w_prepare_perm_zh,
             "The prepare script runs a setup script on the NAS that is not executable; bash (zh_CN) prints 权限不够 right after 'Executing prepare script...' and every pod crash-loops with exit 126.",
             S0 + " § Ray 初始化或组网失败 (角色准备脚本: 修复镜像、命令、路径或权限)",
             "job/dexvla-sft-1201", "rlark.ray.prepare-failed", last_stage="prepare-script"),
    Scenario("rlark-hccl-ei0002-notify-timeout", "rlark", w_hccl_ei0002,
             "Ascend GRPO run after two steps: the HCCL watchdog reports a collective timeout, EI0002 'The wait execution of the Notify register times out' on AllReduce, then ACL stream synchronize failed 507048.",
             S0 + " § 按错误类型排查 (NCCL 初始化、socket、timeout 或 collective hang); public: Ascend CANN EI0002 reports (HCCL_EXEC_TIMEOUT)",
             "job/qwen-grpo-npu-1202", "rlark.run.nccl", last_stage="training-signal"),
    Scenario("rlark-nccl-ib-completion-error", "rlark", w_nccl_ib,
             "At step 55 one worker's NCCL reports 'NET/IB : Got completion from peer … status=12 … vendor err 129' and ncclRemoteError; the head shows the actor group failing.",
             S0 + " § 按错误类型排查 (NCCL…网卡和跨节点网络); public: NVIDIA/nccl#1405, NVIDIA/nccl#1814",
             "job/openvla-ppo-1202", "rlark.run.nccl", last_stage="training-signal"),
    Scenario("rlark-hang-no-culprit-line", "rlark", w_hang_silent,
             "Training reached step 88, logged 'syncing actor weights to rollout workers', and printed nothing for 131 minutes; every pod is Running and no log holds an error line.",
             S0 + " § 按错误类型排查 (collective hang → 先确认全部 Ray Worker 已加入，再核对通信网卡): the only hang the seeds name for a training job",
             "job/ppo-pegins-1202", "rlark.run.nccl", last_stage="training-signal"),
    Scenario("rlark-worker-recreated-after-reboot", "rlark", w_worker_recreated,
             "A node rebooted mid-run: Ray marked the worker's node dead (missed heartbeats) and the EnvWorker actor died; rollout-1 was recreated on another node with a new IP, so the Pod mirrors show one worker name with two pods.",
             S0 + " § 停止后仍看到 Worker (同名 Worker 同时出现多个 IP 或状态时…查询数据面 Pod UID 和事件)",
             "job/ppo-drawer-1202", "rlark.worker.replaced"),
    Scenario("rlark-numpy2-abi-import", "rlark", w_numpy_abi,
             "The prepare script pulled numpy 2.1.3; the run script's import of sapien fails ('compiled using NumPy 1.x', _ARRAY_API not found, ImportError: numpy.core.multiarray failed to import) and the Head crash-loops.",
             S1 + " § 处理没有 RLinf 训练信号的任务; CONTRACT §4 rlark.run.import-error",
             "job/maniskill-grpo-1202", "rlark.run.import-error", last_stage="run-script"),
    Scenario("rlark-hydra-primary-config-missing", "rlark", w_hydra_missing,
             "The run script names a Hydra config that does not exist (maniskill_ppo_openvla_oft): 'Cannot find primary config … Check that it's in your config search path.'",
             S1 + " § 处理没有 RLinf 训练信号的任务 (运行脚本、Hydra 配置与 override)",
             "job/openvla-oft-ppo-1202", "rlark.run.no-training-signal", last_stage="run-script"),
    Scenario("rlark-robot-gripper-port-missing", "rlark", w_robot_serial,
             "A real-robot SAC job: the arm is enabled but the gripper's serial port /dev/ttyUSB0 cannot be opened (SerialException, Errno 2); env reset failed with the arm holding position.",
             S0 + " § 按错误类型排查 (机器人 SDK、连接、超时或设备错误: 停止自动重试，通知现场操作员); S1 § 遇到高风险情况时停止操作; CONTRACT §3 (robot-device ranks first)",
             "job/piper-sac-real-1202", "rlark.run.robot-device"),
    Scenario("rlark-gitlab-token-in-prepare", "rlark", w_cred_prepare,
             "A healthy run at step 25 whose prepareScript clones a repository with a GitLab personal access token in the URL (oauth2:glpat-…@).",
             S0 + " § 创建器无法进入下一步或提交 (不要把…凭据加入); S1 § 遇到高风险情况时停止操作 (YAML 中出现凭据); CONTRACT §3 (credentials first when no failure matched)",
             "job/ppo-ext-1202", "rlark.risk.credentials-exposed", last_stage="training-signal"),
    Scenario("rlark-worker-raylet-segfault-zh", "rlark", w_worker_segv_zh,
             "One worker's ray start dies with 段错误 (核心已转储) (zh_CN bash) and the wrapper prints 'Ray worker process exited with code 139', then the container exits 0 (Completed).",
             S0 + " § 检查日志中的 Worker 退出码 (退出码非零时，应按失败处理)",
             "job/ppo-wipe-1202", "rlark.ray.worker-exit-nonzero"),
    Scenario("rlark-checkpoint-copy-no-space-zh", "rlark", w_ckpt_copy_enospc_zh,
             "Training finished; the run script's cp of the checkpoints to the NAS mount fails in zh_CN: 写入 … 出错: 设备上没有空间.",
             "CONTRACT §4 pod.run.disk-full (ENOSPC, not /dev/shm); " + S0 + " § 按错误类型排查 (No space left on device)",
             "job/ppo-cabinet-1203", "pod.run.disk-full", last_stage="training-signal"),
    Scenario("rlark-nccl-dev-shm-full", "rlark", w_nccl_shm,
             "NCCL init fails on a worker: 'failed to extend /dev/shm/nccl-… No space left on device (28)', 'Error while creating shared memory segment', ncclSystemError.",
             S0 + " § 按错误类型排查 (/dev/shm 或 shared-memory 错误: 创建器不能配置 /dev/shm); public: NVIDIA/nccl#525, pytorch/ci-infra#490",
             "job/ppo-stack-1203", "pod.run.shm-exhausted", also=["rlark.run.nccl"]),
    Scenario("rlark-checkpoints-in-container-fs", "rlark", w_outputs_in_container,
             "Training is healthy at step 104 and saved a 40 GB checkpoint to /root/rlinf_out/…; the only mount is /data/results.",
             S1 + " § 处理没有持久输出的任务 (容器文件系统…都不会保存为预期输出)",
             "job/ppo-pour-1203", "rlark.run.no-persistent-output", last_stage="training-signal"),
    Scenario("rlark-rotated-log-cuda-oom", "rlark", w_rotated_oom,
             "A 26-hour run whose Head log was rotated: it starts mid-progress-bar at step 2301 with no wrapper marker, then the vLLM rollout worker hits torch.OutOfMemoryError (CUDA out of memory, 3.52 GiB) at step 2351.",
             "CONTRACT §4 rlark.run.device-oom (device memory exhausted in the run script, not a host OOMKill); " + S0 + " § Worker 异常或日志显示进程失败 (区分失败发生在…Head Task 的运行命令)",
             "job/ppo-longrun-1203", "rlark.run.device-oom", last_stage="training-signal"),
]
