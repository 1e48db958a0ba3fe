# ruff: noqa: E501  (log and event text is quoted verbatim, one line per log line)
"""CI runner situations of the fourth blind set (GitHub ARC runner and workflow pods, EphemeralRunners)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import gen_k8s as k
from b4_common import S3, Scenario
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
VLLM_IMG = "swr.cn-southwest-2.myhuaweicloud.com/ascend-ci/vllm-ascend:main-a3"
RES = {"limits": {"cpu": "2", "memory": "4Gi"}, "requests": {"cpu": "500m", "memory": "1Gi"}}
HOOKS = [{"name": "ACTIONS_RUNNER_CONTAINER_HOOKS", "value": "/home/runner/k8s/index.js"},
         {"name": "ACTIONS_RUNNER_REQUIRE_JOB_CONTAINER", "value": "true"}]
Z = "%Y-%m-%d %H:%M:%SZ"
A2 = {"ascend-ci/npu-type": "a2"}


def a2(n: int = 3) -> list[Any]:
    return [npu_node(f"npu-a2-{i + 1:02d}", f"192.168.41.{11 + i}") for i in range(n)]


def x86(n: int = 2) -> list[Any]:
    return [cpu_node(f"cpu-x86-{i + 1:02d}", f"192.168.43.{11 + i}") for i in range(n)]


def rpod(name: str, c: datetime, node: str | None, *, log: str | None = None, state: Obj | None = None,
         phase: str = "Running", selector: dict[str, str] | None = None, command: list[str] | None = None,
         **kw: Any) -> CIPod:
    ctr = Ctr("runner", RUNNER_IMG, state=state, resources=RES, command=command or ["/home/runner/run.sh"],
              env=HOOKS)
    return CIPod(name, node, c, [ctr], phase=phase, runner=name, logs={"runner": log} if log is not None else {},
                 node_selector=A2 if selector is None else selector, **kw)


def wfpod(runner: str, c: datetime, node: str | None, ctr: Ctr, **kw: Any) -> CIPod:
    return CIPod(f"{runner}-workflow", node, c, [ctr], workflow_of=runner, ip="172.16.161.52",
                 node_selector=kw.pop("selector", A2), **kw)


def hook_runner(name: str, c: datetime, node: str, job: str, extra: list[str], selector: dict[str, str] | None = None) -> CIPod:
    """A runner pod that took a job and runs the container hook's 'Initialize containers'."""
    t = c + sec(40)
    lines = ["", "√ Connected to GitHub", "", "Current runner version: '2.331.0'",
             f"{(c + sec(20)).strftime(Z)}: Listening for Jobs", f"{(c + sec(23)).strftime(Z)}: Running job: {job}",
             f"{gh(t)} ##[group]Run '/home/runner/k8s/index.js'",
             f"{gh(t)} shell: /home/runner/externals/node20/bin/node {{0}}", f"{gh(t)} ##[endgroup]", *extra]
    return rpod(name, c, node, log="\n".join(lines), selector=selector)


def single(out: Path, *, name: str, c: datetime, cap: datetime, steps: list[Any], result: str | None, job: str,
           nodes: list[Any] | None = None, node: str = "npu-a2-01", scale: str = "linux-aarch64-a2-1",
           selector: dict[str, str] | None = None, step_s: float = 30.0, end: datetime | None = None,
           repo: str = "vllm-project/vllm-ascend") -> None:
    log = runner_log(start=c + sec(16), job=job, steps=steps, result=result, step_s=step_s, version="2.331.0")
    failed = result == "Failed"
    ok = result == "Succeeded"
    state = None
    if failed or ok:
        state = k.terminated("Error" if failed else "Completed", 1 if failed else 0, c + sec(16), end or cap - mins(1))
    phase = "Failed" if failed else ("Succeeded" if ok else "Running")
    pod = rpod(name, c, node, log=log, state=state, phase=phase, selector=selector)
    r = Runner(name, c - sec(1), phase=phase, job=job, scale_set=scale, repo=repo,
               selector=A2 if selector is None else selector)
    write_ci_bundle(CIBundle(cap, nodes or a2(), [pod], [r]), out)


