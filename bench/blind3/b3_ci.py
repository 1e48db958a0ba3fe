# ruff: noqa: E501  (log and event text is quoted verbatim, one line per log line)
"""CI runner situations of the third blind set (GitHub ARC runner and workflow pods, EphemeralRunners, Karpenter)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import gen_k8s as k
from b3_common import S3, Scenario
from gen_ci import (
    CHECKOUT,
    NS,
    RUNNER_IMG,
    CIBundle,
    CIPod,
    Ctr,
    Ev,
    Runner,
    cpu_node,
    gh,
    npu_node,
    runner_log,
    write_ci_bundle,
)
from gen_k8s import NodeSpec, at, mins, sec

Obj = dict[str, Any]
VLLM_IMG = "swr.cn-southwest-2.myhuaweicloud.com/ascend-ci/vllm-ascend:main-a2"
RES = {"limits": {"cpu": "2", "memory": "4Gi"}, "requests": {"cpu": "500m", "memory": "1Gi"}}
HOOKS = [{"name": "ACTIONS_RUNNER_CONTAINER_HOOKS", "value": "/home/runner/k8s/index.js"},
         {"name": "ACTIONS_RUNNER_REQUIRE_JOB_CONTAINER", "value": "true"}]
Z = "%Y-%m-%d %H:%M:%SZ"


def a2(n: int = 3) -> list[Any]:
    return [npu_node(f"npu-a2-{i + 1:02d}", f"192.168.31.{11 + i}") for i in range(n)]


def x86(n: int = 3) -> list[Any]:
    return [cpu_node(f"cpu-x86-{i + 1:02d}", f"192.168.33.{11 + i}") for i in range(n)]


def rpod(name: str, c: datetime, node: str | None, *, log: str | None = None, state: Obj | None = None,
         phase: str = "Running", selector: dict[str, str] | None = None, env: list[Any] | None = None,
         **kw: Any) -> CIPod:
    ctr = Ctr("runner", RUNNER_IMG, state=state, resources=RES, command=["/home/runner/run.sh"],
              env=HOOKS if env is None else env)
    return CIPod(name, node, c, [ctr], phase=phase, runner=name, logs={"runner": log} if log is not None else {},
                 node_selector={"ascend-ci/npu-type": "a2"} if selector is None else selector, **kw)


def wfpod(runner: str, c: datetime, node: str | None, ctr: Ctr, **kw: Any) -> CIPod:
    return CIPod(f"{runner}-workflow", node, c, [ctr], workflow_of=runner, ip="172.16.152.40",
                 node_selector=kw.pop("selector", {"ascend-ci/npu-type": "a2"}), **kw)


def hook_runner(name: str, c: datetime, node: str, job: str, extra: list[str]) -> CIPod:
    """A runner pod that took a job and is running the container hook's 'Initialize containers'."""
    t = c + sec(40)
    lines = ["", "√ Connected to GitHub", "", "Current runner version: '2.330.0'",
             f"{(c + sec(20)).strftime(Z)}: Listening for Jobs", f"{(c + sec(23)).strftime(Z)}: Running job: {job}",
             f"{gh(t)} ##[group]Run '/home/runner/k8s/index.js'",
             f"{gh(t)} shell: /home/runner/externals/node20/bin/node {{0}}", f"{gh(t)} ##[endgroup]", *extra]
    return rpod(name, c, node, log="\n".join(lines))


def single(out: Path, *, name: str, c: datetime, cap: datetime, steps: list[Any], result: str | None, job: str,
           nodes: list[Any] | None = None, node: str = "npu-a2-01", scale: str = "linux-aarch64-a2-1",
           selector: dict[str, str] | None = None, step_s: float = 30.0, env: list[Any] | None = None,
           end: datetime | None = None, repo: str = "vllm-project/vllm-ascend") -> None:
    log = runner_log(start=c + sec(16), job=job, steps=steps, result=result, step_s=step_s)
    failed = result == "Failed"
    ok = result == "Succeeded"
    state = None
    if failed or ok:
        state = k.terminated("Error" if failed else "Completed", 1 if failed else 0, c + sec(16), end or cap - mins(1))
    phase = "Failed" if failed else ("Succeeded" if ok else "Running")
    pod = rpod(name, c, node, log=log, state=state, phase=phase, selector=selector, env=env)
    r = Runner(name, c - sec(1), phase=phase, job=job, scale_set=scale, repo=repo,
               selector={"ascend-ci/npu-type": "a2"} if selector is None else selector)
    write_ci_bundle(CIBundle(cap, nodes or a2(), [pod], [r]), out)


def patch_pods(out: Path, fn: Callable[[Obj], None], ns: str = NS) -> None:
    path = out / "ci-cluster" / ns / "pods.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for item in data["items"]:
        fn(item)
    k.write_json(path, data)


# ---------------------------------------------------------------- pending: storage, images, config

def w_pvc_not_found(out: Path) -> None:
    c = at(2026, 12, 4, 1, 0)
    rn = "linux-aarch64-a2-4-j2k8h-runner-b7c2d"
    msg = ('0/3 nodes are available: persistentvolumeclaim "vllm-ascend-model-cache" not found. preemption: 0/3 nodes '
           "are available: 3 Preemption is not helpful for scheduling.")
    vols = [{"name": "model-cache", "persistentVolumeClaim": {"claimName": "vllm-ascend-model-cache"}},
            {"name": "work", "emptyDir": {}}]
    mounts = [{"name": "model-cache", "mountPath": "/root/.cache"}, {"name": "work", "mountPath": "/__w"}]
    res = {"limits": {"cpu": "32", "memory": "128Gi", "huawei.com/Ascend910": "4"},
           "requests": {"cpu": "32", "memory": "128Gi", "huawei.com/Ascend910": "4"}}
    wf = wfpod(rn, c + sec(41), None, Ctr("job", VLLM_IMG, resources=res, mounts=mounts), phase="Pending",
               sched_message=msg, volumes=vols, default_events=False,
               events=[Ev("FailedScheduling", msg, 1, 760, 14, component="default-scheduler")])
    runner = hook_runner(rn, c, "npu-a2-02", "e2e-multicard (a2-4)",
                         [f"{gh(c + sec(41))} Job pod created, waiting for it to come online {rn}-workflow"])
    b = CIBundle(c + mins(13), a2(), [runner, wf], [Runner(rn, c - sec(1), job="e2e-multicard (a2-4)",
                                                          scale_set="linux-aarch64-a2-4")])
    write_ci_bundle(b, out)


def w_hostpath_type(out: Path) -> None:
    c = at(2026, 12, 4, 1, 30)
    rn = "linux-aarch64-a2-1-kq7xv-runner-h2t6q"
    img = "swr.cn-southwest-2.myhuaweicloud.com/ascend-ci/verl-npu:main-a2"
    vols = [{"name": "ray-spill", "hostPath": {"path": "/mnt/nvme1/ray", "type": "Directory"}}]
    mounts = [{"name": "ray-spill", "mountPath": "/tmp/ray"}]
    fm = 'MountVolume.SetUp failed for volume "ray-spill" : hostPath type check failed: /mnt/nvme1/ray is not a directory'
    wf = wfpod(rn, c + sec(36), "npu-a2-03", Ctr("job", img, state=k.waiting("ContainerCreating"), mounts=mounts),
               phase="Pending", volumes=vols,
               events=[Ev("FailedMount", fm, 1, 610, 13),
                       Ev("FailedMount", "Unable to attach or mount volumes: unmounted volumes=[ray-spill], unattached volumes=[ray-spill kube-api-access-8x2lq]: timed out waiting for the condition", 121, 601, 5)])
    runner = hook_runner(rn, c, "npu-a2-03", "ray-e2e (a2-1)",
                         [f"{gh(c + sec(36))} Job pod created, waiting for it to come online {rn}-workflow"])
    b = CIBundle(c + mins(11), a2(), [runner, wf], [Runner(rn, c - sec(1), job="ray-e2e (a2-1)",
                                                          repo="volcengine/verl")])
    write_ci_bundle(b, out)
    patch_pods(out, lambda p: p["status"].update({"conditions": [
        {**cd, "status": "False", "reason": "ContainersNotReady"} if cd["type"] in ("Ready", "ContainersReady") else
        ({**cd, "status": "False"} if cd["type"] == "PodReadyToStartContainers" else cd)
        for cd in p["status"].get("conditions", [])]}) if p["metadata"]["name"].endswith("-workflow") else None)


