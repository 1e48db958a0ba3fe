# ruff: noqa: E501  (log and event text is quoted verbatim, one line per log line)
"""RLark job scenarios, part 3: lifecycle (stop, sync, replacement), architecture, storage, wrapper stages."""

from __future__ import annotations

from pathlib import Path

import gen_k8s as k
import gen_logs as L
from gen_k8s import NodeSpec, Scenario, at, mins, sec, ts
from gen_rlark import AgentSpec, Ev, JobSpec, PodSpec, TaskSpec, gpu_nodes, write_job_bundle
from scenarios_rlark import RUN, S0, S1, pending_pods, run_start
from scenarios_rlark2 import S3, crash_state, std_job

# ---------------------------------------------------------------- stopped job: no workers is expected

def w_stopped(out: Path) -> None:
    c = at(2026, 11, 2, 8, 0)
    stop = c + mins(200)
    job = JobSpec("ppo-drawer-1102", c, stop + mins(125), phase="Stopped", stopped=True, end_time=stop,
                  owner="zhangwei",
                  tasks=[TaskSpec("actor", "Actor", head=True, run=RUN, phase="Stopped", sts_replicas=0),
                         TaskSpec("rollout", "Rollout", replicas=2, phase="Stopped", sts_replicas=0)],
                  agents={"gpu-a": AgentSpec(gpu_nodes("gpu-a-node", 4))})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- stopped, but one worker keeps running

def w_stop_remain(out: Path) -> None:
    c = at(2026, 11, 3, 13, 0)
    stop = c + mins(95)
    wl = L.worker_log(rank=2, head="ppo-door-1103-actor-0.rlark-domain", ip="10.0.1.13")
    job = JobSpec("ppo-door-1103", c, stop + mins(38), phase="Stopped", stopped=True, end_time=stop, owner="liyang",
                  tasks=[TaskSpec("actor", "Actor", head=True, run=RUN, phase="Stopped", sts_replicas=0),
                         TaskSpec("rollout", "Rollout", replicas=2, phase="Stopped", sts_replicas=0,
                                  pods=[PodSpec(1, "gpu-a-node-03", log=wl, ip="10.0.1.13", deletion=stop + sec(4),
                                                events=[Ev("Killing", "Stopping container main", 95 * 60 - 46,
                                                           etype="Normal")])])],
                  agents={"gpu-a": AgentSpec(gpu_nodes("gpu-a-node", 4))})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- Job left Pending while everything runs

def w_out_of_sync(out: Path) -> None:
    c = at(2026, 11, 4, 0, 30)
    t = c + mins(3)
    run = run_start(t, 3, 24) + L.progress(t, 1, 160, 1000, 44.0)
    job = std_job("ppo-lift-1104", c, c + mins(122), run=run, owner="wangfang", phase="Pending")
    job.status_tasks = [{"name": "actor", "phase": "Pending"}, {"name": "rollout", "phase": "Pending"}]
    write_job_bundle(job, out)


# ---------------------------------------------------------------- worker evicted and recreated elsewhere

def w_replaced(out: Path) -> None:
    c = at(2026, 11, 5, 9, 0)
    t = c + mins(3)
    evict_at = c + mins(47)
    run = run_start(t, 3, 24) + L.progress(t, 1, 60, 1000, 44.0) + [
        "(raylet) The node with node id: 2e7c94b1d05f3a68 and address: 10.0.1.13 and node name: 10.0.1.13 has been marked dead because the detector has missed too many heartbeats from it.",
        L.rl(evict_at + sec(40), "rlinf.scheduler.worker_group", "WARNING", "actor MultiStepRolloutWorker-1 died (node 10.0.1.13); waiting for a replacement node"),
        "(autoscaler) Adding 1 node(s) of type worker: 10.0.1.15",
    ]
    job = std_job("ppo-peg-1105", c, c + mins(80), run=run, owner="chenjie",
                  nodes=gpu_nodes("gpu-a-node", 6))
    p = job.tasks[1].pods[1]
    p.node, p.ip, p.uid_seed, p.created = "gpu-a-node-05", "10.0.1.15", "b", 47 * 60 + 20
    p.log = L.worker_log(rank=2, head="ppo-peg-1105-actor-0.rlark-domain", ip="10.0.1.15")
    p.history = [("", "10.0.1.13", "gpu-a-node-03", "Failed", 50)]
    old_uid = k.uid("pod", job.name, "rollout", "1", "")
    name = "ppo-peg-1105-rollout-1"
    msg = ("The node was low on resource: ephemeral-storage. Threshold quantity: 375049995Ki, available: 301244872Ki. "
           "Container main was using 612003148Ki, request is 0, has larger consumption of ephemeral-storage. ")
    job.agents["gpu-a"].extra_events = [
        k.event("Pod", "rlark-system", name, old_uid, "Evicted", msg, evict_at, etype="Warning", host="gpu-a-node-03"),
        k.event("Pod", "rlark-system", name, old_uid, "Killing", "Stopping container main", evict_at + sec(1),
                host="gpu-a-node-03"),
    ]
    write_job_bundle(job, out)


