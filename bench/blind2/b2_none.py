# ruff: noqa: E501  (log and event text is quoted verbatim, one line per log line)
"""Situations whose right answer is `none`: healthy, finished or still-starting targets."""

from __future__ import annotations

from pathlib import Path

import gen_k8s as k
import gen_logs as L
from b2_ci import a2, rpod, single, wfpod
from b2_common import S0, S1, S3, Scenario
from b2_rlark import NPU_IMG, NPU_PREP, RUN, job, npu_nodes, rotated, run_begin
from gen_ci import CHECKOUT, NS, CIBundle, Ctr, Runner, cpu_node, runner_log, write_ci_bundle
from gen_ci import Ev as CEv
from gen_k8s import at, mins, sec
from gen_rlark import AgentSpec, Ev, JobSpec, PodSpec, TaskSpec, write_job_bundle


def w_reached_after_retries(out: Path) -> None:
    c = at(2026, 12, 3, 4, 0)
    t = c + mins(5)
    run = [*run_begin(t, 3, 24), *L.progress(t, 1, 12, 600, 42.0)]
    j = job("ppo-slowhead-1203", c, c + mins(15), run=run, owner="renjie",
            worker_log={0: {"waits": 14}, 1: {"waits": 11}},
            head_log={"counts": [1, 1, 1, 2, 3]})
    write_job_bundle(j, out)


def w_npu_pulling(out: Path) -> None:
    c = at(2026, 12, 3, 5, 0)
    sel = {"rlinf.io/pool": "ascend-910b-math"}

    def pod(i: int, node: str) -> PodSpec:
        return PodSpec(i, node, phase="Pending", main=k.waiting("ContainerCreating"),
                       events=[Ev("Pulling", f'Pulling image "{NPU_IMG}"', 5, etype="Normal")])
    pull = {"pullProgress": [{"node": f"npu-b-910b-0{i}", "image": NPU_IMG, "progress": f"{p}%",
                              "downloaded": f"{p * 0.284:.1f}GB", "total": "28.4GB"} for i, p in ((1, 23), (2, 19))]}
    dev = ("huawei.com/Ascend910", 8)
    j = JobSpec("qwen-dapo-npu-1203", c, c + mins(4), owner="liuchang", domain="math-rl", agent="npu-b",
                phase="Pending",
                tasks=[TaskSpec("actor", "Actor", head=True, image=NPU_IMG, selector=sel, device=dev, prepare=NPU_PREP,
                                run=RUN, phase="Pending", status_extra=pull, pods=[pod(0, "npu-b-910b-01")]),
                       TaskSpec("rollout", "Rollout", replicas=1, image=NPU_IMG, selector=sel, device=dev,
                                prepare=NPU_PREP, phase="Pending", status_extra=pull, pods=[pod(0, "npu-b-910b-02")])],
                agents={"npu-b": AgentSpec(npu_nodes(3))})
    write_job_bundle(j, out)


def w_head_waiting_90s(out: Path) -> None:
    c = at(2026, 12, 3, 6, 0)
    j = job("ppo-fourrole-1203", c, c + mins(3) + sec(40), run=None, workers=3, owner="kongwei",
            head_log={"counts": [1, 1, 2, 2, 2, 2, 2, 2, 2]})
    for i in (1, 2):
        p = j.tasks[1].pods[i]
        p.log = "\n".join([f"RLINF_NODE_RANK: {i + 1}", "SSH public key injected into authorized_keys",
                           "Executing prepare script...", "Obtaining file:///workspace/RLinf",
                           "  Installing build dependencies: started"])
    write_job_bundle(j, out)


def w_zero_counters(out: Path) -> None:
    c = at(2026, 12, 3, 7, 0)
    t = c + mins(3)
    run = [*run_begin(t, 3, 24),
           "(EmbodiedFSDPActor pid=2231, ip=10.0.1.12) [W1203 07:03:41.118] ProcessGroupNCCL.cpp:1168] Warning: WARNING: process group has NOT been destroyed before we destruct ProcessGroupNCCL. On normal program exit, the application should call destroy_process_group to ensure that any pending NCCL operations have finished in this process.",
           "(EnvWorker pid=3107, ip=10.0.1.13) [ManiSkill] env errors: 0, resets failed: 0, nan observations: 0"]
    for i in range(1, 41):
        run += L.progress(t, i, i, 800, 40.0)
        if i % 10 == 0:
            run.append(L.rl(t + sec(40 * i), "rlinf.runners.embodied_runner", "INFO",
                            f"step {i}: nan_grad_count=0 inf_loss_count=0 oom_retries=0 failed_rollouts=0/512 "
                            f"env_errors=0 error_rate=0.000 timeout_episodes=0"))
    j = job("ppo-counters-1203", c, c + mins(31), run=run, owner="xuan")
    write_job_bundle(j, out)