# ---------------------------------------------------------------- start and scheduling

def w_runner_wrapper_missing(out: Path) -> None:
    """The scale set's runner command was changed to run a readiness script first; the image has no such script."""
    c = at(2026, 12, 5, 1, 0)
    rn = "linux-aarch64-a2-1-kq7xv-runner-w4c7d"
    cmd = ["/bin/bash", "-c", "/home/runner/bin/npu-ready.sh && exec /home/runner/run.sh"]
    state = k.terminated("Error", 127, c + sec(16), c + sec(16))
    pod = rpod(rn, c, "npu-a2-02", phase="Failed", state=state, command=cmd,
               log="/bin/bash: line 1: /home/runner/bin/npu-ready.sh: No such file or directory")
    fails = {k.uid("pod", NS, rn, "first"): True}
    r = Runner(rn, c - mins(2), phase="Pending", job=None, failures=fails)
    write_ci_bundle(CIBundle(c + mins(2), a2(), [pod], [r]), out)


def w_a3_nodes_cordoned(out: Path) -> None:
    """The only two a3 nodes were cordoned for a driver upgrade; the a3 workflow pod waits."""
    c = at(2026, 12, 5, 1, 30)
    rn = "linux-aarch64-a3-2-p4n7c-runner-t6j2m"
    sel = {"ascend-ci/npu-type": "a3"}
    msg = ("0/5 nodes are available: 2 node(s) were unschedulable, 3 node(s) didn't match Pod's node affinity/selector. "
           "preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.")
    res = {"limits": {"cpu": "32", "memory": "128Gi", "huawei.com/ascend-1980": "2"},
           "requests": {"cpu": "32", "memory": "128Gi", "huawei.com/ascend-1980": "2"}}
    wf = wfpod(rn, c + sec(39), None, Ctr("job", VLLM_IMG, resources=res), phase="Pending", selector=sel,
               sched_message=msg, default_events=False,
               events=[Ev("FailedScheduling", msg, 1, 840, 15, component="default-scheduler")])
    runner = hook_runner(rn, c, "npu-a2-01", "e2e-pd-disagg (a3-2)",
                         [f"{gh(c + sec(39))} Job pod created, waiting for it to come online {rn}-workflow"],
                         selector={})
    a3 = [npu_node(f"npu-a3-{i + 1:02d}", f"192.168.42.{11 + i}", npu_type="a3", n=16, unschedulable=True)
          for i in range(2)]
    b = CIBundle(c + mins(15), a2() + a3, [runner, wf],
                 [Runner(rn, c - sec(1), job="e2e-pd-disagg (a3-2)", scale_set="linux-aarch64-a3-2", selector={})])
    write_ci_bundle(b, out)