# ---------------------------------------------------------------- amd64 image on arm64 nodes

def w_arch_exec(out: Path) -> None:
    c = at(2026, 11, 6, 10, 0)
    nodes = [NodeSpec(f"kp-920-{i + 1:02d}", arch="arm64", ip=f"192.168.40.{11 + i}", device=("huawei.com/Ascend910", 8),
                      cpu="192", memory="1584313416Ki", kernel="5.10.0-182.0.0.95.oe2203sp3.aarch64",
                      os_image="openEuler 22.03 (LTS-SP3)",
                      labels={"rlinf.io/pool": "kunpeng-ascend", "accelerator": "huawei-Ascend910"}) for i in range(3)]
    img = "registry.rlinf.example/rlinf/rlinf:embodied-rlinf0.2-torch2.6-ray2.40"
    msg = "exec /usr/bin/bash: exec format error"
    st = crash_state(c + mins(21), code=255, restarts=9)
    task = {"image": img, "device": ("huawei.com/Ascend910", 8), "selector": {"rlinf.io/pool": "kunpeng-ascend"}}

    def pod(i: int, node: str) -> PodSpec:
        return PodSpec(i, node, main=st["main"], last=st["last"], restarts=9, log=msg, prev_log=msg,
                       events=[Ev("BackOff", "Back-off restarting failed container main in pod", 40, 1250, 101)])
    job = JobSpec("embodied-npu-port-1106", c, c + mins(22), agent="npu-b", domain="llm-rl", owner="huangtao",
                  tasks=[TaskSpec("actor", "Actor", head=True, run=RUN, pods=[pod(0, "kp-920-01")], **task),
                         TaskSpec("rollout", "Rollout", replicas=1, pods=[pod(0, "kp-920-02")], **task)],
                  agents={"npu-b": AgentSpec(nodes)})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- Head task with two replicas

def w_two_heads(out: Path) -> None:
    c = at(2026, 11, 7, 6, 0)
    t = c + mins(18)
    name = "ppo-twohead-1107"
    run = run_start(t, 1, 8) + L.progress(t, 1, 4, 1000, 43.0)
    h0 = L.head_log(t0=c + sec(75), total=4, host=f"{name}-actor-0", counts=[2, 3, 3] + [3] * 86, check_failed=True,
                    status_nodes=3, run=run)
    h1 = L.head_log(t0=c + sec(78), total=4, host=f"{name}-actor-1", ip="100.96.1.9", counts=[1] * 89,
                    check_failed=True, status_nodes=1, run=run, rank=0)
    w = [L.worker_log(rank=2 + i, head=f"{name}-actor-0.rlark-domain", ip=f"10.0.1.{13 + i}") for i in range(2)]
    job = JobSpec(name, c, c + mins(26), owner="sunmin",
                  tasks=[TaskSpec("actor", "Actor", head=True, replicas=2, run=RUN,
                                  pods=[PodSpec(0, "gpu-a-node-01", log=h0), PodSpec(1, "gpu-a-node-02", log=h1)]),
                         TaskSpec("rollout", "Rollout", replicas=2,
                                  pods=[PodSpec(i, f"gpu-a-node-{i + 3:02d}", log=w[i], ip=f"10.0.1.{13 + i}")
                                        for i in range(2)])],
                  agents={"gpu-a": AgentSpec(gpu_nodes("gpu-a-node", 5))})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- DataLoader bus error (/dev/shm)