def w_invalid_ref_empty_tag(out: Path) -> None:
    c = at(2026, 12, 4, 2, 0)
    rn = "linux-aarch64-a2-1-kq7xv-runner-e4w8p"
    img = "swr.cn-southwest-2.myhuaweicloud.com/ascend-ci/vllm-ascend:"
    msg = f'Failed to apply default image tag "{img}": couldn\'t parse image name "{img}": invalid reference format'
    wf = wfpod(rn, c + sec(37), "npu-a2-01", Ctr("job", img, state=k.waiting("InvalidImageName", msg), pulled=False),
               phase="Pending", events=[Ev("InspectFailed", msg, 2, 290, 15), Ev("Failed", "Error: InvalidImageName", 2, 290, 15)])
    runner = hook_runner(rn, c, "npu-a2-01", "nightly-accuracy (a2-1)",
                         [f"{gh(c + sec(37))} Job pod created, waiting for it to come online {rn}-workflow"])
    b = CIBundle(c + mins(5), a2(), [runner, wf], [Runner(rn, c - sec(1), job="nightly-accuracy (a2-1)")])
    write_ci_bundle(b, out)


def w_configmap_state_only(out: Path) -> None:
    c = at(2026, 12, 4, 2, 30)
    rn = "linux-amd64-cpu-8-f9x2k-runner-m5r1k"
    msg = 'configmap "ci-proxy-env" not found'
    pod = rpod(rn, c, "cpu-x86-02", phase="Pending", selector={"ascend-ci/cpu": "x86"},
               state=k.waiting("CreateContainerConfigError", msg), default_events=False)
    pod.containers[0].env = [*HOOKS, {"name": "HTTPS_PROXY", "valueFrom": {"configMapKeyRef": {"name": "ci-proxy-env", "key": "https_proxy"}}}]
    b = CIBundle(c + mins(9), x86(), [pod], [Runner(rn, c - sec(1), phase="Pending", job=None,
                                                    scale_set="linux-amd64-cpu-8", selector={"ascend-ci/cpu": "x86"})])
    write_ci_bundle(b, out)
    (out / "ci-cluster" / NS / "events.json").unlink()


def w_outofmemory_pinned(out: Path) -> None:
    c = at(2026, 12, 4, 3, 0)
    rn = "linux-aarch64-a2-8-p2c6v-runner-n8v3x"
    msg = ("Pod was rejected: Node didn't have enough resource: memory, requested: 137438953472, used: 1554194038784, "
           "capacity: 1622336937984")
    res = {"limits": {"cpu": "8", "memory": "128Gi"}, "requests": {"cpu": "4", "memory": "128Gi"}}
    pod = rpod(rn, c, "npu-a2-02", phase="Failed", selector={}, default_events=False,
               events=[Ev("OutOfmemory", "Node didn't have enough resource: memory, requested: 137438953472, used: 1554194038784, capacity: 1622336937984", 0)])
    pod.containers[0].resources = res
    pod.reason = "OutOfmemory"
    pod.message = msg
    fails = {k.uid("oom", rn, str(i)): True for i in range(2)}
    r = Runner(rn, c - sec(1), phase="Pending", job=None, scale_set="linux-aarch64-a2-8", failures=fails,
               selector={})
    write_ci_bundle(CIBundle(c + mins(3), a2(), [pod], [r]), out)

    def strip(p: Obj) -> None:
        p["status"].pop("containerStatuses", None)
        p["status"].pop("conditions", None)
        p["status"].pop("podIP", None)
        p["status"].pop("podIPs", None)
    patch_pods(out, strip)


# ---------------------------------------------------------------- architecture

def w_rpds_on_aarch64(out: Path) -> None:
    c = at(2026, 12, 4, 3, 30)
    rn = "linux-aarch64-a2-1-kq7xv-runner-l3f9z"
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pip install pre-commit==4.0.1", [
                 "Looking in indexes: http://pypi-cache.ci.internal/simple",
                 "Requirement already satisfied: pre-commit==4.0.1 in /usr/local/lib/python3.11/site-packages (4.0.1)",
                 "WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour with the system package manager."]),
             ("pre-commit run --all-files --show-diff-on-failure", [
                 "ruff.....................................................................Passed",
                 "codespell................................................................Passed",
                 "Validate GitHub Workflows................................................Failed",
                 "- hook id: check-github-workflows",
                 "- exit code: 1",
                 "",
                 "Traceback (most recent call last):",
                 '  File "/root/.cache/pre-commit/repo3k1_7z0q/py_env-python3.11/bin/check-jsonschema", line 5, in <module>',
                 "    from check_jsonschema import main",
                 '  File "/root/.cache/pre-commit/repo3k1_7z0q/py_env-python3.11/lib/python3.11/site-packages/jsonschema/_types.py", line 6, in <module>',
                 "    from referencing import Registry",
                 '  File "/root/.cache/pre-commit/repo3k1_7z0q/py_env-python3.11/lib/python3.11/site-packages/rpds/__init__.py", line 1, in <module>',
                 "    from .rpds import *",
                 "ModuleNotFoundError: No module named 'rpds.rpds'",
                 "##[error]Process completed with exit code 1."])]
    log = runner_log(start=c + sec(16), job="lint", steps=steps, result="Failed", step_s=40)
    pod = rpod(rn, c, "npu-a2-02", log=log, selector={}, phase="Failed",
               state=k.terminated("Error", 1, c + sec(16), c + mins(4)))
    r = Runner(rn, c - sec(1), phase="Failed", job="lint", scale_set="linux-aarch64-a2-1", selector={})
    write_ci_bundle(CIBundle(c + mins(5), a2() + x86(), [pod], [r]), out)


def w_exec_format(out: Path) -> None:
    c = at(2026, 12, 4, 4, 0)
    rn = "linux-amd64-cpu-8-f9x2k-runner-q1d7s"
    img = "swr.cn-southwest-2.myhuaweicloud.com/ascend-ci/cann:8.2.rc1-910b-openeuler22.03-py3.11"
    wf = wfpod(rn, c + sec(38), "cpu-x86-01", Ctr("job", img, command=["tail", "-f", "/dev/null"],
                                                  state=k.terminated("Error", 255, c + sec(55), c + sec(55))),
               phase="Failed", selector={"ascend-ci/cpu": "x86"},
               logs={"job": "exec /usr/bin/tail: exec format error"})
    runner = hook_runner(rn, c, "cpu-x86-01", "build-docs (cpu)", [
        f"{gh(c + sec(38))} Job pod created, waiting for it to come online {rn}-workflow",
        f"{gh(c + sec(57))} ##[error]Error: pod failed to come online with error: Error: Pod {rn}-workflow is unhealthy with phase status Failed",
        f"{gh(c + sec(57))} ##[error]Error: Executing the custom container implementation failed. Please contact your self hosted runner administrator.",
        f"{(c + sec(62)).strftime(Z)}: Job build-docs (cpu) completed with result: Failed"])
    runner.phase = "Failed"
    runner.containers[0].state = k.terminated("Error", 1, c + sec(16), c + sec(63))
    runner.node_selector = {"ascend-ci/cpu": "x86"}
    r = Runner(rn, c - sec(1), phase="Failed", job="build-docs (cpu)", scale_set="linux-amd64-cpu-8",
               selector={"ascend-ci/cpu": "x86"})
    write_ci_bundle(CIBundle(c + mins(3), x86() + a2(), [runner, wf], [r]), out)


# ---------------------------------------------------------------- steps