def w_gpu_all_allocated(out: Path) -> None:
    """A GPU runner scale set: both L40S nodes have all four GPUs requested by other runners' job pods."""
    c = at(2026, 12, 5, 2, 0)
    sel = {"ascend-ci/gpu": "l40s"}
    msg = ("0/6 nodes are available: 2 Insufficient nvidia.com/gpu, 4 node(s) didn't match Pod's node affinity/selector. "
           "preemption: 0/6 nodes are available: 2 No preemption victims found for incoming pod, 4 Preemption is not helpful for scheduling.")
    gres = {"limits": {"cpu": "16", "memory": "64Gi", "nvidia.com/gpu": "2"},
            "requests": {"cpu": "16", "memory": "64Gi", "nvidia.com/gpu": "2"}}
    img = "ghcr.nju.edu.cn/rlinf/rlinf:cuda12.8-torch2.7"

    def gpu_node(i: int) -> NodeSpec:
        return NodeSpec(f"gpu-l40s-{i:02d}", arch="amd64", ip=f"192.168.44.{10 + i}", device=("nvidia.com/gpu", 4),
                        used_device=4, cpu="128", memory="1056678728Ki",
                        labels={"ascend-ci/gpu": "l40s", "nvidia.com/gpu.product": "NVIDIA-L40S"})

    busy = []
    runners = []
    for i, (tag, node) in enumerate([("b2k4q", "gpu-l40s-01"), ("h8n3v", "gpu-l40s-01"), ("m1x6r", "gpu-l40s-02"), ("s5d9w", "gpu-l40s-02")]):
        rname = f"linux-amd64-gpu-l40s-2-c3v8n-runner-{tag}"
        started = c - mins(50 - 7 * i)
        busy.append(hook_runner(rname, started, "cpu-x86-01", "embodied-e2e (l40s-2)",
                                [f"{gh(started + sec(40))} Job pod created, waiting for it to come online {rname}-workflow",
                                 f"{gh(started + sec(58))} Job pod is ready for traffic"], selector={}))
        busy.append(wfpod(rname, started + sec(40), node, Ctr("job", img, resources=gres, command=["tail", "-f", "/dev/null"]),
                          selector=sel))
        runners.append(Runner(rname, started - sec(1), job="embodied-e2e (l40s-2)", scale_set="linux-amd64-gpu-l40s-2",
                              repo="RLinf/RLinf", selector={}))
    rn = "linux-amd64-gpu-l40s-2-c3v8n-runner-z7p2f"
    wf = wfpod(rn, c + sec(38), None, Ctr("job", img, resources=gres), phase="Pending", selector=sel,
               sched_message=msg, default_events=False,
               events=[Ev("FailedScheduling", msg, 1, 545, 10, component="default-scheduler")])
    runner = hook_runner(rn, c, "cpu-x86-02", "embodied-e2e (l40s-2)",
                         [f"{gh(c + sec(38))} Job pod created, waiting for it to come online {rn}-workflow"], selector={})
    runners.append(Runner(rn, c - sec(1), job="embodied-e2e (l40s-2)", scale_set="linux-amd64-gpu-l40s-2",
                          repo="RLinf/RLinf", selector={}))
    nodes = [gpu_node(1), gpu_node(2), *x86(2), *a2(2)]
    write_ci_bundle(CIBundle(c + mins(10), nodes, [*busy, runner, wf], runners), out)


def w_storageclass_missing(out: Path) -> None:
    """The workflow pod's model-cache claim names a StorageClass that does not exist in this cluster."""
    c = at(2026, 12, 5, 2, 30)
    rn = "linux-aarch64-a2-2-r5d8n-runner-q9f4b"
    claim = "vllm-ascend-hf-cache-a2"
    msg = ("0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: "
           "3 Preemption is not helpful for scheduling.")
    vols = [{"name": "hf-cache", "persistentVolumeClaim": {"claimName": claim}}, {"name": "work", "emptyDir": {}}]
    mounts = [{"name": "hf-cache", "mountPath": "/root/.cache/huggingface"}, {"name": "work", "mountPath": "/__w"}]
    res = {"limits": {"cpu": "16", "memory": "64Gi", "huawei.com/Ascend910": "2"},
           "requests": {"cpu": "16", "memory": "64Gi", "huawei.com/Ascend910": "2"}}
    wf = wfpod(rn, c + sec(41), None, Ctr("job", VLLM_IMG.replace("main-a3", "main-a2"), resources=res, mounts=mounts),
               phase="Pending", sched_message=msg, volumes=vols, default_events=False,
               events=[Ev("FailedScheduling", msg, 1, 600, 11, component="default-scheduler")])
    runner = hook_runner(rn, c, "npu-a2-03", "e2e-vl (a2-2)",
                         [f"{gh(c + sec(41))} Job pod created, waiting for it to come online {rn}-workflow"])
    pvc_uid = k.uid("pvc", NS, claim)
    pvc = {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
           "metadata": {**k.meta(claim, c - mins(3), NS), "uid": pvc_uid,
                        "finalizers": ["kubernetes.io/pvc-protection"]},
           "spec": {"accessModes": ["ReadWriteMany"], "resources": {"requests": {"storage": "2Ti"}},
                    "storageClassName": "csi-sfsturbo-ci", "volumeMode": "Filesystem"},
           "status": {"phase": "Pending"}}
    pvc_ev = k.event("PersistentVolumeClaim", NS, claim, pvc_uid, "ProvisioningFailed",
                     'storageclass.storage.k8s.io "csi-sfsturbo-ci" not found', c - mins(3),
                     last=c + mins(10), count=52, etype="Warning", component="persistentvolume-controller")
    b = CIBundle(c + mins(11), a2(), [runner, wf], [Runner(rn, c - sec(1), job="e2e-vl (a2-2)", scale_set="linux-aarch64-a2-2")],
                 extra_events=[pvc_ev],
                 extra_files={f"{NS}/persistentvolumeclaims.json": k.k8s_list("PersistentVolumeClaim", "v1", [pvc])})
    write_ci_bundle(b, out)