def w_shm(out: Path) -> None:
    c = at(2026, 11, 8, 16, 0)
    t = c + mins(3)
    err = [
        "(EmbodiedFSDPActor pid=2231, ip=10.0.1.12) ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).",
        "(EmbodiedFSDPActor pid=2231, ip=10.0.1.12)  (function _error_if_any_worker_fails)",
        "Traceback (most recent call last):",
        '  File "/workspace/RLinf/rlinf/runners/sft_runner.py", line 97, in run',
        "    batch = next(self.data_iter)",
        '  File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/torch/utils/data/_utils/signal_handling.py", line 73, in handler',
        "    _error_if_any_worker_fails()",
        "RuntimeError: DataLoader worker (pid 4123) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory. Please try to raise your shared memory limit.",
    ]
    run = run_start(t, 3, 24, cfg="bridge_sft_openvla") + L.progress(t, 1, 3, 5000, 12.0, label="SFT step") + err
    job = std_job("bridge-sft-1108", c, c + mins(9), run=run, owner="zhaolei")
    write_job_bundle(job, out)


# ---------------------------------------------------------------- RAY_TEMP_DIR not writable

def w_ray_tmp(out: Path) -> None:
    c = at(2026, 11, 9, 22, 0)
    env = [{"name": "RAY_TEMP_DIR", "value": "/mnt/shared/ray_tmp"}]
    mounts = [{"name": "shared", "mountPath": "/mnt/shared"}]
    vols = [{"name": "shared", "hostPath": {"path": "/data/shared", "type": "Directory"}}]
    err = "\n".join(["Traceback (most recent call last):",
                     '  File "/opt/conda/envs/rlinf/bin/ray", line 8, in <module>',
                     "    sys.exit(main())",
                     '  File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/ray/_private/node.py", line 1170, in start_head_processes',
                     "    try_to_create_directory(self._logs_dir)",
                     '  File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/ray/_private/utils.py", line 803, in try_to_create_directory',
                     "    os.makedirs(directory_path, exist_ok=True)",
                     "PermissionError: [Errno 13] Permission denied: '/mnt/shared/ray_tmp/session_2026-11-09_22-01-31_508214_61'"])
    head = "\n".join(["RLINF_NODE_RANK: 0", "rlark-sshd started on port 22", "Executing prepare script...", L.PIP_EDITABLE,
                      "Did not find any active Ray processes.", "Waiting for domain IP from /etc/hosts... (attempt 1)",
                      "Resolved domain IP: 100.96.0.5 (ray-tmp-1109-actor-0.rlark-domain)", "Usage stats collection is disabled.",
                      err])
    st = crash_state(c + mins(10), restarts=3)
    job = std_job("ray-tmp-1109", c, c + mins(12), run=None, owner="alice",
                  task_kw={"env": env, "mounts": mounts, "volumes": vols},
                  worker_task_kw={"env": env, "mounts": mounts, "volumes": vols},
                  head_kw={"log": head, "prev_log": head, "main": st["main"], "last": st["last"], "restarts": 3})
    for p in job.tasks[1].pods:
        p.log = L.worker_log(rank=1 + p.ordinal, head="ray-tmp-1109-actor-0.rlark-domain", ip=p.ip or "",
                             waits=30, reachable=False)
    write_job_bundle(job, out)


# ---------------------------------------------------------------- Ray worker process exits 1, container exits 0