def w_cargo_crates(out: Path) -> None:
    c = at(2026, 12, 4, 4, 30)
    crate = "https://crates.io/api/v1/crates/tokenizers/0.21.0/download"
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pip install -v -e . (builds the Rust tokenizer extension)", [
                 "  Building wheels for collected packages: vllm-ascend-rs",
                 "  Running `maturin pep517 build-wheel -i /usr/local/python3.11.13/bin/python3.11 --compatibility off`",
                 "      Updating crates.io index",
                 "   Downloading crates ...",
                 "  warning: spurious network error (3 tries remaining): [28] Timeout was reached (Operation timed out after 30000 milliseconds with 0 out of 0 bytes received)",
                 "  warning: spurious network error (2 tries remaining): [28] Timeout was reached (Operation timed out after 30001 milliseconds with 0 out of 0 bytes received)",
                 "  warning: spurious network error (1 tries remaining): [28] Timeout was reached (Operation timed out after 30000 milliseconds with 0 out of 0 bytes received)",
                 f"  error: failed to download from `{crate}`",
                 "",
                 "  Caused by:",
                 "    [28] Timeout was reached (Operation timed out after 30000 milliseconds with 0 out of 0 bytes received)",
                 "  💥 maturin failed",
                 "    Caused by: Failed to build a native library through cargo",
                 "  error: subprocess-exited-with-error",
                 "  × Building editable for vllm-ascend-rs (pyproject.toml) did not run successfully.",
                 "  │ exit code: 1",
                 "##[error]Process completed with exit code 1."])]
    single(out, name="linux-aarch64-a2-1-kq7xv-runner-c9k4m", c=c, cap=c + mins(9), steps=steps, result="Failed",
           job="build-from-source (a2-1)", step_s=300,
           env=[*HOOKS, {"name": "CARGO_HTTP_TIMEOUT", "value": "30"},
                {"name": "PIP_INDEX_URL", "value": "http://pypi-cache.ci.internal/simple"}])


def w_weight_key_mismatch(out: Path) -> None:
    c = at(2026, 12, 4, 5, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest -sv tests/e2e/multicard/test_deepseek_w8a8.py", [
                 "collected 2 items",
                 "INFO 12-04 05:02:13 [__init__.py:235] Platform plugin ascend is activated",
                 "(Worker_TP0 pid=3120) INFO 12-04 05:03:40 [model_runner_v1.py:2411] Starting to load model /root/.cache/modelscope/hub/models/vllm-ascend/DeepSeek-V2-Lite-W8A8...",
                 "(Worker_TP0 pid=3120) ERROR 12-04 05:03:52 [multiproc_executor.py:671] WorkerProc failed to start.",
                 "(Worker_TP0 pid=3120) ERROR 12-04 05:03:52 [multiproc_executor.py:671] Traceback (most recent call last):",
                 '(Worker_TP0 pid=3120) ERROR 12-04 05:03:52 [multiproc_executor.py:671]   File "/vllm-workspace/vllm-ascend/vllm_ascend/quantization/quant_config.py", line 286, in create_weights',
                 "(Worker_TP0 pid=3120) ERROR 12-04 05:03:52 [multiproc_executor.py:671]     quant_description[f'{prefix}.weight_offset']",
                 "(Worker_TP0 pid=3120) ERROR 12-04 05:03:52 [multiproc_executor.py:671] KeyError: 'model.layers.0.self_attn.kv_b_proj.weight_offset'",
                 "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
                 "FAILED tests/e2e/multicard/test_deepseek_w8a8.py::test_deepseek_v2_lite_w8a8_tp2 - RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
                 "=================== 1 failed, 1 passed, 7 warnings in 233.02s (0:03:53) ===================",
                 "##[error]Process completed with exit code 1."])]
    env = [*HOOKS, {"name": "VLLM_USE_MODELSCOPE", "value": "True"}, {"name": "HF_HUB_OFFLINE", "value": "1"},
           {"name": "MODELSCOPE_CACHE", "value": "/root/.cache/modelscope"}]
    single(out, name="linux-aarch64-a2-2-r5d8n-runner-w6g1b", c=c, cap=c + mins(6), steps=steps, result="Failed",
           job="e2e-multicard-quant (a2-2)", scale="linux-aarch64-a2-2", step_s=230, env=env)


def w_torch_baton(out: Path) -> None:
    c = at(2026, 12, 4, 5, 30)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest -sv tests/e2e/singlecard/ops/test_rotary_embedding.py", [
                 "============================= test session starts ==============================",
                 "platform linux -- Python 3.11.13, pytest-8.3.5, pluggy-1.5.0 -- /usr/local/python3.11.13/bin/python3.11",
                 "rootdir: /__w/vllm-ascend/vllm-ascend",
                 "collecting ... ",
                 "Using /root/.cache/torch_extensions/py311_cpu as PyTorch extensions root...",
                 "Using /root/.cache/torch_extensions/py311_cpu as PyTorch extensions root..."])]
    env = [*HOOKS, {"name": "TORCH_EXTENSIONS_DIR", "value": "/root/.cache/torch_extensions"}]
    single(out, name="linux-aarch64-a2-1-kq7xv-runner-t8b5n", c=c, cap=c + mins(190), steps=steps, result=None,
           job="ops-test (a2-1)", step_s=20, env=env)


def w_error_named_test_fails(out: Path) -> None:
    c = at(2026, 12, 4, 6, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest -sv tests/ut/distributed", [
                 "collected 9 items",
                 "tests/ut/distributed/test_hccl_errors.py::test_ei0019_port_bound_is_classified PASSED",
                 "tests/ut/distributed/test_hccl_errors.py::test_ei0002_notify_timeout_is_classified PASSED",
                 "tests/ut/distributed/test_hccl_errors.py::test_host_oom_207001_message_parsed FAILED",
                 "tests/ut/distributed/test_parallel_state.py::test_init_world_group PASSED",
                 "tests/ut/distributed/test_parallel_state.py::test_destroy_model_parallel PASSED",
                 "tests/ut/distributed/test_device_communicator.py::test_all_reduce_out_of_memory_fallback SKIPPED (needs 2 NPUs)",
                 "tests/ut/distributed/test_device_communicator.py::test_all_gather PASSED",
                 "tests/ut/distributed/test_device_communicator.py::test_reduce_scatter PASSED",
                 "tests/ut/distributed/test_device_communicator.py::test_broadcast_no_space_left_retry XFAIL (known flaky on 910B)",
                 "=================================== FAILURES ===================================",
                 "_______________________ test_host_oom_207001_message_parsed ______________________",
                 "",
                 "    def test_host_oom_207001_message_parsed():",
                 '        msg = "aclrtMallocHostWithCfg failed, error code is 207001"',
                 "        err = classify_acl_error(msg)",
                 '>       assert err.code == "EL0004"',
                 "E       AssertionError: assert 'EL0001' == 'EL0004'",
                 "E         - EL0004",
                 "E         + EL0001",
                 "",
                 "tests/ut/distributed/test_hccl_errors.py:58: AssertionError",
                 "=========================== short test summary info ============================",
                 "FAILED tests/ut/distributed/test_hccl_errors.py::test_host_oom_207001_message_parsed - AssertionError: assert 'EL0001' == 'EL0004'",
                 "============ 1 failed, 6 passed, 1 skipped, 1 xfailed in 12.40s ============",
                 "##[error]Process completed with exit code 1."])]
    single(out, name="linux-aarch64-a2-1-kq7xv-runner-r3x7v", c=c, cap=c + mins(4), steps=steps, result="Failed",
           job="unit-test (a2-1)", step_s=20)


