# ruff: noqa: E501  (log and event text is quoted verbatim, one line per log line)
"""CI targets of the fourth blind set whose right answer is `none`: healthy, finished or still-starting runners."""

from __future__ import annotations

from pathlib import Path

import gen_k8s as k
from b4_ci import a2, rpod, single
from b4_common import S3, Scenario
from gen_ci import CHECKOUT, NS, CIBundle, Ev, Runner, runner_log, write_ci_bundle
from gen_k8s import at, mins, sec


def w_upload_retry_finalized(out: Path) -> None:
    """The artifact upload's first CreateArtifact call times out, the retry goes through, the job succeeds."""
    c = at(2026, 12, 5, 6, 0)
    steps = [("actions/checkout@v4", CHECKOUT),
             ("pytest -sv tests/e2e/singlecard/test_accuracy_gsm8k.py", [
                 "collected 2 items",
                 "tests/e2e/singlecard/test_accuracy_gsm8k.py::test_qwen3_8b_gsm8k[eager] PASSED",
                 "tests/e2e/singlecard/test_accuracy_gsm8k.py::test_qwen3_8b_gsm8k[aclgraph] PASSED",
                 "accuracy gsm8k: 0.8847 (threshold 0.8600, abs diff vs baseline 0.0031)",
                 "======================== 2 passed, 9 warnings in 1391.07s (0:23:11) ========================"]),
             ("actions/upload-artifact@v4", [
                 "With the provided path, there will be 3 files uploaded",
                 "Artifact name is valid!",
                 "Root directory input is valid!",
                 "Attempt 1 of 5 failed with error: Request timeout: /twirp/github.actions.results.api.v1.ArtifactService/CreateArtifact. Retrying request in 3000 ms...",
                 "Beginning upload of artifact content to blob storage",
                 "Uploaded bytes 1048576",
                 "Uploaded bytes 1917664",
                 "Finished uploading artifact content to blob storage!",
                 "SHA256 digest of uploaded artifact zip is 9a4e07c1d2b3f5e6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0",
                 "Finalizing artifact upload",
                 "Artifact accuracy-report.zip successfully finalized. Artifact ID 4412298831",
                 "Artifact accuracy-report has been successfully uploaded! Final size is 1917664 bytes. Artifact ID is 4412298831"])]
    single(out, name="linux-aarch64-a2-1-kq7xv-runner-n5t2h", c=c, cap=c + mins(30), steps=steps, result="Succeeded",
           job="accuracy-gsm8k (a2-1)", step_s=540, end=c + mins(29))