def w_worker_exit(out: Path) -> None:
    c = at(2026, 11, 10, 4, 0)
    t = c + mins(3)
    tail = ["[2026-11-10 04:31:12,880 C 57 57] (raylet) worker_pool.cc:1281:  Check failed: state.starting_worker_processes.count(proc) == 0 ",
            "*** StackTrace Information ***",
            "/opt/conda/envs/rlinf/lib/python3.10/site-packages/ray/core/src/ray/raylet/raylet(+0xd49a1a) [0x5598c7a0ba1a] ray::operator<<()",
            "Some Ray subprocesses exited unexpectedly:",
            "  raylet [exit code=1]",
            "Remaining processes will be killed."]
    run = run_start(t, 3, 24) + L.progress(t, 1, 38, 1000, 44.0)
    wl = L.worker_log(rank=2, head="ppo-wipe-1110-actor-0.rlark-domain", ip="10.0.1.13", tail=tail, exit_code=1)
    job = std_job("ppo-wipe-1110", c, c + mins(34), run=run, owner="chenjie",
                  worker_kw={1: {"log": wl, "prev_log": wl, "restarts": 2,
                                 "last": {"terminated": {"exitCode": 0, "reason": "Completed",
                                                         "startedAt": ts(c + mins(12)), "finishedAt": ts(c + mins(22))}}}})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- wrapper stops before the prepare script

def w_wrapper(out: Path) -> None:
    c = at(2026, 11, 11, 19, 0)
    waits = [f"Waiting for domain IP from /etc/hosts... (attempt {k})" for k in range(1, 61)]
    head = "\n".join(["RLINF_NODE_RANK: 0", "rlark-sshd started on port 22", *waits, "Error: timed out waiting for domain IP of wrap-fail-1111-actor-0 in /etc/hosts"])
    side = "\n".join(
        [f'2026-11-11T19:0{m}:{s:02d}.{m}01Z\tINFO\tFailed to get pod IP from nodeserver, retrying\t{{"err": "http get: '
         'Get \\"http://localhost/get_ip\\": dial unix /var/run/rlark/nodeserver.sock: connect: no such file or directory", '
         '"backoff": "5s"}' for m in range(1, 4) for s in (5, 25, 45)])
    st = crash_state(c + mins(9), restarts=2)
    job = std_job("wrap-fail-1111", c, c + mins(11), run=None, workers=1, owner="zhangwei",
                  head_kw={"log": head, "prev_log": head, "sidecar": side, "main": st["main"], "last": st["last"],
                           "restarts": 2})
    wl = "\n".join(["RLINF_NODE_RANK: 1", *waits[:40]])
    job.tasks[1].pods[0].log = wl
    job.tasks[1].pods[0].sidecar = side
    write_job_bundle(job, out)


# ---------------------------------------------------------------- worker Task could not create its workload

def w_no_worker(out: Path) -> None:
    c = at(2026, 11, 12, 14, 0)
    msg = ('failed to create StatefulSet rlark-system/vla-eval-1112-env: StatefulSet.apps "vla-eval-1112-env" is invalid: '
           'spec.template.spec.containers[0].volumeMounts[2].name: Not found: "datasets"')
    job = std_job("vla-eval-1112", c, c + mins(7), run=None, workers=0, owner="liyang",
                  head_log_kw={"counts": [1] * 30, "total": 3})
    job.tasks.append(TaskSpec("env", "Env", replicas=2, device=None, cpu_mem=("32", "128Gi"), phase="Pending",
                              message=msg, sts=False,
                              mounts=[{"name": "datasets", "mountPath": "/datasets"}]))
    write_job_bundle(job, out)


# ---------------------------------------------------------------- PVC cannot be provisioned

