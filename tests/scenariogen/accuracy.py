"""Scenario bundles for the classes of evidence where a first answer goes wrong most easily:
`python -m tests.scenariogen.accuracy` rewrites tests/scenarios/{cause,seen,truth,gap}-*.

* cause-*  a consequence printed louder or later than its cause (the answer is the earlier failure);
* seen-*   a case present in words the platform, the scheduler or a robot SDK really prints (Chinese too);
* truth-*  a spec that holds nothing to run;
* gap-*    evidence that lacks part of what the target needs.

They reuse the RLark object and log builders of tests/scenariogen/rlark.py, so the objects are what the
real controllers write and the `main` logs print the wrapper's own lines; each scenario varies wording,
values and structure, with noise around the decisive line and the decisive line never last.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable

from tests.scenariogen.rlark import (
    SCENARIOS,
    JobM,
    PodM,
    Scenario,
    TaskDef,
    condition,
    crashloop,
    domain_ip,
    event,
    fill_healthy_logs,
    head_ip,
    head_waiting_log,
    healthy_worker_log,
    lts,
    main_logs,
    meta,
    pod_event,
    prepare_ok,
    rank_lines,
    ray_check,
    ray_head_start,
    ray_status,
    rlinf_startup,
    robot_job,
    running,
    stable_uid,
    standard_job,
    terminated,
    train_progress,
    ts,
    worker_connect,
    worker_exit,
)

PREFIXES = ("cause-", "seen-", "truth-", "gap-")
ScenarioFn = Callable[[], Scenario]
REGISTRY: list[ScenarioFn] = []


def scenario(fn: ScenarioFn) -> ScenarioFn:
    REGISTRY.append(fn)
    return fn


def _ray_start_banner(p: PodM, minutes: float) -> str:
    return (f"{lts(minutes, 402)}\tINFO scripts.py:1047 -- Local node IP: {p.ip}\n"
            f"{lts(minutes, 519)}\tINFO scripts.py:1216 -- Usage stats collection is disabled.\n")


# =================================================================================================== cause-*


@scenario
def conda_env_then_cli_missing() -> Scenario:
    sc = Scenario("cause-conda-env-then-cli-missing")
    sc.cluster("gpu-a")
    prep = "source /opt/conda/bin/activate rlinf-sim && pip install -e /workspace/ManiSkill -q"
    job = standard_job(sc, workers=2, age_min=24, extra_tasks=[
        TaskDef("env", role="Env", replicas=1, gpus=4, prepare=prep)])
    fill_healthy_logs(job)
    head = job.head.pods[0]
    head.logs = main_logs(head, head_waiting_log(head, polls=120, stuck_at=3))
    p = job.task("env").pods[0]
    log = (rank_lines(p) + "Executing prepare script...\n"
           "\n"
           "EnvironmentNameNotFound: Could not find conda environment: rlinf-sim\n"
           "You can list all discoverable environments with `conda info --envs`.\n"
           "\n"
           "/rlark/scripts/ray_worker.sh: line 58: ray: command not found\n"
           "Error: Ray CLI is not found. Please ensure Ray is installed.\n")
    p.logs = main_logs(p, log)
    p.prev_logs = {"main": log}
    crashloop(p, 1, 7, 2.6)
    sc.expects("The env Task's prepareScript activates a conda environment its image does not have; the wrapper "
               "then finds no `ray` because no environment was ever activated (the other roles, same base image, "
               "have Ray). The Head waits at 3 of 4 nodes.",
               first="rlark.ray.prepare-failed", includes=["rlark.ray.cli-missing", "rlark.ray.waiting-for-nodes"])
    return sc


@scenario
def venv_missing_then_cli_missing() -> Scenario:
    sc = Scenario("cause-venv-missing-then-cli-missing")
    sc.cluster("gpu-a")
    prep = "set -x; cd /workspace/RLinf && source .venv/bin/activate && uv pip install -e . --no-deps"
    job = standard_job(sc, workers=3, age_min=18, head_kw={"prepare": prep})
    head = job.head.pods[0]
    log = (rank_lines(head) + "Executing prepare script...\n"
           "+ cd /workspace/RLinf\n"
           "+ source .venv/bin/activate\n"
           "/rlark/scripts/ray_head.sh: line 41: .venv/bin/activate: No such file or directory\n"
           "+ uv pip install -e . --no-deps\n"
           "error: No virtual environment found; run `uv venv` to create an environment, or pass `--system` to "
           "install into a non-virtual environment\n"
           "Error: Ray CLI is not found. Please ensure Ray is installed.\n")
    head.logs = main_logs(head, log)
    head.prev_logs = {"main": log}
    crashloop(head, 1, 6, 1.4)
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 17) +
                           worker_connect(p, attempts_unreachable=95 + 4 * p.ordinal, resolves=True,
                                          reachable=False))
    sc.expects("The Head's prepareScript sources a virtualenv that is not in the checkout, so Ray is never on PATH "
               "and the wrapper stops with 'Ray CLI is not found'; the workers wait for a Head that never starts.",
               first="rlark.ray.prepare-failed",
               includes=["rlark.ray.cli-missing", "rlark.ray.head-unreachable"], last_stage="prepare-script")
    return sc


def _readonly_temp_worker(p: PodM, path: str, minutes: float) -> str:
    return (rank_lines(p) + prepare_ok(p, minutes) + worker_connect(p, attempts_unreachable=1) +
            _ray_start_banner(p, minutes - 0.3) +
            "Traceback (most recent call last):\n"
            '  File "/opt/conda/envs/rlinf/bin/ray", line 8, in <module>\n    sys.exit(main())\n'
            '  File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/ray/_private/node.py", line 291, in '
            "__init__\n    try_to_create_directory(self._temp_dir)\n"
            '  File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/ray/_private/utils.py", line 779, in '
            "try_to_create_directory\n    os.makedirs(directory, exist_ok=True)\n"
            f"OSError: [Errno 30] Read-only file system: '{path}/session_latest'\n"
            f"{lts(minutes - 0.31, 7)}\tERROR scripts.py:1312 -- ray start failed, see the traceback above\n" +
            worker_exit(1, "ray start") +
            "Keeping the container alive for debugging (RLARK_KEEPALIVE=1)...\n")


@scenario
def temp_dir_readonly_mount() -> Scenario:
    sc = Scenario("cause-temp-dir-readonly-mount")
    sc.cluster("gpu-a")
    path = "/mnt/ray-scratch"
    env = [{"name": "RAY_TEMP_DIR", "value": path}]
    mounts = [{"name": "scratch", "mountPath": path, "readOnly": True}]
    vols = [{"name": "scratch", "persistentVolumeClaim": {"claimName": "team-scratch", "readOnly": True}}]
    job = standard_job(sc, workers=2, age_min=34, worker_kw={"env": env, "mounts": mounts, "volumes": vols})
    head = job.head.pods[0]
    m = head.started_min
    counts: list[int | None] = [1] * 87
    head.logs = main_logs(head, rank_lines(head) + prepare_ok(head, m) + ray_head_start(head, m - 0.5) +
                          ray_check(head, 3, counts, m - 0.8) + ray_status(1, 8, m - 16) +
                          rlinf_startup(m - 16.1, 1, 8).replace("{HEAD}", head_ip(head)) +
                          train_progress(m - 17, 9, 1000))
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, _readonly_temp_worker(p, path, 32.5 - p.ordinal * 0.2))
        p.main = running(ts(p.started_min))
    sc.expects("Both rollout workers set RAY_TEMP_DIR to a PVC mounted read-only, so `ray start` cannot create its "
               "session directory and the workers' Ray exits 1; the Head's node check then fails and it trains on "
               "one node. The temp dir is the cause, the check warning and the exits its consequences.",
               first="rlark.ray.temp-dir", includes=["rlark.ray.check-failed", "rlark.ray.worker-exit-nonzero"])
    return sc


@scenario
def temp_dir_previous_only() -> Scenario:
    sc = Scenario("cause-temp-dir-previous-only")
    sc.cluster("gpu-a")
    path = "/scratch/ray"
    env = [{"name": "RAY_TEMP_DIR", "value": path}]
    mounts = [{"name": "scratch", "mountPath": "/scratch"}]
    vols = [{"name": "scratch", "hostPath": {"path": "/data/scratch", "type": "DirectoryOrCreate"}}]
    job = standard_job(sc, workers=3, age_min=42, worker_kw={"env": env, "mounts": mounts, "volumes": vols})
    fill_healthy_logs(job)
    head = job.head.pods[0]
    m = head.started_min
    head.logs = main_logs(head, rank_lines(head) + prepare_ok(head, m) + ray_head_start(head, m - 0.5) +
                          ray_check(head, 4, [2] * 87, m - 0.8) + ray_status(2, 8, m - 16) +
                          rlinf_startup(m - 16.1, 2, 8).replace("{HEAD}", head_ip(head)) +
                          train_progress(m - 17, 14, 1000))
    for p in job.task("rollout").pods[1:]:
        prev = (rank_lines(p) + prepare_ok(p, 40) + worker_connect(p, attempts_unreachable=2) +
                _ray_start_banner(p, 39.6) +
                f"{lts(39.5, 811)}\tERROR services.py:1355 -- Failed to start the raylet: "
                f"PermissionError: [Errno 13] Permission denied: '{path}/sockets/raylet'\n"
                "Some Ray subprocesses exited unexpectedly:\n  raylet [exit code=1]\n\n"
                "Remaining processes will be killed.\n"
                f"Ray worker process exited with code 1\nStopping Ray worker...\n")
        p.prev_logs = {"main": prev}
        p.main_last = terminated(0, "Completed", ts(40), ts(39.4))
        p.main_restarts = 4
        p.main = running(ts(0.6))
        p.logs = main_logs(p, rank_lines(p) + "Executing prepare script...\n"
                           "Obtaining file:///workspace/RLinf\n  Installing build dependencies: started\n")
    sc.expects("Two workers' RAY_TEMP_DIR (/scratch/ray on a hostPath another job created as root) refuses the raylet "
               "socket; the error shows only in their previous logs, their current instances are starting over, "
               "and the Head's node check failed at 2 of 4 nodes.",
               first="rlark.ray.temp-dir", includes=["rlark.ray.check-failed", "rlark.ray.worker-exit-nonzero"])
    return sc


def _hydra_failure(minutes: float) -> str:
    return (f"[{lts(minutes, 12)}][rlinf.runners.embodied_runner][INFO] - building workers for "
            "maniskill_ppo_openvlaoft\n"
            "Error executing job with overrides: ['algorithm.rollout_batch_size=64', "
            "'runner.logger.log_path=/data/logs/ppo-franka-0412']\n"
            "Traceback (most recent call last):\n"
            '  File "/workspace/RLinf/examples/embodiment/train_embodied_agent.py", line 33, in main\n'
            "    batch = cfg.algorithm.rollout_batch_size\n"
            "omegaconf.errors.ConfigAttributeError: Key 'rollout_batch_size' is not in struct\n"
            "    full_key: algorithm.rollout_batch_size\n    object_type=dict\n\n"
            "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.\n"
            "Stopping Ray cluster...\nStopped all 9 Ray processes.\n")


@scenario
def head_hydra_workers_exit() -> Scenario:
    sc = Scenario("cause-head-hydra-workers-exit")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=3, age_min=12)
    fill_healthy_logs(job)
    head = job.head.pods[0]
    m = head.started_min
    n = job.total_nodes
    log = (rank_lines(head) + prepare_ok(head, m) + ray_head_start(head, m - 0.5) +
           ray_check(head, n, [2, 3, n], m - 0.8) + ray_status(n, 8, m - 1.3) +
           rlinf_startup(m - 1.4, n, 8).replace("{HEAD}", head_ip(head)) + _hydra_failure(m - 1.6))
    head.logs = main_logs(head, log)
    head.prev_logs = {"main": log}
    crashloop(head, 1, 3, 1.1)
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, healthy_worker_log(p) + worker_exit(1))
        p.main_last = terminated(0, "Completed", ts(p.started_min), ts(9.5))
        p.main_restarts = 1
        p.main = running(ts(9.3))
    sc.expects("The Head's run script fails in its Hydra config (a key the config does not define) right after the "
               "cluster formed; stopping Ray takes the workers' raylets down, so every worker then prints 'Ray "
               "worker process exited with code 1'. The config error is the answer.",
               first="rlark.run.no-training-signal", includes=["rlark.ray.worker-exit-nonzero"])
    return sc


@scenario
def head_hydra_workers_exit_stamped() -> Scenario:
    sc = Scenario("cause-head-override-workers-gcs-lost")
    sc.cluster("gpu-b")
    job = standard_job(sc, "grpo-math-1121", workers=2, agent="gpu-b", age_min=30)
    fill_healthy_logs(job)
    head = job.head.pods[0]
    m = head.started_min
    n = job.total_nodes
    head.logs = main_logs(head, rank_lines(head) + prepare_ok(head, m) + ray_head_start(head, m - 0.5) +
                          ray_check(head, n, [1, 2, 2, n], m - 0.8, finished=False) + ray_status(n, 8, m - 1.5) +
                          rlinf_startup(m - 1.6, n, 8, config="qwen2.5-1.5b-grpo-megatron").replace(
                              "{HEAD}", head_ip(head)) +
                          f"[{lts(m - 1.8, 3)}][rlinf.config][INFO] - resolving config qwen2.5-1.5b-grpo-megatron\n"
                          "Could not override 'actor.model.tensor_parallel_size'.\n"
                          "To append to your config use +actor.model.tensor_parallel_size=2\n"
                          "Key 'tensor_parallel_size' is not in struct\n"
                          "    full_key: actor.model.tensor_parallel_size\n    object_type=dict\n\n"
                          "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.\n"
                          "Stopping Ray cluster...\n")
    head.main = terminated(1, "Error", ts(m), ts(m - 1.9))
    head.phase = "Running"
    for p in job.task("rollout").pods:
        lost = m - 2.0 - 0.05 * p.ordinal
        p.logs = main_logs(p, healthy_worker_log(p) +
                           f"[{lts(lost, 210)} E 311 311] (raylet) gcs_rpc_client.h:179: Failed to connect to GCS "
                           "within 60 seconds. GCS may have been killed. It's either GCS is terminated by `ray "
                           "stop` or is killed unexpectedly.\n" + worker_exit(1) +
                           "Keeping the container alive for debugging (RLARK_KEEPALIVE=1)...\n")
    sc.expects("The Head's override names a key its Hydra config lacks; the Head stops Ray, and a minute later "
               "both workers' raylets lose the GCS and exit 1 (their lines are stamped after the Head's). The "
               "override is the answer.",
               first="rlark.run.no-training-signal", includes=["rlark.ray.worker-exit-nonzero"])
    return sc


def _pending_head_pvc(sc: Scenario, job: JobM, claim: str, sc_name: str, events: list[tuple[str, str, str]],
                      *, sched_msg: str | None) -> None:
    head = job.head.pods[0]
    c = sc.clusters[head.task.d.agent or "gpu-a"]
    sc.node(head.node or "").used_gpus = 0
    head.node, head.ip, head.phase, head.collect_logs = None, None, "Pending", False
    head.conditions = [condition("PodScheduled", "False", ts(head.started_min), "Unschedulable", sched_msg or "")]
    if sched_msg is not None:
        head.events.append(pod_event(head, "FailedScheduling", sched_msg, head.started_min, 0.7, count=31,
                                     component="default-scheduler"))
    uid = stable_uid("rlark-system", claim)
    c.pvcs.append({"kind": "PersistentVolumeClaim", "apiVersion": "v1",
                   "metadata": meta(claim, "rlark-system", created=ts(head.started_min + 0.1), uid=uid,
                                    annotations={"rlark.io/pvc-owner-task": head.task.full}),
                   "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "200Gi"}},
                            "storageClassName": sc_name, "volumeMode": "Filesystem"},
                   "status": {"phase": "Pending"}})
    for reason, etype, message in events:
        c.extra_events.append(event("rlark-system", kind="PersistentVolumeClaim", name=claim, uid=uid, reason=reason,
                                    etype=etype, component="persistentvolume-controller",
                                    first=ts(head.started_min), last=ts(0.5), count=40, message=message))


@scenario
def head_pvc_no_local_pv() -> Scenario:
    sc = Scenario("cause-head-pvc-no-local-pv")
    sc.cluster("gpu-a")
    claim = "ppo-franka-0412-actor-ckpt"
    mounts = [{"name": "ckpt", "mountPath": "/data/ckpt"}]
    vols = [{"name": "ckpt", "persistentVolumeClaim": {"claimName": claim}}]
    job = standard_job(sc, workers=3, age_min=21, head_kw={"mounts": mounts, "volumes": vols,
                                                           "pvc_map": {claim: "local-nvme"}})
    msg = ("0/8 nodes are available: 8 node(s) didn't find available persistent volumes to bind. preemption: 0/8 "
           "nodes are available: 8 Preemption is not helpful for scheduling.")
    _pending_head_pvc(sc, job, claim, "local-nvme", [
        ("WaitForFirstConsumer", "Normal", "waiting for first consumer to be created before binding")],
        sched_msg=msg)
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 20) +
                           worker_connect(p, attempts_unreachable=80 + p.ordinal, resolves=False, reachable=False))
    sc.expects("The Head's checkpoint claim uses a local-volume StorageClass with no free PersistentVolume on any "
               "node, so the scheduler cannot place the Head; the workers repeat 'Waiting for head to be "
               "reachable'. The unbound PVC is the answer.",
               first="pod.storage.pvc-unbound", includes=["rlark.ray.head-unreachable"])
    return sc


@scenario
def head_pvc_external_provisioner() -> Scenario:
    sc = Scenario("cause-head-pvc-external-provisioner")
    sc.cluster("gpu-b")
    claim = "sac-peg-1121-actor-data"
    mounts = [{"name": "data", "mountPath": "/data"}]
    vols = [{"name": "data", "persistentVolumeClaim": {"claimName": claim}}]
    job = standard_job(sc, "sac-peg-1121", workers=2, agent="gpu-b", age_min=48,
                       head_kw={"mounts": mounts, "volumes": vols, "pvc_map": {claim: "cephfs"}})
    _pending_head_pvc(sc, job, claim, "cephfs", [
        ("ExternalProvisioning", "Normal", 'Waiting for a volume to be created either by the external provisioner '
         '\'cephfs.csi.ceph.com\' or manually by the system administrator. If volume creation is delayed, please '
         'verify that the provisioner is running and correctly registered.'),
        ("Provisioning", "Normal", 'External provisioner is provisioning volume for claim "rlark-system/'
         f'{claim}"')], sched_msg=None)
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 47) +
                           worker_connect(p, attempts_unreachable=260, resolves=False, reachable=False))
    sc.expects("The Head's data claim has waited 48 minutes for the CephFS provisioner; the scheduler's own events "
               "aged out, only the claim's Pending status and its provisioning events remain. The workers wait "
               "for the Head.",
               first="pod.storage.pvc-unbound", includes=["rlark.ray.head-unreachable"])
    return sc


@scenario
def micromamba_prepare_keepalive() -> Scenario:
    sc = Scenario("cause-micromamba-prepare-keepalive")
    sc.cluster("gpu-b")
    prep = 'eval "$(micromamba shell hook -s bash)" && micromamba activate libero-sim'
    job = standard_job(sc, "ppo-libero-1122", workers=1, agent="gpu-b", age_min=16, extra_tasks=[
        TaskDef("env", role="Env", replicas=2, agent="gpu-b", gpus=2, prepare=prep)])
    fill_healthy_logs(job)
    head = job.head.pods[0]
    head.logs = main_logs(head, head_waiting_log(head, polls=80, stuck_at=2))
    for p in job.task("env").pods:
        p.logs = main_logs(p, rank_lines(p) + "Executing prepare script...\n"
                           "critical libmamba Cannot activate, prefix does not exist at: "
                           "'/opt/micromamba/envs/libero-sim'\n"
                           "Error: Ray CLI is not found. Please ensure Ray is installed.\n"
                           "Keeping the container alive for debugging (RLARK_KEEPALIVE=1)...\n")
    sc.expects("The env Task's prepareScript activates a micromamba prefix its image lacks; the wrapper then reports "
               "no Ray CLI and keeps the container alive, so nothing restarts or exits. The Head waits at 2 of 4.",
               first="rlark.ray.prepare-failed", includes=["rlark.ray.cli-missing"])
    return sc


@scenario
def temp_dir_exported_in_prepare() -> Scenario:
    sc = Scenario("cause-temp-dir-exported-in-prepare")
    sc.cluster("gpu-a")
    prep = "export RAY_TEMP_DIR=/data/raytmp/$RLINF_JOB_NAME && pip install -e /workspace/RLinf --no-deps -q"
    job = standard_job(sc, "sac-cube-1122", workers=2, age_min=11, head_kw={"prepare": prep})
    head = job.head.pods[0]
    m = head.started_min
    log = (rank_lines(head) + prepare_ok(head, m) + "Did not find any active Ray processes.\n" +
           _ray_start_banner(head, m - 0.4) +
           f"{lts(m - 0.41, 88)}\tERROR services.py:1122 -- Failed to start the GCS server: could not create "
           "/data/raytmp/sac-cube-1122/session_latest: Permission denied\n"
           "Traceback (most recent call last):\n"
           '  File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/ray/_private/node.py", line 1129, in '
           "start_head_processes\n    self.start_gcs_server()\n"
           "RuntimeError: Failed to start GCS.\n" +
           ray_check(head, 3, [None] * 45, m - 0.8, finished=False))
    head.logs = main_logs(head, log)
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 10.5) +
                           worker_connect(p, attempts_unreachable=60, resolves=True, reachable=False))
    sc.expects("The Head's prepareScript points RAY_TEMP_DIR at a directory of a shared volume it cannot write, so "
               "the GCS never starts; the node check cannot connect and the workers wait for the Head.",
               first="rlark.ray.temp-dir", includes=["rlark.ray.head-unreachable"])
    return sc


@scenario
def worker_lost_before_nccl_timeout() -> Scenario:
    sc = Scenario("cause-worker-lost-before-nccl-timeout")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=2, age_min=75)
    fill_healthy_logs(job, steps=30)
    w = job.task("rollout").pods[1]
    w.logs = main_logs(w, healthy_worker_log(w) +
                       f"[{lts(31, 302)} E 211 211] (raylet) node_manager.cc:3069: 2 Workers (tasks / actors) "
                       f"killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: "
                       f"7d2e41, IP: {w.ip}) over the last time period.\n"
                       f"[{lts(30.9, 5)} C 211 211] (raylet) node_manager.cc:1012: The raylet exited immediately "
                       "because the Ray agent failed.\n" + worker_exit(1) +
                       "Keeping the container alive for debugging (RLARK_KEEPALIVE=1)...\n")
    head = job.head.pods[0]
    pre = f"(EmbodiedFSDPActor pid=2417, ip={head.ip})"
    head.logs["main"] += (
        train_progress(32, 2, 1000, start=30) +
        f"{pre} [rank0]:[E1120 07:40:05.442871 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective "
        "operation timeout: WorkNCCL(SeqNum=812, OpType=ALLREDUCE, NumelIn=4194304, NumelOut=4194304, "
        "Timeout(ms)=600000) ran for 600031 milliseconds before timing out.\n"
        f"{pre} [rank0]:[E1120 07:40:05.443301 ProcessGroupNCCL.cpp:636] [Rank 0] To avoid data inconsistency, we "
        "are taking the entire process down.\n")
    sc.expects("Rollout-1's raylet was OOM-killed and its Ray process exited at 07:29; ten minutes later the "
               "Head's all-reduce timed out waiting for it. The earlier worker loss is the answer, the NCCL "
               "timeout its consequence.",
               first="rlark.ray.worker-exit-nonzero", includes=["rlark.run.nccl"])
    return sc


# =================================================================================================== seen-*


@scenario
def replaced_after_node_not_ready() -> Scenario:
    sc = Scenario("seen-worker-replaced-node-not-ready")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=3, age_min=180)
    fill_healthy_logs(job, steps=80)
    p = job.task("rollout").pods[2]
    old_node, old_uid = p.node or "", p.uid
    sc.node(old_node).ready = False
    sc.node(old_node).used_gpus = 0
    new = sc.node("gpu-a-node-08")
    new.used_gpus = 8
    p.node, p.ip = new.name, new.ip
    p.uid_salt = "after-eviction"
    p.started_min = 52
    p.logs = main_logs(p, healthy_worker_log(p))
    for reason, etype, msg, at in (
            ("NodeNotReady", "Warning", "Node is not ready", 58.2),
            ("TaintManagerEviction", "Normal", f"Marking for deletion Pod rlark-system/{p.name}", 53.1),
            ("Killing", "Normal", "Stopping container main", 53.0)):
        p.events.append(event("rlark-system", kind="Pod", name=p.name, uid=old_uid, reason=reason, etype=etype,
                              message=msg, first=ts(at), component="node-controller" if etype == "Warning" else
                              "taint-eviction-controller", host=old_node))
    sc.expects("gpu-a-node-03 went NotReady; after the taint manager evicted rollout-2 the StatefulSet recreated it "
               "under the same name on gpu-a-node-08 (new UID, IP and node). The events still name the old UID.",
               first="rlark.worker.replaced")
    return sc


@scenario
def replaced_after_preemption() -> Scenario:
    sc = Scenario("seen-worker-replaced-preempted")
    sc.cluster("gpu-b")
    job = standard_job(sc, "dpo-vla-1122", workers=2, agent="gpu-b", age_min=300,
                       worker_kw={"role": "Actor"})
    fill_healthy_logs(job, steps=120)
    p = job.task("rollout").pods[0]
    sc.node(p.node or "").used_gpus = 0
    new = sc.node("gpu-b-node-05")
    new.used_gpus = 8
    p.node, p.ip = new.name, new.ip
    p.uid_salt = "after-preemption"
    p.started_min = 95
    p.logs = main_logs(p, healthy_worker_log(p))
    # Events kept by an aggregator that drops involvedObject.uid and source.host: only their times tell.
    for reason, msg, at in (
            ("Preempted", "Preempted by pod 3f0c2a1e-5b7d-4e0a-9c31-7a9e2d4b6f10 on node gpu-b-node-02", 96.0),
            ("Killing", "Stopping container main", 95.9)):
        p.events.append(event("rlark-system", kind="Pod", name=p.name, uid="", reason=reason, etype="Warning"
                              if reason == "Preempted" else "Normal", message=msg, first=ts(at),
                              component="default-scheduler" if reason == "Preempted" else "kubelet"))
    sc.expects("A higher-priority inference pod preempted rollout-0; the StatefulSet recreated it under the same name "
               "on another node. The event export kept neither UIDs nor hosts: only that the preemption happened "
               "before the current pod was created says it is a new instance.",
               first="rlark.worker.replaced")
    return sc


@scenario
def replaced_seen_by_ray() -> Scenario:
    sc = Scenario("seen-worker-replaced-ray-node-dead")
    sc.cluster("gpu-b")
    job = standard_job(sc, "ppo-libero-1121", workers=2, agent="gpu-b", age_min=200)
    fill_healthy_logs(job, steps=90)
    p = job.task("rollout").pods[0]
    old_ip = p.ip
    new = sc.node("gpu-b-node-06")
    sc.node(p.node or "").used_gpus = 0
    new.used_gpus = 8
    p.node, p.ip = new.name, new.ip
    p.uid_salt = "rescheduled"
    p.started_min = 70
    p.logs = main_logs(p, healthy_worker_log(p))
    head = job.head.pods[0]
    head.logs["main"] += (
        f"[{lts(72, 118)} W 93 93] (raylet) node_manager.cc:1149: The node with node id: 9b1f0c7a2e5d4f38b6a1 and "
        f"address: {old_ip} and node name: {old_ip} has been marked dead because the detector has missed too many "
        "heartbeats from it.\n"
        f"[{lts(71.6, 40)}][rlinf.scheduler.cluster][WARNING] - node rank 1 lost, waiting for it to re-register\n"
        f"[{lts(69.2, 8)}][rlinf.scheduler.cluster][INFO] - node rank 1 re-registered from {p.ip}\n" +
        train_progress(68, 5, 1000, start=90))
    sc.expects("The Head's Ray marked the node at the old address dead and rank 1 came back from another address: "
               "rollout-0 was recreated on another node. No event or stale mirror is left, only the Head's log "
               "and the pod's new node, IP and creation time.",
               first="rlark.worker.replaced")
    return sc


def _robot_prefix(env: PodM) -> str:
    return f"(EnvWorker pid=701, ip={domain_ip(env) if env.task.job.domain else env.ip})"


@scenario
def robot_estop_zh() -> Scenario:
    sc = Scenario("seen-robot-estop-zh")
    job = robot_job(sc, "sac-peg-franka-1121", "franka-panda-02", domain="franka-lab")
    head = job.head.pods[0]
    pre = _robot_prefix(job.task("env").pods[0])
    head.logs["main"] += (
        train_progress(30, 12, 2000) +
        f"{pre} [{lts(18, 2)}][franka_env][INFO] - 控制频率 20Hz，相机超时阈值 5000ms\n"
        f"{pre} [{lts(17.5, 331)}][franka_env][ERROR] - 机械臂急停已触发，当前状态未知，停止发送运动指令\n"
        f"{pre} [{lts(17.5, 402)}][franka_env][WARNING] - 第 1/3 次尝试自动恢复\n"
        f"{pre} Traceback (most recent call last):\n"
        f'{pre}   File "/workspace/RLinf/rlinf/envs/realworld/franka/franka_env.py", line 412, in step\n'
        f"{pre} RuntimeError: robot state is not READY\n"
        f"{lts(17.4, 554)}\tERROR worker.py:422 -- Unhandled error (suppress with "
        "'RAY_IGNORE_UNHANDLED_ERRORS=1'): ray::EnvWorker.interact()\n"
        "RuntimeError: robot state is not READY\n")
    sc.expects("The lab's Franka wrapper logs in Chinese that the arm's e-stop fired and its state is unknown, then "
               "tries to recover automatically: safety first, before the RuntimeError that follows.",
               first="rlark.run.robot-device")
    return sc


@scenario
def robot_serial_gripper_zh() -> Scenario:
    sc = Scenario("seen-robot-serial-gripper-zh")
    job = robot_job(sc, "dagger-so101-1121", "so101-arm-03", age_min=35)
    head = job.head.pods[0]
    env = job.task("env").pods[0]
    pre = _robot_prefix(env)
    env.logs["main"] += (
        f"[{lts(20, 5)}] 初始化 SO-101 机械臂, 端口 /dev/ttyACM0, 波特率 1000000\n"
        f"[{lts(19.9, 77)}] 夹爪连接超时，重试 3/3\n"
        f"[{lts(19.9, 78)}] 串口 /dev/ttyACM0 打开失败: [Errno 2] 没有那个文件或目录\n"
        f"[{lts(19.8, 12)}] 进入降级模式: 仅记录观测\n")
    head.logs["main"] += (
        train_progress(30, 4, 500) +
        f"{pre} [{lts(19.7, 3)}][rlinf.envs.realworld][ERROR] - 机器人连接失败，等待操作员确认\n"
        "Traceback (most recent call last):\n"
        '  File "/workspace/RLinf/rlinf/runners/embodied_runner.py", line 188, in run\n'
        "ray.exceptions.RayTaskError(ConnectionError): ray::EnvWorker.interact()\n")
    sc.expects("The SO-101 gripper times out and the serial port cannot be opened (Chinese messages of the lab's "
               "driver, in the env worker's own log and echoed on the Head): a device error, safety first.",
               first="rlark.run.robot-device")
    return sc


@scenario
def robot_rtde_en() -> Scenario:
    sc = Scenario("seen-robot-rtde-lost-en")
    job = robot_job(sc, "ppo-ur5-pick-1121", "ur5e-01", age_min=50)
    head = job.head.pods[0]
    pre = _robot_prefix(job.task("env").pods[0])
    head.logs["main"] += (
        train_progress(45, 20, 3000) +
        f"{pre} [{lts(25, 1)}][ur_env][INFO] - servoJ lookahead=0.1 gain=300\n"
        f"{pre} [{lts(24.8, 9)}][ur_env][ERROR] - ur_rtde: RTDEControlInterface: lost connection to controller "
        "192.168.10.21:30004 after 2.0 s\n"
        f"{pre} [{lts(24.8, 10)}][ur_env][WARNING] - safety mode PROTECTIVE_STOP detected, servoJ refused\n"
        f"{pre} [{lts(24.8, 11)}][ur_env][INFO] - reconnecting in 2s\n" +
        train_progress(24, 3, 3000, start=20))
    sc.expects("The UR5e's RTDE control interface lost its controller and the arm is in protective stop while "
               "training goes on: a robot error, safety first, though training still prints progress afterwards.",
               first="rlark.run.robot-device")
    return sc


# =================================================================================================== truth-*


@scenario
def spec_empty_tasks() -> Scenario:
    sc = Scenario("truth-spec-empty-tasks")
    sc.cluster("gpu-a")
    job = sc.job("ppo-empty-1121", [], age_min=6)
    job.phase = "Pending"
    sc.expects("The Job was applied with `spec.tasks: []`: no Head task, nothing to route, no pods.",
               first="rlark.spec.head-invalid", last_stage="submitted",
               excludes=["rlark.task.no-worker", "rlark.task.unrouted"])
    return sc


# =================================================================================================== gap-*


@scenario
def member_cluster_empty() -> Scenario:
    sc = Scenario("gap-member-cluster-empty")
    sc.cluster("gpu-a")
    sc.cluster("gpu-b", collected=False)
    job = standard_job(sc, "ppo-xdc-1121", workers=2, age_min=25, extra_tasks=[
        TaskDef("env", role="Env", replicas=2, agent="gpu-b", gpus=4)])
    fill_healthy_logs(job)
    head = job.head.pods[0]
    head.logs = main_logs(head, head_waiting_log(head, polls=130, stuck_at=3))

    def empty_member_dir(sc_: Scenario) -> None:
        out = SCENARIOS / sc_.name / "bundle"
        (out / "gpu-b").mkdir(parents=True, exist_ok=True)
        (out / "gpu-b" / ".gitkeep").write_text("", encoding="utf-8")  # git keeps no empty directory
        snap = out / "snapshot.yaml"
        snap.write_text(snap.read_text(encoding="utf-8").replace("- gpu-a\n", "- gpu-a\n- gpu-b\n"),
                        encoding="utf-8")

    POST_WRITE[sc.name] = empty_member_dir
    sc.expects("The env Task runs on gpu-b, but the bundle's gpu-b directory is empty (its context was not "
               "readable when the dump was taken); the Head waits at 3 of 5 nodes. The answer may depend on what "
               "gpu-b would show, so the report is incomplete and says what was not collected.",
               first="rlark.ray.waiting-for-nodes", incomplete=True)
    return sc


@scenario
def head_log_missing() -> Scenario:
    sc = Scenario("gap-head-log-missing")
    sc.cluster("gpu-a")
    job = standard_job(sc, "grpo-vla-1122", workers=3, age_min=14)
    head = job.head.pods[0]
    head.collect_logs = False
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 13) +
                           worker_connect(p, attempts_unreachable=70 + p.ordinal, resolves=True, reachable=False))
    sc.expects("The Head pod runs but its log was not collected; every worker repeats 'Waiting for head to be "
               "reachable'. What stopped the Head can only be read in its log, so the report is incomplete.",
               first="rlark.ray.head-unreachable", incomplete=True)
    return sc


POST_WRITE: dict[str, Callable[[Scenario], None]] = {}


def main(argv: list[str] | None = None) -> int:
    SCENARIOS.mkdir(parents=True, exist_ok=True)
    for d in SCENARIOS.iterdir():
        if d.is_dir() and d.name.startswith(PREFIXES):
            shutil.rmtree(d)
    names: set[str] = set()
    for fn in REGISTRY:
        sc = fn()
        if sc.name in names or not sc.name.startswith(PREFIXES):
            raise SystemExit(f"{sc.name}: duplicate or not a {'/'.join(PREFIXES)} name")
        names.add(sc.name)
        sc.write()
        if sc.name in POST_WRITE:
            POST_WRITE[sc.name](sc)
    print(f"wrote {len(names)} bundles", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