# ---------------------------------------------------------------- steps

def w_pip_503_swallowed(out: Path) -> None:
    """The install step hides pip's failure behind '|| true'; the test step then cannot import torch_npu."""
    c = at(2026, 12, 5, 3, 0)
    whl = "/packages/torch-npu/torch_npu-2.7.1.post1-cp311-cp311-manylinux_2_28_aarch64.whl"
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pip install -r requirements.txt || true", [
                 "Looking in indexes: http://pypi-cache.ci.internal/simple",
                 "Collecting torch==2.7.1 (from -r requirements.txt (line 3))",
                 "  Using cached http://pypi-cache.ci.internal/packages/torch/torch-2.7.1-cp311-cp311-manylinux_2_28_aarch64.whl (98.7 MB)",
                 "Collecting torch-npu==2.7.1.post1 (from -r requirements.txt (line 4))",
                 f"WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ReadTimeoutError(\"HTTPConnectionPool(host='pypi-cache.ci.internal', port=80): Read timed out. (read timeout=15)\")': {whl}",
                 f"WARNING: Retrying (Retry(total=3, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ReadTimeoutError(\"HTTPConnectionPool(host='pypi-cache.ci.internal', port=80): Read timed out. (read timeout=15)\")': {whl}",
                 f"ERROR: Could not install packages due to an OSError: HTTPConnectionPool(host='pypi-cache.ci.internal', port=80): Max retries exceeded with url: {whl} (Caused by ResponseError('too many 503 error responses'))",
                 ""]),
             ("pytest -sv tests/ut/attention", [
                 "ImportError while loading conftest '/__w/vllm-ascend/vllm-ascend/tests/ut/conftest.py'.",
                 "tests/ut/conftest.py:21: in <module>",
                 "    import torch_npu  # noqa: F401",
                 "E   ModuleNotFoundError: No module named 'torch_npu'",
                 "##[error]Process completed with exit code 4."])]
    single(out, name="linux-aarch64-a2-1-kq7xv-runner-p3r8k", c=c, cap=c + mins(9.5), steps=steps, result="Failed",
           job="unit-test-attention (a2-1)", step_s=150, end=c + mins(8.5))