def w_pvc(out: Path) -> None:
    c = at(2026, 11, 13, 3, 0)
    msg = ("0/6 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/6 nodes are "
           "available: 6 Preemption is not helpful for scheduling.")
    mounts = [{"name": "data", "mountPath": "/mnt/data"}]
    vols = [{"name": "data", "persistentVolumeClaim": {"claimName": "oss-ppo-1113-data"}}]
    pvc = {"kind": "PersistentVolumeClaim", "apiVersion": "v1",
           "metadata": k.meta("oss-ppo-1113-data", c + sec(5), "rlark-system"),
           "spec": {"accessModes": ["ReadWriteMany"], "storageClassName": "rclone-oss-cn",
                    "resources": {"requests": {"storage": "500Gi"}}, "volumeMode": "Filesystem"},
           "status": {"phase": "Pending"}}
    pvc_ev = k.event("PersistentVolumeClaim", "rlark-system", "oss-ppo-1113-data", pvc["metadata"]["uid"],
                     "ProvisioningFailed", 'storageclass.storage.k8s.io "rclone-oss-cn" not found', c + sec(6),
                     last=c + mins(40), count=161, etype="Warning", component="persistentvolume-controller")
    job = JobSpec("oss-ppo-1113", c, c + mins(41), owner="wangfang",
                  tasks=[TaskSpec("actor", "Actor", head=True, run=RUN, phase="Pending", mounts=mounts, volumes=vols,
                                  pvc_map={"data": "rclone-oss-cn"}, pods=pending_pods(1, msg, count=9, last=2400)),
                         TaskSpec("rollout", "Rollout", replicas=2, phase="Pending", mounts=mounts, volumes=vols,
                                  pvc_map={"data": "rclone-oss-cn"}, pods=pending_pods(2, msg, count=9, last=2400))],
                  agents={"gpu-a": AgentSpec(gpu_nodes("gpu-a-node", 6), pvcs=[pvc], extra_events=[pvc_ev])})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- hostPath directory missing on the chosen node

def w_hostpath(out: Path) -> None:
    c = at(2026, 11, 14, 23, 0)
    mounts = [{"name": "datasets", "mountPath": "/datasets", "readOnly": True}]
    vols = [{"name": "datasets", "hostPath": {"path": "/mnt/nvme0/datasets", "type": "Directory"}}]
    ev = Ev("FailedMount", 'MountVolume.SetUp failed for volume "datasets" : hostPath type check failed: '
            "/mnt/nvme0/datasets is not a directory", 3, 1500, 23)
    pods = [PodSpec(0, f"gpu-a-node-0{i + 2}", phase="Pending", main={"waiting": {"reason": "ContainerCreating"}},
                    events=[ev], init_states={"tensorboard": {"waiting": {"reason": "PodInitializing"}},
                                              "rlark-network-sidecar": {"waiting": {"reason": "PodInitializing"}}})
            for i in range(1)]
    pods.append(PodSpec(1, "gpu-a-node-04", phase="Pending", main={"waiting": {"reason": "ContainerCreating"}},
                        events=[ev], init_states={"tensorboard": {"waiting": {"reason": "PodInitializing"}},
                                                  "rlark-network-sidecar": {"waiting": {"reason": "PodInitializing"}}}))
    head = PodSpec(0, "gpu-a-node-01", phase="Pending", main={"waiting": {"reason": "ContainerCreating"}},
                   events=[ev], init_states={"tensorboard": {"waiting": {"reason": "PodInitializing"}},
                                             "rlark-network-sidecar": {"waiting": {"reason": "PodInitializing"}},
                                             "rlark-sshd-init": {"waiting": {"reason": "PodInitializing"}}})
    job = JobSpec("pi0-libero-1114", c, c + mins(26), owner="zhangwei", domain="libero-sim",
                  tasks=[TaskSpec("actor", "Actor", head=True, run=RUN, mounts=mounts, volumes=vols, pods=[head]),
                         TaskSpec("rollout", "Rollout", replicas=2, mounts=mounts, volumes=vols, pods=pods)],
                  agents={"gpu-a": AgentSpec(gpu_nodes("gpu-a-node", 4))})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- torch extension lock left behind on a shared cache

def w_stale_lock(out: Path) -> None:
    c = at(2026, 11, 15, 1, 0)
    t = c + mins(3)
    mounts = [{"name": "cache", "mountPath": "/root/.cache"}]
    vols = [{"name": "cache", "hostPath": {"path": "/mnt/share/cache", "type": "DirectoryOrCreate"}}]
    run = run_start(t, 3, 24, cfg="maniskill_ppo_openvlaoft_deepspeed") + [
        L.rl(t + sec(20), "rlinf.workers.actor", "INFO", "building fused_adam extension (DeepSpeed 0.15.4)"),
    ] + [f"(EmbodiedDSActor pid={2231 + r}, ip=10.0.1.{12 + r // 8}) Using /root/.cache/torch_extensions/py310_cu124 as PyTorch extensions root..."
         for r in range(0, 24, 3)]
    job = std_job("ds-ppo-1115", c, c + mins(140), run=run, owner="sunmin",
                  task_kw={"mounts": mounts, "volumes": vols}, worker_task_kw={"mounts": mounts, "volumes": vols})
    write_job_bundle(job, out)


