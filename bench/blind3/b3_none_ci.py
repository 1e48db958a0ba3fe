# ruff: noqa: E501  (log and event text is quoted verbatim, one line per log line)
"""CI targets whose right answer is `none`: healthy, finished or still-starting runner and workflow pods."""

from __future__ import annotations

from pathlib import Path

import gen_k8s as k
from b3_ci import HOOKS, VLLM_IMG, Z, a2, rpod, single, wfpod, x86
from b3_common import S3, Scenario
from gen_ci import CHECKOUT, NS, CIBundle, Ctr, Ev, Runner, cpu_node, gh, runner_log, write_ci_bundle
from gen_k8s import at, mins, sec


def w_recreated_old_events(out: Path) -> None:
    c = at(2026, 12, 4, 9, 0)
    rn = "linux-aarch64-a2-1-kq7xv-runner-v9e3k"
    old = c - mins(6)
    old_uid = k.uid("pod-old", NS, rn)
    sandbox = ('Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox '
               '"4f0c2a9e71b3d85c6e2f10a9b7d4c3e1f5a6b8c9d0e1f2a3b4c5d6e7f8a9b0c1": plugin type="calico" failed (add): '
               "error getting ClusterInformation: connection is unauthorized: Unauthorized")
    old_events = [k.event("Pod", NS, rn, old_uid, "Scheduled", f"Successfully assigned {NS}/{rn} to npu-a2-02", old,
                          component="default-scheduler"),
                  k.event("Pod", NS, rn, old_uid, "FailedCreatePodSandBox", sandbox, old + sec(2), last=old + sec(95),
                          count=7, etype="Warning", host="npu-a2-02"),
                  k.event("Pod", NS, rn, old_uid, "SandboxChanged", "Pod sandbox changed, it will be killed and re-created.",
                          old + sec(3), last=old + sec(96), count=7, host="npu-a2-02")]
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest -sv tests/ut/ops", [
                 "collected 214 items",
                 "tests/ut/ops/test_activation.py::test_silu_and_mul[dtype0] PASSED",
                 "tests/ut/ops/test_activation.py::test_silu_and_mul[dtype1] PASSED",
                 "tests/ut/ops/test_fused_moe.py::test_fused_experts[64-8-2] PASSED",
                 "tests/ut/ops/test_fused_moe.py::test_fused_experts[128-8-2] PASSED",
                 "tests/ut/ops/test_layernorm.py::test_rms_norm[4096] PASSED"])]
    log = runner_log(start=c + sec(16), job="unit-test (a2-1)", steps=steps, result=None, step_s=120)
    pod = rpod(rn, c, "npu-a2-01", log=log)
    r = Runner(rn, old - sec(1), job="unit-test (a2-1)", failures={old_uid: True})
    write_ci_bundle(CIBundle(c + mins(5), a2(), [pod], [r], extra_events=old_events), out)