def w_helm_wrong_cluster(out: Path) -> None:
    """A deploy-test job: the repository's kubeconfig secret names another region's API server."""
    c = at(2026, 12, 5, 3, 30)
    steps = [("actions/checkout@v4", [s.replace("vllm-project/vllm-ascend", "ascend-ci-org/ray-serve-e2e") for s in CHECKOUT]),
             ("echo \"$E2E_KUBECONFIG\" > $RUNNER_TEMP/kubeconfig && kubectl config get-contexts", [
                 "CURRENT   NAME             CLUSTER          AUTHINFO         NAMESPACE",
                 "*         ap-southeast-1   ap-southeast-1   ci-deployer      ray-e2e"]),
             ("helm upgrade --install ray-e2e ./charts/ray-cluster -n ray-e2e --kubeconfig $RUNNER_TEMP/kubeconfig --wait --timeout 10m", [
                 "Error: Kubernetes cluster unreachable: Get \"https://10.211.8.15:5443/version\": dial tcp 10.211.8.15:5443: i/o timeout",
                 "##[error]Process completed with exit code 1."])]
    single(out, name="linux-amd64-cpu-8-f9x2k-runner-k2w5t", c=c, cap=c + mins(4), steps=steps, result="Failed",
           job="deploy-e2e (cpu)", nodes=x86(), node="cpu-x86-02", scale="linux-amd64-cpu-8",
           selector={"ascend-ci/cpu": "x86"}, step_s=40, end=c + mins(3), repo="ascend-ci-org/ray-serve-e2e")


def w_pytest_timeout_q_get(out: Path) -> None:
    """A speculative-decoding DP x TP e2e test prints no output for three hours; its own 3 h timeout then cancels the stream."""
    c = at(2026, 12, 5, 4, 0)
    rn = "linux-aarch64-a3-16-w2q8d-runner-f7b1c"
    start = c + sec(16)
    t0 = start + sec(9)
    lines = ["", "√ Connected to GitHub", "", "Current runner version: '2.331.0'",
             f"{(start + sec(4)).strftime(Z)}: Listening for Jobs",
             f"{(start + sec(7)).strftime(Z)}: Running job: e2e-spec-decode (a3-16)",
             f"{gh(t0)} ##[group]Run pytest -sv tests/e2e/multicard/test_mtp_dp_tp.py",
             f"{gh(t0)} ##[endgroup]",
             f"{gh(t0 + sec(2))} collected 1 item",
             f"{gh(t0 + sec(3))} tests/e2e/multicard/test_mtp_dp_tp.py::test_deepseek_mtp_dp2_tp8_ep",
             f"{gh(t0 + sec(40))} INFO 12-05 04:01:05 [core.py:93] Initializing a V1 LLM engine (v0.11.0) with config: model='/root/.cache/modelscope/hub/models/vllm-ascend/DeepSeek-V3.2-W8A8', speculative_config=SpeculativeConfig(method='deepseek_mtp', model='/root/.cache/modelscope/hub/models/vllm-ascend/DeepSeek-V3.2-W8A8', num_spec_tokens=1), tensor_parallel_size=8, data_parallel_size=2, enable_expert_parallel=True",
             f"{gh(t0 + sec(380))} (EngineCore_DP0 pid=2211) INFO 12-05 04:07:25 [model_runner_v1.py:2470] Loading model weights took 41.2218 GB",
             f"{gh(t0 + sec(520))} (EngineCore_DP1 pid=2212) INFO 12-05 04:09:45 [acl_graph.py:231] Graph capturing finished in 66 secs",
             f"{gh(t0 + sec(600))} Processed prompts:  12%|█▎        | 12/100 [00:41<04:59,  3.40s/it, est. speed input: 412.77 toks/s, output: 61.09 toks/s]",
             f"{gh(t0 + sec(640))} Processed prompts:  13%|█▎        | 13/100 [01:21<09:51, 6.80s/it, est. speed input: 380.20 toks/s, output: 56.31 toks/s]"]
    t1 = t0 + sec(10800)
    dump = ["FAILED",
            "",
            "=================================== FAILURES ===================================",
            "________________________ test_deepseek_mtp_dp2_tp8_ep _________________________",
            "Traceback (most recent call last):",
            '  File "/__w/vllm-ascend/vllm-ascend/tests/e2e/multicard/test_mtp_dp_tp.py", line 61, in _consume',
            "    async for out in engine.generate(prompt, sampling_params, request_id):",
            '  File "/vllm-workspace/vllm/vllm/v1/engine/async_llm.py", line 421, in generate',
            "    out = q.get_nowait() or await q.get()",
            "                            ^^^^^^^^^^^^^",
            '  File "/vllm-workspace/vllm/vllm/v1/engine/output_processor.py", line 60, in get',
            "    await self.ready.wait()",
            '  File "/usr/local/python3.11.13/lib/python3.11/asyncio/locks.py", line 213, in wait',
            "    await fut",
            "asyncio.exceptions.CancelledError",
            "",
            "The above exception was the direct cause of the following exception:",
            "",
            "Traceback (most recent call last):",
            '  File "/__w/vllm-ascend/vllm-ascend/tests/e2e/multicard/test_mtp_dp_tp.py", line 88, in test_deepseek_mtp_dp2_tp8_ep',
            "    outputs = asyncio.run(asyncio.wait_for(_consume_all(engine, prompts), timeout=10800))",
            '  File "/usr/local/python3.11.13/lib/python3.11/asyncio/tasks.py", line 502, in wait_for',
            "    raise exceptions.TimeoutError() from exc",
            "TimeoutError",
            "=========================== short test summary info ============================",
            "FAILED tests/e2e/multicard/test_mtp_dp_tp.py::test_deepseek_mtp_dp2_tp8_ep - TimeoutError",
            "========================= 1 failed in 10812.44s (3:00:12) =========================",
            "##[error]Process completed with exit code 1."]
    lines += [f"{gh(t1 + sec(i))} {d}" for i, d in enumerate(dump)]
    lines += [f"{(t1 + sec(30)).strftime(Z)}: Job e2e-spec-decode (a3-16) completed with result: Failed",
              "√ Removed .credentials", "√ Removed .runner"]
    end = t1 + sec(31)
    sel = {"ascend-ci/npu-type": "a3"}
    pod = rpod(rn, c, "npu-a3-01", log="\n".join(lines), phase="Failed", selector=sel,
               state=k.terminated("Error", 1, start, end))
    nodes = [npu_node(f"npu-a3-{i + 1:02d}", f"192.168.42.{11 + i}", npu_type="a3", n=16) for i in range(2)]
    r = Runner(rn, c - sec(1), phase="Failed", job="e2e-spec-decode (a3-16)", scale_set="linux-aarch64-a3-16", selector=sel)
    write_ci_bundle(CIBundle(end + mins(2), nodes, [pod], [r]), out)