def w_ephemeral_work_volume(out: Path) -> None:
    """A runner pod 28 s old: one transient FailedScheduling while the ephemeral 'work' claim was created, then scheduled and provisioning."""
    c = at(2026, 12, 5, 6, 30)
    rn = "linux-aarch64-a2-1-kq7xv-runner-j8w3q"
    claim = f"{rn}-work"
    wait = (f'0/3 nodes are available: waiting for ephemeral volume controller to create the persistentvolumeclaim "{claim}". '
            "preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.")
    vols = [{"name": "work", "ephemeral": {"volumeClaimTemplate": {"spec": {
        "accessModes": ["ReadWriteOnce"], "storageClassName": "csi-disk-ssd", "resources": {"requests": {"storage": "200Gi"}}}}}}]
    pod = rpod(rn, c, "npu-a2-03", phase="Pending", state=k.waiting("ContainerCreating"), volumes=vols, default_events=False,
               events=[Ev("FailedScheduling", wait, 0, component="default-scheduler"),
                       Ev("Scheduled", f"Successfully assigned {NS}/{rn} to npu-a2-03", 3, etype="Normal", component="default-scheduler"),
                       Ev("SuccessfulAttachVolume", 'AttachVolume.Attach succeeded for volume "pvc-6d1e0b7a-4c2f-4e1a-9b3d-2f8a7c5e1d90"', 19,
                          etype="Normal", component="attachdetach-controller")])
    pod.containers[0].pulled = False
    pvc_uid = k.uid("pvc", NS, claim)
    pvc = {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
           "metadata": {**k.meta(claim, c + sec(1), NS), "uid": pvc_uid, "finalizers": ["kubernetes.io/pvc-protection"],
                        "ownerReferences": [{"apiVersion": "v1", "kind": "Pod", "name": rn, "uid": k.uid("pod", NS, rn),
                                             "controller": True, "blockOwnerDeletion": True}]},
           "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "200Gi"}},
                    "storageClassName": "csi-disk-ssd", "volumeMode": "Filesystem",
                    "volumeName": "pvc-6d1e0b7a-4c2f-4e1a-9b3d-2f8a7c5e1d90"},
           "status": {"phase": "Bound", "accessModes": ["ReadWriteOnce"], "capacity": {"storage": "200Gi"}}}
    pe = [k.event("PersistentVolumeClaim", NS, claim, pvc_uid, "WaitForFirstConsumer",
                  "waiting for first consumer to be created before binding", c + sec(1), component="persistentvolume-controller"),
          k.event("PersistentVolumeClaim", NS, claim, pvc_uid, "ExternalProvisioning",
                  'Waiting for a volume to be created either by the external provisioner \'everest-csi-provisioner\' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.',
                  c + sec(3), last=c + sec(12), count=3, component="persistentvolume-controller"),
          k.event("PersistentVolumeClaim", NS, claim, pvc_uid, "Provisioning",
                  f'External provisioner is provisioning volume for claim "{NS}/{claim}"', c + sec(3), component="everest-csi-provisioner"),
          k.event("PersistentVolumeClaim", NS, claim, pvc_uid, "ProvisioningSucceeded",
                  "Successfully provisioned volume pvc-6d1e0b7a-4c2f-4e1a-9b3d-2f8a7c5e1d90", c + sec(14), component="everest-csi-provisioner")]
    r = Runner(rn, c - sec(1), phase="Pending", job=None)
    b = CIBundle(c + sec(28), a2(), [pod], [r], extra_events=pe,
                 extra_files={f"{NS}/persistentvolumeclaims.json": k.k8s_list("PersistentVolumeClaim", "v1", [pvc])})
    write_ci_bundle(b, out)


def w_benchmark_zero_counters(out: Path) -> None:
    """A throughput benchmark mid-run whose summary lines are full of error, failed, timeout and OOM counters, all zero."""
    c = at(2026, 12, 5, 7, 0)
    rn = "linux-aarch64-a2-8-p2c6v-runner-y4k7s"
    steps = [("actions/checkout@v4", CHECKOUT),
             ("bash benchmarks/scripts/run_serving.sh qwen3-32b-tp4", [
                 "export HCCL_EXEC_TIMEOUT=1800 HCCL_CONNECT_TIMEOUT=1200 PYTORCH_NPU_ALLOC_CONF=expandable_segments:True",
                 "INFO 12-05 07:01:02 [api_server.py:1896] vLLM API server version 0.11.0",
                 "INFO 12-05 07:02:10 [launcher.py:37] Available routes are: /health, /v1/completions, /v1/chat/completions",
                 "[round 1/3] request_rate=4 num_prompts=500",
                 "============ Serving Benchmark Result ============",
                 "Successful requests:                     500",
                 "Failed requests:                         0",
                 "Timed-out requests:                      0",
                 "Benchmark duration (s):                  131.82",
                 "Request throughput (req/s):              3.79",
                 "Output token throughput (tok/s):         1934.26",
                 "Mean TTFT (ms):                          211.40",
                 "P99 ITL (ms):                            58.92",
                 "==================================================",
                 "npu health: 8/8 OK, aicore_err=0, hbm_ecc_err=0, oom_events=0, hccl_error_count=0",
                 "[round 2/3] request_rate=8 num_prompts=1000",
                 "INFO 12-05 07:05:40 [loggers.py:123] Engine 000: Avg prompt throughput: 4187.3 tokens/s, Avg generation throughput: 3810.5 tokens/s, Running: 61 reqs, Waiting: 0 reqs, GPU KV cache usage: 38.2%, Prefix cache hit rate: 0.0%"])]
    log = runner_log(start=c + sec(16), job="benchmark-serving (a2-8)", steps=steps, result=None, step_s=280, version="2.331.0")
    pod = rpod(rn, c, "npu-a2-02", log=log)
    r = Runner(rn, c - sec(1), job="benchmark-serving (a2-8)", scale_set="linux-aarch64-a2-8")
    write_ci_bundle(CIBundle(c + mins(11), a2(), [pod], [r]), out)