def w_karpenter_provisioning(out: Path) -> None:
    c = at(2026, 12, 4, 9, 30)
    rn = "linux-amd64-cpu-32-v7n4h-runner-g6b2m"
    sel = {"karpenter.sh/nodepool": "ci-cpu-32", "kubernetes.io/arch": "amd64"}
    msg = ("0/5 nodes are available: 2 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 3 node(s) "
           "didn't match Pod's node affinity/selector. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.")
    claim = "ci-cpu-32-5bz8k"
    pod = rpod(rn, c, None, phase="Pending", selector=sel, sched_message=msg,
               events=[Ev("FailedScheduling", msg, 1, 61, 3, component="default-scheduler"),
                       Ev("Nominated", f"Pod should schedule on: nodeclaim/{claim}", 3, etype="Normal", component="karpenter")])
    long_ago = k.ts(c - mins(60 * 24 * 40))
    np_obj = {"apiVersion": "karpenter.sh/v1", "kind": "NodePool",
              "metadata": {"name": "ci-cpu-32", "uid": k.uid("np", "ci-cpu-32"), "creationTimestamp": long_ago, "resourceVersion": "1"},
              "spec": {"template": {"spec": {"requirements": [{"key": "kubernetes.io/arch", "operator": "In", "values": ["amd64"]}],
                                             "nodeClassRef": {"group": "karpenter.k8s.huaweicloud", "kind": "ECSNodeClass", "name": "ci-x86"}}},
                       "limits": {"cpu": "1024"}},
              "status": {"conditions": [
                  {"type": "ValidationSucceeded", "status": "True", "reason": "ValidationSucceeded", "message": "", "lastTransitionTime": long_ago},
                  {"type": "NodeClassReady", "status": "True", "reason": "NodeClassReady", "message": "", "lastTransitionTime": long_ago},
                  {"type": "NodeRegistrationHealthy", "status": "True", "reason": "NodeRegistrationHealthy", "message": "", "lastTransitionTime": k.ts(c - mins(60 * 24 * 2))},
                  {"type": "Ready", "status": "True", "reason": "Ready", "message": "", "lastTransitionTime": long_ago}],
                  "resources": {"cpu": "64", "memory": "256Gi", "nodes": "2", "pods": "14"}}}
    nc = {"apiVersion": "karpenter.sh/v1", "kind": "NodeClaim",
          "metadata": {"name": claim, "uid": k.uid("nc", claim), "creationTimestamp": k.ts(c + sec(3)), "resourceVersion": "1",
                       "labels": {"karpenter.sh/nodepool": "ci-cpu-32", "kubernetes.io/arch": "amd64"}},
          "spec": {"nodeClassRef": {"group": "karpenter.k8s.huaweicloud", "kind": "ECSNodeClass", "name": "ci-x86"}},
          "status": {"providerID": "huaweicloud:///cn-southwest-2b/7e1d2c3b-5a4f-4e6d-8c7b-1a2b3c4d5e6f",
                     "conditions": [
                         {"type": "Launched", "status": "True", "reason": "Launched", "message": "", "lastTransitionTime": k.ts(c + sec(38))},
                         {"type": "Registered", "status": "Unknown", "reason": "AwaitingReconciliation", "message": "Node not registered with cluster", "lastTransitionTime": k.ts(c + sec(38))},
                         {"type": "Initialized", "status": "Unknown", "reason": "AwaitingReconciliation", "message": "Node not registered with cluster", "lastTransitionTime": k.ts(c + sec(38))},
                         {"type": "Ready", "status": "Unknown", "reason": "AwaitingReconciliation", "message": "Initialized=Unknown, Registered=Unknown", "lastTransitionTime": k.ts(c + sec(38))}]}}
    nodes = x86(3) + [cpu_node(f"master-{i + 1}", f"192.168.30.{2 + i}", taints=[{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]) for i in range(2)]
    b = CIBundle(c + sec(80), nodes, [pod], [Runner(rn, c - sec(1), phase="Pending", job=None, scale_set="linux-amd64-cpu-32", selector=sel)],
                 extra_files={"nodepools.karpenter.sh.json": k.k8s_list("NodePool", "karpenter.sh/v1", [np_obj]),
                              "nodeclaims.karpenter.sh.json": k.k8s_list("NodeClaim", "karpenter.sh/v1", [nc])})
    write_ci_bundle(b, out)


def w_succeeded_zh_noise(out: Path) -> None:
    c = at(2026, 12, 4, 10, 0)
    steps = [("actions/checkout@v4", [
                 *CHECKOUT[:5],
                 "提示：使用 'master' 作为初始分支的名称。这个默认分支名称可能会更改。要在新仓库中",
                 "提示：配置使用初始分支名，并消除这条警告，请执行：",
                 *CHECKOUT[5:]]),
             ("bash .github/scripts/prepare_ut.sh", [
                 "+ export LANG=zh_CN.UTF-8",
                 "+ rm -r /tmp/vllm-ascend-ut-cache",
                 "rm: 无法删除 '/tmp/vllm-ascend-ut-cache': 没有那个文件或目录",
                 "+ true",
                 "+ pip install -r requirements-dev.txt",
                 "Looking in indexes: http://pypi-cache.ci.internal/simple",
                 "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ReadTimeoutError(\"HTTPConnectionPool(host='pypi-cache.ci.internal', port=80): Read timed out. (read timeout=15)\")': /simple/modelscope/",
                 "Collecting modelscope>=1.22 (from -r requirements-dev.txt (line 9))",
                 "  Downloading http://pypi-cache.ci.internal/packages/modelscope-1.31.0-py3-none-any.whl (5.9 MB)",
                 "Successfully installed modelscope-1.31.0 pytest-asyncio-0.24.0 pytest-mock-3.14.0"]),
             ("pytest -sv tests/ut", [
                 "collected 1342 items",
                 "tests/ut/test_envs.py::test_error_on_invalid_env_value PASSED",
                 "tests/ut/worker/test_worker_v1.py::test_init_device_raises_on_oom PASSED",
                 "tests/ut/compilation/test_acl_graph.py::test_capture_failed_falls_back_to_eager PASSED",
                 "tests/ut/kv_connector/test_mooncake.py::test_transfer_timeout_error SKIPPED (mooncake not installed)",
                 "tests/ut/distributed/test_hccl_errors.py::test_ei0019_port_bound_is_classified XFAIL (classifier pending)",
                 "========= 1318 passed, 21 skipped, 3 xfailed, 62 warnings in 707.31s (0:11:47) =========",
                 "✅ unit tests finished: 0 failed, 0 errors"])]
    single(out, name="linux-aarch64-a2-1-kq7xv-runner-u1k8d", c=c, cap=c + mins(16), steps=steps, result="Succeeded",
           job="unit-test (a2-1)", step_s=240, end=c + mins(14), env=[*HOOKS, {"name": "LANG", "value": "zh_CN.UTF-8"}])


def w_runner_target_running(out: Path) -> None:
    c = at(2026, 12, 4, 10, 30)
    rn = "linux-aarch64-a2-4-j2k8h-runner-f3n6y"
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest -sv tests/e2e/multicard/test_qwen3_moe.py", [
                 "collected 3 items",
                 "INFO 12-04 10:32:21 [__init__.py:235] Platform plugin ascend is activated",
                 "WARNING 12-04 10:32:24 [_custom_ops.py:21] Failed to import from vllm._C with ModuleNotFoundError(\"No module named 'vllm._C'\")",
                 "[W1204 10:32:40.118340515 compiler_depend.ts:164] Warning: Warning: Device do not support double dtype now, dtype cast repalce with float. (function operator())",
                 "(Worker_TP0 pid=2901) INFO 12-04 10:34:02 [model_runner_v1.py:2470] Loading model weights took 14.9861 GB",
                 "(Worker_TP0 pid=2901) WARNING 12-04 10:34:05 [utils.py:311] Ascend warning: HCCL_BUFFSIZE is not set, using default 200MB",
                 "(Worker_TP0 pid=2901) INFO 12-04 10:34:51 [worker_v1.py:262] Available memory: 33417582387, total memory: 65452113920",
                 "(Worker_TP0 pid=2901) INFO 12-04 10:35:30 [acl_graph.py:231] Graph capturing finished in 38 secs",
                 "Processed prompts: 100%|██████████| 64/64 [00:21<00:00,  3.02it/s, est. speed input: 1540.11 toks/s, output: 386.20 toks/s]",
                 "PASSED",
                 "tests/e2e/multicard/test_qwen3_moe.py::test_qwen3_moe_tp4_ep",
                 "(Worker_TP0 pid=3377) INFO 12-04 10:37:14 [model_runner_v1.py:2470] Loading model weights took 14.9861 GB"])]
    log = runner_log(start=c + sec(16), job="e2e-multicard-4 (a2-4)", steps=steps, result=None, step_s=400)
    runner = rpod(rn, c, "npu-a2-02", log=log)
    res = {"limits": {"cpu": "64", "memory": "256Gi", "huawei.com/Ascend910": "4"},
           "requests": {"cpu": "64", "memory": "256Gi", "huawei.com/Ascend910": "4"}}
    wf = wfpod(rn, c + sec(40), "npu-a2-02", Ctr("job", VLLM_IMG, resources=res, command=["tail", "-f", "/dev/null"]))
    r = Runner(rn, c - sec(1), job="e2e-multicard-4 (a2-4)", scale_set="linux-aarch64-a2-4")
    write_ci_bundle(CIBundle(c + mins(8), a2(), [runner, wf], [r]), out)


