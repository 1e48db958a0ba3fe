# ruff: noqa: E501  (log and event text is quoted verbatim, one line per log line)
"""RLark job scenarios, part 1: routing, scheduling, images, wrapper stages."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import gen_logs as L
from gen_k8s import NodeSpec, Scenario, at, mins, sec
from gen_rlark import AgentSpec, Ev, JobSpec, PodSpec, TaskSpec, gpu_nodes, write_job_bundle

S0 = "seeds/000_cc0ff76fc137d550.txt (RLark 训练任务与 Worker 排障)"
S1 = "seeds/001_133afc7681d5fa58.txt (RLark 首次运行问题排查)"

RUN = ("cd /workspace/RLinf && bash examples/embodiment/run_embodiment.sh maniskill_ppo_openvlaoft "
       "runner.logger.log_path=/data/tensorboard/${RLINF_JOB_NAME}")


def run_start(t: datetime, nodes: int, accel: int, cfg: str = "maniskill_ppo_openvlaoft") -> list[str]:
    return [
        "Using Python at /opt/conda/envs/rlinf/bin/python",
        L.ray_py(t, "INFO", "worker.py:1654", "Connecting to existing Ray cluster at address: 100.96.0.5:6379..."),
        L.ray_py(t, "INFO", "worker.py:1832", "Connected to Ray cluster."),
        L.rl(t + sec(3), "rlinf.scheduler.cluster", "INFO", f"Ray cluster has {nodes} nodes with {accel} accelerators in total"),
        L.rl(t + sec(4), "rlinf.utils.placement", "INFO",
             f"component placement (config {cfg}): actor=0-{accel - 1}, rollout=0-{accel - 1}, env=0-{accel - 1}"),
    ]


def pending_pods(n: int, msg: str | None, first: float = 2, last: float = 1800, count: int = 31,
                 with_event: bool = True) -> list[PodSpec]:
    out = []
    for i in range(n):
        ev = [Ev("FailedScheduling", msg, first, last, count, component="default-scheduler")] if (msg and with_event) else []
        out.append(PodSpec(i, None, phase="Pending", sched_message=msg, events=ev, default_events=False,
                           mirror_message=msg))
    return out


# ---------------------------------------------------------------- r01 unrouted (selector typo)

def w_unrouted(out: Path) -> None:
    c = at(2026, 11, 7, 9, 12)
    sel = {"rlinf.io/pool": "a800-trian"}
    job = JobSpec("pi0-libero-1107", c, c + mins(37), phase="Pending", domain="libero-sim", owner="zhangwei",
                  tasks=[TaskSpec("actor", "Actor", head=True, selector=sel, run=RUN, agent="default", phase=None),
                         TaskSpec("rollout", "Rollout", replicas=2, selector=sel, agent="default", phase=None)],
                  agents={"gpu-a": AgentSpec(gpu_nodes("gpu-a-node", 4))})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- r02 comma-separated selector value

def w_selector_comma(out: Path) -> None:
    c = at(2026, 11, 9, 14, 3)
    sel = {"nvidia.com/gpu.product": "NVIDIA-A800-SXM4-80GB,NVIDIA-H800"}
    job = JobSpec("openvla-grpo-1109", c, c + mins(22), phase="Pending", domain="vla-team", owner="liyang",
                  tasks=[TaskSpec("actor", "Actor", head=True, selector=sel, run=RUN, agent="default", phase=None),
                         TaskSpec("env", "Env", replicas=2, selector=sel, agent="default", phase=None,
                                  device=None, cpu_mem=("32", "128Gi"))],
                  agents={"gpu-a": AgentSpec(gpu_nodes("gpu-a-node", 4))})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- r03 selector on a control-plane-only label

def w_cp_label(out: Path) -> None:
    c = at(2026, 11, 10, 3, 40)
    sel = {"rlark.io/cluster-id": "rlark-gpu-b", "rlinf.io/pool": "h800-train"}
    msg = ("0/6 nodes are available: 6 node(s) didn't match Pod's node affinity/selector. preemption: 0/6 nodes "
           "are available: 6 Preemption is not helpful for scheduling.")
    job = JobSpec("dexgrasp-ppo-1110", c, c + mins(48), agent="gpu-b", domain="dex-lab", owner="wangfang",
                  phase="Running",
                  tasks=[TaskSpec("actor", "Actor", head=True, selector=sel, run=RUN, phase="Pending",
                                  pods=pending_pods(1, msg, count=14, last=2700)),
                         TaskSpec("rollout", "Rollout", replicas=2, selector=sel, phase="Pending",
                                  pods=pending_pods(2, msg, count=14, last=2700))],
                  agents={"gpu-b": AgentSpec(gpu_nodes("gpu-b-h800", 6, pool="h800-train", start_ip=41,
                                                       product="NVIDIA-H800"))})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- r04 selector matching two clusters

def w_cross_cluster(out: Path) -> None:
    c = at(2026, 11, 11, 16, 20)
    sel = {"rlinf.io/gpu-type": "h800"}
    a_nodes = [*gpu_nodes("gpu-a-node", 3), NodeSpec("gpu-a-h800-01", ip="10.0.1.31", labels={"rlinf.io/gpu-type": "h800", "rlinf.io/pool": "h800-debug", "nvidia.com/gpu.product": "NVIDIA-H800"})]
    b_nodes = gpu_nodes("gpu-b-h800", 4, pool="h800-train", start_ip=41, product="NVIDIA-H800")
    for n in b_nodes:
        n.labels["rlinf.io/gpu-type"] = "h800"
    t0 = c + sec(80)
    head = L.head_log(t0=t0, total=3, host="vla-sft-rl-1111-actor-0", counts=[1] * 80)
    hhost = "vla-sft-rl-1111-actor-ray-head"
    wl = [L.worker_log(rank=1 + i, head=hhost, ip=f"10.0.2.{41 + i}", head_ip="", waits=58, reachable=False)
          for i in range(2)]
    job = JobSpec("vla-sft-rl-1111", c, c + mins(16), domain=None, owner="chenjie",
                  tasks=[TaskSpec("actor", "Actor", head=True, selector=sel, run=RUN, agent="gpu-a",
                                  pods=[PodSpec(0, "gpu-a-h800-01", log=head)]),
                         TaskSpec("rollout", "Rollout", replicas=2, selector=sel, agent="gpu-b",
                                  pods=[PodSpec(i, f"gpu-b-h800-{i + 1:02d}", log=wl[i], ip=f"10.0.2.{41 + i}")
                                        for i in range(2)])],
                  agents={"gpu-a": AgentSpec(a_nodes), "gpu-b": AgentSpec(b_nodes)})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- r05 agent heartbeat stale

def w_agent_disconnected(out: Path) -> None:
    c = at(2026, 11, 12, 1, 5)
    sel = {"rlinf.io/pool": "l40s-sim"}
    nodes = gpu_nodes("gpu-c-l40s", 3, pool="l40s-sim", start_ip=71, product="NVIDIA-L40S")
    job = JobSpec("maniskill-sac-1112", c, c + mins(52), agent="gpu-c", domain="sim-team", owner="zhaolei",
                  phase="Pending",
                  tasks=[TaskSpec("actor", "Actor", head=True, selector=sel, run=RUN, phase="Pending", device=("nvidia.com/gpu", 4)),
                         TaskSpec("rollout", "Rollout", replicas=2, selector=sel, phase="Pending", device=("nvidia.com/gpu", 4))],
                  agents={"gpu-c": AgentSpec(nodes, lease_age=mins(49).total_seconds(), member=False)})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- r06 only cordoned nodes match

def w_cordoned(out: Path) -> None:
    c = at(2026, 11, 13, 10, 30)
    sel = {"rlinf.io/pool": "h800-train"}
    nodes = gpu_nodes("gpu-a-node", 6) + gpu_nodes("gpu-a-h800", 2, pool="h800-train", start_ip=51,
                                                   product="NVIDIA-H800", unschedulable=True,
                                                   not_ready_since=at(2026, 11, 13, 8, 2))
    msg = ("0/8 nodes are available: 2 node(s) were unschedulable, 6 node(s) didn't match Pod's node "
           "affinity/selector. preemption: 0/8 nodes are available: 8 Preemption is not helpful for scheduling.")
    job = JobSpec("rdt-finetune-1113", c, c + mins(71), owner="sunmin", domain="franka-lab",
                  tasks=[TaskSpec("actor", "Actor", head=True, selector=sel, run=RUN, phase="Pending",
                                  pods=pending_pods(1, msg, count=22, last=4200)),
                         TaskSpec("rollout", "Rollout", replicas=1, selector=sel, phase="Pending",
                                  pods=pending_pods(1, msg, count=22, last=4200))],
                  agents={"gpu-a": AgentSpec(nodes)})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- r07 GPUs taken by another job

def w_gpu_insufficient(out: Path) -> None:
    c = at(2026, 11, 14, 13, 0)
    nodes = gpu_nodes("gpu-a-node", 4, used=8)
    nodes[0].used_device = 0
    msg = ("0/4 nodes are available: 1 node(s) didn't match pod anti-affinity rules, 3 Insufficient nvidia.com/gpu. "
           "preemption: 0/4 nodes are available: 1 No preemption victims found for incoming pod, "
           "3 Preemption is not helpful for scheduling.")
    head = L.head_log(t0=c + sec(60), total=3, host="ppo-pickcube-1114-actor-0", counts=[1] * 26)
    job = JobSpec("ppo-pickcube-1114", c, c + mins(6), owner="alice",
                  tasks=[TaskSpec("actor", "Actor", head=True, run=RUN, pods=[PodSpec(0, "gpu-a-node-01", log=head)]),
                         TaskSpec("rollout", "Rollout", replicas=2, phase="Pending",
                                  pods=pending_pods(2, msg, first=3, last=330, count=6))],
                  agents={"gpu-a": AgentSpec(nodes)})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- r08 NPU request larger than any node, events expired

def w_npu_too_big(out: Path) -> None:
    c = at(2026, 11, 15, 2, 10)
    sel = {"rlinf.io/pool": "ascend-910b"}
    nodes = [NodeSpec(f"npu-a-910b-{i + 1:02d}", arch="arm64", ip=f"192.168.30.{21 + i}",
                      device=("huawei.com/Ascend910", 8), cpu="192", memory="1584313416Ki",
                      kernel="5.10.0-182.0.0.95.oe2203sp3.aarch64", os_image="openEuler 22.03 (LTS-SP3)",
                      labels={"rlinf.io/pool": "ascend-910b", "accelerator": "huawei-Ascend910",
                              "node.kubernetes.io/npu.chip.name": "910B3"}) for i in range(4)]
    dev = ("huawei.com/Ascend910", 16)
    job = JobSpec("qwen-grpo-npu-1115", c, c + mins(190), agent="npu-a", domain="llm-rl", owner="huangtao",
                  phase="Running",
                  tasks=[TaskSpec("actor", "Actor", head=True, selector=sel, run=RUN, device=dev, phase="Pending",
                                  image="swr.cn-southwest-2.myhuaweicloud.com/rlinf/rlinf:math-cann8.0-torch2.5-ray2.40",
                                  pods=pending_pods(1, None)),
                         TaskSpec("rollout", "Rollout", replicas=1, selector=sel, device=dev, phase="Pending",
                                  image="swr.cn-southwest-2.myhuaweicloud.com/rlinf/rlinf:math-cann8.0-torch2.5-ray2.40",
                                  pods=pending_pods(1, None))],
                  agents={"npu-a": AgentSpec(nodes)})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- r09 matching nodes NotReady

def w_nodes_notready(out: Path) -> None:
    c = at(2026, 11, 16, 7, 45)
    sel = {"rlinf.io/pool": "4090-sim"}
    down = at(2026, 11, 16, 6, 58)
    bad = gpu_nodes("gpu-d-4090", 2, pool="4090-sim", start_ip=91, product="NVIDIA-GeForce-RTX-4090",
                    ready=False, phase="Offline", not_ready_since=down,
                    taints=[{"key": "node.kubernetes.io/unreachable", "effect": "NoSchedule", "timeAdded": "2026-11-16T06:59:10Z"},
                            {"key": "node.kubernetes.io/unreachable", "effect": "NoExecute", "timeAdded": "2026-11-16T06:59:15Z"}])
    ok = gpu_nodes("gpu-d-node", 3, start_ip=81)
    msg = ("0/5 nodes are available: 2 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, "
           "3 node(s) didn't match Pod's node affinity/selector. preemption: 0/5 nodes are available: "
           "5 Preemption is not helpful for scheduling.")
    job = JobSpec("libero-dppo-1116", c, c + mins(33), agent="gpu-d", domain="libero-sim", owner="zhangwei",
                  tasks=[TaskSpec("actor", "Actor", head=True, selector=sel, run=RUN, phase="Pending",
                                  device=("nvidia.com/gpu", 2), pods=pending_pods(1, msg, count=11, last=1900)),
                         TaskSpec("env", "Env", replicas=1, selector=sel, phase="Pending", device=None,
                                  cpu_mem=("16", "64Gi"), pods=pending_pods(1, msg, count=11, last=1900))],
                  agents={"gpu-d": AgentSpec(bad + ok)})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- r10 image tag does not exist

def w_image_missing(out: Path) -> None:
    c = at(2026, 11, 17, 11, 20)
    img = "registry.rlinf.example/rlinf/rlinf:embodied-rlinf0.3-torch2.7-ray2.44"
    err = (f'Failed to pull image "{img}": rpc error: code = NotFound desc = failed to pull and unpack image '
           f'"{img}": failed to resolve reference "{img}": {img}: not found')

    def pod(i: int, node: str) -> PodSpec:
        return PodSpec(i, node, phase="Pending",
                       main={"waiting": {"reason": "ImagePullBackOff", "message": f'Back-off pulling image "{img}"'}},
                       events=[Ev("Pulling", f'Pulling image "{img}"', 2, 1500, 7, etype="Normal"),
                               Ev("Failed", err, 4, 1502, 7),
                               Ev("Failed", "Error: ErrImagePull", 4, 1502, 7),
                               Ev("BackOff", f'Back-off pulling image "{img}"', 5, 1690, 112, etype="Normal"),
                               Ev("Failed", "Error: ImagePullBackOff", 5, 1690, 112)])
    job = JobSpec("ppo-pushcube-1117", c, c + mins(29), owner="liyang",
                  tasks=[TaskSpec("actor", "Actor", head=True, image=img, run=RUN, pods=[pod(0, "gpu-a-node-01")]),
                         TaskSpec("rollout", "Rollout", replicas=2, image=img,
                                  pods=[pod(0, "gpu-a-node-02"), pod(1, "gpu-a-node-03")])],
                  agents={"gpu-a": AgentSpec(gpu_nodes("gpu-a-node", 4))})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- r11 private registry, 401

def w_image_unauthorized(out: Path) -> None:
    c = at(2026, 11, 18, 9, 5)
    img = "harbor.robot-lab.example/embodied/pi0-rlinf:v0.2.1"
    err = (f'Failed to pull image "{img}": failed to pull and unpack image "{img}": failed to resolve reference '
           f'"{img}": failed to authorize: failed to fetch oauth token: unexpected status from GET request to '
           "https://harbor.robot-lab.example/service/token?scope=repository%3Aembodied%2Fpi0-rlinf%3Apull"
           "&service=harbor-registry: 401 Unauthorized")

    def pod(i: int, node: str, task: str) -> PodSpec:
        return PodSpec(i, node, phase="Pending",
                       main={"waiting": {"reason": "ErrImagePull", "message": err}},
                       events=[Ev("Pulling", f'Pulling image "{img}"', 3, 900, 5, etype="Normal"),
                               Ev("Failed", err, 4, 901, 5),
                               Ev("BackOff", f'Back-off pulling image "{img}"', 6, 1100, 70, etype="Normal")])
    job = JobSpec("pi0-franka-1118", c, c + mins(19), owner="wangfang",
                  tasks=[TaskSpec("actor", "Actor", head=True, image=img, run=RUN, pods=[pod(0, "gpu-a-node-05", "actor")]),
                         TaskSpec("rollout", "Rollout", replicas=1, image=img, pods=[pod(0, "gpu-a-node-06", "rollout")])],
                  agents={"gpu-a": AgentSpec(gpu_nodes("gpu-a-node", 8))})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- r13 prepare script, zh_CN "no such file"

def w_prepare_zh(out: Path) -> None:
    c = at(2026, 11, 19, 15, 30)
    prep = "source /workspace/envs/setup_env.sh && pip install -e /workspace/RLinf -q"
    log = "\n".join(["RLINF_NODE_RANK: 0", "rlark-sshd started on port 22", "Executing prepare script...",
                     "bash: /workspace/envs/setup_env.sh: 没有那个文件或目录"])
    wlog = "\n".join(["RLINF_NODE_RANK: 1", "SSH public key injected into authorized_keys", "Executing prepare script...",
                      "bash: /workspace/envs/setup_env.sh: 没有那个文件或目录"])

    def crash(i: int, node: str, text: str) -> PodSpec:
        return PodSpec(i, node, main={"waiting": {"reason": "CrashLoopBackOff", "message":
                                                  "back-off 5m0s restarting failed container=main pod=x"}},
                       last={"terminated": {"exitCode": 1, "reason": "Error", "startedAt": "2026-11-19T16:01:02Z",
                                                  "finishedAt": "2026-11-19T16:01:03Z"}},
                       restarts=7, log=text, prev_log=text,
                       events=[Ev("BackOff", "Back-off restarting failed container main in pod", 120, 1900, 140)])
    job = JobSpec("octo-bridge-1119", c, c + mins(34), owner="zhaolei", domain="bridge-sim",
                  tasks=[TaskSpec("actor", "Actor", head=True, prepare=prep, run=RUN, pods=[crash(0, "gpu-a-node-02", log)]),
                         TaskSpec("rollout", "Rollout", replicas=1, prepare=prep, pods=[crash(0, "gpu-a-node-03", wlog)])],
                  agents={"gpu-a": AgentSpec(gpu_nodes("gpu-a-node", 4))})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- r14 prepare script, pip cannot resolve a pin

def w_prepare_pip(out: Path) -> None:
    c = at(2026, 11, 20, 4, 0)
    prep = "source /opt/conda/bin/activate rlinf && pip install -r /workspace/RLinf/requirements/embodied.txt"
    fail = """Looking in indexes: https://mirrors.tuna.tsinghua.edu.cn/pypi/web/simple