def w_host_oom_then_hccl(out: Path) -> None:
    c = at(2026, 12, 4, 6, 30)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest -sv tests/e2e/multicard/test_qwen3_moe_hicache.py", [
                 "collected 1 item",
                 "INFO 12-04 06:33:02 [__init__.py:235] Platform plugin ascend is activated",
                 "(Worker_TP0 pid=5012) INFO 12-04 06:35:40 [hicache.py:118] Allocating host KV cache: 96 blocks x 2.00 GiB = 192.00 GiB (pin_memory=True)",
                 "(Worker_TP3 pid=5015) ERROR 12-04 06:35:51 [multiproc_executor.py:671] torch.OutOfMemoryError: allocate_host_memory_slowpath:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:121 NPU function error: aclrtMallocHostWithCfg(&ptr, size, &cfg), error code is 207001",
                 "(Worker_TP3 pid=5015) ERROR 12-04 06:35:51 [multiproc_executor.py:671] [ERROR] 2026-12-04-06:35:51 (PID:5015, Device:3, RankID:3) ERR00100 PTA call acl api failed",
                 "(Worker_TP3 pid=5015) ERROR 12-04 06:35:51 [multiproc_executor.py:671] EL0004: [PID: 5015] 2026-12-04-06:35:51.402.113 Failed to allocate memory.",
                 "(Worker_TP3 pid=5015) ERROR 12-04 06:35:51 [multiproc_executor.py:671]         Possible Cause: Available memory is insufficient.",
                 "(Worker_TP3 pid=5015) ERROR 12-04 06:35:51 [multiproc_executor.py:671]         Solution: Close applications not in use.",
                 "(Worker_TP3 pid=5015) ERROR 12-04 06:35:51 [multiproc_executor.py:671]         TraceBack (most recent call last):",
                 "(Worker_TP3 pid=5015) ERROR 12-04 06:35:51 [multiproc_executor.py:671]         alloc host memory failed, runtime result = 207001[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]",
                 "(Worker_TP0 pid=5012) ERROR 12-04 06:45:53 [multiproc_executor.py:671] RuntimeError: HcclAllreduce:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:117 HCCL function error: hcclCommInitRootInfoConfig, error code is 2",
                 "(Worker_TP0 pid=5012) ERROR 12-04 06:45:53 [multiproc_executor.py:671] EI0002: [PID: 5012] 2026-12-04-06:45:53.011.552 The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [3].base information: [streamID:[1], taskID[12], tag[AllReduce_192.168.31.11%enp189s0f0_60000_0_1764829553011], AlgType(level 0-1-2):[fullmesh-ring-NHR].] task information: []",
                 "(Worker_TP0 pid=5012) ERROR 12-04 06:45:53 [multiproc_executor.py:671]         Possible Cause: 1. An exception occurs during the execution on some NPUs in the cluster. As a result, collective communication operation failed.2. The execution speed on some NPU in the cluster is too slow to complete a communication operation within the timeout interval. (default 1800s, You can set the interval by using HCCL_EXEC_TIMEOUT.)",
                 "(Worker_TP1 pid=5013) ERROR 12-04 06:45:53 [multiproc_executor.py:671] EI0002: [PID: 5013] 2026-12-04-06:45:53.014.208 The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [3].",
                 "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
                 "FAILED tests/e2e/multicard/test_qwen3_moe_hicache.py::test_qwen3_moe_tp4_hicache - RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
                 "========= 1 failed, 3 warnings in 803.18s (0:13:23) =========",
                 "##[error]Process completed with exit code 1."])]
    single(out, name="linux-aarch64-a2-4-j2k8h-runner-y4p2c", c=c, cap=c + mins(16), steps=steps, result="Failed",
           job="e2e-multicard-4 (a2-4)", scale="linux-aarch64-a2-4", step_s=800)


def w_novolume_hash(out: Path) -> None:
    c = at(2026, 12, 4, 7, 0)
    rn = "linux-aarch64-a2-1-kq7xv-runner-p6j3w"
    t = c + sec(40)
    lines = ["", "√ Connected to GitHub", "", "Current runner version: '2.330.0'",
             f"{(c + sec(20)).strftime(Z)}: Listening for Jobs", f"{(c + sec(23)).strftime(Z)}: Running job: unit-test (a2-1)",
             f"{gh(t)} ##[group]Run '/home/runner/k8s-novolume/index.js'",
             f"{gh(t)} shell: /home/runner/externals/node20/bin/node {{0}}", f"{gh(t)} ##[endgroup]",
             f"{gh(t + sec(1))} ##[debug]Job pod created, waiting for it to come online {rn}-workflow",
             f"{gh(t + sec(16))} ##[debug]Copying /home/runner/_work to pod {rn}-workflow at /__w",
             f"{gh(t + sec(16))} (node:97) [DEP0005] DeprecationWarning: Buffer() is deprecated due to security and usability issues. Please use the Buffer.alloc(), Buffer.allocUnsafe(), or Buffer.from() methods instead.",
             f"{gh(t + sec(70))} ##[group]Run actions/checkout@v4"]
    t2 = t + sec(95)
    for i in range(6):
        tt = t2 + sec(110 * i)
        lines += [f"{gh(tt)} ##[debug]Copying from job pod '{rn}-workflow' /__w/_temp to /home/runner/_work/_temp",
                  f"{gh(tt)} ##[debug]internalExecOutput response: {{\"metadata\":{{}},\"status\":\"Success\"}}",
                  f"{gh(tt + sec(1))} ##[debug]The hash of the directory does not match the expected value; want='{k.uid('w', str(i)).replace('-', '')}' got='{k.uid('g', str(i)).replace('-', '')}'"]
    te = t2 + sec(700)
    lines += [f"{gh(te)} ##[error]Error: The hash of the directory does not match the expected value after 6 attempts",
              f"{gh(te)} ##[error]Error: Executing the custom container implementation failed. Please contact your self hosted runner administrator.",
              f"{gh(te + sec(1))} ##[error]Process completed with exit code 1.",
              f"{(te + sec(4)).strftime(Z)}: Job unit-test (a2-1) completed with result: Failed"]
    env = [{"name": "ACTIONS_RUNNER_CONTAINER_HOOKS", "value": "/home/runner/k8s-novolume/index.js"},
           {"name": "ACTIONS_RUNNER_REQUIRE_JOB_CONTAINER", "value": "true"}, {"name": "ACTIONS_STEP_DEBUG", "value": "true"}]
    runner = rpod(rn, c, "npu-a2-01", log="\n".join(lines), env=env, phase="Failed",
                  state=k.terminated("Error", 1, c + sec(16), te + sec(5)))
    wf = wfpod(rn, t + sec(1), "npu-a2-01", Ctr("job", VLLM_IMG, command=["tail", "-f", "/dev/null"]),
               deletion=te + sec(3))
    r = Runner(rn, c - sec(1), phase="Failed", job="unit-test (a2-1)")
    write_ci_bundle(CIBundle(te + sec(20), a2(), [runner, wf], [r]), out)


# ---------------------------------------------------------------- nodes, runners, autoscaling