def w_resumed(out: Path) -> None:
    c = at(2026, 12, 3, 8, 0)
    name = "ppo-resume-1203"
    stop_at = c + mins(120)
    resume = mins(130).total_seconds()
    t = c + mins(134)
    run = [*run_begin(t, 3, 24),
           L.rl(t + sec(5), "rlinf.utils.checkpoint", "INFO", "Resuming from /data/results/ppo-resume-1203/checkpoints/global_step_150"),
           *L.progress(t, 151, 170, 600, 42.0)]
    j = job(name, c, c + mins(150), run=run, owner="yanli",
            head_log={"t0": t - mins(2)},
            task={"mounts": [{"name": "results", "mountPath": "/data/results"}],
                  "volumes": [{"name": "results", "persistentVolumeClaim": {"claimName": f"{name}-results"}}]})
    old: list[dict[str, object]] = []
    for tname, ordinal in (("actor", 0), ("rollout", 0), ("rollout", 1)):
        pod = f"{name}-{tname}-{ordinal}"
        u = k.uid("pod", name, tname, str(ordinal), "before-stop")
        old.append(k.event("Pod", "rlark-system", pod, u, "Killing", "Stopping container main", stop_at,
                           etype="Normal", host="gpu-a-node-01"))
    for tk in j.tasks:
        tk.created = resume
        for p in tk.pods:
            p.created = 40.0
    j.agents["gpu-a"].extra_events = old
    write_job_bundle(j, out)


def w_ray_spill(out: Path) -> None:
    c = at(2026, 12, 3, 9, 0)
    t = c + mins(3)
    run = [*run_begin(t, 3, 24),
           "(raylet) [2026-12-03 09:03:30,441 I 412 412] (raylet) local_object_manager.cc:490: :info_message:Spilled 2148 MiB, 18 objects, write throughput 611 MiB/s. Set RAY_verbose_spill_logs=0 to disable this message.",
           *L.progress(t, 1, 30, 500, 41.0),
           "(raylet) [2026-12-03 09:24:02,118 I 412 412] (raylet) local_object_manager.cc:490: :info_message:Spilled 4301 MiB, 37 objects, write throughput 702 MiB/s.",
           *L.progress(t, 31, 45, 500, 41.0)]
    ray_warn = ["2026-12-03 09:01:41,902\tWARNING services.py:2152 -- WARNING: The object store is using /tmp instead of "
                "/dev/shm because /dev/shm has only 67108864 bytes available. This will harm performance! You may be "
                "able to free up space by deleting files in /dev/shm. If you are inside a Docker container, you can "
                "increase /dev/shm size by passing '--shm-size=10.24gb' to 'docker run' (or add it to the run_options "
                "list in a Ray cluster config). Make sure to set this to more than 30% of available RAM."]
    j = job("video-ppo-1203", c, c + mins(35), run=run, owner="gaoyang",
            head_log={"extra_after_rank": ray_warn})
    write_job_bundle(j, out)


def w_rotated_healthy(out: Path) -> None:
    c = at(2026, 12, 3, 9, 30)
    t = c + mins(60 * 30)
    j = job("ppo-marathon-1203", c, t + sec(40 * 60 + 20), run=[], owner="tianyu",
            head_pod={"log": "\n".join(rotated(t, 2700, 2760, 5000))})
    write_job_bundle(j, out)