def w_rsync_quota(out: Path) -> None:
    """Copying a model into the shared cache hits the tenant's quota while df still shows the volume half empty."""
    c = at(2026, 12, 5, 4, 30)
    dst = "/mnt/share/modelscope/hub/models/Qwen/Qwen3-30B-A3B"
    steps = [("actions/checkout@v4", CHECKOUT),
             ("df -h /mnt/share && rsync -a --info=progress2 /mnt/nvme0/staging/Qwen3-30B-A3B/ " + dst + "/", [
                 "Filesystem                         Size  Used Avail Use% Mounted on",
                 "192.168.40.5:/sfs-turbo-ci/share    50T   21T   29T  43% /mnt/share",
                 "  4,831,838,208   7%  231.04MB/s    0:00:19 (xfr#2, to-chk=14/18)",
                 " 20,401,094,656  33%  228.70MB/s    0:01:25 (xfr#7, to-chk=9/18)",
                 f'rsync: [receiver] write failed on "{dst}/model-00009-of-00016.safetensors": Disk quota exceeded (122)',
                 "rsync error: error in file IO (code 11) at receiver.c(380) [receiver=3.2.7]",
                 "rsync: [sender] write error: Broken pipe (32)",
                 "##[error]Process completed with exit code 11."])]
    single(out, name="linux-aarch64-a2-4-j2k8h-runner-d6m3x", c=c, cap=c + mins(5), steps=steps, result="Failed",
           job="prepare-model-cache (a2-4)", scale="linux-aarch64-a2-4", step_s=100, end=c + mins(4))


