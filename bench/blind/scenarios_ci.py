# ruff: noqa: E501  (log and event text is quoted verbatim, one line per log line)
"""CI runner scenarios (GitHub ARC on Ascend NPU and x86 CPU nodes)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import gen_k8s as k
from gen_ci import (
    CHECKOUT,
    NPU_SMI,
    NS,
    RUNNER_IMG,
    CIBundle,
    CIPod,
    Ctr,
    Ev,
    Runner,
    cpu_node,
    npu_node,
    runner_log,
    write_ci_bundle,
)
from gen_k8s import Scenario, at, mins, sec

S3 = "seeds/003_c40242c02c0bfd09.txt (runner pod 任务失败案例参考)"
VLLM_IMG = "swr.cn-southwest-2.myhuaweicloud.com/ascend-ci/vllm-ascend:main-a2"
RES = {"limits": {"cpu": "2", "memory": "4Gi"}, "requests": {"cpu": "500m", "memory": "1Gi"}}
HOOK_ENV = [{"name": "ACTIONS_RUNNER_CONTAINER_HOOKS", "value": "/home/runner/k8s/index.js"},
            {"name": "ACTIONS_RUNNER_REQUIRE_JOB_CONTAINER", "value": "true"},
            {"name": "ACTIONS_RUNNER_CONTAINER_HOOK_TEMPLATE", "value": "/home/runner/pod-templates/npu.yaml"}]


def a2_nodes(n: int = 3, **kw: Any) -> list:
    return [npu_node(f"npu-a2-{i + 1:02d}", f"192.168.21.{11 + i}", **kw) for i in range(n)]


def finished(start: datetime, end: datetime, code: int = 1, reason: str = "Error") -> dict[str, Any]:
    return k.terminated(reason, code, start, end)


def runner_pod(name: str, c: datetime, node: str | None, *, log: str | None = None, state: dict | None = None,
               phase: str = "Running", env: list | None = None, image: str = RUNNER_IMG,
               selector: dict | None = None, **kw: Any) -> CIPod:
    ctr = Ctr("runner", image, state=state, resources=RES, command=["/home/runner/run.sh"],
              env=env if env is not None else HOOK_ENV)
    return CIPod(name, node, c, [ctr], phase=phase, runner=name, logs={"runner": log} if log is not None else {},
                 node_selector=selector or {"ascend-ci/npu-type": "a2"}, **kw)


def one_runner(out: Path, *, name: str, c: datetime, cap: datetime, steps: list, result: str | None,
               job: str = "unit-test (a2-1)", nodes: list | None = None, node: str = "npu-a2-02",
               pod_state: dict | None = None, pod_phase: str | None = None, er_phase: str | None = None,
               repo: str = "vllm-project/vllm-ascend", extra_pods: list | None = None, version: str = "2.330.0",
               step_s: float = 30.0, env: list | None = None, scale: str = "linux-aarch64-a2-1",
               selector: dict | None = None, **kw: Any) -> None:
    log = runner_log(start=c + sec(16), job=job, steps=steps, result=result, version=version, step_s=step_s)
    failed = result == "Failed"
    state = pod_state or (finished(c + sec(16), cap - mins(2)) if failed else None)
    phase = pod_phase or ("Failed" if failed else "Running")
    pod = runner_pod(name, c, node, log=log, state=state, phase=phase, env=env, selector=selector, **kw)
    r = Runner(name, c - sec(1), phase=er_phase or ("Failed" if failed else "Running"), job=job, repo=repo,
               scale_set=scale, selector=selector or {"ascend-ci/npu-type": "a2"})
    write_ci_bundle(CIBundle(cap, nodes or a2_nodes(), [pod] + (extra_pods or []), [r]), out)


# ---------------------------------------------------------------- workflow pods (container hooks)

def wf_pod(runner: str, c: datetime, node: str | None, ctr: Ctr, **kw: Any) -> CIPod:
    return CIPod(f"{runner}-workflow", node, c, [ctr], workflow_of=runner, ip="172.16.146.57",
                 node_selector={"ascend-ci/npu-type": "a2"}, **kw)


def runner_waiting(name: str, c: datetime, node: str, job: str) -> CIPod:
    log = "\n".join(["", "√ Connected to GitHub", "", "Current runner version: '2.330.0'",
                     f"{(c + sec(20)).strftime('%Y-%m-%d %H:%M:%SZ')}: Listening for Jobs",
                     f"{(c + sec(23)).strftime('%Y-%m-%d %H:%M:%SZ')}: Running job: {job}"])
    return runner_pod(name, c, node, log=log)


def w_invalid_image(out: Path) -> None:
    c = at(2026, 11, 20, 6, 0)
    rn = "linux-aarch64-a2-1-kq7xv-runner-m2d9q"
    img = "swr.cn-southwest-2.myhuaweicloud.com/ascend-ci/vllm-ascend:main-a2 "
    msg = f'Failed to apply default image tag "{img}": couldn\'t parse image name "{img}": invalid reference format'
    wf = wf_pod(rn, c + sec(40), "npu-a2-02", Ctr("job", img, state=k.waiting("InvalidImageName", msg), pulled=False),
                phase="Pending", events=[Ev("InspectFailed", msg, 2, 300, 27),
                                         Ev("Failed", "Error: InvalidImageName", 2, 300, 27)])
    b = CIBundle(c + mins(6), a2_nodes(), [runner_waiting(rn, c, "npu-a2-02", "e2e-test (a2-1)"), wf],
                 [Runner(rn, c - sec(1), job="e2e-test (a2-1)")])
    write_ci_bundle(b, out)


def w_config_error(out: Path) -> None:
    c = at(2026, 11, 20, 7, 0)
    rn = "linux-aarch64-a2-1-kq7xv-runner-r8t3w"
    msg = 'secret "modelscope-token" not found'
    ctr = Ctr("job", VLLM_IMG, state=k.waiting("CreateContainerConfigError", msg),
              env=[{"name": "MODELSCOPE_API_TOKEN", "valueFrom": {"secretKeyRef": {"name": "modelscope-token",
                                                                                   "key": "token"}}}])
    wf = wf_pod(rn, c + sec(35), "npu-a2-01", ctr, phase="Pending",
                events=[Ev("Failed", f"Error: {msg}", 16, 420, 33)])
    b = CIBundle(c + mins(8), a2_nodes(), [runner_waiting(rn, c, "npu-a2-01", "multicard-test (a2-2)"), wf],
                 [Runner(rn, c - sec(1), job="multicard-test (a2-2)")])
    write_ci_bundle(b, out)


def w_poststart(out: Path) -> None:
    c = at(2026, 11, 20, 8, 0)
    rn = "linux-aarch64-a3-2-p4n7c-runner-h6k2z"
    hook = ("Exec lifecycle hook ([/bin/sh -c npu-smi info &> /dev/null; echo ready > /tmp/npu-ready]) for Container "
            '"job" in Pod "{}-workflow_arc-runners({})" failed - error: rpc error: code = Unknown desc = failed to drain '
            "exec process \"6f0c2a1d\" io: failed to drain exec process io in 2s, message: \"\"".format(rn, k.uid("x", rn)))
    ctr = Ctr("job", VLLM_IMG.replace("a2", "a3"),
              state=k.terminated("Error", 137, c + sec(50), c + sec(53)))
    wf = wf_pod(rn, c + sec(45), "npu-a3-01", ctr, phase="Failed",
                events=[Ev("FailedPostStartHook", hook, 7), Ev("Killing", 'FailedPostStartHook', 7, etype="Normal")])
    wf.node_selector = {"ascend-ci/npu-type": "a3"}
    nodes = [npu_node(f"npu-a3-{i + 1:02d}", f"192.168.22.{11 + i}", npu_type="a3", n=16) for i in range(2)]
    log = runner_log(start=c + sec(16), job="e2e-multicard (a3-2)", steps=[
        ("actions/checkout@v4", CHECKOUT),
        ("Initialize containers", ["##[error]Error: failed to create the job pod: container \"job\": Error (exit code 137) - Likely OOM",
                                   "##[error]Executing the custom container implementation failed. Please contact your self hosted runner administrator."])],
        result="Failed")
    rp = runner_pod(rn, c, "npu-a3-01", log=log, state=finished(c + sec(16), c + mins(2)), phase="Failed",
                    selector={"ascend-ci/npu-type": "a3"})
    b = CIBundle(c + mins(4), nodes, [rp, wf], [Runner(rn, c - sec(1), phase="Failed", job="e2e-multicard (a3-2)",
                                                       scale_set="linux-aarch64-a3-2",
                                                       selector={"ascend-ci/npu-type": "a3"})])
    write_ci_bundle(b, out)


def w_wf_oom(out: Path) -> None:
    c = at(2026, 11, 20, 9, 0)
    rn = "linux-aarch64-a2-1-kq7xv-runner-b5v8p"
    ctr = Ctr("job", VLLM_IMG, state=k.terminated("OOMKilled", 137, c + mins(1), c + mins(17)),
              resources={"limits": {"cpu": "24", "memory": "64Gi", "huawei.com/Ascend910": "1"},
                         "requests": {"cpu": "24", "memory": "64Gi", "huawei.com/Ascend910": "1"}})
    wf = wf_pod(rn, c + sec(40), "npu-a2-03", ctr, phase="Failed")
    log = runner_log(start=c + sec(16), job="ut (a2-1)", steps=[
        ("actions/checkout@v4", CHECKOUT),
        ("pytest -sv tests/ut --durations=20", ["============================= test session starts ==============================",
                                                 "platform linux -- Python 3.11.13, pytest-8.3.5, pluggy-1.5.0",
                                                 "collected 1312 items",
                                                 "tests/ut/attention/test_attention_v1.py ........................ [  1%]",
                                                 "tests/ut/ops/test_fused_moe.py ....................",
                                                 "##[error]The operation was canceled."])],
        result="Failed", step_s=900)
    rp = runner_pod(rn, c, "npu-a2-03", log=log, state=finished(c + sec(16), c + mins(18)), phase="Failed")
    b = CIBundle(c + mins(20), a2_nodes(), [rp, wf], [Runner(rn, c - sec(1), phase="Failed", job="ut (a2-1)")])
    write_ci_bundle(b, out)


def w_pull_slow(out: Path) -> None:
    c = at(2026, 11, 20, 10, 0)
    rn = "linux-aarch64-a2-1-kq7xv-runner-z3c6f"
    img = "ghcr.io/inclusionai/areal_npu:v1.0.5-a2"
    wf = wf_pod(rn, c + sec(40), "npu-a2-02", Ctr("job", img, state=k.waiting("ContainerCreating"), pulled=False),
                phase="Pending", events=[Ev("Pulling", f'Pulling image "{img}"', 3, etype="Normal")])
    b = CIBundle(c + mins(58), a2_nodes(), [runner_waiting(rn, c, "npu-a2-02", "areal-e2e (a2-1)"), wf],
                 [Runner(rn, c - sec(1), job="areal-e2e (a2-1)", repo="inclusionAI/AReaL")])
    write_ci_bundle(b, out)


# ---------------------------------------------------------------- runner pods

def w_selector_mismatch(out: Path) -> None:
    c = at(2026, 11, 21, 1, 0)
    rn = "linux-aarch64-a3-16-w2q8d-runner-c7m4x"
    msg = ("0/9 nodes are available: 3 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, "
           "6 node(s) didn't match Pod's node affinity/selector. preemption: 0/9 nodes are available: "
           "9 Preemption is not helpful for scheduling.")
    sel = {"ascend-ci/npu-type": "a3-16"}
    pod = runner_pod(rn, c, None, phase="Pending", selector=sel, sched_message=msg,
                     events=[Ev("FailedScheduling", msg, 1, 1500, 6, component="default-scheduler")])
    nodes = a2_nodes(3) + [npu_node(f"npu-a3-{i + 1:02d}", f"192.168.22.{11 + i}", npu_type="a3", n=16)
                           for i in range(3)]
    nodes += [cpu_node(f"master-{i + 1}", f"192.168.20.{2 + i}", taints=[{"key": "node-role.kubernetes.io/control-plane",
                                                                        "effect": "NoSchedule"}]) for i in range(3)]
    b = CIBundle(c + mins(26), nodes, [pod], [Runner(rn, c - sec(1), phase="Pending", job=None,
                                                     scale_set="linux-aarch64-a3-16", selector=sel)])
    write_ci_bundle(b, out)


def w_outofcpu(out: Path) -> None:
    c = at(2026, 11, 21, 2, 0)
    rn = "linux-amd64-cpu-8-f9x2k-runner-q4l7n"
    msg = "Pod was rejected: Node didn't have enough resource: cpu, requested: 16000, used: 41850, capacity: 46000"
    pod = runner_pod(rn, c, "cpu-x86-02", phase="Failed", selector={"ascend-ci/cpu": "x86"},
                     state=k.waiting("ContainerCreating"), reason="OutOfcpu", message=msg, default_events=False,
                     events=[Ev("OutOfcpu", "Node didn't have enough resource: cpu, requested: 16000, used: 41850, capacity: 46000", 0)])
    pod.containers[0].resources = {"limits": {"cpu": "16", "memory": "32Gi"}, "requests": {"cpu": "16", "memory": "32Gi"}}
    pod.containers[0].pulled = False
    nodes = [cpu_node(f"cpu-x86-{i + 1:02d}", f"192.168.23.{11 + i}") for i in range(3)]
    b = CIBundle(c + mins(3), nodes, [pod], [Runner(rn, c - sec(1), phase="Failed", job=None,
                                                    scale_set="linux-amd64-cpu-8", selector={"ascend-ci/cpu": "x86"},
                                                    failures={k.uid("f", rn): True})])
    write_ci_bundle(b, out)


def w_crash_zh(out: Path) -> None:
    c = at(2026, 11, 21, 3, 0)
    rn = "linux-aarch64-a2-1-kq7xv-runner-t1j5s"
    log = "bash: /opt/ci/bootstrap.sh: 没有那个文件或目录"
    pod = runner_pod(rn, c, "npu-a2-01", log=log, phase="Failed",
                     state=finished(c + sec(17), c + sec(17), code=127))
    pod.containers[0].command = ["bash", "/opt/ci/bootstrap.sh"]
    pod.containers[0].image = "swr.cn-southwest-2.myhuaweicloud.com/ascend-ci/actions-runner:2.330.0-npu-hook"
    b = CIBundle(c + mins(2), a2_nodes(), [pod], [Runner(rn, c - sec(1), phase="Failed", job=None)])
    write_ci_bundle(b, out)


def w_user_script(out: Path) -> None:
    c = at(2026, 11, 21, 4, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("npu-smi info", NPU_SMI),
             ("pip install -r requirements-dev.txt", ["Looking in indexes: http://pypi-cache.ci.internal/simple",
                                                      "Requirement already satisfied: pytest==8.3.5",
                                                      "Successfully installed pytest-asyncio-0.24.0 pytest-mock-3.14.0"]),
             ("pytest -sv tests/ut", [
                 "============================= test session starts ==============================",
                 "collected 1298 items / 2 skipped",
                 "tests/ut/ops/test_rotary_embedding.py ......................F.......     [ 12%]",
                 "tests/ut/worker/test_model_runner_v1.py ............xx.........           [ 35%]",
                 "=================================== FAILURES ===================================",
                 "_______________ TestRotaryEmbedding.test_forward_oot_neox_style ________________",
                 "    def test_forward_oot_neox_style(self):",
                 ">       self.assertEqual(out.shape, (4, 16, 128))",
                 "E       AssertionError: torch.Size([4, 16, 64]) != (4, 16, 128)",
                 "tests/ut/ops/test_rotary_embedding.py:211: AssertionError",
                 "=========================== short test summary info ============================",
                 "FAILED tests/ut/ops/test_rotary_embedding.py::TestRotaryEmbedding::test_forward_oot_neox_style - AssertionError: torch.Size([4, 16, 64]) != (4, 16, 128)",
                 "====== 1 failed, 1281 passed, 14 skipped, 2 xfailed, 37 warnings in 612.33s (0:10:12) ======",
                 "##[error]Process completed with exit code 1."])]
    one_runner(out, name="linux-aarch64-a2-1-kq7xv-runner-g7h2m", c=c, cap=c + mins(16), steps=steps,
               result="Failed", env=[])


def w_user_script_zh(out: Path) -> None:
    c = at(2026, 11, 21, 5, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("bash tests/e2e/run_doctests.sh", [
                 "+ export LANG=zh_CN.UTF-8",
                 "+ mkdir -p /home/runner/_work/_temp/doctest",
                 "+ cp tools/npu-check /usr/local/bin/npu-check",
                 "cp: 无法创建普通文件 '/usr/local/bin/npu-check': 权限不够",
                 "##[error]Process completed with exit code 1."])]
    one_runner(out, name="linux-aarch64-a2-1-kq7xv-runner-n3p9v", c=c, cap=c + mins(4), steps=steps,
               result="Failed", job="doctest (a2-1)", env=[])


def w_kubeconfig(out: Path) -> None:
    c = at(2026, 11, 21, 6, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("kubectl apply -f deploy/rayjob-e2e.yaml", [
                 "E1121 06:01:12.408112     311 memcache.go:265] \"Unhandled Error\" err=\"couldn't get current server API group list: "
                 "Get \\\"https://121.37.188.20:5443/api?timeout=32s\\\": dial tcp 121.37.188.20:5443: i/o timeout\"",
                 "E1121 06:01:44.411705     311 memcache.go:265] \"Unhandled Error\" err=\"couldn't get current server API group list: "
                 "Get \\\"https://121.37.188.20:5443/api?timeout=32s\\\": dial tcp 121.37.188.20:5443: i/o timeout\"",
                 "Unable to connect to the server: dial tcp 121.37.188.20:5443: i/o timeout",
                 "##[error]Process completed with exit code 1."])]
    one_runner(out, name="linux-amd64-cpu-8-f9x2k-runner-d8s1c", c=c, cap=c + mins(5), steps=steps, result="Failed",
               job="rayjob-e2e", repo="verl-project/verl-ascend-ci", scale="linux-amd64-cpu-8", node="cpu-x86-01",
               nodes=[cpu_node(f"cpu-x86-{i + 1:02d}", f"192.168.23.{11 + i}") for i in range(3)],
               selector={"ascend-ci/cpu": "x86"}, env=[])


def w_upload(out: Path) -> None:
    c = at(2026, 11, 21, 7, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest tests/e2e/singlecard -v --junitxml=report.xml", ["===== 46 passed, 3 skipped in 1864.10s (0:31:04) ====="]),
             ("actions/upload-artifact@v4", [
                 "With the provided path, there will be 3 files uploaded",
                 "Artifact name is valid!",
                 "Root directory input is valid!",
                 "Beginning upload of artifact content to blob storage",
                 "##[error]Upload progress stalled.",
                 "##[error]Error: Executing the custom container implementation failed. Please contact your self hosted runner administrator.",
                 "##[error]Process completed with exit code 1."])]
    one_runner(out, name="linux-aarch64-a2-1-kq7xv-runner-u6y4e", c=c, cap=c + mins(40), steps=steps,
               result="Failed", job="e2e-singlecard (a2-1)")


def w_host_oom(out: Path) -> None:
    c = at(2026, 11, 21, 8, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest -sv tests/e2e/multicard/test_hicache.py", [
                 "tests/e2e/multicard/test_hicache.py::test_hicache_prefill[hicache_size=256] ",
                 "(EngineCore_DP0 pid=5521) ERROR 11-21 08:19:04 [core.py:710] EngineCore failed to start.",
                 "(EngineCore_DP0 pid=5521) ERROR 11-21 08:19:04 [core.py:710]   File \"/usr/local/python3.11.13/lib/python3.11/site-packages/torch_npu/npu/memory.py\", line 164, in empty_pinned",
                 "(EngineCore_DP0 pid=5521) ERROR 11-21 08:19:04 [core.py:710] RuntimeError: allocate_host_memory_slowpath:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:119 NPU function error: aclrtMallocHostWithCfg(&ptr, size, &cfg), error code is 207001",
                 "(EngineCore_DP0 pid=5521) ERROR 11-21 08:19:04 [core.py:710] [ERROR] 2026-11-21-08:19:04 (PID:5521, Device:0, RankID:-1) ERR00100 PTA call acl api failed",
                 "(EngineCore_DP0 pid=5521) ERROR 11-21 08:19:04 [core.py:710] EL0004: [PID: 5521] 2026-11-21-08:19:04.771.209 Failed to allocate memory.",
                 "(EngineCore_DP0 pid=5521) ERROR 11-21 08:19:04 [core.py:710]         Possible Cause: Available memory is insufficient.",
                 "FAILED tests/e2e/multicard/test_hicache.py::test_hicache_prefill[hicache_size=256] - RuntimeError: Engine core initialization failed.",
                 "##[error]Process completed with exit code 1."])]
    one_runner(out, name="linux-aarch64-a2-4-j2k8h-runner-e5w1r", c=c, cap=c + mins(25), steps=steps,
               result="Failed", job="e2e-multicard (a2-4)", scale="linux-aarch64-a2-4",
               repo="sgl-project/sglang-ascend-ci")


def w_parallel_build(out: Path) -> None:
    c = at(2026, 11, 21, 9, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pip install -v -e . --no-build-isolation", [
                 "  Detected 192 CPUs, setting MAX_JOBS=384",
                 "  [214/1380] Building CXX object csrc/CMakeFiles/vllm_ascend_C.dir/ops/moe_gating_top_k.cpp.o",
                 "  c++: fatal error: Killed signal terminated program cc1plus",
                 "  compilation terminated.",
                 "  [215/1380] Building CXX object csrc/CMakeFiles/vllm_ascend_C.dir/ops/dispatch_ffn_combine.cpp.o",
                 "  FAILED: csrc/CMakeFiles/vllm_ascend_C.dir/ops/dispatch_ffn_combine.cpp.o",
                 "  c++: fatal error: Killed signal terminated program cc1plus",
                 "  ninja: build stopped: subcommand failed.",
                 "  error: subprocess-exited-with-error",
                 "##[error]Process completed with exit code 1."])]
    one_runner(out, name="linux-aarch64-a3-2-p4n7c-runner-k9r3t", c=c, cap=c + mins(30), steps=steps,
               result="Failed", job="build-wheel (a3-2)", scale="linux-aarch64-a3-2", node="npu-a3-01",
               nodes=[npu_node(f"npu-a3-{i + 1:02d}", f"192.168.22.{11 + i}", npu_type="a3", n=16) for i in range(2)],
               selector={"ascend-ci/npu-type": "a3"})


def w_deps_cache(out: Path) -> None:
    c = at(2026, 11, 21, 10, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("uv pip install --system -r requirements.txt", [
                 "Using Python 3.11.13 environment at: /usr/local/python3.11.13",
                 "Resolved 142 packages in 3.21s",
                 "error: Failed to download `torch==2.7.1`",
                 "  Caused by: Request failed after 3 retries",
                 "  Caused by: error sending request for url (http://pypi-cache.ci.internal/packages/torch-2.7.1-cp311-cp311-manylinux_2_28_aarch64.whl)",
                 "  Caused by: operation timed out",
                 "##[error]Process completed with exit code 2."])]
    one_runner(out, name="linux-aarch64-a2-1-kq7xv-runner-x2b6n", c=c, cap=c + mins(12), steps=steps,
               result="Failed", job="lint-and-ut (a2-1)")


def w_buildkit(out: Path) -> None:
    c = at(2026, 11, 21, 11, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("docker buildx build -f Dockerfile.a3 -t vllm-ascend:ci .", [
                 "#1 [internal] load build definition from Dockerfile.a3",
                 "#1 transferring dockerfile: 2.71kB done",
                 "#7 [stage-0  4/11] RUN pip config set global.index-url http://pypi-cache.ci.internal/simple",
                 "#7 CACHED",
                 "#9 [stage-0  6/11] COPY . /vllm-workspace/vllm-ascend/",
                 "#9 ERROR: failed to compute cache key: parent snapshot sha256:9b1c4e07d2a38f65c1e0b7a4d3f2968e5c7b1a0d4e3f2c1b0a9d8e7f6c5b4a39 does not exist: not found",
                 "ERROR: failed to solve: failed to compute cache key: parent snapshot sha256:9b1c4e07d2a38f65c1e0b7a4d3f2968e5c7b1a0d4e3f2c1b0a9d8e7f6c5b4a39 does not exist: not found",
                 "##[error]Process completed with exit code 1."])]
    one_runner(out, name="linux-amd64-cpu-8-f9x2k-runner-v5n8w", c=c, cap=c + mins(7), steps=steps, result="Failed",
               job="image-build (a3)", scale="linux-amd64-cpu-8", node="cpu-x86-03",
               nodes=[cpu_node(f"cpu-x86-{i + 1:02d}", f"192.168.23.{11 + i}") for i in range(3)],
               selector={"ascend-ci/cpu": "x86"}, env=[])


def w_mirror(out: Path) -> None:
    c = at(2026, 11, 21, 12, 0)
    base = "swr.cn-southwest-2.myhuaweicloud.com/ascend-ci/vllm-ascend/vllm-ascend:v0.11.0-2c6d8e1-a3"
    steps = [("actions/checkout@v4", CHECKOUT),
             (f"docker buildx build --build-arg BASE={base} -t e2e:ci .", [
                 "#2 [internal] load metadata for " + base,
                 "#2 ERROR: " + base + ": not found",
                 "------",
                 " > [internal] load metadata for " + base + ":",
                 "------",
                 "ERROR: failed to solve: " + base + ": failed to resolve source metadata for " + base + ": not found",
                 "##[error]Process completed with exit code 1."])]
    one_runner(out, name="linux-amd64-cpu-8-f9x2k-runner-h4c7y", c=c, cap=c + mins(5), steps=steps, result="Failed",
               job="e2e-image (a3)", scale="linux-amd64-cpu-8", node="cpu-x86-02",
               nodes=[cpu_node(f"cpu-x86-{i + 1:02d}", f"192.168.23.{11 + i}") for i in range(3)],
               selector={"ascend-ci/cpu": "x86"}, env=[])


def w_engine_hang(out: Path) -> None:
    c = at(2026, 11, 21, 13, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest -sv tests/e2e/multicard/test_deepseek_mtp_dp_ep.py", [
                 "tests/e2e/multicard/test_deepseek_mtp_dp_ep.py::test_mtp_dp4_tp4_ep[stream] ",
                 "INFO 11-21 13:06:41 [async_llm.py:270] Added request cmpl-8d2f1a0c4b7e-0.",
                 "##[error]The job running on runner linux-aarch64-a3-16-w2q8d-runner-s7f2g has exceeded the maximum execution time of 240 minutes.",
                 "Traceback (most recent call last):",
                 '  File "/usr/local/python3.11.13/lib/python3.11/site-packages/vllm/v1/engine/async_llm.py", line 345, in generate',
                 "    out = q.get_nowait() or await q.get()",
                 "                            ^^^^^^^^^^^^^",
                 '  File "/usr/local/python3.11.13/lib/python3.11/site-packages/vllm/v1/engine/output_processor.py", line 57, in get',
                 "    await self.ready.wait()",
                 "asyncio.exceptions.CancelledError",
                 "##[error]The operation was canceled."])]
    one_runner(out, name="linux-aarch64-a3-16-w2q8d-runner-s7f2g", c=c, cap=c + mins(246), steps=steps,
               result="Canceled", job="e2e-16cards (a3-16)", scale="linux-aarch64-a3-16", node="npu-a3-02",
               nodes=[npu_node(f"npu-a3-{i + 1:02d}", f"192.168.22.{11 + i}", npu_type="a3", n=16) for i in range(3)],
               selector={"ascend-ci/npu-type": "a3"}, step_s=14400,
               pod_state=k.terminated("Error", 1, c + sec(16), c + mins(244)), pod_phase="Failed", er_phase="Failed")


def w_hccl_port(out: Path) -> None:
    c = at(2026, 11, 21, 14, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest -sv tests/e2e/multicard/test_pd_disaggregation.py", [
                 "(VllmWorker rank=3 pid=7731) ERROR 11-21 14:11:52 [multiproc_executor.py:597] RuntimeError: HCCL function error: HcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 7",
                 "(VllmWorker rank=3 pid=7731) ERROR 11-21 14:11:52 [multiproc_executor.py:597] [ERROR] 2026-11-21-14:11:52 (PID:7731, Device:3, RankID:3) ERR02200 DIST call hccl api failed.",
                 "(VllmWorker rank=3 pid=7731) ERROR 11-21 14:11:52 [multiproc_executor.py:597] EI0019: [PID: 7731] 2026-11-21-14:11:52.308.114 Communication_Error_Bind_IP_Port(EI0019): Cannot bind IF. ip is 192.168.21.12, port is 60003, bind fail. Reason: The IP and port have been bound already.",
                 "(VllmWorker rank=3 pid=7731) ERROR 11-21 14:11:52 [multiproc_executor.py:597]         Solution: Please check whether the port is occupied by other processes. You can set HCCL_IF_BASE_PORT to specify the starting port number.",
                 "FAILED tests/e2e/multicard/test_pd_disaggregation.py::test_pd_1p1d - RuntimeError: Engine core initialization failed.",
                 "##[error]Process completed with exit code 1."])]
    one_runner(out, name="linux-aarch64-a2-4-j2k8h-runner-p9d3k", c=c, cap=c + mins(18), steps=steps,
               result="Failed", job="e2e-pd (a2-4)", scale="linux-aarch64-a2-4")


def w_npu_busy(out: Path) -> None:
    c = at(2026, 11, 21, 15, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("npu-smi info", ["dcmi model initialized failed, because the device is used. ret is -8020"]),
             ("pytest -sv tests/e2e/singlecard/test_offline_inference.py", [
                 "E   RuntimeError: Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:217 NPU function error: aclrtSetDevice(device_id_), error code is 507033",
                 "E   [ERROR] 2026-11-21-15:04:18 (PID:1288, Device:0, RankID:-1) ERR00100 PTA call acl api failed",
                 "##[error]Process completed with exit code 1."])]
    one_runner(out, name="linux-aarch64-a2-1-kq7xv-runner-f8g2q", c=c, cap=c + mins(8), steps=steps,
               result="Failed", job="e2e-singlecard (a2-1)", node="npu-a2-03")


def w_dns(out: Path) -> None:
    c = at(2026, 11, 21, 16, 0)
    steps = [("actions/checkout@v4", [
        "Syncing repository: vllm-project/vllm-ascend",
        "[command]/usr/bin/git -c protocol.version=2 fetch --no-tags --prune --no-recurse-submodules --depth=1 origin +refs/heads/main*:refs/remotes/origin/main*",
        "Error: fatal: unable to access 'https://github.com/vllm-project/vllm-ascend/': Could not resolve host: github.com",
        "The process '/usr/bin/git' failed with exit code 128",
        "Waiting 13 seconds before trying again",
        "Error: fatal: unable to access 'https://github.com/vllm-project/vllm-ascend/': Could not resolve host: github.com",
        "##[error]The process '/usr/bin/git' failed with exit code 128"]),
             ("ping -c1 gitee.com || true", ["ping: gitee.com: 域名解析暂时失败"])]
    one_runner(out, name="linux-aarch64-a2-1-kq7xv-runner-y1w6z", c=c, cap=c + mins(3), steps=steps, result="Failed",
               job="ut (a2-1)", node="npu-a2-01")


def w_cp_blip(out: Path) -> None:
    c = at(2026, 11, 21, 17, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest -sv tests/ut", ["====== 1298 passed, 14 skipped, 2 xfailed in 598.14s (0:09:58) ======"]),
             ("Stop containers", [
                 "##[error]Error: FetchError: request to https://10.247.0.1/apis/authorization.k8s.io/v1/selfsubjectaccessreviews failed, reason: connect ECONNREFUSED 10.247.0.1:443",
                 "##[error]Executing the custom container implementation failed. Please contact your self hosted runner administrator."])]
    one_runner(out, name="linux-aarch64-a2-1-kq7xv-runner-l5m8b", c=c, cap=c + mins(14), steps=steps, result="Failed",
               job="ut (a2-1)")


def w_runner_old(out: Path) -> None:
    c = at(2026, 11, 21, 18, 0)
    rn = "linux-aarch64-a2-1-kq7xv-runner-o2v9x"
    img = "swr.cn-southwest-2.myhuaweicloud.com/ascend-ci/actions-runner:2.327.1"
    log = "\n".join(["", "√ Connected to GitHub", "", "Current runner version: '2.327.1'",
                     "2026-11-21 18:00:24Z: Listening for Jobs",
                     "An error occurred: Runner version v2.327.1 is deprecated and cannot receive messages.",
                     "Runner listener exit with terminated error, stop the service, no retry needed.",
                     "Exiting runner..."])
    pod = runner_pod(rn, c, "npu-a2-02", log=log, image=img, phase="Failed",
                     state=finished(c + sec(17), c + sec(26)))
    b = CIBundle(c + mins(3), a2_nodes(), [pod], [Runner(rn, c - sec(1), phase="Failed", job=None, image=img)])
    write_ci_bundle(b, out)


def w_stale_runner(out: Path) -> None:
    c = at(2026, 11, 20, 2, 0)
    rn = "linux-aarch64-a2-1-kq7xv-runner-s0d4e"
    other = "linux-aarch64-a2-1-kq7xv-runner-w9c1p"
    live = runner_pod(other, c + mins(30 * 60), "npu-a2-03", log="\n".join([
        "", "√ Connected to GitHub", "", "Current runner version: '2.330.0'", "2026-11-21 08:00:24Z: Listening for Jobs"]))
    b = CIBundle(c + mins(31 * 60), a2_nodes(), [live],
                 [Runner(rn, c, phase="Running", job="e2e-singlecard (a2-1)"),
                  Runner(other, c + mins(30 * 60), phase="Running", job=None)])
    write_ci_bundle(b, out)


def w_dind(out: Path) -> None:
    c = at(2026, 11, 22, 1, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("docker build -t lint-image -f docker/Dockerfile.lint .", [
                 "ERROR: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?",
                 "##[error]Process completed with exit code 1."])]
    env = [{"name": "DOCKER_HOST", "value": "unix:///var/run/docker.sock"}]
    one_runner(out, name="linux-amd64-cpu-8-f9x2k-runner-a6b3c", c=c, cap=c + mins(3), steps=steps, result="Failed",
               job="lint", scale="linux-amd64-cpu-8", node="cpu-x86-01",
               nodes=[cpu_node(f"cpu-x86-{i + 1:02d}", f"192.168.23.{11 + i}") for i in range(3)],
               selector={"ascend-ci/cpu": "x86"}, env=env)


def w_model_cache(out: Path) -> None:
    c = at(2026, 11, 22, 2, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest -sv tests/e2e/singlecard/test_qwen3_vl.py", [
                 "E   huggingface_hub.errors.LocalEntryNotFoundError: Cannot find an appropriate cached snapshot folder for the specified revision on the local disk and outgoing traffic has been disabled. To enable repo look-ups and downloads online, pass 'local_files_only=False' as input.",
                 "E   OSError: We couldn't connect to 'https://huggingface.co' to load the files, and couldn't find them in the cached files. Check your internet connection or see how to run the library in offline mode at 'https://huggingface.co/docs/transformers/installation#offline-mode'.",
                 "FAILED tests/e2e/singlecard/test_qwen3_vl.py::test_qwen3_vl_8b - OSError: We couldn't connect to 'https://huggingface.co' to load the files",
                 "====== 1 failed, 5 passed in 211.40s (0:03:31) ======",
                 "##[error]Process completed with exit code 1."])]
    one_runner(out, name="linux-aarch64-a2-1-kq7xv-runner-c3n5h", c=c, cap=c + mins(9), steps=steps, result="Failed",
               job="e2e-vl (a2-1)", env=[*HOOK_ENV, {"name": "HF_HUB_OFFLINE", "value": "1"}])


def w_novolume(out: Path) -> None:
    c = at(2026, 11, 22, 3, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("./.github/actions/npu-health-check", [
                 "python3: can't open file '/__w/_actions/_temp_local/npu-health-check/check.py': [Errno 2] No such file or directory",
                 "##[error]Process completed with exit code 2."])]
    env = [*HOOK_ENV, {"name": "ACTIONS_RUNNER_CONTAINER_HOOK_MODE", "value": "novolume"}]
    one_runner(out, name="linux-aarch64-a2-1-kq7xv-runner-i7q2w", c=c, cap=c + mins(5), steps=steps, result="Failed",
               job="ut (a2-1)", env=env)


def w_quota_zh(out: Path) -> None:
    c = at(2026, 11, 22, 4, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("bash .github/scripts/prepare_models.sh", [
                 "+ cp -r /mnt/share/modelscope/Qwen/Qwen3-30B-A3B /root/.cache/modelscope/hub/models/Qwen/",
                 "cp: 写入 '/root/.cache/modelscope/hub/models/Qwen/Qwen3-30B-A3B/model-00011-of-00016.safetensors' 时出错: 超出磁盘限额",
                 "##[error]Process completed with exit code 1."])]
    one_runner(out, name="linux-aarch64-a2-4-j2k8h-runner-q3z8v", c=c, cap=c + mins(11), steps=steps,
               result="Failed", job="e2e-moe (a2-4)", scale="linux-aarch64-a2-4")


def w_stale_nfs_zh(out: Path) -> None:
    c = at(2026, 11, 22, 5, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("ls /mnt/nfs/models/ && pytest tests/e2e/singlecard", [
                 "ls: 无法访问 '/mnt/nfs/models/': 过旧的文件控柄",
                 "##[error]Process completed with exit code 2."])]
    one_runner(out, name="linux-aarch64-a2-1-kq7xv-runner-v2r7t", c=c, cap=c + mins(3), steps=steps,
               result="Failed", job="e2e-singlecard (a2-1)")


def w_disk_full_zh(out: Path) -> None:
    c = at(2026, 11, 22, 6, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("tar -xzf /mnt/share/datasets/gsm8k_cache.tar.gz -C /tmp/datasets", [
                 "tar: gsm8k_cache/train-00003-of-00004.arrow：无法 write: 设备上没有空间",
                 "tar: 由于前次错误，将以上次的错误状态退出",
                 "##[error]Process completed with exit code 2."])]
    one_runner(out, name="linux-aarch64-a2-1-kq7xv-runner-e8u4s", c=c, cap=c + mins(4), steps=steps,
               result="Failed", job="accuracy (a2-1)")


def w_hw_fault(out: Path) -> None:
    c = at(2026, 11, 22, 7, 0)
    rn = "linux-aarch64-a2-1-kq7xv-runner-j4x6k"
    down = c + mins(21)
    nodes = a2_nodes(3)
    nodes[1].ready = False
    nodes[1].not_ready_since = down
    nodes[1].taints = [{"key": "node.kubernetes.io/unreachable", "effect": "NoExecute", "timeAdded": k.ts(down + sec(40))}]
    log = runner_log(start=c + sec(16), job="e2e-graph (a2-1)", steps=[
        ("actions/checkout@v4", CHECKOUT),
        ("pytest -sv tests/e2e/singlecard/test_aclgraph.py", [
            "tests/e2e/singlecard/test_aclgraph.py::test_aclgraph_capture[Qwen3-8B] ",
            "INFO 11-22 07:18:33 [model_runner_v1.py:2411] Capturing ACL graphs (mixed prefill-decode, FULL_DECODE_ONLY): 14/67"])],
        result=None)
    pod = runner_pod(rn, c, "npu-a2-02", log=log, deletion=down + mins(5) + sec(40),
                     events=[Ev("NodeNotReady", "Node is not ready", 21 * 60 + 40, component="node-controller"),
                             Ev("TaintManagerEviction", f"Marking for deletion Pod {NS}/{rn}", 26 * 60 + 40,
                                etype="Normal", component="taint-eviction-controller")])
    nev = [k.event("Node", "default", "npu-a2-02", k.uid("node", "npu-a2-02"), "NodeNotReady",
                   "Node npu-a2-02 status is now: NodeNotReady", down + sec(40), component="node-controller")]
    b = CIBundle(c + mins(33), nodes, [pod], [Runner(rn, c - sec(1), job="e2e-graph (a2-1)")],
                 extra_files={"default/events.json": k.k8s_list("Event", "v1", nev)})
    write_ci_bundle(b, out)


def w_karpenter(out: Path) -> None:
    c = at(2026, 11, 22, 8, 0)
    rn = "linux-amd64-cpu-16-k8r2m-runner-b2n6v"
    sel = {"karpenter.sh/nodepool": "ci-cpu-16", "kubernetes.io/arch": "amd64"}
    msg = ("0/4 nodes are available: 4 node(s) didn't match Pod's node affinity/selector. preemption: 0/4 nodes are "
           "available: 4 Preemption is not helpful for scheduling.")
    pod = runner_pod(rn, c, None, phase="Pending", selector=sel, sched_message=msg,
                     events=[Ev("FailedScheduling", msg, 1, 2580, 12, component="default-scheduler"),
                             Ev("FailedScheduling", "Failed to schedule pod, all available instance types exceed limits for nodepool: \"ci-cpu-16\"", 4, 4, 1, component="karpenter"),
                             Ev("Nominated", "Pod should schedule on: nodeclaim/ci-cpu-16-7xk2q", 30, etype="Normal",
                                component="karpenter")])
    t0 = c - mins(50)
    np_obj = {"apiVersion": "karpenter.sh/v1", "kind": "NodePool",
              "metadata": k.meta("ci-cpu-16", at(2026, 9, 1, 0, 0)),
              "spec": {"template": {"spec": {"requirements": [
                  {"key": "node.kubernetes.io/instance-type", "operator": "In", "values": ["c7.4xlarge.2"]},
                  {"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["cn-southwest-2a"]}],
                  "nodeClassRef": {"group": "karpenter.k8s.huaweicloud", "kind": "ECSNodeClass", "name": "ci"}}},
                  "limits": {"cpu": "256"}},
              "status": {"conditions": [
                  {"type": "ValidationSucceeded", "status": "True", "reason": "ValidationSucceeded", "message": "",
                   "lastTransitionTime": k.ts(t0 - mins(3000))},
                  {"type": "NodeClassReady", "status": "True", "reason": "NodeClassReady", "message": "",
                   "lastTransitionTime": k.ts(t0 - mins(3000))},
                  {"type": "NodeRegistrationHealthy", "status": "False", "reason": "Unhealthy",
                   "message": "Failed to launch node: insufficient capacity for instance type c7.4xlarge.2 in zone cn-southwest-2a",
                   "lastTransitionTime": k.ts(t0)},
                  {"type": "Ready", "status": "False", "reason": "UnhealthyDependents",
                   "message": "NodeRegistrationHealthy=False", "lastTransitionTime": k.ts(t0)}],
                  "resources": {"cpu": "0", "nodes": "0"}}}
    nodes = [*a2_nodes(2), cpu_node("master-1", "192.168.20.2"), cpu_node("master-2", "192.168.20.3")]
    b = CIBundle(c + mins(44), nodes, [pod], [Runner(rn, c - sec(1), phase="Pending", job=None,
                                                     scale_set="linux-amd64-cpu-16", selector=sel)],
                 extra_files={"nodepools.karpenter.sh.json": k.k8s_list("NodePool", "karpenter.sh/v1", [np_obj])})
    write_ci_bundle(b, out)


def w_liqo(out: Path) -> None:
    c = at(2026, 11, 22, 9, 0)
    rn = "linux-aarch64-gy004-a2-1-c5t8n-runner-m1k7p"
    pod = runner_pod(rn, c, "liqo-gy004", phase="Pending", state=k.waiting("ContainerCreating"),
                     selector={"ascend-ci/npu-type": "a2", "liqo.io/remote-cluster-id": "gy004"},
                     default_events=False, reason="OffloadingBackOff",
                     events=[Ev("Scheduled", f"Successfully assigned {NS}/{rn} to liqo-gy004", 0, etype="Normal",
                                component="default-scheduler"),
                             Ev("OffloadingBackOff", "Reflection to remote cluster gy004 is disabled for namespace "
                                "arc-runners: remote namespace not ready", 3, 3000, 51, component="liqo-virtual-kubelet")])
    pod.containers[0].pulled = False
    vnode = k.NodeSpec("liqo-gy004", arch="arm64", ip="10.70.0.4", device=("huawei.com/Ascend910", 64),
                       labels={"liqo.io/type": "virtual-node", "liqo.io/remote-cluster-id": "gy004",
                               "ascend-ci/npu-type": "a2"},
                       taints=[{"key": "virtual-node.liqo.io/not-allowed", "value": "true", "effect": "NoExecute"}])
    nso = {"apiVersion": "offloading.liqo.io/v1beta1", "kind": "NamespaceOffloading",
           "metadata": k.meta("offloading", at(2026, 10, 2, 0, 0), NS),
           "spec": {"namespaceMappingStrategy": "EnforceSameName", "podOffloadingStrategy": "LocalAndRemote",
                    "clusterSelector": {"nodeSelectorTerms": [{"matchExpressions": [
                        {"key": "liqo.io/remote-cluster-id", "operator": "In", "values": ["gy004", "gy005"]}]}]}},
           "status": {"offloadingPhase": "SomeFailed", "remoteNamespaceName": NS,
                      "remoteNamespacesConditions": {
                          "gy004": [{"type": "OffloadingRequired", "status": "True",
                                     "lastTransitionTime": "2026-11-22T08:02:11Z", "reason": "ClusterSelected",
                                     "message": "You have required to offload this namespace to the cluster"},
                                    {"type": "Ready", "status": "False", "lastTransitionTime": "2026-11-22T08:02:12Z",
                                     "reason": "CreationLoopBackOff",
                                     "message": "Namespace arc-runners already exists in the remote cluster and is not managed by Liqo"}],
                          "gy005": [{"type": "Ready", "status": "True", "lastTransitionTime": "2026-10-02T00:01:00Z",
                                     "reason": "NamespaceCreated", "message": "Namespace correctly offloaded"}]}}}
    b = CIBundle(c + mins(52), [*a2_nodes(2), vnode], [pod],
                 [Runner(rn, c - sec(1), phase="Pending", job=None, scale_set="linux-aarch64-gy004-a2-1")],
                 extra_files={f"{NS}/namespaceoffloadings.offloading.liqo.io.json":
                              k.k8s_list("NamespaceOffloading", "offloading.liqo.io/v1beta1", [nso])})
    write_ci_bundle(b, out)


def w_mixed_schedulers(out: Path) -> None:
    c = at(2026, 11, 22, 10, 0)
    rn = "linux-aarch64-a2-4-j2k8h-runner-g5h1x"
    npu = "huawei.com/Ascend910"
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest -sv tests/e2e/multicard/test_qwen3_moe.py", [
                 "(VllmWorker rank=1 pid=4410) ERROR 11-22 10:06:31 [multiproc_executor.py:597] RuntimeError: Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:217 NPU function error: aclrtSetDevice(device_id_), error code is 507033",
                 "(VllmWorker rank=1 pid=4410) ERROR 11-22 10:06:31 [multiproc_executor.py:597] Error: device davinci[davinci1] already in use",
                 "FAILED tests/e2e/multicard/test_qwen3_moe.py::test_qwen3_moe_tp4 - RuntimeError: Engine core initialization failed.",
                 "##[error]Process completed with exit code 1."])]
    log = runner_log(start=c + sec(16), job="e2e-moe (a2-4)", steps=steps, result="Failed")
    pod = runner_pod(rn, c, "npu-a2-03", log=log, phase="Failed", state=finished(c + sec(16), c + mins(8)))
    pod.containers[0].resources = {"limits": {npu: "4", "cpu": "32", "memory": "256Gi"},
                                   "requests": {npu: "4", "cpu": "32", "memory": "256Gi"}}
    vc = CIPod("rl-train-0412-worker-0", "npu-a2-03", c - mins(95),
               [Ctr("main", "swr.cn-southwest-2.myhuaweicloud.com/llm/verl-npu:8.0.rc3",
                    resources={"limits": {npu: "8"}, "requests": {npu: "8"}})],
               namespace="ml-train", scheduler="volcano", ip="172.16.150.9",
               annotations={"scheduling.k8s.io/group-name": "rl-train-0412", "volcano.sh/task-spec": "worker"},
               node_selector={"ascend-ci/npu-type": "a2"})
    b = CIBundle(c + mins(10), a2_nodes(), [pod, vc],
                 [Runner(rn, c - sec(1), phase="Failed", job="e2e-moe (a2-4)", scale_set="linux-aarch64-a2-4")])
    write_ci_bundle(b, out)


def w_pending_no_scheduler(out: Path) -> None:
    c = at(2026, 11, 22, 11, 0)
    rn = "linux-aarch64-a2-8-v3m9c-runner-t8q2l"
    pod = runner_pod(rn, c, None, phase="Pending", scheduler="volcano", default_events=False)
    b = CIBundle(c + mins(160), a2_nodes(), [pod],
                 [Runner(rn, c - sec(1), phase="Pending", job=None, scale_set="linux-aarch64-a2-8")])
    write_ci_bundle(b, out)


def _p(name: str) -> str:
    return f"pod/{name}"


SCENARIOS = [
    Scenario("ci-workflow-invalid-image-name", w_invalid_image,
             "The workflow's container.image ends with a stray space; the job pod's container stays in "
             "InvalidImageName ('invalid reference format').",
             S3 + " § 镜像名非法（InvalidImageName）", _p("linux-aarch64-a2-1-kq7xv-runner-m2d9q-workflow"),
             "pod.image.invalid-name", namespace=NS),
    Scenario("ci-workflow-secret-missing", w_config_error,
             "The job container reads MODELSCOPE_API_TOKEN from Secret modelscope-token, which does not exist in "
             "arc-runners: CreateContainerConfigError.",
             S3 + " § Secret 配置错误（CreateContainerConfigError）",
             _p("linux-aarch64-a2-1-kq7xv-runner-r8t3w-workflow"), "pod.container.config-error", namespace=NS),
    Scenario("ci-workflow-poststart-137", w_poststart,
             "The job pod's postStart hook uses '&>' under dash, leaves npu-smi holding the exec pipes, the 2 s drain "
             "times out and kubelet kills the container (exit 137, reported by GitHub as 'Likely OOM').",
             S3 + " § 容器启动即死：postStart 钩子 exit 137", _p("linux-aarch64-a3-2-p4n7c-runner-h6k2z-workflow"),
             "pod.container.poststart-killed", namespace=NS),
    Scenario("ci-workflow-oomkilled", w_wf_oom,
             "The unit-test job container (64Gi limit) was OOMKilled 16 minutes into pytest; the runner reports the "
             "operation canceled.",
             S3 + " § 内存不足（OOMKilled）", _p("linux-aarch64-a2-1-kq7xv-runner-b5v8p-workflow"),
             "pod.run.oom-killed", namespace=NS),
    Scenario("ci-workflow-ghcr-pull-slow", w_pull_slow,
             "The job pod has been pulling an uncached ghcr.io image for 58 minutes with no error and no Pulled event.",
             S3 + " § 镜像拉取慢（Initialize containers 长时间卡住）",
             _p("linux-aarch64-a2-1-kq7xv-runner-z3c6f-workflow"), "pod.image.pull-slow", namespace=NS,
             last_stage="scheduled"),
    Scenario("ci-runner-selector-no-node", w_selector_mismatch,
             "The scale set asks for ascend-ci/npu-type=a3-16 while the A3 nodes are labelled a3; the runner pod is "
             "Pending with a node-selector mismatch (control-plane taints in the same message).",
             S3 + " § 调度失败：nodeSelector 不匹配", _p("linux-aarch64-a3-16-w2q8d-runner-c7m4x"),
             "pod.schedule.selector-mismatch", namespace=NS, last_stage="pod-created"),
    Scenario("ci-runner-outofcpu", w_outofcpu,
             "The kubelet rejected the runner pod with OutOfcpu: 16 CPUs requested on a node whose CPU was already "
             "taken by other workloads.",
             S3 + " § 调度失败：资源超限 (OutOfcpu)", _p("linux-amd64-cpu-8-f9x2k-runner-q4l7n"),
             "pod.schedule.insufficient-resources", namespace=NS),
    Scenario("ci-runner-bootstrap-missing-zh", w_crash_zh,
             "The runner image's command runs /opt/ci/bootstrap.sh, which the image lacks; bash prints "
             "没有那个文件或目录 and the container exits 127 at once.",
             S3 + " § 容器崩溃", _p("linux-aarch64-a2-1-kq7xv-runner-t1j5s"), "pod.run.crash-on-start",
             namespace=NS),
    Scenario("ci-pytest-assertion-failure", w_user_script,
             "One unit test fails with an AssertionError (1 failed, 1281 passed, 2 xfailed); the step exits 1. The "
             "platform worked.",
             S3 + " § 用户脚本报错（UserScriptError）", _p("linux-aarch64-a2-1-kq7xv-runner-g7h2m"),
             "ci.run.user-script", namespace=NS),
    Scenario("ci-script-cp-permission-zh", w_user_script_zh,
             "The doctest script copies a tool into /usr/local/bin as the non-root runner user; cp (zh_CN) reports "
             "权限不够 and the step exits 1.",
             S3 + " § 用户脚本报错（UserScriptError）", _p("linux-aarch64-a2-1-kq7xv-runner-n3p9v"),
             "ci.run.user-script", namespace=NS),
    Scenario("ci-kubectl-wrong-cluster", w_kubeconfig,
             "The repository's kubeconfig secret points at another cluster's public endpoint; kubectl times out "
             "dialing port 5443.",
             S3 + " § kubeconfig / secret 指向错误集群", _p("linux-amd64-cpu-8-f9x2k-runner-d8s1c"),
             "ci.run.kubeconfig-wrong-cluster", namespace=NS),
    Scenario("ci-artifact-upload-stalled", w_upload,
             "The tests passed, then actions/upload-artifact stalled ('Upload progress stalled.') and the container "
             "hook failed: the upload host is not on the network allow-list.",
             S3 + " § 上传日志 / 产物失败（需加网络白名单）", _p("linux-aarch64-a2-1-kq7xv-runner-u6y4e"),
             "ci.run.upload-blocked", namespace=NS),
    Scenario("ci-host-memory-207001", w_host_oom,
             "A hicache test failed to pin host memory: aclrtMallocHostWithCfg error code 207001 and EL0004; the "
             "container was not OOMKilled.",
             S3 + " § host 内存不足（aclrtMallocHostWithCfg 207001）", _p("linux-aarch64-a2-4-j2k8h-runner-e5w1r"),
             "ci.run.host-oom", namespace=NS),
    Scenario("ci-build-cc1plus-killed", w_parallel_build,
             "The build derived MAX_JOBS=384 from the host's 192 CPUs; cc1plus processes are killed and ninja stops.",
             S3 + " § 安装 / 编译阶段 OOM（并行度过高）", _p("linux-aarch64-a3-2-p4n7c-runner-k9r3t"),
             "ci.build.parallel-oom", namespace=NS),
    Scenario("ci-uv-cache-timeout", w_deps_cache,
             "uv could not download torch from the in-cluster PyPI cache: request failed after 3 retries, operation "
             "timed out.",
             S3 + " § 依赖缓存异常（pypi / rust）", _p("linux-aarch64-a2-1-kq7xv-runner-x2b6n"), "ci.deps.cache",
             namespace=NS),
    Scenario("ci-buildkit-parent-snapshot", w_buildkit,
             "docker buildx on one CPU agent fails with 'failed to compute cache key: parent snapshot ... does not "
             "exist: not found'.",
             S3 + " § 构建缓存损坏（BuildKit parent snapshot 不存在）", _p("linux-amd64-cpu-8-f9x2k-runner-v5n8w"),
             "ci.build.buildkit-cache", namespace=NS),
    Scenario("ci-base-image-not-synced", w_mirror,
             "The build's base image was renamed upstream and never synced to SWR: 'failed to resolve source metadata "
             "... not found'.",
             S3 + " § 镜像未同步到 SWR（not found）", _p("linux-amd64-cpu-8-f9x2k-runner-h4c7y"),
             "pod.image.mirror-not-synced", namespace=NS),
    Scenario("ci-vllm-engine-hang", w_engine_hang,
             "A 16-card speculative-decoding test printed nothing for four hours until the job hit its time limit; "
             "the stack ends in 'await q.get()'.",
             S3 + " § 任务长时间卡住 / 超时（引擎进程挂起）", _p("linux-aarch64-a3-16-w2q8d-runner-s7f2g"),
             "ci.run.engine-hang", namespace=NS),
    Scenario("ci-hccl-port-bound", w_hccl_port,
             "A PD-disaggregation test fails HCCL init: EI0019, port 60003 already bound on the node.",
             S3 + " § HCCL 通信端口被占用", _p("linux-aarch64-a2-4-j2k8h-runner-p9d3k"), "ci.comm.hccl-port",
             namespace=NS),
    Scenario("ci-npu-used-outside-k8s", w_npu_busy,
             "npu-smi reports 'dcmi model initialized failed, because the device is used. ret is -8020' and "
             "aclrtSetDevice fails: a process outside Kubernetes holds the NPU.",
             S3 + " § 节点 NPU 被外部进程 / 带外容器占用", _p("linux-aarch64-a2-1-kq7xv-runner-f8g2q"),
             "ci.node.npu-busy", namespace=NS),
    Scenario("ci-checkout-dns-failure", w_dns,
             "Checkout cannot resolve github.com (retried once) and ping (zh_CN) reports 域名解析暂时失败 for "
             "gitee.com: the node's DNS is broken.",
             S3 + " § 节点 DNS 解析异常 / 时钟偏移", _p("linux-aarch64-a2-1-kq7xv-runner-y1w6z"), "ci.node.dns",
             namespace=NS),
    Scenario("ci-cleanup-apiserver-refused", w_cp_blip,
             "All tests passed; the container hook's cleanup call to selfsubjectaccessreviews got ECONNREFUSED from "
             "the API server and the job was marked failed.",
             S3 + " § 控制面 API 瞬断（cleanup 阶段 ECONNREFUSED / 403）", _p("linux-aarch64-a2-1-kq7xv-runner-l5m8b"),
             "ci.control-plane.blip", namespace=NS),
    Scenario("ci-runner-version-deprecated", w_runner_old,
             "The runner image still ships 2.327.1; GitHub answers 'Runner version v2.327.1 is deprecated and cannot "
             "receive messages' and the listener exits.",
             S3 + " § Runner 版本过旧（GitHub 提升最低版本）", _p("linux-aarch64-a2-1-kq7xv-runner-o2v9x"),
             "ci.runner.version-too-old", namespace=NS),
    Scenario("ci-ephemeralrunner-zombie", w_stale_runner,
             "An EphemeralRunner that took a job 31 hours ago is still Running although its pod is gone, holding a "
             "slot of the scale set.",
             S3 + " § Runner 名额被残留 EphemeralRunner 占用", "runner/linux-aarch64-a2-1-kq7xv-runner-s0d4e",
             "infra.arc.stale-runner", namespace=NS),
    Scenario("ci-docker-daemon-absent", w_dind,
             "A lint job runs docker build on a runner without a docker-in-docker sidecar: 'Cannot connect to the "
             "Docker daemon at unix:///var/run/docker.sock'.",
             "CONTRACT §4 ci.runner.dind-not-running (platform ARC)", _p("linux-amd64-cpu-8-f9x2k-runner-a6b3c"),
             "ci.runner.dind-not-running", namespace=NS),
    Scenario("ci-hf-cache-missing-offline", w_model_cache,
             "With HF_HUB_OFFLINE=1 the Qwen3-VL test finds no cached snapshot on this cluster: "
             "LocalEntryNotFoundError / couldn't find them in the cached files.",
             S3 + " § 模型缓存缺失 / 不完整", _p("linux-aarch64-a2-1-kq7xv-runner-c3n5h"), "ci.env.model-cache",
             namespace=NS),
    Scenario("ci-novolume-local-action-missing", w_novolume,
             "In runner-container-hooks novolume mode a local composite action's script is not copied into the job "
             "container: can't open file ... No such file or directory.",
             S3 + " § novolume 模式（runner-container-hooks）失败与额外耗时", _p("linux-aarch64-a2-1-kq7xv-runner-i7q2w"),
             "ci.runner.novolume", namespace=NS),
    Scenario("ci-model-copy-quota-zh", w_quota_zh,
             "Copying a 30B model into the shared cache fails: cp (zh_CN) 写入 ... 时出错: 超出磁盘限额 (EDQUOT).",
             S3 + " § 共享盘空间不足 / 锁文件残留 (Errno 122)", _p("linux-aarch64-a2-4-j2k8h-runner-q3z8v"),
             "pod.run.disk-quota", namespace=NS),
    Scenario("ci-nfs-stale-handle-zh", w_stale_nfs_zh,
             "The NFS model directory went stale after a server restart: ls (zh_CN) 无法访问 ...: 过旧的文件控柄.",
             S3 + " § 共享盘空间不足 / 锁文件残留 (Errno 116)", _p("linux-aarch64-a2-1-kq7xv-runner-v2r7t"),
             "pod.run.stale-file-handle", namespace=NS),
    Scenario("ci-tar-no-space-zh", w_disk_full_zh,
             "Unpacking a dataset into /tmp fails: tar (zh_CN) 无法 write: 设备上没有空间 (ENOSPC).",
             S3 + " § 共享盘空间不足 / 锁文件残留 (Errno 28)", _p("linux-aarch64-a2-1-kq7xv-runner-e8u4s"),
             "pod.run.disk-full", namespace=NS),
    Scenario("ci-node-hang-aclgraph", w_hw_fault,
             "During ACL graph capture the node stopped posting status; it is NotReady with the unreachable taint and "
             "the runner pod is being evicted. The log just stops.",
             S3 + " § 节点硬件故障（NPU 挂死 / NotReady）", _p("linux-aarch64-a2-1-kq7xv-runner-j4x6k"),
             "ci.node.hardware-fault", namespace=NS),
    Scenario("ci-karpenter-nodepool-unhealthy", w_karpenter,
             "The runner pod waits for a Karpenter node that never comes: NodePool ci-cpu-16 has "
             "NodeRegistrationHealthy=False (no capacity for its only instance type in its only zone).",
             S3 + " § 弹性扩容失败 / 弹性节点不健康", _p("linux-amd64-cpu-16-k8r2m-runner-b2n6v"),
             "infra.karpenter.nodepool-unhealthy", namespace=NS),
    Scenario("ci-liqo-namespace-not-offloaded", w_liqo,
             "The runner pod was bound to the Liqo virtual node for gy004, where arc-runners pre-exists without Liqo's "
             "markers: OffloadingBackOff and NamespaceOffloading CreationLoopBackOff.",
             S3 + " § Liqo namespace 未接管导致任务卡死（OffloadingBackOff）",
             _p("linux-aarch64-gy004-a2-1-c5t8n-runner-m1k7p"), "pod.liqo.offloading-backoff", namespace=NS),
    Scenario("ci-volcano-and-default-share-node", w_mixed_schedulers,
             "A volcano-scheduled training pod holds all 8 NPUs of npu-a2-03 while the default scheduler also placed a "
             "4-NPU runner there; the test fails with 'davinci[davinci1] already in use'.",
             S3 + " § 节点 NPU 被外部进程 / 带外容器占用 (集群混用 default-scheduler 与 volcano)",
             _p("linux-aarch64-a2-4-j2k8h-runner-g5h1x"), "ci.node.mixed-schedulers", namespace=NS),
    Scenario("ci-runner-pending-no-scheduler-events", w_pending_no_scheduler,
             "A runner pod asks for schedulerName volcano and has sat Pending for 2 h 40 min with no condition and no "
             "event at all: no scheduler ever looked at it, so nothing but its age is known.",
             S3 + " § 弹性扩容失败 / 弹性节点不健康 (对 Pending 超时加告警); CONTRACT §4 infra.pending.long",
             _p("linux-aarch64-a2-8-v3m9c-runner-t8q2l"), "infra.pending.long", namespace=NS,
             last_stage="pod-created"),
]