def w_ci_succeeded(out: Path) -> None:
    c = at(2026, 12, 3, 10, 0)
    steps = [("actions/checkout@v4", ["Fetching the repository",
                                      "Error: fetch failed: The remote end hung up unexpectedly (attempt 1 of 3)",
                                      "Waiting 11 seconds before trying again", *CHECKOUT[5:]]),
             ("pre-commit run --all-files", ["ruff (legacy alias)......................................................Passed",
                                             "ruff format..............................................................Passed",
                                             "mypy.....................................................................Passed",
                                             "codespell................................................................Passed",
                                             "Found 0 errors in 312 files (checked 312 source files)"]),
             ("pytest -q tests/lint", ["..........x.x..........                                                 [100%]",
                                       "XFAIL tests/lint/test_headers.py::test_license_header_on_generated_files - generated stubs carry no header",
                                       "23 passed, 2 xfailed in 4.12s"]),
             ("python tools/check_error_codes.py", ["EI0002 EI0006 EI0019 EL0004: documented", "OK: 0 undocumented error codes, 0 failures"])]
    single(out, name="linux-amd64-cpu-8-f9x2k-runner-w3e7r", c=c, cap=c + mins(6), steps=steps, result="Succeeded",
           job="lint", scale="linux-amd64-cpu-8", node="cpu-x86-02",
           nodes=[cpu_node(f"cpu-x86-{i + 1:02d}", f"192.168.23.{11 + i}") for i in range(3)],
           selector={"ascend-ci/cpu": "x86"}, end=c + mins(5))


def w_ci_idle(out: Path) -> None:
    c = at(2026, 12, 3, 11, 0)
    rn = "linux-aarch64-a2-1-kq7xv-runner-n6q2d"
    pod = rpod(rn, c, "npu-a2-03", log="\n".join(
        ["", "√ Connected to GitHub", "", "Current runner version: '2.330.0'",
         f"{(c + sec(20)).strftime('%Y-%m-%d %H:%M:%SZ')}: Listening for Jobs"]))
    write_ci_bundle(CIBundle(c + mins(2), a2(), [pod], [Runner(rn, c - sec(1), job=None)]), out)


def w_ci_model_loading(out: Path) -> None:
    c = at(2026, 12, 3, 12, 0)
    rn = "linux-aarch64-a2-4-j2k8h-runner-m8x4f"
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest -sv tests/e2e/multicard/test_deepseek_v2_lite.py", [
                 "collected 2 items",
                 "INFO 12-03 12:02:31 [__init__.py:235] Platform plugin ascend is activated",
                 "(Worker_TP0 pid=4410) INFO 12-03 12:03:02 [default_loader.py:262] Loading weights took 0.00 seconds (first shard mapped)",
                 "Loading safetensors checkpoint shards:   0% Completed | 0/4 [00:00<?, ?it/s]",
                 "Loading safetensors checkpoint shards:  25% Completed | 1/4 [01:41<05:03, 101.2s/it]",
                 "Loading safetensors checkpoint shards:  50% Completed | 2/4 [03:19<03:18, 99.4s/it]"])]
    log = runner_log(start=c + sec(16), job="e2e-multicard (a2-4)", steps=steps, result=None, step_s=200)
    runner = rpod(rn, c, "npu-a2-01", log=log)
    res = {"limits": {"cpu": "64", "memory": "256Gi", "huawei.com/Ascend910": "4"},
           "requests": {"cpu": "64", "memory": "256Gi", "huawei.com/Ascend910": "4"}}
    wf = wfpod(rn, c + sec(40), "npu-a2-01", Ctr("job", "swr.cn-southwest-2.myhuaweicloud.com/ascend-ci/vllm-ascend:main-a2", resources=res),
               events=[CEv("Pulled", 'Container image "swr.cn-southwest-2.myhuaweicloud.com/ascend-ci/vllm-ascend:main-a2" already present on machine', 2, etype="Normal")])
    b = CIBundle(c + mins(7), a2(), [runner, wf], [Runner(rn, c - sec(1), job="e2e-multicard (a2-4)",
                                                          scale_set="linux-aarch64-a2-4")])
    write_ci_bundle(b, out)