def w_cancelled(out: Path) -> None:
    c = at(2026, 12, 4, 11, 0)
    rn = "linux-aarch64-a2-8-p2c6v-runner-c4z1a"
    start = c + sec(16)
    z = "%Y-%m-%d %H:%M:%SZ"
    t = start + sec(9)
    lines = ["", "√ Connected to GitHub", "", "Current runner version: '2.330.0'",
             f"{(start + sec(4)).strftime(z)}: Listening for Jobs", f"{(start + sec(7)).strftime(z)}: Running job: benchmark-throughput (a2-8)",
             f"{gh(t)} ##[group]Run python benchmarks/benchmark_serving.py --model Qwen/Qwen3-32B --num-prompts 2000 --request-rate 8",
             f"{gh(t)} ##[endgroup]"]
    for i in range(1, 24):
        tt = t + sec(60 * i)
        lines.append(f"{gh(tt)} {min(87 * i, 2000)}/2000 requests done, throughput {4.1 + 0.01 * i:.2f} req/s, mean TTFT 412.{i:02d} ms")
    tc = t + sec(60 * 23 + 20)
    lines += [f"{gh(tc)} ##[error]The operation was canceled.",
              f"{gh(tc + sec(2))} Cleaning up orphan processes",
              f"{(tc + sec(4)).strftime(z)}: Job benchmark-throughput (a2-8) completed with result: Canceled",
              "√ Removed .credentials", "√ Removed .runner"]
    pod = rpod(rn, c, "npu-a2-03", log="\n".join(lines), phase="Succeeded", env=[],
               state=k.terminated("Completed", 0, start, tc + sec(6)))
    r = Runner(rn, c - sec(1), phase="Succeeded", job="benchmark-throughput (a2-8)", scale_set="linux-aarch64-a2-8")
    write_ci_bundle(CIBundle(tc + sec(30), a2(), [pod], [r]), out)