# ---------------------------------------------------------------- Head waiting on a worker still in its prepare script

def w_waiting_slow_prepare(out: Path) -> None:
    c = at(2026, 11, 16, 9, 0)
    prep = ("source /opt/conda/bin/activate rlinf && pip install -e /workspace/RLinf --no-deps -q && "
            "pip install flash-attn==2.7.4.post1 --no-build-isolation")
    job = std_job("oft-slowprep-1116", c, c + mins(15), run=None, workers=2, owner="wangfang",
                  head_log_kw={"counts": [1, 2] + [2] * 76}, worker_task_kw={"prepare": prep})
    slow = job.tasks[1].pods[1]
    slow.log = "\n".join(["RLINF_NODE_RANK: 2", "SSH public key injected into authorized_keys",
                          "Executing prepare script...", L.PIP_EDITABLE,
                          "Collecting flash-attn==2.7.4.post1",
                          "  Downloading flash_attn-2.7.4.post1.tar.gz (6.0 MB)",
                          "  Preparing metadata (setup.py): started",
                          "  Preparing metadata (setup.py): finished with status 'done'",
                          "Building wheels for collected packages: flash-attn",
                          "  Building wheel for flash-attn (setup.py): started",
                          "  Building wheel for flash-attn (setup.py): still running...",
                          "  Building wheel for flash-attn (setup.py): still running...",
                          "  Building wheel for flash-attn (setup.py): still running..."])
    write_job_bundle(job, out)


