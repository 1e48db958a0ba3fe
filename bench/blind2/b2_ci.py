# ruff: noqa: E501  (log and event text is quoted verbatim, one line per log line)
"""CI runner situations of the second blind set (GitHub ARC on Ascend NPU and x86 nodes)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import gen_k8s as k
from b2_common import S3, Scenario
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
    npu_node,
    runner_log,
    write_ci_bundle,
)
from gen_k8s import at, mins, sec

VLLM_IMG = "swr.cn-southwest-2.myhuaweicloud.com/ascend-ci/vllm-ascend:main-a2"
RES = {"limits": {"cpu": "2", "memory": "4Gi"}, "requests": {"cpu": "500m", "memory": "1Gi"}}
HOOKS = [{"name": "ACTIONS_RUNNER_CONTAINER_HOOKS", "value": "/home/runner/k8s/index.js"},
         {"name": "ACTIONS_RUNNER_REQUIRE_JOB_CONTAINER", "value": "true"}]


def a2(n: int = 3) -> list[Any]:
    return [npu_node(f"npu-a2-{i + 1:02d}", f"192.168.21.{11 + i}") for i in range(n)]


def a3(n: int = 2) -> list[Any]:
    return [npu_node(f"npu-a3-{i + 1:02d}", f"192.168.22.{11 + i}", npu_type="a3", n=16) for i in range(n)]


def x86(n: int = 3) -> list[Any]:
    return [cpu_node(f"cpu-x86-{i + 1:02d}", f"192.168.23.{11 + i}") for i in range(n)]


def rpod(name: str, c: datetime, node: str | None, *, log: str | None = None, state: dict[str, Any] | None = None,
         phase: str = "Running", selector: dict[str, str] | None = None, env: list[Any] | None = None,
         **kw: Any) -> CIPod:
    ctr = Ctr("runner", RUNNER_IMG, state=state, resources=RES, command=["/home/runner/run.sh"],
              env=HOOKS if env is None else env)
    return CIPod(name, node, c, [ctr], phase=phase, runner=name, logs={"runner": log} if log is not None else {},
                 node_selector=selector or {"ascend-ci/npu-type": "a2"}, **kw)


def waiting_runner(name: str, c: datetime, node: str, job: str, extra: list[str] | None = None) -> CIPod:
    lines = ["", "√ Connected to GitHub", "", "Current runner version: '2.330.0'",
             f"{(c + sec(20)).strftime('%Y-%m-%d %H:%M:%SZ')}: Listening for Jobs",
             f"{(c + sec(23)).strftime('%Y-%m-%d %H:%M:%SZ')}: Running job: {job}", *(extra or [])]
    return rpod(name, c, node, log="\n".join(lines))


def wfpod(runner: str, c: datetime, node: str | None, ctr: Ctr, **kw: Any) -> CIPod:
    return CIPod(f"{runner}-workflow", node, c, [ctr], workflow_of=runner, ip="172.16.146.88",
                 node_selector=kw.pop("selector", {"ascend-ci/npu-type": "a2"}), **kw)


def single(out: Path, *, name: str, c: datetime, cap: datetime, steps: list[Any], result: str | None, job: str,
           nodes: list[Any] | None = None, node: str = "npu-a2-01", scale: str = "linux-aarch64-a2-1",
           selector: dict[str, str] | None = None, step_s: float = 30.0, env: list[Any] | None = None,
           extra_pods: list[CIPod] | None = None, end: datetime | None = None) -> None:
    log = runner_log(start=c + sec(16), job=job, steps=steps, result=result, step_s=step_s)
    failed = result == "Failed"
    ok = result == "Succeeded"
    state = None
    if failed or ok:
        state = k.terminated("Error" if failed else "Completed", 1 if failed else 0, c + sec(16), end or cap - mins(1))
    phase = "Failed" if failed else ("Succeeded" if ok else "Running")
    pod = rpod(name, c, node, log=log, state=state, phase=phase, selector=selector, env=env)
    r = Runner(name, c - sec(1), phase=phase, job=job, scale_set=scale,
               selector=selector or {"ascend-ci/npu-type": "a2"})
    write_ci_bundle(CIBundle(cap, nodes or a2(), [pod, *(extra_pods or [])], [r]), out)


# ---------------------------------------------------------------- scheduling

def w_selector_no_events(out: Path) -> None:
    c = at(2026, 12, 1, 1, 0)
    rn = "linux-aarch64-a3-8-m4t2w-runner-x9k3d"
    sel = {"ascend-ci/npu-type": "a3-8"}
    pod = rpod(rn, c, None, phase="Pending", selector=sel)
    b = CIBundle(c + mins(33), a2() + a3(), [pod], [Runner(rn, c - sec(1), phase="Pending", job=None,
                                                       scale_set="linux-aarch64-a3-8", selector=sel)])
    write_ci_bundle(b, out)
    (out / "ci-cluster" / NS / "events.json").unlink()


def w_npu_insufficient_taint(out: Path) -> None:
    c = at(2026, 12, 1, 2, 0)
    rn = "linux-aarch64-a2-8-p2c6v-runner-h3k9m"
    msg = ("0/5 nodes are available: 2 node(s) had untolerated taint {ascend-ci/maintenance: true}, "
           "3 Insufficient huawei.com/Ascend910. preemption: 0/5 nodes are available: 2 Preemption is not helpful "
           "for scheduling, 3 No preemption victims found for incoming pod.")
    res = {"limits": {"cpu": "48", "memory": "256Gi", "huawei.com/Ascend910": "16"},
           "requests": {"cpu": "48", "memory": "256Gi", "huawei.com/Ascend910": "16"}}
    wf = wfpod(rn, c + sec(40), None, Ctr("job", VLLM_IMG, resources=res), phase="Pending", sched_message=msg,
               default_events=False, events=[Ev("FailedScheduling", msg, 1, 1100, 9, component="default-scheduler")])
    nodes = a2(3) + [npu_node(f"npu-a2-{i + 4:02d}", f"192.168.21.{14 + i}",
                              taints=[{"key": "ascend-ci/maintenance", "value": "true", "effect": "NoSchedule"}])
                     for i in range(2)]
    runner = waiting_runner(rn, c, "npu-a2-01", "e2e-multicard-16 (a2-8)",
                            ["2026-12-01T02:00:40.1234561Z ##[group]Run '/home/runner/k8s/index.js'",
                             "2026-12-01T02:00:41.0012341Z Waiting for the job pod to be scheduled..."])
    b = CIBundle(c + mins(20), nodes, [runner, wf], [Runner(rn, c - sec(1), job="e2e-multicard-16 (a2-8)",
                                                           scale_set="linux-aarch64-a2-8")])
    write_ci_bundle(b, out)


# ---------------------------------------------------------------- images

def w_tag_not_found(out: Path) -> None:
    c = at(2026, 12, 1, 3, 0)
    rn = "linux-aarch64-a2-1-kq7xv-runner-d5t1w"
    img = "swr.cn-southwest-2.myhuaweicloud.com/ascend-ci/vllm-ascend:v0.11.0rc9-a2"
    err = (f'Failed to pull image "{img}": failed to pull and unpack image "{img}": failed to resolve reference '
           f'"{img}": {img}: not found')
    wf = wfpod(rn, c + sec(38), "npu-a2-02", Ctr("job", img, state=k.waiting("ImagePullBackOff", f'Back-off pulling image "{img}"'), pulled=False),
               phase="Pending", events=[Ev("Pulling", f'Pulling image "{img}"', 2, 300, 5, etype="Normal"),
                                        Ev("Failed", err, 3, 301, 5), Ev("Failed", "Error: ErrImagePull", 3, 301, 5),
                                        Ev("BackOff", f'Back-off pulling image "{img}"', 6, 420, 19, etype="Normal"),
                                        Ev("Failed", "Error: ImagePullBackOff", 6, 420, 19)])
    b = CIBundle(c + mins(8), a2(), [waiting_runner(rn, c, "npu-a2-02", "accuracy-test (a2-1)"), wf],
                 [Runner(rn, c - sec(1), job="accuracy-test (a2-1)")])
    write_ci_bundle(b, out)


def w_pull_403(out: Path) -> None:
    c = at(2026, 12, 1, 4, 0)
    rn = "linux-aarch64-a2-1-kq7xv-runner-v8b2q"
    img = "swr.cn-east-3.myhuaweicloud.com/sglang-ci/sglang-npu:nightly-a2"
    err = (f'Failed to pull image "{img}": failed to pull and unpack image "{img}": failed to resolve reference '
           f'"{img}": failed to authorize: failed to fetch anonymous token: unexpected status from GET request to '
           'https://swr.cn-east-3.myhuaweicloud.com/swr/auth/v2/registry/auth?scope=repository%3Asglang-ci%2Fsglang-npu%3Apull&service=swr: 403 Forbidden')
    wf = wfpod(rn, c + sec(35), "npu-a2-03", Ctr("job", img, state=k.waiting("ErrImagePull", err), pulled=False),
               phase="Pending", events=[Ev("Pulling", f'Pulling image "{img}"', 2, 250, 4, etype="Normal"),
                                        Ev("Failed", err, 3, 251, 4), Ev("Failed", "Error: ErrImagePull", 3, 251, 4),
                                        Ev("BackOff", f'Back-off pulling image "{img}"', 5, 360, 14, etype="Normal")])
    b = CIBundle(c + mins(7), a2(), [waiting_runner(rn, c, "npu-a2-03", "nightly-e2e (a2-1)"), wf],
                 [Runner(rn, c - sec(1), job="nightly-e2e (a2-1)", repo="sgl-project/sglang")])
    write_ci_bundle(b, out)


# ---------------------------------------------------------------- steps

def w_uv_hash(out: Path) -> None:
    c = at(2026, 12, 1, 5, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("uv pip install --system -r requirements.txt", [
                 "Using Python 3.11.13 environment at: /usr/local/python3.11.13",
                 "Resolved 142 packages in 3.41s",
                 "  × Failed to download `torch-npu==2.5.1.post1`",
                 "  ╰─▶ Hash mismatch for `torch-npu==2.5.1.post1`",
                 "",
                 "      Expected:",
                 "        sha256:4c1d8e7f0a2b3c9d6e5f4a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5",
                 "",
                 "      Computed:",
                 "        sha256:0f9e8d7c6b5a49382716f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0",
                 "  help: `torch-npu` (v2.5.1.post1) was included because `vllm-ascend` (v0.11.0) depends on `torch-npu`",
                 "##[error]Process completed with exit code 1."])]
    single(out, name="linux-aarch64-a2-1-kq7xv-runner-u3h7c", c=c, cap=c + mins(5), steps=steps, result="Failed",
           job="build-wheel (a2-1)", env=[{"name": "UV_INDEX_URL", "value": "http://pypi-cache.ci.internal/simple"}])


def w_clock_skew(out: Path) -> None:
    c = at(2026, 12, 1, 6, 0)
    rn = "linux-aarch64-a2-1-kq7xv-runner-c6n1z"
    skewed = at(2024, 3, 1, 2, 13, 52)  # the node's clock: the runner stamps its log with it
    lines = ["", "Current runner version: '2.330.0'"]
    for n in range(4):
        t = skewed + sec(5 + 130 * n)
        z = t.strftime("%Y-%m-%d %H:%M:%SZ")
        lines += [f"{z}: Runner connect error: The SSL connection could not be established, see inner exception.. Retrying until reconnected.",
                  f"{z}: System.Security.Authentication.AuthenticationException: The remote certificate is invalid because of errors in the certificate chain: NotTimeValid"]
    lines += ["Runner listener exit with retryable error, re-launch runner in 5 seconds.", "Restarting runner...",
              "", "Current runner version: '2.330.0'",
              f"{(skewed + sec(540)).strftime('%Y-%m-%d %H:%M:%SZ')}: Runner connect error: The SSL connection could not be established, see inner exception.. Retrying until reconnected."]
    pod = rpod(rn, c, "npu-a2-03", log="\n".join(lines))
    b = CIBundle(c + mins(10), a2(), [pod], [Runner(rn, c - sec(1), job=None)])
    write_ci_bundle(b, out)


def w_cmd_not_found_zh(out: Path) -> None:
    c = at(2026, 12, 1, 7, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("bash .github/scripts/run_ut.sh", [
                 "+ export LANG=zh_CN.UTF-8",
                 "+ source /usr/local/Ascend/ascend-toolkit/set_env.sh",
                 "+ pytest -sv tests/ut --ignore=tests/ut/kv_connector",
                 ".github/scripts/run_ut.sh: 第 9 行: pytest: 未找到命令",
                 "##[error]Process completed with exit code 127."])]
    single(out, name="linux-aarch64-a2-1-kq7xv-runner-y7m3s", c=c, cap=c + mins(3), steps=steps, result="Failed",
           job="unit-test (a2-1)", env=[])


def w_model_shard_missing(out: Path) -> None:
    c = at(2026, 12, 1, 8, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest -sv tests/e2e/singlecard/test_offline_inference.py", [
                 "collected 6 items",
                 "tests/e2e/singlecard/test_offline_inference.py::test_models[Qwen/Qwen3-0.6B] PASSED",
                 "tests/e2e/singlecard/test_offline_inference.py::test_models[Qwen/Qwen2.5-7B-Instruct] FAILED",
                 "E       OSError: /root/.cache/huggingface/hub/models--Qwen--Qwen2.5-7B-Instruct/snapshots/a09a35458c702b33eeacc393d103063234e8bc28 does not appear to have a file named model-00003-of-00004.safetensors. Checkout 'https://huggingface.co//root/.cache/huggingface/hub/models--Qwen--Qwen2.5-7B-Instruct/snapshots/a09a35458c702b33eeacc393d103063234e8bc28/tree/None' for available files.",
                 "HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1",
                 "=========================== short test summary info ============================",
                 "FAILED tests/e2e/singlecard/test_offline_inference.py::test_models[Qwen/Qwen2.5-7B-Instruct] - OSError: /root/.cache/huggingface/hub/models--Qwen--Qwen2.5-7B-Instruct/snapshots/a09a35458c702b33eeacc393d103063234e8bc28 does not appear to have a file named model-00003-of-00004.safetensors.",
                 "=================== 1 failed, 5 passed, 12 warnings in 401.27s (0:06:41) ===================",
                 "##[error]Process completed with exit code 1."])]
    env = [{"name": "HF_HUB_OFFLINE", "value": "1"}, {"name": "HF_HOME", "value": "/root/.cache/huggingface"}]
    single(out, name="linux-aarch64-a2-1-kq7xv-runner-k1w5b", c=c, cap=c + mins(10), steps=steps, result="Failed",
           job="e2e-singlecard (a2-1)", env=env, step_s=400)


def w_build_killed_zh(out: Path) -> None:
    c = at(2026, 12, 1, 9, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pip install -v -e . (MAX_JOBS from nproc)", [
                 "+ export LANG=zh_CN.UTF-8",
                 "+ NPROC=$(grep -c ^processor /proc/cpuinfo)   # 192",
                 "+ export MAX_JOBS=384",
                 "  [211/1874] Building CXX object csrc/CMakeFiles/vllm_ascend_C.dir/ops/moe_gating_top_k.cpp.o",
                 "  [212/1874] Building CXX object csrc/CMakeFiles/vllm_ascend_C.dir/ops/grouped_matmul_swiglu_quant.cpp.o",
                 "  FAILED: csrc/CMakeFiles/vllm_ascend_C.dir/ops/dispatch_ffn_combine.cpp.o",
                 "  c++: 致命错误：已杀死 信号终止了程序 cc1plus",
                 "  编译中断。",
                 "  c++: 致命错误：已杀死 信号终止了程序 cc1plus",
                 "  ninja: build stopped: subcommand failed.",
                 "  error: subprocess-exited-with-error",
                 "  × Building editable for vllm_ascend (pyproject.toml) did not run successfully.",
                 "  │ exit code: 1",
                 "##[error]Process completed with exit code 1."])]
    single(out, name="linux-aarch64-a3-2-p4n7c-runner-f2g8j", c=c, cap=c + mins(24), steps=steps, result="Failed",
           job="build-from-source (a3-2)", nodes=a3(), node="npu-a3-01", scale="linux-aarch64-a3-2",
           selector={"ascend-ci/npu-type": "a3"}, step_s=1200)


def w_cleanup_403(out: Path) -> None:
    c = at(2026, 12, 1, 10, 0)
    body = ('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"selfsubjectaccessreviews.authorization.k8s.io is forbidden: '
            'User \\"system:serviceaccount:arc-runners:linux-aarch64-a2-1-gha-rs-kube-mode\\" cannot create resource \\"selfsubjectaccessreviews\\" in API group \\"authorization.k8s.io\\" at the cluster scope","reason":"Forbidden","code":403}')
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest -sv tests/ut", ["====== 1290 passed, 14 skipped, 2 xfailed, 31 warnings in 598.11s (0:09:58) ======"]),
             ("Stop containers", [
                 "Run '/home/runner/k8s/index.js'",
                 "##[error]HttpError: HTTP request failed",
                 f"##[error]  body: '{body}'",
                 "##[error]Error: Executing the custom container implementation failed. Please contact your self hosted runner administrator."])]
    single(out, name="linux-aarch64-a2-1-kq7xv-runner-b9r4e", c=c, cap=c + mins(14), steps=steps, result="Failed",
           job="unit-test (a2-1)", step_s=600)


def w_vllm_shm(out: Path) -> None:
    c = at(2026, 12, 1, 11, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest -sv tests/e2e/multicard/test_qwen2_5_vl.py", [
                 "collected 3 items",
                 "INFO 12-01 11:03:12 [__init__.py:235] Platform plugin ascend is activated",
                 "(EngineCore_DP0 pid=2281) INFO 12-01 11:04:02 [shm_broadcast.py:289] vLLM message queue communication handle: Handle(local_reader_ranks=[1], buffer_handle=(1, 4194304, 6, 'psm_9c1e77a4'), local_subscribe_addr='ipc:///tmp/0c2f...', remote_subscribe_addr=None, remote_addr_ipv6=False)",
                 "(EngineCore_DP0 pid=2281) ERROR 12-01 11:04:39 [core.py:712] EngineCore failed to start.",
                 "(EngineCore_DP0 pid=2281) ERROR 12-01 11:04:39 [core.py:712]   File \"/usr/local/python3.11.13/lib/python3.11/multiprocessing/shared_memory.py\", line 104, in __init__",
                 "(EngineCore_DP0 pid=2281) ERROR 12-01 11:04:39 [core.py:712]     self._fd = _posixshmem.shm_open(",
                 "(EngineCore_DP0 pid=2281) ERROR 12-01 11:04:39 [core.py:712] OSError: [Errno 28] No space left on device: '/dev/shm/psm_41d0b6e2'",
                 "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {'EngineCore_DP0': 1}",
                 "FAILED tests/e2e/multicard/test_qwen2_5_vl.py::test_qwen2_5_vl_tp2 - RuntimeError: Engine core initialization failed.",
                 "========= 1 failed, 2 passed, 9 warnings in 288.50s (0:04:48) =========",
                 "##[error]Process completed with exit code 1."])]
    single(out, name="linux-aarch64-a2-2-r5d8n-runner-q2w6t", c=c, cap=c + mins(7), steps=steps, result="Failed",
           job="e2e-multicard (a2-2)", scale="linux-aarch64-a2-2", node="npu-a2-02", step_s=280)


def w_modelscope_lock(out: Path) -> None:
    c = at(2026, 12, 1, 12, 0)
    lock = "/root/.cache/modelscope/hub/.lock/Qwen___Qwen3-8B"
    spin = [f"DEBUG:filelock:Attempting to acquire lock 281473012448976 on {lock}",
            f"DEBUG:filelock:Lock 281473012448976 not acquired on {lock}, waiting 0.05 seconds ..."] * 3
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest -sv tests/e2e/multicard/test_qwen3_moe.py", [
                 "collected 4 items",
                 "INFO 12-01 12:02:10 [__init__.py:235] Platform plugin ascend is activated",
                 "Downloading Model from https://www.modelscope.cn to directory: /root/.cache/modelscope/hub/models/Qwen/Qwen3-8B",
                 *spin])]
    env = [{"name": "VLLM_USE_MODELSCOPE", "value": "True"}, {"name": "MODELSCOPE_CACHE", "value": "/root/.cache/modelscope"}]
    single(out, name="linux-aarch64-a2-4-j2k8h-runner-s4v7p", c=c, cap=c + mins(128), steps=steps, result=None,
           job="e2e-multicard (a2-4)", scale="linux-aarch64-a2-4", env=env, step_s=12)


# ---------------------------------------------------------------- runners and nodes

def w_failed_runners_left(out: Path) -> None:
    c = at(2026, 12, 1, 13, 0)
    names = ["linux-aarch64-a2-1-kq7xv-runner-f4h8n", "linux-aarch64-a2-1-kq7xv-runner-g2m6r",
             "linux-aarch64-a2-1-kq7xv-runner-h9p3s"]
    fails = {k.uid("f", names[0], str(i)): True for i in range(5)}
    runners = [Runner(n, c + mins(20 * i), phase="Failed", reason="TooManyPodFailures",
                      message="Pod has failed to start more than 5 times: ", failures=fails, job=None)
               for i, n in enumerate(names)]
    live = "linux-aarch64-a2-1-kq7xv-runner-z0c5x"
    runners.append(Runner(live, c + mins(8 * 60), job=None))
    pod = rpod(live, c + mins(8 * 60), "npu-a2-02", log="\n".join(
        ["", "√ Connected to GitHub", "", "Current runner version: '2.330.0'", "2026-12-01 21:00:24Z: Listening for Jobs"]))
    b = CIBundle(c + mins(9 * 60), a2(), [pod], runners)
    write_ci_bundle(b, out)


def w_karpenter_nodeclass(out: Path) -> None:
    c = at(2026, 12, 1, 14, 0)
    rn = "linux-amd64-cpu-16-k8r2m-runner-t6y1u"
    sel = {"karpenter.sh/nodepool": "ci-cpu-16", "kubernetes.io/arch": "amd64"}
    msg = "0/5 nodes are available: 2 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling."
    pod = rpod(rn, c, None, phase="Pending", selector=sel, sched_message=msg,
               events=[Ev("FailedScheduling", msg, 1, 1500, 26, component="default-scheduler"),
                       Ev("FailedScheduling", 'Failed to schedule pod, incompatible with nodepool "ci-cpu-16", NodePool is not ready', 3, 1490, 25, component="karpenter")])
    np_obj = {"apiVersion": "karpenter.sh/v1", "kind": "NodePool",
              "metadata": {"name": "ci-cpu-16", "uid": k.uid("np", "ci-cpu-16"), "creationTimestamp": k.ts(c - mins(60 * 24 * 30)),
                           "resourceVersion": "1"},
              "spec": {"template": {"spec": {"requirements": [{"key": "kubernetes.io/arch", "operator": "In", "values": ["amd64"]}],
                                             "nodeClassRef": {"group": "karpenter.k8s.huaweicloud", "kind": "ECSNodeClass", "name": "ci-x86"}}},
                       "limits": {"cpu": "512"}},
              "status": {"conditions": [
                  {"type": "ValidationSucceeded", "status": "True", "reason": "ValidationSucceeded", "message": "", "lastTransitionTime": k.ts(c - mins(60 * 24 * 30))},
                  {"type": "NodeClassReady", "status": "False", "reason": "NodeClassNotReady", "message": "NodeClass is not ready: SecurityGroupsReady=False (no security groups match selector {\"tag:ci-cluster\":\"owned\"})", "lastTransitionTime": k.ts(c - mins(95))},
                  {"type": "Ready", "status": "False", "reason": "UnhealthyDependents", "message": "NodeClassReady=False", "lastTransitionTime": k.ts(c - mins(95))},
                  {"type": "NodeRegistrationHealthy", "status": "True", "reason": "NodeRegistrationHealthy", "message": "", "lastTransitionTime": k.ts(c - mins(60 * 24 * 3))}],
                  "resources": {"cpu": "0", "memory": "0", "nodes": "0", "pods": "0"}}}
    nodes = x86(3) + [cpu_node(f"master-{i + 1}", f"192.168.20.{2 + i}", taints=[{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]) for i in range(2)]
    b = CIBundle(c + mins(26), nodes, [pod], [Runner(rn, c - sec(1), phase="Pending", job=None,
                                                      scale_set="linux-amd64-cpu-16", selector=sel)],
                 extra_files={"nodepools.karpenter.sh.json": k.k8s_list("NodePool", "karpenter.sh/v1", [np_obj])})
    write_ci_bundle(b, out)


SCENARIOS = [
    Scenario("ci-runner-label-matches-no-node-no-events", "ci", w_selector_no_events,
             "A runner pod Pending for 33 minutes asking ascend-ci/npu-type=a3-8; the nodes are labelled a2 and a3 only. No events were collected and the pod carries no scheduler message: only the labels explain it.",
             S3 + " § 调度失败：nodeSelector 不匹配 (检查 runs-on / nodeSelector 是否有匹配的节点)",
             "pod/linux-aarch64-a3-8-m4t2w-runner-x9k3d", "pod.schedule.selector-mismatch", namespace=NS, last_stage="pod-created"),
    Scenario("ci-workflow-16-npu-on-8-npu-nodes", "ci", w_npu_insufficient_taint,
             "The job pod asks 16 Ascend910 on nodes that have 8; FailedScheduling mixes an untolerated maintenance taint on two nodes with Insufficient huawei.com/Ascend910 on three.",
             S3 + " § 调度失败：资源超限 (申请的 NPU 卡数超过该标签节点的上限)",
             "pod/linux-aarch64-a2-8-p2c6v-runner-h3k9m-workflow", "pod.schedule.insufficient-resources", namespace=NS, last_stage="pod-created"),
    Scenario("ci-workflow-tag-not-found", "ci", w_tag_not_found,
             "The job container's tag does not exist in SWR: containerd 'failed to resolve reference … not found', ErrImagePull then ImagePullBackOff. No image source moved.",
             S3 + " § 镜像拉取失败（ErrImagePull: 镜像不存在、名称或版本写错)",
             "pod/linux-aarch64-a2-1-kq7xv-runner-d5t1w-workflow", "pod.image.pull-failed", namespace=NS, last_stage="scheduled"),
    Scenario("ci-workflow-pull-403-failed-to-authorize", "ci", w_pull_403,
             "Pulling a private image from another SWR region: 'failed to authorize: failed to fetch anonymous token: … 403 Forbidden'.",
             S3 + " § 更换仓库后镜像拉取报 401 (failed to authorize: failed to fetch anonymous token); CONTRACT §4 pod.image.pull-unauthorized",
             "pod/linux-aarch64-a2-1-kq7xv-runner-v8b2q-workflow", "pod.image.pull-unauthorized", namespace=NS, last_stage="scheduled"),
    Scenario("ci-uv-hash-mismatch", "ci", w_uv_hash,
             "uv installing from the CI pypi cache: 'Hash mismatch for torch-npu==2.5.1.post1' (Expected/Computed sha256).",
             S3 + " § 依赖缓存异常（pypi / rust）(包 hash 校验不匹配: 镜像站未同步); public: astral-sh/uv#17373, astral-sh/uv#14883",
             "pod/linux-aarch64-a2-1-kq7xv-runner-u3h7c", "ci.deps.cache", namespace=NS),
    Scenario("ci-node-clock-skew-tls", "ci", w_clock_skew,
             "The node's clock reads March 2024 (the runner stamps its log with it): for ten minutes the runner cannot connect to GitHub, 'The remote certificate is invalid … NotTimeValid', and never takes a job.",
             S3 + " § 节点 DNS 解析异常 / 时钟偏移 (节点未配置 NTP，时钟偏移导致鉴权失败)",
             "pod/linux-aarch64-a2-1-kq7xv-runner-c6n1z", "ci.node.dns", namespace=NS),
    Scenario("ci-pytest-command-not-found-zh", "ci", w_cmd_not_found_zh,
             "The test script runs pytest in an environment without it; bash (zh_CN) prints 'pytest: 未找到命令' and the step exits 127.",
             S3 + " § 用户脚本报错（UserScriptError: runner 容器已成功启动、workflow 步骤已执行）",
             "pod/linux-aarch64-a2-1-kq7xv-runner-y7m3s", "ci.run.user-script", namespace=NS),
    Scenario("ci-hf-shard-missing-offline", "ci", w_model_shard_missing,
             "Offline (HF_HUB_OFFLINE=1) the cached Qwen2.5-7B snapshot lacks model-00003-of-00004.safetensors: OSError 'does not appear to have a file named'.",
             S3 + " § 模型缓存缺失 / 不完整 (缓存缺 shard)",
             "pod/linux-aarch64-a2-1-kq7xv-runner-k1w5b", "ci.env.model-cache", namespace=NS),
    Scenario("ci-build-cc1plus-killed-zh", "ci", w_build_killed_zh,
             "A source build with MAX_JOBS=384 computed from the host's 192 CPUs; gcc (zh_CN) reports 致命错误：已杀死 信号终止了程序 cc1plus and ninja stops.",
             S3 + " § 安装 / 编译阶段 OOM（并行度过高）",
             "pod/linux-aarch64-a3-2-p4n7c-runner-f2g8j", "ci.build.parallel-oom", namespace=NS),
    Scenario("ci-cleanup-ssar-403", "ci", w_cleanup_403,
             "All tests passed; the container hook's 'Stop containers' step fails with 403 Forbidden on selfsubjectaccessreviews.",
             S3 + " § 控制面 API 瞬断（cleanup 阶段 ECONNREFUSED / 403）(不要据此修改 RBAC)",
             "pod/linux-aarch64-a2-1-kq7xv-runner-b9r4e", "ci.control-plane.blip", namespace=NS),
    Scenario("ci-vllm-dev-shm-enospc", "ci", w_vllm_shm,
             "A Qwen2.5-VL TP2 test on a 2-card runner: vLLM's engine core cannot create its shared-memory segment (OSError Errno 28 on /dev/shm/psm_…).",
             S3 + " § /dev/shm 不足 (多模态用例…小卡数 runner); CONTRACT §4 pod.run.disk-full excludes /dev/shm",
             "pod/linux-aarch64-a2-2-r5d8n-runner-q2w6t", "pod.run.shm-exhausted", namespace=NS),
    Scenario("ci-modelscope-filelock-hang", "ci", w_modelscope_lock,
             "A multicard test waits on a modelscope download lock ('Lock … not acquired on …/.lock/Qwen___Qwen3-8B') and has printed nothing for two hours.",
             S3 + " § 共享盘空间不足 / 锁文件残留 (modelscope filelock 残留锁，日志不再更新)",
             "pod/linux-aarch64-a2-4-j2k8h-runner-s4v7p", "pod.run.stale-lock-hang", namespace=NS),
    Scenario("ci-failed-runners-left-behind", "ci", w_failed_runners_left,
             "Three EphemeralRunners failed with TooManyPodFailures hours ago and were never cleaned up; their pods are gone while one live runner listens.",
             S3 + " § Runner 名额被残留 EphemeralRunner 占用 (带 TooManyPodFailures 的失败 ER 不被清理)",
             "runner/linux-aarch64-a2-1-kq7xv-runner-f4h8n", "infra.arc.stale-runner", namespace=NS),
    Scenario("ci-karpenter-nodeclass-not-ready", "ci", w_karpenter_nodeclass,
             "A CPU runner Pending 26 minutes on a Karpenter nodepool label; the NodePool is Ready=False because its NodeClass is not ready (no security groups match), so nothing is provisioned.",
             S3 + " § 弹性扩容失败 / 弹性节点不健康 (Pod 长时间 Pending，但 Karpenter 不扩容); CONTRACT §4 (or not Ready)",
             "pod/linux-amd64-cpu-16-k8r2m-runner-t6y1u", "infra.karpenter.nodepool-unhealthy", namespace=NS),
]