def w_runner_just_finished(out: Path) -> None:
    """An EphemeralRunner whose job finished 20 s ago: pod Succeeded, phase Succeeded, the controller has not removed it yet."""
    c = at(2026, 12, 5, 7, 30)
    rn = "linux-aarch64-a2-1-kq7xv-runner-c9v1r"
    steps = [("actions/checkout@v4", CHECKOUT),
             ("bash .github/scripts/check_npu.sh", [
                 "检查 NPU 设备: /dev/davinci0 ... 正常",
                 "npu-smi info -t health -i 0: Healthy",
                 "无残留进程占用 NPU（0 个）"]),
             ("pytest -sv tests/ut/quantization", [
                 "collected 96 items",
                 "tests/ut/quantization/test_w8a8.py::test_quant_method_raises_on_bad_scale PASSED",
                 "tests/ut/quantization/test_w4a8_dynamic.py::test_apply_out_of_range XFAIL (expected: int4 overflow not clamped yet)",
                 "============= 95 passed, 1 xfailed, 14 warnings in 402.55s (0:06:42) ============="])]
    start = c + sec(16)
    log = runner_log(start=start, job="unit-test-quant (a2-1)", steps=steps, result="Succeeded", step_s=140, version="2.331.0")
    end = c + mins(9)
    pod = rpod(rn, c, "npu-a2-01", log=log, phase="Succeeded", state=k.terminated("Completed", 0, start, end))
    r = Runner(rn, c - sec(1), phase="Succeeded", job="unit-test-quant (a2-1)")
    write_ci_bundle(CIBundle(end + sec(20), a2(), [pod], [r]), out)



SCENARIOS: list[Scenario] = [
    Scenario("none-ci-upload-artifact-retry-finalized", "none", w_upload_retry_finalized,
             "An accuracy job passes; its upload-artifact step logs 'Attempt 1 of 5 failed with error: Request timeout: .../CreateArtifact. Retrying request in 3000 ms...', then uploads and finalizes the artifact. The job completed with result Succeeded.",
             S3 + " § 正常流程 (Pending → Running → Succeeded); a retried upload that finishes is not § 上传日志 / 产物失败",
             "pod/linux-aarch64-a2-1-kq7xv-runner-n5t2h", "none", namespace=NS, last_stage="containers-started", healthy=True),
    Scenario("none-ci-runner-ephemeral-work-volume-28s", "none", w_ephemeral_work_volume,
             "A runner pod 28 s old with an ephemeral 'work' volume: one FailedScheduling 'waiting for ephemeral volume controller to create the persistentvolumeclaim' at creation, Scheduled 3 s later, the claim provisioned and Bound, the volume attached, the container still ContainerCreating.",
             S3 + " § 正常流程 (Pending is the normal first phase); no failure yet",
             "pod/linux-aarch64-a2-1-kq7xv-runner-j8w3q", "none", namespace=NS, last_stage="scheduled", healthy=True),
    Scenario("none-ci-benchmark-zero-error-counters", "none", w_benchmark_zero_counters,
             "A serving benchmark 11 minutes into its run: round 1's summary shows 'Failed requests: 0', 'Timed-out requests: 0', 'oom_events=0, hccl_error_count=0', HCCL timeout variables are exported; round 2 is serving. Pod and runner Running.",
             S3 + " § 正常流程 (Running); counters at zero are not errors",
             "pod/linux-aarch64-a2-8-p2c6v-runner-y4k7s", "none", namespace=NS, last_stage="containers-started", healthy=True),
    Scenario("none-ci-ephemeralrunner-just-succeeded", "none", w_runner_just_finished,
             "An EphemeralRunner 20 s after its job completed with result Succeeded (zh_CN NPU check output, one XFAIL in the tests): pod Succeeded with exit 0, EphemeralRunner phase Succeeded, not yet removed by the controller.",
             S3 + " § 正常流程 (Succeeded 终态，pod 随后被移除)",
             "runner/linux-aarch64-a2-1-kq7xv-runner-c9v1r", "none", namespace=NS, healthy=True),
]