def w_node_notready_evicting(out: Path) -> None:
    c = at(2026, 12, 4, 7, 30)
    rn = "linux-aarch64-a2-4-j2k8h-runner-k2s9d"
    down = c + mins(21)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest -sv tests/e2e/multicard/test_aclgraph_capture.py", [
                 "collected 3 items",
                 "INFO 12-04 07:33:40 [__init__.py:235] Platform plugin ascend is activated",
                 "(Worker_TP0 pid=2210) INFO 12-04 07:37:12 [acl_graph.py:204] Capturing ACL graphs for batch sizes [1, 2, 4, 8, 16, 24, 32, 48]",
                 "(Worker_TP0 pid=2210) INFO 12-04 07:38:01 [acl_graph.py:231] Capturing ACL graph for batch size 16"])]
    log = runner_log(start=c + sec(16), job="e2e-multicard-4 (a2-4)", steps=steps, result=None, step_s=420)
    nodes = a2()
    nodes[2].ready = False
    nodes[2].not_ready_since = down
    nodes[2].taints = [{"key": "node.kubernetes.io/unreachable", "effect": "NoSchedule", "timeAdded": k.ts(down)},
                       {"key": "node.kubernetes.io/unreachable", "effect": "NoExecute", "timeAdded": k.ts(down + sec(5))}]
    pod = rpod(rn, c, "npu-a2-03", log=log, deletion=down + mins(5) + sec(30),
               events=[Ev("NodeNotReady", "Node is not ready", 21 * 60 + 6, etype="Warning", component="node-controller"),
                       Ev("TaintManagerEviction", f"Marking for deletion Pod {NS}/{rn}", 26 * 60 + 6, etype="Normal", component="taint-eviction-controller")])
    r = Runner(rn, c - sec(1), job="e2e-multicard-4 (a2-4)", scale_set="linux-aarch64-a2-4")
    ev_node = k.event("Node", "", "npu-a2-03", k.uid("node", "npu-a2-03"), "NodeNotReady",
                      "Node npu-a2-03 status is now: NodeNotReady", down, component="node-controller")
    ev_node["metadata"]["namespace"] = "default"
    ev_node["involvedObject"].pop("namespace")
    write_ci_bundle(CIBundle(c + mins(29), nodes, [pod], [r]), out)
    k.write_json(out / "ci-cluster" / "default" / "events.json", k.k8s_list("Event", "v1", [ev_node]))

    def not_ready(p: Obj) -> None:
        for cd in p["status"]["conditions"]:
            if cd["type"] in ("Ready", "ContainersReady"):
                cd.update({"status": "False", "lastTransitionTime": k.ts(down + sec(6))})
            if cd["type"] == "Ready":
                cd.update({"reason": "NodeNotReady"})
                cd.pop("message", None)
        p["status"]["conditions"].append({"type": "DisruptionTarget", "status": "True", "reason": "DeletionByTaintManager",
                                          "message": "Taint manager: deleting due to NoExecute taint",
                                          "lastTransitionTime": k.ts(down + mins(5) + sec(6)), "lastProbeTime": None})
    patch_pods(out, not_ready)