def w_listening_after_retry(out: Path) -> None:
    c = at(2026, 12, 4, 11, 30)
    rn = "linux-aarch64-a2-1-kq7xv-runner-h5q9w"
    lines = ["", "Current runner version: '2.330.0'",
             f"{(c + sec(18)).strftime(Z)}: Runner connect error: The HTTP request timed out after 00:01:00.. Retrying until reconnected.",
             f"{(c + sec(79)).strftime(Z)}: Runner connect error: The HTTP request timed out after 00:01:00.. Retrying until reconnected.",
             f"{(c + sec(101)).strftime(Z)}: Runner reconnected.",
             "√ Connected to GitHub", "",
             f"{(c + sec(103)).strftime(Z)}: Listening for Jobs"]
    pod = rpod(rn, c, "npu-a2-01", log="\n".join(lines))
    write_ci_bundle(CIBundle(c + mins(3), a2(), [pod], [Runner(rn, c - sec(1), job=None)]), out)


SCENARIOS = [
    Scenario("none-ci-runner-recreated-old-sandbox-events", "none", w_recreated_old_events,
             "ARC recreated the runner pod under the same name after its first instance never got a sandbox (calico 'connection is unauthorized'); those warnings carry the old pod UID and the EphemeralRunner counts one failure. The current instance runs unit tests normally.",
             S3 + " § 正常流程; events of an earlier pod instance (other UID) are history, not the current pod's state",
             "pod/linux-aarch64-a2-1-kq7xv-runner-v9e3k", "none", namespace=NS, last_stage="containers-started", healthy=True),
    Scenario("none-ci-runner-karpenter-provisioning-80s", "none", w_karpenter_provisioning,
             "A CPU runner pod 80 seconds old: FailedScheduling because no existing node carries its nodepool label, Karpenter nominated a NodeClaim that is launched and still registering; NodePool healthy.",
             S3 + " § 正常流程 (Pending → Running); § 弹性扩容失败 / 弹性节点不健康 applies only to long Pending or NodeRegistrationHealthy=False",
             "pod/linux-amd64-cpu-32-v7n4h-runner-g6b2m", "none", namespace=NS, last_stage="pod-created", healthy=True),
    Scenario("none-ci-unit-test-succeeded-zh-noise", "none", w_succeeded_zh_noise,
             "A unit-test job that Succeeded under zh_CN: git 提示 lines, 'rm: 无法删除 … 没有那个文件或目录' ignored by the script, a pip read-timeout retry that then succeeded, tests named after errors and OOM, skips, XFAIL, '0 failed, 0 errors'.",
             S3 + " § 正常流程 (Pending → Running → Succeeded)",
             "pod/linux-aarch64-a2-1-kq7xv-runner-u1k8d", "none", namespace=NS, healthy=True),
    Scenario("none-ci-runner-e2e-in-progress", "none", w_runner_target_running,
             "Asked about the EphemeralRunner of an e2e job eight minutes in: first test passed, the second is loading weights; the log carries vllm._C import warnings, a CANN dtype warning and an HCCL_BUFFSIZE notice.",
             S3 + " § 正常流程",
             "runner/linux-aarch64-a2-4-j2k8h-runner-f3n6y", "none", namespace=NS, healthy=True),
    Scenario("none-ci-benchmark-cancelled-by-user", "none", w_cancelled,
             "A throughput benchmark progressing steadily every minute was cancelled from the GitHub UI after 23 minutes: '##[error]The operation was canceled.', result Canceled, runner pod Succeeded. Nothing failed.",
             S3 + " § 正常流程; § 任务长时间卡住 / 超时 does not apply (output kept coming until the cancel)",
             "pod/linux-aarch64-a2-8-p2c6v-runner-c4z1a", "none", namespace=NS, healthy=True),
    Scenario("none-ci-runner-listening-after-reconnect", "none", w_listening_after_retry,
             "A runner pod three minutes old whose first two connections to GitHub timed out ('Retrying until reconnected'); it reconnected and is listening for jobs.",
             S3 + " § 正常流程; § 节点 DNS 解析异常 applies to persistent failures (任务持续排队无法执行)",
             "pod/linux-aarch64-a2-1-kq7xv-runner-h5q9w", "none", namespace=NS, last_stage="containers-started", healthy=True),
]