Collecting gymnasium==0.29.1 (from -r /workspace/RLinf/requirements/embodied.txt (line 3))
  Using cached https://mirrors.tuna.tsinghua.edu.cn/pypi/web/packages/a8/4d/gymnasium-0.29.1-py3-none-any.whl (953 kB)
Requirement already satisfied: numpy<2 in /opt/conda/envs/rlinf/lib/python3.10/site-packages (1.26.4)
WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ReadTimeoutError("HTTPSConnectionPool(host='mirrors.tuna.tsinghua.edu.cn', port=443): Read timed out. (read timeout=15)")': /pypi/web/simple/mani-skill/
ERROR: Could not find a version that satisfies the requirement mani_skill==3.0.0b22 (from versions: 3.0.0b15, 3.0.0b16, 3.0.0b18, 3.0.0b19, 3.0.0b20, 3.0.0b21)
ERROR: No matching distribution found for mani_skill==3.0.0b22"""
    head = "\n".join(["RLINF_NODE_RANK: 0", "rlark-sshd started on port 22", "Executing prepare script...", fail])
    w = "\n".join(["RLINF_NODE_RANK: 1", "SSH public key injected into authorized_keys", "Executing prepare script...", fail])

    def crash(i: int, node: str, text: str) -> PodSpec:
        return PodSpec(i, node, main={"waiting": {"reason": "CrashLoopBackOff",
                                                  "message": "back-off 2m40s restarting failed container=main"}},
                       last={"terminated": {"exitCode": 1, "reason": "Error", "startedAt": "2026-11-20T04:09:12Z",
                                            "finishedAt": "2026-11-20T04:09:40Z"}},
                       restarts=4, log=text, prev_log=text,
                       events=[Ev("BackOff", "Back-off restarting failed container main in pod", 200, 640, 21)])
    job = JobSpec("embodied-ppo-1120", c, c + mins(12), owner="chenjie",
                  tasks=[TaskSpec("actor", "Actor", head=True, prepare=prep, run=RUN, pods=[crash(0, "gpu-a-node-01", head)]),
                         TaskSpec("rollout", "Rollout", replicas=1, prepare=prep, pods=[crash(0, "gpu-a-node-02", w)])],
                  agents={"gpu-a": AgentSpec(gpu_nodes("gpu-a-node", 4))})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- r15 Ray CLI missing from the image

def w_ray_missing(out: Path) -> None:
    c = at(2026, 11, 21, 8, 15)
    img = "pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime"
    prep = "pip install -r /workspace/requirements.txt -q"
    pre = """WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour with the system package manager. It is recommended to use a virtual environment instead: https://pip.pypa.io/warnings/venv