SCENARIOS = [
    Scenario("rlark-stopped-job-no-workers", w_stopped,
             "The user stopped the Job two hours ago and now asks why it has no workers: both StatefulSets are at 0 "
             "replicas, as a stop is meant to leave them.",
             S0 + " § 尚未出现 Worker (Stopped Job 的 Kubernetes Task 会被协调为 0 副本)",
             "job/ppo-drawer-1102", "rlark.task.stopped"),
    Scenario("rlark-stopped-worker-lingers", w_stop_remain,
             "The Job was stopped 38 minutes ago and the StatefulSets are at 0, but rollout-1 is still Running with a "
             "deletion timestamp from the stop.",
             S0 + " § 停止后仍看到 Worker", "job/ppo-door-1103", "rlark.stop.workers-remain"),
    Scenario("rlark-job-status-stuck-pending", w_out_of_sync,
             "The Job and its status.tasks still say Pending two hours after submission, while both Tasks are Running "
             "and training has reached step 160.",
             S0 + " § Job 与 Worker 状态不一致", "job/ppo-lift-1104", "rlark.status.out-of-sync"),
    Scenario("rlark-worker-evicted-replaced", w_replaced,
             "Rollout worker 1 was evicted from gpu-a-node-03 under ephemeral-storage pressure and the StatefulSet "
             "recreated it on gpu-a-node-05: one worker name, two pod UIDs and IPs.",
             S0 + " § 停止后仍看到 Worker (同名 Worker 同时出现多个 IP 或状态)", "job/ppo-peg-1105",
             "rlark.worker.replaced"),
    Scenario("rlark-amd64-image-on-arm64", w_arch_exec,
             "An amd64-only image was scheduled onto Kunpeng (arm64) Ascend nodes; the main container dies at once "
             "with 'exec /usr/bin/bash: exec format error' and crash-loops.",
             S3 + " § 调度到架构不匹配的节点", "job/embodied-npu-port-1106", "pod.arch-mismatch"),
    Scenario("rlark-head-task-two-replicas", w_two_heads,
             "The Head task was saved with replicas 2; both actor pods started a Ray head and both ran the run "
             "script, the second one alone after its cluster check failed.",
             S0 + " § Ray 初始化或组网失败 (head: true 的 Task 副本数必须为 1)", "job/ppo-twohead-1107",
             "rlark.spec.head-invalid"),
    Scenario("rlark-dataloader-bus-error-shm", w_shm,
             "An SFT run died in the third step: DataLoader worker killed by signal: Bus error, insufficient shared "
             "memory (shm).",
             S0 + " § 按错误类型排查 (/dev/shm 或 shared-memory 错误)", "job/bridge-sft-1108",
             "pod.run.shm-exhausted"),
    Scenario("rlark-ray-temp-dir-permission", w_ray_tmp,
             "RAY_TEMP_DIR points into a hostPath directory the container cannot write; 'ray start --head' fails "
             "with PermissionError creating the session directory, so the workers never reach the Head.",
             S0 + " § Ray 初始化或组网失败 (RAY_TEMP_DIR)", "job/ray-tmp-1109", "rlark.ray.temp-dir"),
    Scenario("rlark-worker-raylet-exit-1", w_worker_exit,
             "On rollout-1 the raylet aborted on an internal check and the wrapper printed 'Ray worker "
             "process exited with code 1', then exited 0, so the container shows Completed and restarts.",
             S0 + " § 检查日志中的 Worker 退出码", "job/ppo-wipe-1110", "rlark.ray.worker-exit-nonzero"),
    Scenario("rlark-wrapper-no-domain-ip", w_wrapper,
             "The network sidecar cannot reach the node server socket, so the wrapper never finds the pod's domain "
             "IP after the rank marker and exits before the prepare script.",
             S0 + " § Ray 初始化或组网失败 (rank 计算或包装脚本准备)", "job/wrap-fail-1111",
             "rlark.ray.wrapper-failed", last_stage="rank-assigned"),
    Scenario("rlark-env-task-workload-invalid", w_no_worker,
             "The env Task is routed to gpu-a but the agent could not create its StatefulSet (a volumeMount names an "
             "undeclared volume), so it has no pods; the Head waits alone.",
             S1 + " § 处理没有 Worker 的任务 (工作负载创建错误)", "job/vla-eval-1112", "rlark.task.no-worker"),
    Scenario("rlark-pvc-storageclass-missing", w_pvc,
             "The Job's pvcStorageMap names StorageClass rclone-oss-cn, which does not exist in gpu-a; the claim stays "
             "Pending and every pod waits on an unbound PersistentVolumeClaim.",
             S0 + " § 已出现 Worker，但仍为 Pending (PVC 是否能通过所选 StorageClass 创建)",
             "job/oss-ppo-1113", "pod.storage.pvc-unbound", last_stage="pod-created"),
    Scenario("rlark-hostpath-dir-missing", w_hostpath,
             "A hostPath volume of type Directory points at /mnt/nvme0/datasets, which the scheduled nodes do not "
             "have; the pods stay in ContainerCreating with FailedMount.",
             S0 + " § 已出现 Worker，但仍为 Pending (hostPath 是否存在于实际调度节点)",
             "job/pi0-libero-1114", "pod.storage.hostpath-missing", last_stage="scheduled"),
    Scenario("rlark-torch-extension-lock-hang", w_stale_lock,
             "Every rank printed 'Using /root/.cache/torch_extensions/... as PyTorch extensions root...' on a shared "
             "hostPath cache and nothing since, for over two hours: a lock file left by an earlier killed build.",
             S3 + " § 共享盘空间不足 / 锁文件残留 (FileBaton)", "job/ds-ppo-1115", "pod.run.stale-lock-hang",
             last_stage="run-script"),
    Scenario("rlark-head-waits-worker-building-wheel", w_waiting_slow_prepare,
             "Thirteen minutes in, the Head still counts 2 of 3 nodes with two minutes of its check window left; the "
             "third worker is Running but its prepare script is still compiling flash-attn from source.",
             S0 + " § Ray 初始化或组网失败 (Head 启动和节点检查: 对照预期副本数检查各 Worker)",
             "job/oft-slowprep-1116", "rlark.ray.waiting-for-nodes", last_stage="ray-cluster-forming"),
]