SCENARIOS = [
    Scenario("none-rlark-head-reached-after-retries", "none", w_reached_after_retries,
             "Workers needed 14 and 11 'Waiting for head to be reachable' attempts, then reached the Head; Ray has 3 of 3 nodes and training is at step 12.",
             S0 + " § Ray 初始化或组网失败 (随后出现可达信息或重复等待信息: 可达即完成)",
             "job/ppo-slowhead-1203", "none", last_stage="training-signal", healthy=True),
    Scenario("none-rlark-npu-pulling-four-minutes", "none", w_npu_pulling,
             "An Ascend job submitted four minutes ago with a 28 GB image: both pods scheduled and pulling (about 20%), no error.",
             S0 + " § 已出现 Worker，但仍为 Pending (不要把 Pod 已创建当作应用已启动)",
             "job/qwen-dapo-npu-1203", "none", last_stage="scheduled", healthy=True),
    Scenario("none-rlark-head-waiting-three-minutes", "none", w_head_waiting_90s,
             "Three minutes after submission the Head counts 2 of 4 nodes; two workers are still in their prepare script (pip building RLinf).",
             S0 + " § Ray 初始化或组网失败 (Head 启动和节点检查: 对照预期副本数检查各 Worker 是否已经…完成准备脚本)",
             "job/ppo-fourrole-1203", "none", last_stage="ray-cluster-forming", healthy=True),
    Scenario("none-rlark-zero-error-counters", "none", w_zero_counters,
             "Healthy training at step 40 whose metric lines are full of zero counters (nan_grad_count=0, oom_retries=0, env_errors=0, error_rate=0.000) and a PyTorch destroy_process_group warning.",
             S0 + " § Worker 异常或日志显示进程失败 (定位第一条错误，而不是只看最后一行)",
             "job/ppo-counters-1203", "none", last_stage="training-signal", healthy=True),
    Scenario("none-rlark-resumed-old-instance-events", "none", w_resumed,
             "The job was stopped and resumed 20 minutes ago: the events still show 'Stopping container main' for the previous pod instances; the new pods resumed from step 150 and train at step 170.",
             S0 + " § Job 与 Worker 状态不一致 (停止或恢复 Job 后短暂不一致是正常的); § 停止后仍看到 Worker (区分历史 Worker 信息与仍在运行的 Pod)",
             "job/ppo-resume-1203", "none", last_stage="training-signal", healthy=True),
    Scenario("none-rlark-ray-spill-info", "none", w_ray_spill,
             "Healthy training at step 45 with Ray's informational object-spilling messages and its start-up warning that the object store uses /tmp because /dev/shm is 64 MB.",
             S1 + " § 处理没有 RLinf 训练信号的任务 (训练信号存在); CONTRACT §4 rlark.ray.object-store-full needs full or failed spilling",
             "job/video-ppo-1203", "none", last_stage="training-signal", healthy=True),
    Scenario("none-rlark-rotated-log-healthy", "none", w_rotated_healthy,
             "A 30-hour run still training (step 2760 of 5000) whose Head log was rotated: no wrapper marker is left, only progress bars and step metrics.",
             S1 + " § 处理没有 RLinf 训练信号的任务 (训练信号存在); " + S0 + " § Job 或 Task 显示 Running (日志页显示 Pod 主容器的日志)",
             "job/ppo-marathon-1203", "none", last_stage="training-signal", healthy=True),
    Scenario("none-ci-lint-succeeded", "none", w_ci_succeeded,
             "A lint job that Succeeded: a checkout fetch retried once, pre-commit all Passed, 'Found 0 errors', two XFAIL tests, an error-code check listing EI codes.",
             S3 + " § 正常流程 (Pending → Running → Succeeded)",
             "pod/linux-amd64-cpu-8-f9x2k-runner-w3e7r", "none", namespace=NS, healthy=True),
    Scenario("none-ci-runner-idle-listening", "none", w_ci_idle,
             "A runner pod started two minutes ago, connected to GitHub and listening for jobs; no job assigned yet.",
             S3 + " § 正常流程",
             "pod/linux-aarch64-a2-1-kq7xv-runner-n6q2d", "none", namespace=NS, last_stage="containers-started", healthy=True),
    Scenario("none-ci-workflow-loading-weights", "none", w_ci_model_loading,
             "A multicard job pod seven minutes old loading checkpoint shards (2 of 4 after three minutes): slow but progressing.",
             S3 + " § 任务耗时异常（模型加载 / checkout）(核对耗时是否明显异常); § 正常流程",
             "pod/linux-aarch64-a2-4-j2k8h-runner-m8x4f-workflow", "none", namespace=NS, last_stage="containers-started", healthy=True),
]