[notice] A new release of pip is available: 24.2 -> 24.3.1
[notice] To update, run: python -m pip install --upgrade pip"""
    head = "\n".join(["RLINF_NODE_RANK: 0", "rlark-sshd started on port 22", "Executing prepare script...", pre,
                      "Error: Ray CLI is not found. Please ensure Ray is installed."])
    w = "\n".join(["RLINF_NODE_RANK: 1", "SSH public key injected into authorized_keys", "Executing prepare script...", pre,
                   "Error: Ray CLI is not found. Please ensure Ray is installed."])

    def crash(i: int, node: str, text: str) -> PodSpec:
        return PodSpec(i, node, main={"waiting": {"reason": "CrashLoopBackOff",
                                                  "message": "back-off 5m0s restarting failed container=main"}},
                       last={"terminated": {"exitCode": 1, "reason": "Error", "startedAt": "2026-11-21T08:40:20Z",
                                            "finishedAt": "2026-11-21T08:40:51Z"}},
                       restarts=6, log=text, prev_log=text,
                       events=[Ev("BackOff", "Back-off restarting failed container main in pod", 150, 1500, 96)])
    job = JobSpec("custom-img-ppo-1121", c, c + mins(27), owner="sunmin",
                  tasks=[TaskSpec("actor", "Actor", head=True, image=img, prepare=prep, run=RUN,
                                  pods=[crash(0, "gpu-a-node-03", head)]),
                         TaskSpec("rollout", "Rollout", replicas=1, image=img, prepare=prep,
                                  pods=[crash(0, "gpu-a-node-04", w)])],
                  agents={"gpu-a": AgentSpec(gpu_nodes("gpu-a-node", 4))})
    write_job_bundle(job, out)


SCENARIOS = [
    Scenario("rlark-unrouted-selector-typo", w_unrouted,
             "Both Tasks carry nodeSelector rlinf.io/pool=a800-trian (typo); no RLark Node has it, so the Tasks sit "
             "in namespace default with an empty phase and no agent ever creates pods. The Job stays Pending.",
             S0 + " § 尚未出现 Worker; CONTRACT §1 tasks.rlinf.io default namespace",
             "job/pi0-libero-1107", "rlark.task.unrouted", last_stage="task-created"),
    Scenario("rlark-selector-comma-value", w_selector_comma,
             "The selector value lists two GPU products separated by a comma, which RLark does not treat as a set; "
             "no Node matches and both Tasks land in namespace default.",
             S0 + " § 创建器无法进入下一步或提交 (不含逗号分隔的多值)",
             "job/openvla-grpo-1109", "rlark.spec.selector-invalid", last_stage="task-created"),
    Scenario("rlark-selector-cluster-id-label", w_cp_label,
             "The selector includes rlark.io/cluster-id, a label only RLark Node objects carry. The Task is routed to "
             "gpu-b, but the member nodes lack that label, so every pod stays Pending with a node-selector mismatch.",
             S0 + " § 尚未出现 Worker (核对 Task 的 nodeSelector); CONTRACT §4",
             "job/dexgrasp-ppo-1110", "rlark.spec.selector-control-plane-label", last_stage="pod-created"),
    Scenario("rlark-selector-two-clusters", w_cross_cluster,
             "nodeSelector rlinf.io/gpu-type=h800 matches one debug node in gpu-a and four nodes in gpu-b; the Head "
             "went to gpu-a and the workers to gpu-b, where they never reach the Head's service.",
             S0 + " § 尚未出现 Worker (选择器跨集群命中); " + S1 + " § 遇到高风险情况时停止操作",
             "job/vla-sft-rl-1111", "rlark.spec.selector-cross-cluster"),
    Scenario("rlark-agent-heartbeat-stale", w_agent_disconnected,
             "The gpu-c agent last renewed its heartbeat Lease 49 minutes before capture; the Tasks routed there stay "
             "Pending with no pods and the member cluster could not be collected.",
             S0 + " § 尚未出现 Worker (检查角色选择的集群是否仍在线)",
             "job/maniskill-sac-1112", "rlark.agent.disconnected", last_stage="task-created"),
    Scenario("rlark-only-cordoned-nodes", w_cordoned,
             "The two h800-train nodes were cordoned for maintenance; the pods of both Tasks are Pending and the "
             "scheduler reports the nodes as unschedulable.",
             S0 + " § 尚未出现 Worker (匹配节点是否为 Online 且没有被标记为不可调度)",
             "job/rdt-finetune-1113", "pod.schedule.node-unschedulable", last_stage="pod-created"),
    Scenario("rlark-gpus-held-by-other-job", w_gpu_insufficient,
             "Three of the four A800 nodes have all 8 GPUs requested by another job; the Head runs on the free node, "
             "the two rollout workers are Pending with Insufficient nvidia.com/gpu, and the Head waits for them.",
             S0 + " § 已出现 Worker，但仍为 Pending (节点是否有足够的 CPU、内存和 GPU)",
             "job/ppo-pickcube-1114", "pod.schedule.insufficient-resources"),
    Scenario("rlark-npu-request-exceeds-node", w_npu_too_big,
             "Each pod asks for 16 huawei.com/Ascend910 while every 910B node has 8. The job has been Pending for "
             "three hours; scheduler events have expired and the pod condition carries no message, so only the "
             "Node objects show why.",
             S0 + " § 创建器无法进入下一步或提交 (GPU 请求没有超过匹配节点显示的最大可用值)",
             "job/qwen-grpo-npu-1115", "pod.schedule.insufficient-resources", last_stage="pod-created"),
    Scenario("rlark-nodes-not-ready", w_nodes_notready,
             "Both 4090 nodes the selector matches stopped posting status 47 minutes ago and carry the unreachable "
             "taint; the pods stay Pending.",
             S0 + " § 尚未出现 Worker; CONTRACT §4 pod.schedule.node-unschedulable (NotReady nodes)",
             "job/libero-dppo-1116", "pod.schedule.node-unschedulable", last_stage="pod-created"),
    Scenario("rlark-image-tag-not-found", w_image_missing,
             "The image tag embodied-rlinf0.3-torch2.7-ray2.44 was never pushed; every pod is scheduled and loops in "
             "ErrImagePull / ImagePullBackOff with a NotFound from containerd.",
             S0 + " § 按错误类型排查 (镜像拉取、权限或不存在错误)",
             "job/ppo-pushcube-1117", "pod.image.pull-failed", last_stage="scheduled"),
    Scenario("rlark-image-registry-401", w_image_unauthorized,
             "The image lives in a private Harbor project and the node has no pull credential for it; containerd "
             "fails to fetch an oauth token with 401 Unauthorized.",
             "seeds/003_c40242c02c0bfd09.txt § 更换仓库后镜像拉取报 401; " + S0 + " § 按错误类型排查",
             "job/pi0-franka-1118", "pod.image.pull-unauthorized", last_stage="scheduled"),
    Scenario("rlark-prepare-missing-file-zh", w_prepare_zh,
             "The prepare script sources /workspace/envs/setup_env.sh, which the image does not contain; bash "
             "(zh_CN locale) prints 没有那个文件或目录 right after the prepare marker and the container crash-loops.",
             S0 + " § Ray 初始化或组网失败 (角色准备脚本)",
             "job/octo-bridge-1119", "rlark.ray.prepare-failed", last_stage="prepare-script"),
    Scenario("rlark-prepare-pip-pin", w_prepare_pip,
             "The prepare script installs a requirements file pinning mani_skill==3.0.0b22, which the mirror does not "
             "have; pip fails (after one harmless retried read timeout) and both pods crash-loop.",
             S0 + " § Ray 初始化或组网失败 (角色准备脚本)",
             "job/embodied-ppo-1120", "rlark.ray.prepare-failed", last_stage="prepare-script"),
    Scenario("rlark-ray-cli-not-found", w_ray_missing,
             "A stock PyTorch image without Ray was used; the prepare script succeeds, then the wrapper prints "
             "'Error: Ray CLI is not found' and the containers crash-loop.",
             S0 + " § Ray 初始化或组网失败 (Ray CLI 检查)",
             "job/custom-img-ppo-1121", "rlark.ray.cli-missing"),
]