def w_karpenter_registration_runner(out: Path) -> None:
    c = at(2026, 12, 4, 8, 0)
    rn = "linux-amd64-cpu-32-v7n4h-runner-d3q8r"
    sel = {"karpenter.sh/nodepool": "ci-cpu-32", "kubernetes.io/arch": "amd64"}
    msg = ("0/5 nodes are available: 2 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 3 node(s) "
           "didn't match Pod's node affinity/selector. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.")
    claims = ["ci-cpu-32-8kx2t", "ci-cpu-32-q4m7z", "ci-cpu-32-w9c5n"]
    evs = [Ev("FailedScheduling", msg, 1, 2700, 41, component="default-scheduler")]
    evs += [Ev("Nominated", f"Pod should schedule on: nodeclaim/{n}", 4 + 960 * i, etype="Normal", component="karpenter")
            for i, n in enumerate(claims)]
    pod = rpod(rn, c, None, phase="Pending", selector=sel, sched_message=msg, events=evs)
    cond_t = c + mins(33)
    np_obj = {"apiVersion": "karpenter.sh/v1", "kind": "NodePool",
              "metadata": {"name": "ci-cpu-32", "uid": k.uid("np", "ci-cpu-32"), "creationTimestamp": k.ts(c - mins(60 * 24 * 40)), "resourceVersion": "1"},
              "spec": {"template": {"spec": {"requirements": [{"key": "kubernetes.io/arch", "operator": "In", "values": ["amd64"]},
                                                              {"key": "node.kubernetes.io/instance-type", "operator": "In", "values": ["c7.8xlarge.2"]}],
                                             "nodeClassRef": {"group": "karpenter.k8s.huaweicloud", "kind": "ECSNodeClass", "name": "ci-x86"}}},
                       "limits": {"cpu": "1024"}},
              "status": {"conditions": [
                  {"type": "ValidationSucceeded", "status": "True", "reason": "ValidationSucceeded", "message": "", "lastTransitionTime": k.ts(c - mins(60 * 24 * 40))},
                  {"type": "NodeClassReady", "status": "True", "reason": "NodeClassReady", "message": "", "lastTransitionTime": k.ts(c - mins(60 * 24 * 40))},
                  {"type": "NodeRegistrationHealthy", "status": "False", "reason": "RegistrationFailed", "message": "Failed to register node", "lastTransitionTime": k.ts(cond_t)},
                  {"type": "Ready", "status": "True", "reason": "Ready", "message": "", "lastTransitionTime": k.ts(c - mins(60 * 24 * 40))}],
                  "resources": {"cpu": "0", "memory": "0", "nodes": "0", "pods": "0"}}}
    nc = {"apiVersion": "karpenter.sh/v1", "kind": "NodeClaim",
          "metadata": {"name": claims[-1], "uid": k.uid("nc", claims[-1]), "creationTimestamp": k.ts(c + mins(32)), "resourceVersion": "1",
                       "labels": {"karpenter.sh/nodepool": "ci-cpu-32", "kubernetes.io/arch": "amd64"}},
          "spec": {"nodeClassRef": {"group": "karpenter.k8s.huaweicloud", "kind": "ECSNodeClass", "name": "ci-x86"}},
          "status": {"providerID": "huaweicloud:///cn-southwest-2a/0b7c1e2d-4f5a-4d1b-9e3c-7a8b9c0d1e2f",
                     "conditions": [
                         {"type": "Launched", "status": "True", "reason": "Launched", "message": "", "lastTransitionTime": k.ts(c + mins(33))},
                         {"type": "Registered", "status": "Unknown", "reason": "AwaitingReconciliation", "message": "Node not registered with cluster", "lastTransitionTime": k.ts(c + mins(33))},
                         {"type": "Initialized", "status": "Unknown", "reason": "AwaitingReconciliation", "message": "Node not registered with cluster", "lastTransitionTime": k.ts(c + mins(33))},
                         {"type": "Ready", "status": "Unknown", "reason": "AwaitingReconciliation", "message": "Initialized=Unknown, Registered=Unknown", "lastTransitionTime": k.ts(c + mins(33))}]}}
    nodes = x86(3) + [cpu_node(f"master-{i + 1}", f"192.168.30.{2 + i}", taints=[{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]) for i in range(2)]
    b = CIBundle(c + mins(45), nodes, [pod], [Runner(rn, c - sec(1), phase="Pending", job=None, scale_set="linux-amd64-cpu-32", selector=sel)],
                 extra_files={"nodepools.karpenter.sh.json": k.k8s_list("NodePool", "karpenter.sh/v1", [np_obj]),
                              "nodeclaims.karpenter.sh.json": k.k8s_list("NodeClaim", "karpenter.sh/v1", [nc])})
    write_ci_bundle(b, out)


def w_stale_runner_after_drain(out: Path) -> None:
    c = at(2026, 12, 4, 0, 10)
    cap = c + mins(7 * 60 + 40)
    stale = "linux-aarch64-a2-1-kq7xv-runner-x5m2g"
    live = "linux-aarch64-a2-1-kq7xv-runner-j7h1u"
    nodes = a2()
    nodes[0].unschedulable = True
    nodes[0].not_ready_since = c + mins(52)
    runners = [Runner(stale, c, job="unit-test (a2-1)", run_id=19390412277, request_id=9812004),
               Runner(live, cap - mins(3), job=None)]
    pod = rpod(live, cap - mins(3), "npu-a2-02", log="\n".join(
        ["", "√ Connected to GitHub", "", "Current runner version: '2.330.0'", f"{(cap - mins(3) + sec(20)).strftime(Z)}: Listening for Jobs"]))
    write_ci_bundle(CIBundle(cap, nodes, [pod], runners), out)


def w_dind_iptables(out: Path) -> None:
    c = at(2026, 12, 4, 8, 40)
    rn = "linux-amd64-cpu-8-f9x2k-runner-s2w6e"
    steps = [("actions/checkout@v4", CHECKOUT),
             ("docker build -t vllm-ascend-docs:ci -f docs/Dockerfile .", [
                 "ERROR: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?",
                 "##[error]Process completed with exit code 1."])]
    log = runner_log(start=c + sec(16), job="docs-image (cpu)", steps=steps, result="Failed", step_s=20)
    dind_log = "\n".join([
        'time="2026-12-04T08:40:03.101884213Z" level=info msg="Starting up"',
        'time="2026-12-04T08:40:03.118201449Z" level=info msg="containerd not running, starting managed containerd"',
        'time="2026-12-04T08:40:04.402119384Z" level=info msg="Loading containers: start."',
        'time="2026-12-04T08:40:04.522735511Z" level=info msg="stopping event stream following graceful shutdown" error="<nil>" module=libcontainerd namespace=moby',
        "failed to start daemon: Error initializing network controller: error obtaining controller instance: failed to register \"bridge\" driver: unable to add return rule in DOCKER-ISOLATION-STAGE-1 chain:  (iptables failed: iptables --wait -A DOCKER-ISOLATION-STAGE-1 -j RETURN: iptables v1.8.10 (nf_tables):  RULE_APPEND failed (No such file or directory): rule in chain DOCKER-ISOLATION-STAGE-1",
        " (exit status 4))"])
    runner_c = Ctr("runner", RUNNER_IMG, state=k.terminated("Error", 1, c + sec(16), c + mins(2)), resources=RES,
                   command=["/home/runner/run.sh"], env=[{"name": "DOCKER_HOST", "value": "unix:///var/run/docker.sock"}])
    dind = Ctr("dind", "docker:27.3.1-dind", state=k.terminated("Error", 1, c + sec(3), c + sec(5)),
               command=["dockerd", "--host=unix:///var/run/docker.sock", "--group=$(DOCKER_GROUP_GID)"])
    externals = Ctr("init-dind-externals", RUNNER_IMG, command=["cp", "-r", "/home/runner/externals/.", "/home/runner/tmpDir/"])
    pod = CIPod(rn, "cpu-x86-03", c, [runner_c, dind], phase="Failed", runner=rn, init=[externals],
                logs={"runner": log, "dind": dind_log}, node_selector={"ascend-ci/cpu": "x86"})
    r = Runner(rn, c - sec(1), phase="Failed", job="docs-image (cpu)", scale_set="linux-amd64-cpu-8",
               selector={"ascend-ci/cpu": "x86"})
    write_ci_bundle(CIBundle(c + mins(4), x86(), [pod], [r]), out)


def w_version_deprecated_diag(out: Path) -> None:
    c = at(2026, 12, 4, 9, 10)
    rn = "linux-aarch64-a2-1-kq7xv-runner-b1y5t"
    img = "swr.cn-southwest-2.myhuaweicloud.com/ascend-ci/actions-runner:2.329.0"
    t = c + sec(14)
    d = t.strftime("%Y-%m-%d %H:%M:%SZ")
    lines = ["", "√ Connected to GitHub", "",
             f"[RUNNER {d} INFO RSAFileKeyManager] Loading RSA key parameters from file /home/runner/.credentials_rsaparams",
             "Current runner version: '2.329.0'",
             f"{d}: Listening for Jobs",
             f"[RUNNER {d} INFO BrokerServer] Establishing connection to the broker",
             f"[RUNNER {d} ERR  Terminal] WRITE ERROR: An error occured: Runner version v2.329.0 is deprecated and cannot receive messages.",
             "An error occured: Runner version v2.329.0 is deprecated and cannot receive messages.",
             f"[RUNNER {d} ERR  Listener] GitHub.DistributedTask.WebApi.AccessDeniedException: Runner version v2.329.0 is deprecated and cannot receive messages.",
             f"[RUNNER {d} ERR  Listener]    at GitHub.Actions.RunService.WebApi.BrokerHttpClient.GetRunnerMessageAsync(Nullable`1 sessionId, String runnerVersion, Nullable`1 status, String os, String architecture, Nullable`1 disableUpdate, CancellationToken cancellationToken)",
             "Runner listener exit with terminated error, stop the service, no retry needed.",
             "Exiting runner..."]
    ctr = Ctr("runner", img, state=k.terminated("Error", 1, c + sec(12), c + sec(16)), resources=RES,
              command=["/home/runner/run.sh"], env=HOOKS)
    pod = CIPod(rn, "npu-a2-02", c, [ctr], phase="Failed", runner=rn, logs={"runner": "\n".join(lines)},
                node_selector={"ascend-ci/npu-type": "a2"})
    r = Runner(rn, c - sec(1), phase="Failed", job=None, image=img)
    write_ci_bundle(CIBundle(c + mins(2), a2(), [pod], [r]), out)


def w_liqo_state_only(out: Path) -> None:
    c = at(2026, 12, 4, 9, 40)
    rn = "linux-aarch64-gy005-a2-1-r8d2v-runner-z6k1p"
    sel = {"liqo.io/remote-cluster-id": "gy005"}
    pod = rpod(rn, c, "liqo-gy005", phase="Pending", selector=sel, default_events=False,
               reason="OffloadingBackOff", message="The pod could not be offloaded to the remote cluster",
               state=k.waiting("ContainerCreating"))
    nodes = a2()
    vnode = NodeSpec("liqo-gy005", arch="arm64", ip="10.244.0.31", device=("huawei.com/Ascend910", 64), cpu="1536",
                     memory="12674507328Ki", labels={"liqo.io/type": "virtual-node", "liqo.io/remote-cluster-id": "gy005",
                                                     "ascend-ci/npu-type": "a2"},
                     taints=[{"key": "virtual-node.liqo.io/not-allowed", "value": "true", "effect": "NoExecute"}],
                     kernel="", os_image="")
    nodes.append(vnode)
    noff = {"apiVersion": "offloading.liqo.io/v1beta1", "kind": "NamespaceOffloading",
            "metadata": {"name": "offloading", "namespace": NS, "uid": k.uid("noff", NS), "creationTimestamp": k.ts(c - mins(60 * 24 * 20)), "resourceVersion": "1"},
            "spec": {"namespaceMappingStrategy": "EnforceSameName", "podOffloadingStrategy": "LocalAndRemote",
                     "clusterSelector": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "liqo.io/remote-cluster-id", "operator": "In", "values": ["gy004", "gy005"]}]}]}},
            "status": {"offloadingPhase": "SomeFailed", "remoteNamespaceName": NS, "observedGeneration": 3,
                       "remoteNamespacesConditions": {
                           "gy004": [{"type": "OffloadingRequired", "status": "True", "reason": "ClusterSelected", "message": "You have selected this cluster for offloading", "lastTransitionTime": k.ts(c - mins(60 * 24 * 20))},
                                     {"type": "Ready", "status": "True", "reason": "RemoteNamespaceCreated", "message": "Namespace correctly offloaded on this cluster", "lastTransitionTime": k.ts(c - mins(60 * 24 * 20))}],
                           "gy005": [{"type": "OffloadingRequired", "status": "True", "reason": "ClusterSelected", "message": "You have selected this cluster for offloading", "lastTransitionTime": k.ts(c - mins(60 * 24 * 2))},
                                     {"type": "Ready", "status": "False", "reason": "CreationLoopBackOff", "message": "Some problems occurred during remote namespace creation", "lastTransitionTime": k.ts(c - mins(60 * 24 * 2))}]}}}
    r = Runner(rn, c - sec(1), phase="Pending", job=None, scale_set="linux-aarch64-gy005-a2-1", selector=sel)
    write_ci_bundle(CIBundle(c + mins(38), nodes, [pod], [r],
                             extra_files={f"{NS}/namespaceoffloadings.offloading.liqo.io.json": k.k8s_list("NamespaceOffloading", "offloading.liqo.io/v1beta1", [noff])}), out)
    (out / "ci-cluster" / NS / "events.json").unlink()