def w_ray_service_name_unknown_zh(out: Path) -> None:
    """A RayJob e2e step cannot resolve the cluster's ray submitter Service name; its image runs with a zh_CN locale."""
    c = at(2026, 12, 5, 5, 0)
    host = "rayjob-submitter.ci-system.svc.cluster.local"
    steps = [("actions/checkout@v4", [s.replace("vllm-project/vllm-ascend", "volcengine/verl") for s in CHECKOUT]),
             (f"getent hosts {host} || ping -c 1 {host}", [
                 f"ping: {host}: 未知的名称或服务"]),
             (f"ray job submit --address http://{host}:8265 --working-dir . -- python3 -m verl.trainer.main_ppo trainer.total_epochs=1", [
                 "Traceback (most recent call last):",
                 '  File "/usr/local/python3.11.13/lib/python3.11/site-packages/urllib3/connection.py", line 198, in _new_conn',
                 "    sock = connection.create_connection(",
                 "socket.gaierror: [Errno -2] 未知的名称或服务",
                 "",
                 "The above exception was the direct cause of the following exception:",
                 "",
                 f"requests.exceptions.ConnectionError: HTTPConnectionPool(host='{host}', port=8265): Max retries exceeded with url: /api/version (Caused by NameResolutionError(\"<urllib3.connection.HTTPConnection object at 0xffff8c2b1e50>: Failed to resolve '{host}' ([Errno -2] 未知的名称或服务)\"))",
                 "##[error]Process completed with exit code 1."])]
    single(out, name="linux-aarch64-a2-1-kq7xv-runner-r2h6v", c=c, cap=c + mins(4), steps=steps, result="Failed",
           job="rayjob-e2e (a2-1)", step_s=40, end=c + mins(3), repo="volcengine/verl")