def w_buildkit_enospc(out: Path) -> None:
    c = at(2026, 12, 4, 10, 10)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("docker buildx build --platform linux/arm64 -f Dockerfile.a3 -t vllm-ascend:ci-a3 .", [
                 "#0 building with \"ci-builder\" instance using remote driver",
                 "#5 [internal] load metadata for swr.cn-southwest-2.myhuaweicloud.com/ascend-ci/cann:8.2.rc1-a3-openeuler22.03-py3.11",
                 "#5 DONE 0.6s",
                 "#9 [ 3/11] RUN pip install -r requirements.txt",
                 "#9 CACHED",
                 "#12 [ 6/11] COPY . /vllm-workspace/vllm-ascend",
                 "#12 DONE 4.1s",
                 "#13 [ 7/11] RUN pip install -v -e /vllm-workspace/vllm-ascend",
                 "#13 ERROR: failed to create temp dir: mkdir /var/lib/buildkit/runc-overlayfs/snapshots/snapshots/new-2081623452: no space left on device",
                 "------",
                 " > [ 7/11] RUN pip install -v -e /vllm-workspace/vllm-ascend:",
                 "------",
                 "ERROR: failed to solve: failed to prepare extraction snapshot \"extract-511232704-Lq3h sha256:6b1f0e5a2c9d8e7f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f\": failed to create temp dir: mkdir /var/lib/buildkit/runc-overlayfs/snapshots/snapshots/new-2081623452: no space left on device",
                 "##[error]Process completed with exit code 1."])]
    single(out, name="linux-aarch64-a3-2-p4n7c-runner-g8w2e", c=c, cap=c + mins(12), steps=steps, result="Failed",
           job="image-build (a3)", nodes=[npu_node(f"npu-a3-{i + 1:02d}", f"192.168.32.{11 + i}", npu_type="a3", n=16) for i in range(2)],
           node="npu-a3-02", scale="linux-aarch64-a3-2", selector={"ascend-ci/npu-type": "a3"}, step_s=500)


def w_oomkilled_state_only(out: Path) -> None:
    c = at(2026, 12, 4, 10, 40)
    rn = "linux-aarch64-a2-2-r5d8n-runner-k4c9t"
    res = {"limits": {"cpu": "16", "memory": "64Gi", "huawei.com/Ascend910": "2"},
           "requests": {"cpu": "16", "memory": "64Gi", "huawei.com/Ascend910": "2"}}
    end = c + mins(17)
    wf = wfpod(rn, c + sec(40), "npu-a2-01", Ctr("job", VLLM_IMG, resources=res, command=["tail", "-f", "/dev/null"],
                                                 state=k.terminated("OOMKilled", 137, c + sec(58), end)),
               phase="Failed", default_events=False)
    t = c + sec(60)
    runner = hook_runner(rn, c, "npu-a2-01", "e2e-multimodal (a2-2)", [
        f"{gh(t)} ##[group]Run pytest -sv tests/e2e/multicard/test_qwen2_5_vl_video.py",
        f"{gh(t)} ##[endgroup]",
        f"{gh(t + sec(30))} collected 2 items",
        f"{gh(t + sec(95))} INFO 12-04 10:42:35 [__init__.py:235] Platform plugin ascend is activated",
        f"{gh(t + sec(400))} tests/e2e/multicard/test_qwen2_5_vl_video.py::test_qwen2_5_vl_video_tp2[32-frames] PASSED",
        f"{gh(end + sec(1))} ##[error]Error: failed to run script step: command terminated with non-zero exit code: error executing command [sh -e /__w/_temp/5f0c8e2a-9b3d-4c7e-a1f2-3d4e5f6a7b8c.sh], exit code 137",
        f"{gh(end + sec(2))} ##[error]Process completed with exit code 1.",
        f"{gh(end + sec(2))} ##[error]Executing the custom container implementation failed. Please contact your self hosted runner administrator.",
        f"{(end + sec(6)).strftime(Z)}: Job e2e-multimodal (a2-2) completed with result: Failed"])
    runner.phase = "Failed"
    runner.containers[0].state = k.terminated("Error", 1, c + sec(16), end + sec(8))
    b = CIBundle(end + mins(1), a2(), [runner, wf], [Runner(rn, c - sec(1), phase="Failed", job="e2e-multimodal (a2-2)",
                                                           scale_set="linux-aarch64-a2-2")])
    write_ci_bundle(b, out)
    (out / "ci-cluster" / NS / "events.json").unlink()


SCENARIOS = [
    Scenario("ci-workflow-pvc-not-found", "ci", w_pvc_not_found,
             "The job pod mounts the claim vllm-ascend-model-cache, which does not exist in arc-runners: FailedScheduling 'persistentvolumeclaim … not found' for 13 minutes while the runner waits for the job pod.",
             S3 + " § 调度失败：PVC 不存在（FailedBinding）(workflow 引用的 PVC 不存在)",
             "pod/linux-aarch64-a2-4-j2k8h-runner-b7c2d-workflow", "pod.storage.pvc-unbound", namespace=NS, last_stage="pod-created"),
    Scenario("ci-workflow-hostpath-type-check", "ci", w_hostpath_type,
             "The job pod mounts hostPath /mnt/nvme1/ray with type Directory; on the node it was placed on the path is not a directory: FailedMount 'hostPath type check failed', container stays ContainerCreating.",
             S3 + " § 节点 DNS 解析异常 / 时钟偏移 (issue #270: FailedMount … hostPath type check failed); CONTRACT §4 pod.storage.hostpath-missing",
             "pod/linux-aarch64-a2-1-kq7xv-runner-h2t6q-workflow", "pod.storage.hostpath-missing", namespace=NS, last_stage="scheduled"),
    Scenario("ci-workflow-image-empty-tag", "ci", w_invalid_ref_empty_tag,
             "The workflow's image expression evaluated to an empty tag ('vllm-ascend:'): kubelet cannot parse the reference, InvalidImageName with 'invalid reference format'.",
             S3 + " § 镜像名非法（InvalidImageName）(镜像名格式错误…格式不完整)",
             "pod/linux-aarch64-a2-1-kq7xv-runner-e4w8p-workflow", "pod.image.invalid-name", namespace=NS, last_stage="scheduled"),
    Scenario("ci-runner-configmap-missing-state-only", "ci", w_configmap_state_only,
             "A CPU runner pod whose env reads ConfigMap ci-proxy-env, which does not exist: the container waits with CreateContainerConfigError; no events were collected, only the container state says it.",
             S3 + " § Secret 配置错误（CreateContainerConfigError）; CONTRACT §4 pod.container.config-error (missing Secret or ConfigMap)",
             "pod/linux-amd64-cpu-8-f9x2k-runner-m5r1k", "pod.container.config-error", namespace=NS, last_stage="scheduled"),
    Scenario("ci-runner-nodename-pinned-outofmemory", "ci", w_outofmemory_pinned,
             "The runner template pins nodeName, bypassing the scheduler; the node's memory is already requested by other pods, so kubelet rejects the pod: phase Failed, reason OutOfmemory, and the EphemeralRunner counts failures.",
             S3 + " § 弹性扩容失败 / 弹性节点不健康 (runner 模板写死 nodeName…pod 直接 phase: Failed); § 调度失败：资源超限 (Pod was rejected: Node didn't have enough resource)",
             "pod/linux-aarch64-a2-8-p2c6v-runner-n8v3x", "pod.schedule.insufficient-resources", namespace=NS),
    Scenario("ci-lint-rpds-on-aarch64", "ci", w_rpds_on_aarch64,
             "A lint runner without any nodeSelector landed on an aarch64 NPU node; the pre-commit environment in the shared cache was built on x86_64, so rpds' compiled module is not importable there: ModuleNotFoundError: No module named 'rpds.rpds'.",
             S3 + " § 调度到架构不匹配的节点 (lint 任务报 ModuleNotFoundError: No module named 'rpds.rpds', issue #40 / #46)",
             "pod/linux-aarch64-a2-1-kq7xv-runner-l3f9z", "pod.arch-mismatch", namespace=NS),
    Scenario("ci-workflow-exec-format-error", "ci", w_exec_format,
             "An arm64-only CANN image used as the job container on an amd64 CPU runner: the job container exits 255 with 'exec /usr/bin/tail: exec format error' and the hook reports the job pod unhealthy.",
             S3 + " § 调度到架构不匹配的节点 (arm 架构镜像在 amd64 CPU runner 上无法初始化, issue #50)",
             "pod/linux-amd64-cpu-8-f9x2k-runner-q1d7s-workflow", "pod.arch-mismatch", namespace=NS),
    Scenario("ci-cargo-crates-io-timeout", "ci", w_cargo_crates,
             "A source build compiles a Rust extension; cargo cannot download a crate from crates.io: three 'spurious network error … Timeout was reached' retries, then 'failed to download from'.",
             S3 + " § 依赖缓存异常（pypi / rust）(cargo 拉取 crates.io 反代超时, issue #274)",
             "pod/linux-aarch64-a2-1-kq7xv-runner-c9k4m", "ci.deps.cache", namespace=NS),
    Scenario("ci-quant-weight-key-missing", "ci", w_weight_key_mismatch,
             "A quantized model loaded offline from the shared modelscope cache: the worker fails with KeyError '…weight_offset' because the cached copy is an older release than the code expects.",
             S3 + " § 模型缓存缺失 / 不完整 (缓存版本不兼容：加载权重报 KeyError: 'wkv.weight_offset', issue #268)",
             "pod/linux-aarch64-a2-2-r5d8n-runner-w6g1b", "ci.env.model-cache", namespace=NS),
    Scenario("ci-torch-extensions-baton-hang", "ci", w_torch_baton,
             "An ops test prints 'Using /root/.cache/torch_extensions/py311_cpu as PyTorch extensions root...' during collection and nothing else for three hours; no error line at all (a leftover extension lock).",
             S3 + " § 共享盘空间不足 / 锁文件残留 (多卡任务永久卡在…FileBaton 残留 lock，日志不再更新, issue #187); public: PASSIONLab/OpenEquivariance#156, bytedance/lightseq#102",
             "pod/linux-aarch64-a2-1-kq7xv-runner-t8b5n", "pod.run.stale-lock-hang", namespace=NS),
    Scenario("ci-unit-test-about-error-codes-fails", "ci", w_error_named_test_fails,
             "A unit test of the project's own error classifier fails on an assertion; the test names and their strings mention EI0019, EI0002, 207001, EL0004, out_of_memory and no_space_left, but nothing on the platform failed.",
             S3 + " § 用户脚本报错（UserScriptError: runner 容器已成功启动、workflow 步骤已执行——失败在脚本逻辑本身）",
             "pod/linux-aarch64-a2-1-kq7xv-runner-r3x7v", "ci.run.user-script", namespace=NS),
    Scenario("ci-host-oom-then-hccl-notify-timeout", "ci", w_host_oom_then_hccl,
             "Rank 3 fails to pin 192 GiB of host KV cache (aclrtMallocHostWithCfg 207001, EL0004); ten minutes later the other ranks report HCCL EI0002 notify-wait timeouts waiting for rank 3. The HCCL lines are late symptoms.",
             S3 + " § host 内存不足（aclrtMallocHostWithCfg 207001）(#272 hicache size 分配过大)",
             "pod/linux-aarch64-a2-4-j2k8h-runner-y4p2c", "ci.run.host-oom", namespace=NS),
    Scenario("ci-novolume-hash-mismatch-checkout", "ci", w_novolume_hash,
             "A runner in kubernetes-novolume mode: after checkout every copy of /__w/_temp back from the job pod fails the directory hash check; after about 11 minutes of retries the container hook gives up.",
             S3 + " § novolume 模式（runner-container-hooks）失败与额外耗时 (每个 checkout step 后 copy + hash 校验失败、反复重试); public: actions/runner-container-hooks#269, #275",
             "pod/linux-aarch64-a2-1-kq7xv-runner-p6j3w", "ci.runner.novolume", namespace=NS),
    Scenario("ci-node-notready-runner-evicted", "ci", w_node_notready_evicting,
             "The node stopped posting status in the middle of an ACL graph capture: node Ready=Unknown with unreachable taints, the runner pod marked for deletion by the taint manager; the runner log simply stops.",
             S3 + " § 节点硬件故障（NPU 挂死 / NotReady）(Pod 被驱逐、CI 任务失败；NodeNotReady)",
             "pod/linux-aarch64-a2-4-j2k8h-runner-k2s9d", "ci.node.hardware-fault", namespace=NS),
    Scenario("ci-karpenter-registration-failed-runner", "ci", w_karpenter_registration_runner,
             "Asked about the EphemeralRunner: its pod has been Pending 45 minutes; Karpenter launched three NodeClaims in turn and none registered, and the NodePool now has NodeRegistrationHealthy=False (Ready stays True).",
             S3 + " § 弹性扩容失败 / 弹性节点不健康 (NodePool 被置 NodeRegistrationHealthy=False 后不再重试)",
             "runner/linux-amd64-cpu-32-v7n4h-runner-d3q8r", "infra.karpenter.nodepool-unhealthy", namespace=NS),
    Scenario("ci-ephemeralrunner-running-after-drain", "ci", w_stale_runner_after_drain,
             "An EphemeralRunner created 7h40m ago still says Running with a job assigned; its pod is gone, one a2 node has been cordoned (drained) since 01:02, and a fresh runner listens on another node.",
             S3 + " § Runner 名额被残留 EphemeralRunner 占用 (node drain / pod 终止后…EphemeralRunner 卡 Running)",
             "runner/linux-aarch64-a2-1-kq7xv-runner-x5m2g", "infra.arc.stale-runner", namespace=NS),
    Scenario("ci-dind-iptables-daemon-down", "ci", w_dind_iptables,
             "The runner's docker-in-docker sidecar exited at start ('failed to start daemon: Error initializing network controller … iptables … RULE_APPEND failed'); the docker build step then prints 'Cannot connect to the Docker daemon'.",
             "CONTRACT §4 ci.runner.dind-not-running (platform ARC)",
             "pod/linux-amd64-cpu-8-f9x2k-runner-s2w6e", "ci.runner.dind-not-running", namespace=NS),
    Scenario("ci-runner-deprecated-diag-trace", "ci", w_version_deprecated_diag,
             "A runner image still at 2.329.0 after GitHub raised the minimum: the listener's diagnostic trace shows AccessDeniedException 'Runner version v2.329.0 is deprecated and cannot receive messages', then 'terminated error, stop the service, no retry needed'.",
             S3 + " § Runner 版本过旧（GitHub 提升最低版本）; public: actions/runner#4203, #4305",
             "pod/linux-aarch64-a2-1-kq7xv-runner-b1y5t", "ci.runner.version-too-old", namespace=NS),
    Scenario("ci-liqo-offloading-state-only", "ci", w_liqo_state_only,
             "A runner pod bound to the virtual node of remote cluster gy005 stays Pending with status reason OffloadingBackOff for 38 minutes; no events collected; the NamespaceOffloading reports SomeFailed with gy005 Ready=False CreationLoopBackOff.",
             S3 + " § Liqo namespace 未接管导致任务卡死（OffloadingBackOff）(NamespaceOffloading 一直 CreationLoopBackOff)",
             "pod/linux-aarch64-gy005-a2-1-r8d2v-runner-z6k1p", "pod.liqo.offloading-backoff", namespace=NS),
    Scenario("ci-buildx-enospc-not-cache", "ci", w_buildkit_enospc,
             "An image build on an a3 runner: BuildKit cannot create a temp dir for a new snapshot, 'no space left on device' under /var/lib/buildkit, wrapped in 'failed to solve: failed to prepare extraction snapshot'. A full disk, not a missing parent snapshot.",
             S3 + " § 共享盘空间不足 / 锁文件残留 (failed to create temp dir ... no space left on device, issue #252; 区分 Errno 122 与 Errno 28 / ENOSPC)",
             "pod/linux-aarch64-a3-2-p4n7c-runner-g8w2e", "pod.run.disk-full", namespace=NS),
    Scenario("ci-workflow-oomkilled-state-only", "ci", w_oomkilled_state_only,
             "A video multimodal test in the job pod: the job container is terminated OOMKilled (137) at its 64Gi limit; no events were collected; the runner log shows only 'exit code 137' from the hook.",
             S3 + " § 内存不足（OOMKilled）(状态 OOMKilled)",
             "pod/linux-aarch64-a2-2-r5d8n-runner-k4c9t-workflow", "pod.run.oom-killed", namespace=NS),
]