SCENARIOS: list[Scenario] = [
    Scenario("ci-runner-wrapper-script-missing-127", "ci", w_runner_wrapper_missing,
             "The runner container's command was changed to run /home/runner/bin/npu-ready.sh before run.sh; the image has no such file: the container exits 127 in the same second it started (pod Failed, one earlier pod failure recorded on the EphemeralRunner). No job was ever taken.",
             S3 + " § 容器崩溃 (启动后立即退出，启动命令错误)",
             "pod/linux-aarch64-a2-1-kq7xv-runner-w4c7d", "pod.run.crash-on-start", namespace=NS, last_stage="containers-started"),
    Scenario("ci-workflow-a3-nodes-cordoned", "ci", w_a3_nodes_cordoned,
             "An a3 workflow pod Pending 14 minutes: the scheduler says 2 node(s) were unschedulable and 3 didn't match; the two a3 nodes (the only ones with the a3 label) are cordoned.",
             "CONTRACT §4 pod.schedule.node-unschedulable (only cordoned nodes match the selector); " + S3 + " § 调度失败",
             "pod/linux-aarch64-a3-2-p4n7c-runner-t6j2m-workflow", "pod.schedule.node-unschedulable", namespace=NS, last_stage="pod-created"),
    Scenario("ci-workflow-gpu-all-allocated", "ci", w_gpu_all_allocated,
             "A GPU (L40S) workflow pod asking 2 nvidia.com/gpu is Pending 9 minutes: '2 Insufficient nvidia.com/gpu' — both L40S nodes have all 4 GPUs taken by four other running job pods of the same scale set.",
             S3 + " § 调度失败：资源超限 (FailedScheduling, 申请卡数超过可用)",
             "pod/linux-amd64-gpu-l40s-2-c3v8n-runner-z7p2f-workflow", "pod.schedule.insufficient-resources", namespace=NS, last_stage="pod-created"),
    Scenario("ci-workflow-storageclass-not-found", "ci", w_storageclass_missing,
             "A workflow pod Pending on 'pod has unbound immediate PersistentVolumeClaims'; its claim vllm-ascend-hf-cache-a2 is Pending with ProvisioningFailed 'storageclass.storage.k8s.io \"csi-sfsturbo-ci\" not found' (x52).",
             "CONTRACT §4 pod.storage.pvc-unbound (StorageClass cannot provision); " + S3 + " § 调度失败：PVC 不存在（FailedBinding）",
             "pod/linux-aarch64-a2-2-r5d8n-runner-q9f4b-workflow", "pod.storage.pvc-unbound", namespace=NS, last_stage="pod-created"),
    Scenario("ci-pip-503-swallowed-then-import-error", "ci", w_pip_503_swallowed,
             "pip install from the cache service retries two read timeouts then gives up with 'Max retries exceeded ... too many 503 error responses' for torch_npu, but the step ends in '|| true'; the next step fails with ModuleNotFoundError: No module named 'torch_npu'. The first cause is the package cache.",
             S3 + " § 依赖缓存异常（pypi / rust）(read timeout, HTTP 503); public: pypi/warehouse#3708, pypa/pip#13056 wording",
             "pod/linux-aarch64-a2-1-kq7xv-runner-p3r8k", "ci.deps.cache", namespace=NS),
    Scenario("ci-helm-cluster-unreachable-other-region", "ci", w_helm_wrong_cluster,
             "A deploy-e2e job writes the repository's kubeconfig secret (context ap-southeast-1) and runs helm: 'Error: Kubernetes cluster unreachable: Get \"https://10.211.8.15:5443/version\": dial tcp ...: i/o timeout'.",
             S3 + " § kubeconfig / secret 指向错误集群 (issue #293); public: helm/helm#11306, aliyun/ack-set-context#1 wording",
             "pod/linux-amd64-cpu-8-f9x2k-runner-k2w5t", "ci.run.kubeconfig-wrong-cluster", namespace=NS),
    Scenario("ci-pytest-timeout-stack-await-q-get", "ci", w_pytest_timeout_q_get,
             "An MTP speculative decoding DP2xTP8+EP e2e test stops printing at 13/100 prompts; three hours later the test's own asyncio.wait_for(timeout=10800) cancels the stream: the traceback ends in async_llm.py 'out = q.get_nowait() or await q.get()' (CancelledError, then TimeoutError). No error line before the timeout.",
             S3 + " § 任务长时间卡住 / 超时（引擎进程挂起）(issue #216: stack stops at await q.get())",
             "pod/linux-aarch64-a3-16-w2q8d-runner-f7b1c", "ci.run.engine-hang", namespace=NS),
    Scenario("ci-rsync-model-quota-122", "ci", w_rsync_quota,
             "Copying Qwen3-30B-A3B into the shared SFS cache: df shows the volume 43% used, then rsync 'write failed ... Disk quota exceeded (122)', 'error in file IO (code 11)', and a sender 'Broken pipe'.",
             S3 + " § 共享盘空间不足 / 锁文件残留 (区分配额 Errno 122 / EDQUOT 与磁盘满)",
             "pod/linux-aarch64-a2-4-j2k8h-runner-d6m3x", "pod.run.disk-quota", namespace=NS),
    Scenario("ci-ray-service-name-unknown-zh", "ci", w_ray_service_name_unknown_zh,
             "A verl RayJob e2e step whose image runs with a zh_CN locale: 'ping: rayjob-submitter.ci-system.svc.cluster.local: 未知的名称或服务', then ray job submit fails with NameResolutionError ... [Errno -2] 未知的名称或服务 wrapped in 'Max retries exceeded'.",
             S3 + " § 节点 DNS 解析异常 / 时钟偏移 (Could not resolve host: rayjob-submitter.ci-system.svc.cluster.local, issue #270)",
             "pod/linux-aarch64-a2-1-kq7xv-runner-r2h6v", "ci.node.dns", namespace=NS),
]
