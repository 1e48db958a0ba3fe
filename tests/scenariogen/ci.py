# ruff: noqa: E501  (verbatim error strings from the source document and kubelet are kept on one line)
"""CI-runner (GitHub ARC) scenario bundles: every `pod.*`, `ci.*` and `infra.*` case of the catalog.

Run `python -m tests.scenariogen.ci` from the repository root. It (re)writes
`tests/scenarios/{pod,ci,infra,healthy-ci}-*` and `examples/ci-runner-image-pull/`.
Output is deterministic: fixed clock, stable UIDs, no randomness.

Conventions used by these bundles (all quoted error strings come from the runner pod failure
case reference, seed 003, or are what kubelet / the tools print verbatim):

* snapshot.yaml lists one cluster directory `ci-cluster`; captured at 2026-11-20T08:00:00Z.
* Runner pods are named like ARC names them (`<scale-set>-<hash>-runner-<suffix>`, the same name as
  their EphemeralRunner), run the container `runner`, and are owned by the EphemeralRunner.
* "hook" jobs (`container:` in the workflow) run in a workflow pod `<runner-pod>-workflow` created by
  runner-container-hooks (label `runner-pod=<runner-pod>`, container `job`). The platform tees the
  step output of such jobs into the `job` container log; the runner log then carries the runner's
  own lines and hook errors. "direct" jobs run in the runner container and their step output is in
  the `runner` log.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import yaml

from tests.scenariogen.common import (
    BundleWriter,
    condition,
    container_status,
    event,
    meta,
    running,
    stable_uid,
    terminated,
    waiting,
)

Obj = dict[str, Any]

REPO_ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = REPO_ROOT / "tests" / "scenarios"
EXAMPLES = REPO_ROOT / "examples"

CAPTURED = datetime(2026, 11, 20, 8, 0, 0, tzinfo=UTC)
CAPTURED_S = "2026-11-20T08:00:00Z"
CLUSTER = "ci-cluster"
NS = "arc-runners"
NPU = "huawei.com/Ascend910"
NPU310 = "huawei.com/Ascend310P"
SWR = "swr.cn-southwest-2.myhuaweicloud.com"
RUNNER_IMAGE = f"{SWR}/ascend-ci/actions-runner:2.330.0"
ARC_VERSION = "0.13.1"
GITHUB_URL = "https://github.com/ascend-ci-org"
PREFIXES = ("pod-", "ci-", "infra-", "healthy-ci-")


# ---------------------------------------------------------------------------------------------
# time


def t(minutes_before: float) -> str:
    """RFC3339 timestamp `minutes_before` minutes before capture."""
    return (CAPTURED - timedelta(minutes=minutes_before)).strftime("%Y-%m-%dT%H:%M:%SZ")


def _dt(minutes_before: float) -> datetime:
    return CAPTURED - timedelta(minutes=minutes_before)


def rlog(minutes_before: float, text: str) -> str:
    """A runner listener line: `2026-11-20 07:12:03Z: Running job: ...`."""
    return _dt(minutes_before).strftime("%Y-%m-%d %H:%M:%SZ") + ": " + text


def runner_intro(minutes_before: float, version: str = "2.330.0") -> list[str]:
    return [
        "",
        "√ Connected to GitHub",
        "",
        f"Current runner version: '{version}'",
        rlog(minutes_before, "Listening for Jobs"),
    ]


def runner_outro(minutes_before: float, job: str, result: str) -> list[str]:
    return [
        rlog(minutes_before, f"Job {job} completed with result: {result}"),
        "√ Removed .credentials",
        "√ Removed .runner",
    ]


def steplog(start_minutes_before: float, lines: Iterable[str | tuple[float, str]]) -> list[str]:
    """GitHub job-log style lines with timestamps.

    A plain string advances the clock by 0.4 s; a `(seconds, text)` tuple jumps to `seconds`
    after the start, which is how gaps in the output are expressed.
    """
    start = _dt(start_minutes_before)
    out: list[str] = []
    offset = 0.0
    for i, item in enumerate(lines):
        if isinstance(item, tuple):
            offset, text = float(item[0]), item[1]
        else:
            offset += 0.4
            text = item
        ts = start + timedelta(seconds=offset)
        out.append(ts.strftime("%Y-%m-%dT%H:%M:%S") + f".{ts.microsecond:06d}{(i * 7) % 10}Z {text}")
    return out


def text(lines: Iterable[str]) -> str:
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# nodes

NODE_POOLS: list[tuple[str, str, int, dict[str, str], dict[str, str]]] = [
    # (name prefix, arch, count, extra labels, capacity extras)
    (
        "npu-a2",
        "arm64",
        3,
        {"ascend-ci/npu-type": "a2", "accelerator": "huawei-Ascend910B"},
        {"cpu": "192", "memory": "1584Gi", NPU: "8"},
    ),
    (
        "npu-a3",
        "arm64",
        3,
        {"ascend-ci/npu-type": "a3", "accelerator": "huawei-Ascend910C", "karpenter.sh/nodepool": "npu-a3"},
        {"cpu": "320", "memory": "1584Gi", NPU: "16"},
    ),
    (
        "npu-310p",
        "arm64",
        2,
        {"ascend-ci/npu-type": "310p", "accelerator": "huawei-Ascend310P"},
        {"cpu": "64", "memory": "256Gi", NPU310: "4"},
    ),
    ("cpu-x86", "amd64", 2, {"ascend-ci/pool": "cpu-x86"}, {"cpu": "32", "memory": "128Gi"}),
    ("cpu-arm", "arm64", 2, {"ascend-ci/pool": "cpu-arm"}, {"cpu": "32", "memory": "128Gi"}),
]


def node_name(prefix: str, i: int) -> str:
    return f"{prefix}-{i:02d}"


def make_node(
    name: str,
    arch: str,
    labels: dict[str, str],
    capacity: dict[str, str],
    *,
    ready: str = "True",
    unschedulable: bool = False,
    created: str = "2026-06-02T03:14:00Z",
    annotations: dict[str, str] | None = None,
) -> Obj:
    all_labels = {
        "kubernetes.io/arch": arch,
        "kubernetes.io/os": "linux",
        "kubernetes.io/hostname": name,
        "beta.kubernetes.io/arch": arch,
        "beta.kubernetes.io/os": "linux",
        "topology.kubernetes.io/region": "cn-southwest-2",
        **labels,
    }
    cap = {"ephemeral-storage": "3748223664Ki", "hugepages-1Gi": "0", "hugepages-2Mi": "0", "pods": "110", **capacity}
    alloc = dict(cap)
    if "cpu" in alloc:
        alloc["cpu"] = str(int(alloc["cpu"]) - 2)
    heartbeat = t(0.5)
    if ready == "True":
        conds = [
            condition(
                "MemoryPressure",
                "False",
                "2026-11-01T02:00:00Z",
                "KubeletHasSufficientMemory",
                "kubelet has sufficient memory available",
            ),
            condition(
                "DiskPressure",
                "False",
                "2026-11-01T02:00:00Z",
                "KubeletHasNoDiskPressure",
                "kubelet has no disk pressure",
            ),
            condition(
                "PIDPressure",
                "False",
                "2026-11-01T02:00:00Z",
                "KubeletHasSufficientPID",
                "kubelet has sufficient PID available",
            ),
            condition("Ready", "True", "2026-11-01T02:00:00Z", "KubeletReady", "kubelet is posting ready status"),
        ]
    else:
        conds = [
            condition(c, "Unknown", t(38), "NodeStatusUnknown", "Kubelet stopped posting node status.")
            for c in ("MemoryPressure", "DiskPressure", "PIDPressure", "Ready")
        ]
        heartbeat = t(41)
    for c in conds:
        c["lastHeartbeatTime"] = heartbeat
        c.pop("lastProbeTime", None)
    spec: Obj = {"podCIDR": "", "providerID": f"huaweicloud://{stable_uid('node', name)}"}
    taints = []
    if unschedulable:
        spec["unschedulable"] = True
        taints.append({"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule", "timeAdded": t(300)})
    if ready != "True":
        taints.append({"key": "node.kubernetes.io/unreachable", "effect": "NoSchedule", "timeAdded": t(38)})
        taints.append({"key": "node.kubernetes.io/unreachable", "effect": "NoExecute", "timeAdded": t(37)})
    if taints:
        spec["taints"] = taints
    tail = name.rsplit("-", 1)[1]
    idx = int(tail) if tail.isdigit() else 99
    subnet = {"npu-a2": 21, "npu-a3": 31, "npu-310p": 41, "cpu-x86": 51, "cpu-arm": 61}.get(name.rsplit("-", 1)[0], 71)
    return {
        "kind": "Node",
        "apiVersion": "v1",
        "metadata": meta(
            name,
            None,
            created=created,
            labels=all_labels,
            annotations={
                "node.alpha.kubernetes.io/ttl": "0",
                "volumes.kubernetes.io/controller-managed-attach-detach": "true",
                **(annotations or {}),
            },
        ),
        "spec": spec,
        "status": {
            "capacity": cap,
            "allocatable": alloc,
            "conditions": conds,
            "addresses": [
                {"type": "InternalIP", "address": f"192.168.{subnet}.{10 + idx}"},
                {"type": "Hostname", "address": name},
            ],
            "nodeInfo": {
                "architecture": arch,
                "operatingSystem": "linux",
                "osImage": "EulerOS 2.0 (SP10)",
                "kernelVersion": "4.19.90-vhulk2211.3.0.h1543.eulerosv2r10.aarch64"
                if arch == "arm64"
                else "4.19.90-vhulk2211.3.0.h1543.eulerosv2r10.x86_64",
                "containerRuntimeVersion": "containerd://1.7.22",
                "kubeletVersion": "v1.31.6",
                "kubeProxyVersion": "v1.31.6",
                "machineID": stable_uid("machine", name).replace("-", ""),
                "systemUUID": stable_uid("sys", name),
                "bootID": stable_uid("boot", name),
            },
        },
    }


def standard_nodes(overrides: dict[str, dict[str, Any]] | None = None) -> list[Obj]:
    """12 nodes: 3 a2, 3 a3, 2 310P, 2 x86 CPU, 2 arm CPU. `overrides[name]` -> make_node kwargs."""
    overrides = overrides or {}
    out = []
    for prefix, arch, count, labels, cap in NODE_POOLS:
        for i in range(1, count + 1):
            name = node_name(prefix, i)
            out.append(make_node(name, arch, labels, cap, **overrides.get(name, {})))
    return out


def node_arch(name: str) -> str:
    return "amd64" if name.startswith("cpu-x86") else "arm64"


# ---------------------------------------------------------------------------------------------
# pods


def pod_uid(name: str) -> str:
    return stable_uid(NS, name)


def er_uid(name: str) -> str:
    return stable_uid(NS, "EphemeralRunner", name)


def runner_name(scale_set: str, h: str, suffix: str) -> str:
    return f"{scale_set}-{h}-runner-{suffix}"


def scale_set_of(runner: str) -> str:
    return runner.split("-runner-")[0].rsplit("-", 1)[0]


def selector_for(scale_set: str) -> dict[str, str]:
    if "-a2-" in scale_set:
        return {"ascend-ci/npu-type": "a2"}
    if "-a3-" in scale_set:
        return {"ascend-ci/npu-type": "a3"}
    if "-310p-" in scale_set:
        return {"ascend-ci/npu-type": "310p"}
    if "amd64" in scale_set:
        return {"ascend-ci/pool": "cpu-x86"}
    return {"ascend-ci/pool": "cpu-arm"}


def npu_count(scale_set: str) -> int:
    tail = scale_set.rsplit("-", 1)[-1]
    return int(tail) if tail.isdigit() and "cpu" not in scale_set else 0


def npu_resource(scale_set: str) -> str:
    return NPU310 if "-310p-" in scale_set else NPU


def env(name: str, value: str) -> Obj:
    return {"name": name, "value": value}


def runner_container(
    *,
    image: str = RUNNER_IMAGE,
    hook: bool,
    novolume: bool = False,
    resources: Obj | None = None,
    extra_env: list[Obj] | None = None,
    command: list[str] | None = None,
    mounts: list[Obj] | None = None,
) -> Obj:
    envs = [
        {
            "name": "ACTIONS_RUNNER_POD_NAME",
            "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}},
        }
    ]
    if hook:
        hook_dir = "k8s-novolume" if novolume else "k8s"
        envs += [
            env("ACTIONS_RUNNER_CONTAINER_HOOKS", f"/home/runner/{hook_dir}/index.js"),
            env("ACTIONS_RUNNER_REQUIRE_JOB_CONTAINER", "true"),
            env("ACTIONS_RUNNER_CONTAINER_HOOK_TEMPLATE", "/home/runner/pod-templates/npu.yaml"),
        ]
        if not novolume:
            envs.append({"name": "ACTIONS_RUNNER_CLAIM_NAME", "value": "$(ACTIONS_RUNNER_POD_NAME)-work"})
    envs += extra_env or []
    vm = [{"name": "work", "mountPath": "/home/runner/_work"}] if not novolume else []
    vm += [{"name": "pod-templates", "mountPath": "/home/runner/pod-templates", "readOnly": True}] if hook else []
    vm += mounts or []
    return {
        "name": "runner",
        "image": image,
        "imagePullPolicy": "IfNotPresent",
        "command": command or ["/home/runner/run.sh"],
        "env": envs,
        "resources": resources
        or {"limits": {"cpu": "2", "memory": "4Gi"}, "requests": {"cpu": "500m", "memory": "1Gi"}},
        "volumeMounts": vm,
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "File",
    }


def conds_pending_unschedulable(created: str, message: str) -> list[Obj]:
    return [condition("PodScheduled", "False", created, "Unschedulable", message)]


def conds_creating(created: str, scheduled: str, *, initialized: bool = True) -> list[Obj]:
    return [
        condition("PodReadyToStartContainers", "True" if initialized else "False", scheduled),
        condition(
            "Initialized",
            "True" if initialized else "False",
            scheduled,
            "" if initialized else "ContainersNotInitialized",
            "" if initialized else "containers with incomplete status: [init-work]",
        ),
        condition("Ready", "False", scheduled, "ContainersNotReady", "containers with unready status: [{c}]"),
        condition("ContainersReady", "False", scheduled, "ContainersNotReady", "containers with unready status: [{c}]"),
        condition("PodScheduled", "True", created),
    ]


def conds_running(created: str, scheduled: str, started: str) -> list[Obj]:
    return [
        condition("PodReadyToStartContainers", "True", scheduled),
        condition("Initialized", "True", scheduled),
        condition("Ready", "True", started),
        condition("ContainersReady", "True", started),
        condition("PodScheduled", "True", created),
    ]


def conds_finished(created: str, scheduled: str, finished: str, reason: str = "PodFailed") -> list[Obj]:
    return [
        condition("PodReadyToStartContainers", "False", finished),
        condition("Initialized", "True", scheduled),
        condition("Ready", "False", finished, reason),
        condition("ContainersReady", "False", finished, reason),
        condition("PodScheduled", "True", created),
    ]


def _fill(conds: list[Obj], cname: str) -> list[Obj]:
    for c in conds:
        if "message" in c:
            c["message"] = c["message"].replace("{c}", cname)
    return conds


def make_pod(
    name: str,
    *,
    created: str,
    containers: list[Obj],
    statuses: list[Obj],
    phase: str,
    conditions: list[Obj],
    node: str | None = None,
    labels: dict[str, str] | None = None,
    annotations: dict[str, str] | None = None,
    owner: Obj | None = None,
    node_selector: dict[str, str] | None = None,
    volumes: list[Obj] | None = None,
    init_containers: list[Obj] | None = None,
    init_statuses: list[Obj] | None = None,
    start_time: str | None = None,
    reason: str | None = None,
    message: str | None = None,
    image_pull_secrets: list[str] | None = None,
    service_account: str | None = None,
    extra_spec: Obj | None = None,
    extra_status: Obj | None = None,
    deletion: str | None = None,
) -> Obj:
    m = meta(name, NS, created=created, labels=labels, annotations=annotations, uid=pod_uid(name))
    if owner:
        m["ownerReferences"] = [owner]
    if deletion:
        m["deletionTimestamp"] = deletion
        m["deletionGracePeriodSeconds"] = 30
    spec: Obj = {
        "restartPolicy": "Never",
        "terminationGracePeriodSeconds": 30,
        "dnsPolicy": "ClusterFirst",
        "schedulerName": "default-scheduler",
        "serviceAccountName": service_account or "default",
        "securityContext": {"fsGroup": 1001},
        "tolerations": [
            {
                "key": "node.kubernetes.io/not-ready",
                "operator": "Exists",
                "effect": "NoExecute",
                "tolerationSeconds": 300,
            },
            {
                "key": "node.kubernetes.io/unreachable",
                "operator": "Exists",
                "effect": "NoExecute",
                "tolerationSeconds": 300,
            },
        ],
        "containers": containers,
    }
    if init_containers:
        spec["initContainers"] = init_containers
    if node_selector:
        spec["nodeSelector"] = node_selector
    if node:
        spec["nodeName"] = node
    if volumes:
        spec["volumes"] = volumes
    if image_pull_secrets:
        spec["imagePullSecrets"] = [{"name": s} for s in image_pull_secrets]
    spec.update(extra_spec or {})
    cname = containers[0]["name"]
    status: Obj = {"phase": phase, "conditions": _fill(conditions, cname), "qosClass": "Burstable"}
    if node:
        status["hostIP"] = _node_ip(node)
        status["hostIPs"] = [{"ip": _node_ip(node)}]
        if phase in ("Running", "Succeeded", "Failed") or statuses:
            ip = f"172.16.{abs(hash_int(name)) % 200 + 10}.{abs(hash_int(name + 'x')) % 250 + 2}"
            status["podIP"] = ip
            status["podIPs"] = [{"ip": ip}]
    if start_time:
        status["startTime"] = start_time
    if statuses:
        status["containerStatuses"] = statuses
    if init_statuses:
        status["initContainerStatuses"] = init_statuses
    if reason:
        status["reason"] = reason
    if message:
        status["message"] = message
    status.update(extra_status or {})
    return {"kind": "Pod", "apiVersion": "v1", "metadata": m, "spec": spec, "status": status}


def hash_int(s: str) -> int:
    return int(stable_uid("h", s).replace("-", "")[:8], 16)


def _node_ip(node: str) -> str:
    try:
        prefix, idx = node.rsplit("-", 1)
        subnet = {"npu-a2": 21, "npu-a3": 31, "npu-310p": 41, "cpu-x86": 51, "cpu-arm": 61}[prefix]
        return f"192.168.{subnet}.{10 + int(idx)}"
    except (KeyError, ValueError):
        return "10.0.0.2"


def runner_labels(runner: str) -> dict[str, str]:
    ss = scale_set_of(runner)
    return {
        "actions-ephemeral-runner": "True",
        "actions.github.com/organization": "ascend-ci-org",
        "actions.github.com/scale-set-name": ss,
        "actions.github.com/scale-set-namespace": NS,
        "app.kubernetes.io/component": "runner",
        "app.kubernetes.io/part-of": "gha-runner-scale-set",
        "app.kubernetes.io/version": ARC_VERSION,
        "pod-template-hash": stable_uid("tmpl", ss)[:10].replace("-", ""),
    }


def runner_annotations(runner: str) -> dict[str, str]:
    ss = scale_set_of(runner)
    return {
        "actions.github.com/patch-id": "0",
        "actions.github.com/runner-group-name": "Default",
        "actions.github.com/runner-scale-set-name": ss,
        "actions.github.com/runner-spec-hash": stable_uid("spec", ss)[:12].replace("-", ""),
    }


def er_owner(runner: str) -> Obj:
    return {
        "apiVersion": "actions.github.com/v1alpha1",
        "kind": "EphemeralRunner",
        "name": runner,
        "uid": er_uid(runner),
        "controller": True,
        "blockOwnerDeletion": True,
    }


def runner_volumes(runner: str, *, hook: bool, novolume: bool = False, extra: list[Obj] | None = None) -> list[Obj]:
    vols: list[Obj] = []
    if not novolume:
        vols.append(
            {
                "name": "work",
                "ephemeral": {
                    "volumeClaimTemplate": {
                        "spec": {
                            "accessModes": ["ReadWriteOnce"],
                            "storageClassName": "csi-disk-ssd",
                            "resources": {"requests": {"storage": "100Gi"}},
                        }
                    }
                },
            }
        )
    if hook:
        vols.append({"name": "pod-templates", "configMap": {"name": "npu-pod-templates", "defaultMode": 420}})
    return vols + (extra or [])


def runner_pod(
    runner: str,
    *,
    created: str,
    phase: str,
    statuses: list[Obj],
    conditions: list[Obj],
    node: str | None,
    hook: bool,
    novolume: bool = False,
    start_time: str | None = None,
    image: str = RUNNER_IMAGE,
    resources: Obj | None = None,
    node_selector: dict[str, str] | None = None,
    extra_env: list[Obj] | None = None,
    command: list[str] | None = None,
    volumes_extra: list[Obj] | None = None,
    mounts: list[Obj] | None = None,
    reason: str | None = None,
    message: str | None = None,
    extra_spec: Obj | None = None,
    deletion: str | None = None,
    extra_status: Obj | None = None,
) -> Obj:
    ss = scale_set_of(runner)
    if resources is None and not hook and npu_count(ss):
        n = str(npu_count(ss))
        res = npu_resource(ss)
        resources = {
            "limits": {"cpu": str(23 * npu_count(ss)), "memory": f"{96 * npu_count(ss)}Gi", res: n},
            "requests": {"cpu": str(20 * npu_count(ss)), "memory": f"{64 * npu_count(ss)}Gi", res: n},
        }
    return make_pod(
        runner,
        created=created,
        phase=phase,
        statuses=statuses,
        conditions=conditions,
        node=node,
        labels=runner_labels(runner),
        annotations=runner_annotations(runner),
        owner=er_owner(runner),
        node_selector=node_selector if node_selector is not None else selector_for(ss),
        containers=[
            runner_container(
                image=image,
                hook=hook,
                novolume=novolume,
                resources=resources,
                extra_env=extra_env,
                command=command,
                mounts=mounts,
            )
        ],
        volumes=runner_volumes(runner, hook=hook, novolume=novolume, extra=volumes_extra),
        start_time=start_time,
        reason=reason,
        message=message,
        service_account=f"{ss}-gha-rs-kube-mode",
        extra_spec=extra_spec,
        deletion=deletion,
        extra_status=extra_status,
    )


def workflow_pod(
    runner: str,
    *,
    image: str,
    created: str,
    phase: str,
    statuses: list[Obj],
    conditions: list[Obj],
    node: str | None,
    start_time: str | None = None,
    resources: Obj | None = None,
    extra_volumes: list[Obj] | None = None,
    extra_mounts: list[Obj] | None = None,
    env_from: list[Obj] | None = None,
    post_start: str | None = None,
    node_selector: dict[str, str] | None = None,
    novolume: bool = False,
    image_pull_secrets: list[str] | None = None,
    reason: str | None = None,
    message: str | None = None,
    deletion: str | None = None,
    extra_env: list[Obj] | None = None,
) -> Obj:
    ss = scale_set_of(runner)
    n = npu_count(ss)
    if resources is None:
        res = npu_resource(ss)
        resources = (
            {
                "limits": {"cpu": str(23 * n), "memory": f"{96 * n}Gi", res: str(n)},
                "requests": {"cpu": str(20 * n), "memory": f"{64 * n}Gi", res: str(n)},
            }
            if n
            else {"limits": {"cpu": "8", "memory": "32Gi"}, "requests": {"cpu": "4", "memory": "16Gi"}}
        )
    mounts = (
        []
        if novolume
        else [
            {"name": "work", "mountPath": "/__w", "subPath": ""},
            {"name": "work", "mountPath": "/__e", "subPath": "externals"},
            {"name": "work", "mountPath": "/github/home", "subPath": "_temp/_github_home"},
            {"name": "work", "mountPath": "/github/workflow", "subPath": "_temp/_github_workflow"},
        ]
    )
    mounts += [{"name": "dshm", "mountPath": "/dev/shm"}] + (extra_mounts or [])
    container: Obj = {
        "name": "job",
        "image": image,
        "imagePullPolicy": "IfNotPresent",
        "command": ["tail"],
        "args": ["-f", "/dev/null"],
        "env": [
            env("GITHUB_ACTIONS", "true"),
            env("CI", "true"),
            env("HF_HUB_OFFLINE", "1"),
            env("HF_ENDPOINT", "https://hf-mirror.ci.internal"),
        ]
        + (extra_env or []),
        "resources": resources,
        "volumeMounts": mounts,
        "workingDir": "/__w",
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "File",
    }
    if env_from:
        container["envFrom"] = env_from
    if post_start:
        container["lifecycle"] = {"postStart": {"exec": {"command": ["/bin/sh", "-c", post_start]}}}
    vols: list[Obj] = [] if novolume else [{"name": "work", "persistentVolumeClaim": {"claimName": f"{runner}-work"}}]
    vols += [{"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "1Gi"}}] + (extra_volumes or [])
    name = f"{runner}-workflow"
    return make_pod(
        name,
        created=created,
        phase=phase,
        statuses=statuses,
        conditions=conditions,
        node=node,
        labels={"runner-pod": runner},
        annotations={"actions.github.com/runner-pod": runner},
        node_selector=node_selector if node_selector is not None else selector_for(ss),
        containers=[container],
        volumes=vols,
        start_time=start_time,
        image_pull_secrets=image_pull_secrets,
        service_account=f"{ss}-gha-rs-kube-mode",
        reason=reason,
        message=message,
        deletion=deletion,
    )


def work_pvc(runner: str, created: str) -> Obj:
    name = f"{runner}-work"
    m = meta(
        name,
        NS,
        created=created,
        labels={"runner-pod": runner},
        annotations={
            "pv.kubernetes.io/bind-completed": "yes",
            "volume.kubernetes.io/storage-provisioner": "everest-csi-provisioner",
        },
    )
    m["ownerReferences"] = [
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "name": runner,
            "uid": pod_uid(runner),
            "controller": True,
            "blockOwnerDeletion": True,
        }
    ]
    return {
        "kind": "PersistentVolumeClaim",
        "apiVersion": "v1",
        "metadata": m,
        "spec": {
            "accessModes": ["ReadWriteOnce"],
            "storageClassName": "csi-disk-ssd",
            "resources": {"requests": {"storage": "100Gi"}},
            "volumeMode": "Filesystem",
            "volumeName": "pvc-" + stable_uid("pv", name),
        },
        "status": {"phase": "Bound", "accessModes": ["ReadWriteOnce"], "capacity": {"storage": "100Gi"}},
    }


def pvc(
    name: str,
    created: str,
    *,
    phase: str = "Bound",
    storage_class: str | None = "sfs-turbo-ci",
    size: str = "2Ti",
    access: str = "ReadWriteMany",
) -> Obj:
    spec: Obj = {"accessModes": [access], "resources": {"requests": {"storage": size}}, "volumeMode": "Filesystem"}
    if storage_class is not None:
        spec["storageClassName"] = storage_class
    st: Obj = {"phase": phase}
    if phase == "Bound":
        spec["volumeName"] = "pvc-" + stable_uid("pv", name)
        st.update({"accessModes": [access], "capacity": {"storage": size}})
    return {
        "kind": "PersistentVolumeClaim",
        "apiVersion": "v1",
        "metadata": meta(name, NS, created=created),
        "spec": spec,
        "status": st,
    }


# ---------------------------------------------------------------------------------------------
# ARC, Karpenter, Liqo


def ephemeral_runner(
    runner: str,
    *,
    created: str,
    phase: str | None,
    reason: str = "",
    message: str = "",
    failures: dict[str, str] | None = None,
    job: Obj | None = None,
    runner_id: int | None = None,
    ready: bool | None = None,
    deletion: str | None = None,
) -> Obj:
    ss = scale_set_of(runner)
    m = meta(
        runner,
        NS,
        created=created,
        uid=er_uid(runner),
        labels={
            "actions.github.com/organization": "ascend-ci-org",
            "actions.github.com/scale-set-name": ss,
            "actions.github.com/scale-set-namespace": NS,
            "app.kubernetes.io/component": "runner",
            "app.kubernetes.io/part-of": "gha-runner-scale-set",
            "app.kubernetes.io/version": ARC_VERSION,
        },
        annotations={
            "actions.github.com/patch-id": "0",
            "actions.github.com/runner-group-name": "Default",
            "actions.github.com/runner-scale-set-name": ss,
        },
    )
    m["finalizers"] = [
        "ephemeralrunner.actions.github.com/finalizer",
        "ephemeralrunner.actions.github.com/runner-registration-finalizer",
    ]
    ers_name = f"{ss}-{runner.split('-runner-')[0].rsplit('-', 1)[1]}"
    m["ownerReferences"] = [
        {
            "apiVersion": "actions.github.com/v1alpha1",
            "kind": "EphemeralRunnerSet",
            "name": ers_name,
            "uid": stable_uid(NS, "EphemeralRunnerSet", ers_name),
            "controller": True,
            "blockOwnerDeletion": True,
        }
    ]
    if deletion:
        m["deletionTimestamp"] = deletion
    status: Obj = {}
    if phase:
        status["phase"] = phase
    if reason:
        status["reason"] = reason
    if message:
        status["message"] = message
    if failures:
        status["failures"] = failures
    if ready is not None:
        status["ready"] = ready
    if runner_id is not None:
        status["runnerId"] = runner_id
        status["runnerName"] = runner
    if job:
        status.update(job)
    return {
        "apiVersion": "actions.github.com/v1alpha1",
        "kind": "EphemeralRunner",
        "metadata": m,
        "spec": {
            "githubConfigUrl": GITHUB_URL,
            "githubConfigSecret": f"{ss}-gha-rs-github-secret",
            "runnerScaleSetId": 40 + hash_int(ss) % 50,
            "metadata": {"labels": {"app.kubernetes.io/component": "runner"}},
            "spec": {
                "containers": [{"name": "runner", "image": RUNNER_IMAGE, "command": ["/home/runner/run.sh"]}],
                "restartPolicy": "Never",
                "nodeSelector": selector_for(ss),
            },
        },
        "status": status,
    }


def job_status(repo: str, run_id: int, request_id: int, display: str, workflow: str) -> Obj:
    return {
        "jobRequestId": request_id,
        "jobRepositoryName": repo,
        "workflowRunId": run_id,
        "jobDisplayName": display,
        "jobWorkflowRef": f"{repo}/.github/workflows/{workflow}@refs/heads/main",
        "jobId": stable_uid("job", str(request_id)),
    }


def kcond(ctype: str, status: str, when: str, reason: str, message: str = "", gen: int = 1) -> Obj:
    return {
        "type": ctype,
        "status": status,
        "lastTransitionTime": when,
        "reason": reason,
        "message": message,
        "observedGeneration": gen,
    }


def nodepool(
    name: str,
    *,
    npu_type: str,
    healthy: bool,
    created: str = "2026-09-10T06:00:00Z",
    unhealthy_since: str = "",
    nodes: int = 0,
) -> Obj:
    ok = "2026-09-10T06:01:12Z"
    if healthy:
        conds = [
            kcond("ValidationSucceeded", "True", ok, "ValidationSucceeded"),
            kcond("NodeClassReady", "True", ok, "NodeClassReady"),
            kcond("NodeRegistrationHealthy", "True", ok, "NodeRegistrationHealthy"),
            kcond("Ready", "True", ok, "Ready"),
        ]
    else:
        conds = [
            kcond("ValidationSucceeded", "True", ok, "ValidationSucceeded"),
            kcond("NodeClassReady", "True", ok, "NodeClassReady"),
            kcond(
                "NodeRegistrationHealthy",
                "False",
                unhealthy_since,
                "Unhealthy",
                "Failed to launch node after nodepool was updated: InsufficientCapacityError: "
                "no instance type available in cn-southwest-2a for the requirements",
            ),
            kcond("Ready", "False", unhealthy_since, "UnhealthyDependents", "NodeRegistrationHealthy=False"),
        ]
    per = 16 if npu_type == "a3" else 8
    return {
        "apiVersion": "karpenter.sh/v1",
        "kind": "NodePool",
        "metadata": {
            **meta(name, None, created=created),
            "generation": 1,
            "annotations": {
                "karpenter.sh/nodepool-hash": str(hash_int(name)),
                "karpenter.sh/nodepool-hash-version": "v3",
            },
        },
        "spec": {
            "template": {
                "metadata": {
                    "labels": {
                        "ascend-ci/npu-type": npu_type,
                        "accelerator": "huawei-Ascend910C" if npu_type == "a3" else "huawei-Ascend910B",
                    }
                },
                "spec": {
                    "nodeClassRef": {
                        "group": "karpenter.k8s.huaweicloud.com",
                        "kind": "HuaweiCloudNodeClass",
                        "name": f"{name}-class",
                    },
                    "requirements": [
                        {"key": "kubernetes.io/arch", "operator": "In", "values": ["arm64"]},
                        {
                            "key": "node.kubernetes.io/instance-type",
                            "operator": "In",
                            "values": [f"physical.kat2e.48xlarge.{per}.{npu_type}"],
                        },
                        {"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["cn-southwest-2a"]},
                        {"key": "karpenter.sh/capacity-type", "operator": "In", "values": ["on-demand"]},
                    ],
                    "expireAfter": "720h",
                },
            },
            "disruption": {
                "consolidationPolicy": "WhenEmpty",
                "consolidateAfter": "30m",
                "budgets": [{"nodes": "10%"}],
            },
            "limits": {NPU: "128"},
        },
        "status": {
            "conditions": conds,
            "nodeClassObservedGeneration": 1,
            "resources": {
                "cpu": str(320 * nodes),
                "memory": f"{1584 * nodes}Gi",
                NPU: str(per * nodes),
                "nodes": str(nodes),
                "pods": str(110 * nodes),
            },
        },
    }


def nodeclaim(name: str, pool: str, *, created: str, launched: bool, message: str = "", node: str | None = None) -> Obj:
    if launched:
        conds = [kcond(c, "True", created, c) for c in ("Launched", "Registered", "Initialized", "Ready")]
        st: Obj = {
            "conditions": conds,
            "nodeName": node,
            "providerID": f"huaweicloud://{stable_uid('node', node or '')}",
            "capacity": {"cpu": "320", "memory": "1584Gi", NPU: "16"},
        }
    else:
        conds = [
            kcond("Launched", "False", created, "LaunchFailed", message),
            kcond("Registered", "Unknown", created, "AwaitingReconciliation", "object is awaiting reconciliation"),
            kcond("Initialized", "Unknown", created, "AwaitingReconciliation", "object is awaiting reconciliation"),
            kcond("Ready", "False", created, "UnhealthyDependents", "Launched=False"),
        ]
        st = {"conditions": conds}
    return {
        "apiVersion": "karpenter.sh/v1",
        "kind": "NodeClaim",
        "metadata": {
            **meta(name, None, created=created, labels={"karpenter.sh/nodepool": pool, "kubernetes.io/arch": "arm64"}),
            "ownerReferences": [
                {
                    "apiVersion": "karpenter.sh/v1",
                    "kind": "NodePool",
                    "name": pool,
                    "uid": stable_uid("", pool),
                    "blockOwnerDeletion": True,
                }
            ],
        },
        "spec": {
            "nodeClassRef": {
                "group": "karpenter.k8s.huaweicloud.com",
                "kind": "HuaweiCloudNodeClass",
                "name": f"{pool}-class",
            },
            "requirements": [
                {"key": "karpenter.sh/nodepool", "operator": "In", "values": [pool]},
                {
                    "key": "node.kubernetes.io/instance-type",
                    "operator": "In",
                    "values": ["physical.kat2e.48xlarge.16.a3"],
                },
            ],
            "resources": {"requests": {"cpu": "160", "memory": "768Gi", NPU: "16", "pods": "3"}},
            "expireAfter": "720h",
        },
        "status": st,
    }


# ---------------------------------------------------------------------------------------------
# scenario container


class Scenario:
    def __init__(self, name: str, description: str, target: str) -> None:
        self.name = name
        self.description = description
        self.target = target
        self.expect: Obj = {}
        self.nodes: list[Obj] = standard_nodes()
        self.pods: list[Obj] = []
        self.events: list[Obj] = []
        self.default_events: list[Obj] | None = None
        self.pvcs: list[Obj] | None = None
        self.ers: list[Obj] | None = None
        self.nodepools: list[Obj] | None = None
        self.nodeclaims: list[Obj] | None = None
        self.offloadings: list[Obj] | None = None
        self.logs: dict[str, dict[str, str]] = {}
        self.prev_logs: dict[str, dict[str, str]] = {}
        self.captured = CAPTURED_S

    # -- events -------------------------------------------------------------------------------
    def ev(
        self,
        obj: str,
        reason: str,
        message: str,
        first: float,
        last: float | None = None,
        *,
        warn: bool = False,
        count: int = 1,
        component: str = "kubelet",
        host: str = "",
        kind: str = "Pod",
        uid: str | None = None,
    ) -> None:
        self.events.append(
            event(
                NS,
                kind=kind,
                name=obj,
                uid=uid or (pod_uid(obj) if kind == "Pod" else stable_uid(NS, kind, obj)),
                reason=reason,
                message=message,
                first=t(first),
                last=t(last if last is not None else first),
                etype="Warning" if warn else "Normal",
                count=count,
                component=component,
                host=host,
            )
        )

    def scheduled(self, pod: str, node: str, at: float) -> None:
        self.ev(pod, "Scheduled", f"Successfully assigned {NS}/{pod} to {node}", at, component="default-scheduler")

    def started(self, pod: str, node: str, image: str, at: float, container: str, *, pull_secs: float = 0) -> None:
        if pull_secs:
            self.ev(pod, "Pulling", f'Pulling image "{image}"', at, host=node)
            d = f"{int(pull_secs // 60)}m{pull_secs % 60:.3f}s" if pull_secs >= 60 else f"{pull_secs:.3f}s"
            self.ev(
                pod,
                "Pulled",
                f'Successfully pulled image "{image}" in {d} ({d} including waiting). '
                f"Image size: {1843210000 + hash_int(image) % 900000000} bytes.",
                at - pull_secs / 60,
                host=node,
            )
        else:
            self.ev(pod, "Pulled", f'Container image "{image}" already present on machine', at, host=node)
        self.ev(pod, "Created", f"Created container: {container}", at - 0.02, host=node)
        self.ev(pod, "Started", f"Started container {container}", at - 0.03, host=node)

    # -- output --------------------------------------------------------------------------------
    def write(self, root: Path, *, with_expect: bool = True) -> None:
        bundle = root / "bundle" if with_expect else root
        # Only remove what this generator writes: other files next to an example (README, TARGET used by
        # the demo scripts) belong to their authors.
        for stale in (bundle / CLUSTER, bundle / "snapshot.yaml", root / "expect.yaml"):
            if stale.is_dir():
                shutil.rmtree(stale)
            elif stale.exists():
                stale.unlink()
        w = BundleWriter(bundle)
        w.snapshot_yaml(self.captured, None, [CLUSTER])
        c = CLUSTER
        w.write_list(f"{c}/nodes.json", "NodeList", self.nodes)
        w.write_list(f"{c}/{NS}/pods.json", "PodList", self.pods)
        w.write_list(f"{c}/{NS}/events.json", "EventList", sorted(self.events, key=_event_key))
        if self.default_events is not None:
            w.write_list(f"{c}/default/events.json", "EventList", sorted(self.default_events, key=_event_key))
        if self.pvcs is not None:
            w.write_list(f"{c}/{NS}/persistentvolumeclaims.json", "PersistentVolumeClaimList", self.pvcs)
        if self.ers is not None:
            w.write_list(
                f"{c}/{NS}/ephemeralrunners.actions.github.com.json",
                "EphemeralRunnerList",
                self.ers,
                "actions.github.com/v1alpha1",
            )
        if self.nodepools is not None:
            w.write_list(f"{c}/nodepools.karpenter.sh.json", "NodePoolList", self.nodepools, "karpenter.sh/v1")
        if self.nodeclaims is not None:
            w.write_list(f"{c}/nodeclaims.karpenter.sh.json", "NodeClaimList", self.nodeclaims, "karpenter.sh/v1")
        if self.offloadings is not None:
            w.write_list(
                f"{c}/{NS}/namespaceoffloadings.offloading.liqo.io.json",
                "NamespaceOffloadingList",
                self.offloadings,
                "offloading.liqo.io/v1beta1",
            )
        for pod, containers in sorted(self.logs.items()):
            w.write_logs(c, NS, pod, containers)
        for pod, containers in sorted(self.prev_logs.items()):
            w.write_logs(c, NS, pod, containers, previous=True)
        if with_expect:
            doc: Obj = {"description": self.description, "target": self.target, "namespace": NS}
            for key in ("first", "includes", "excludes", "last_stage", "healthy", "incomplete", "checks"):
                if key in self.expect:
                    doc[key] = self.expect[key]
            (root / "expect.yaml").write_text(
                yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=120), encoding="utf-8"
            )


def _event_key(e: Obj) -> tuple[str, str]:
    return (e["lastTimestamp"], e["metadata"]["name"])


SCENARIO_FUNCS: list[Callable[[], Scenario]] = []


def scenario(fn: Callable[[], Scenario]) -> Callable[[], Scenario]:
    SCENARIO_FUNCS.append(fn)
    return fn


def expect(
    s: Scenario,
    first: str | None = None,
    *,
    includes: list[str] | None = None,
    excludes: list[str] | None = None,
    last_stage: str | None = None,
    healthy: bool | None = None,
    checks: Obj | None = None,
) -> Scenario:
    if first:
        s.expect["first"] = first
    if includes:
        s.expect["includes"] = includes
    if excludes:
        s.expect["excludes"] = excludes
    if last_stage:
        s.expect["last_stage"] = last_stage
    if healthy is not None:
        s.expect["healthy"] = healthy
    if checks is not None:
        s.expect["checks"] = checks
    return s


def obj_ref(kind: str, name: str, namespace: str = NS) -> str:
    return f"{CLUSTER}/{namespace}/{kind}/{name}"


# ---------------------------------------------------------------------------------------------
# a whole runner job (the common case: pods exist, containers started)

REPO_VLLM = "vllm-project/vllm-ascend"
REPO_SGL = "sgl-project/sglang"
REPO_AREAL = "inclusionAI/AReaL"
REPO_CI = "ascend-ci-org/ascend-gha-runners"
REPO_VERL = "volcengine/verl"

VLLM_IMAGE = f"{SWR}/ascend-ci/vllm-ascend:main-a2"
CANN_IMAGE = f"{SWR}/ascend-ci/cann:8.3.rc1-910b-ubuntu22.04-py3.11"


def add_job(
    s: Scenario,
    runner: str,
    *,
    node: str,
    hook: bool,
    job: str,
    repo: str,
    run_id: int,
    workflow: str = "ci.yaml",
    job_image: str = VLLM_IMAGE,
    created: float = 60.0,
    steps: list[str] | None = None,
    result: str | None = None,
    end: float = 1.0,
    runner_lines: list[str] | None = None,
    runner_tail: list[str] | None = None,
    job_state: Obj | None = None,
    job_phase: str = "Running",
    runner_state: Obj | None = None,
    runner_phase: str | None = None,
    novolume: bool = False,
    with_wf: bool = True,
    job_restarts: int = 0,
    post_start: str | None = None,
    wf_extra_volumes: list[Obj] | None = None,
    wf_extra_mounts: list[Obj] | None = None,
    runner_version: str = "2.330.0",
    er_phase: str | None = None,
) -> None:
    """Runner pod (+ workflow pod) that were scheduled and started; logs, events, ER, PVC.

    `steps` are the job-log lines (see `steplog`); they land in the `job` log for hook jobs and in the
    `runner` log for direct jobs. `result` is the GitHub job result printed by the runner, None while the
    job is still running. `end` is minutes before capture when the job ended.
    """
    scale_set_of(runner)
    sched = created - 0.02
    r_started = created - 0.3
    w_created = created - 1.2
    w_started = created - 2.0
    ident = job
    rl = [*runner_intro(r_started - 0.1, runner_version), rlog(r_started - 0.15, f"Running job: {ident}")]
    rl += runner_lines or []
    if not hook:
        rl += steps or []
    if result:
        rl += runner_outro(end, ident, result)
    rl += runner_tail or []
    # runner pod
    if runner_state is None:
        if result is None:
            runner_state = running(t(r_started))
        elif result == "Succeeded":
            runner_state = terminated(0, "Completed", t(r_started), t(end - 0.05))
        else:
            runner_state = terminated(1, "Error", t(r_started), t(end - 0.05))
    rphase = runner_phase or (
        "Running"
        if "running" in runner_state
        else "Succeeded"
        if runner_state.get("terminated", {}).get("exitCode") == 0
        else "Failed"
    )
    if rphase == "Running":
        rconds = conds_running(t(created), t(sched), t(r_started - 0.01))
    else:
        rconds = conds_finished(
            t(created), t(sched), t(end - 0.05), "PodCompleted" if rphase == "Succeeded" else "PodFailed"
        )
    s.pods.append(
        runner_pod(
            runner,
            created=t(created),
            phase=rphase,
            node=node,
            hook=hook,
            novolume=novolume,
            start_time=t(sched),
            conditions=rconds,
            statuses=[container_status("runner", RUNNER_IMAGE, runner_state)],
        )
    )
    s.scheduled(runner, node, sched)
    s.started(runner, node, RUNNER_IMAGE, r_started, "runner")
    s.logs[runner] = {"runner": text(rl)}
    # ephemeral runner
    s.ers = (s.ers or []) + [
        ephemeral_runner(
            runner,
            created=t(created + 0.01),
            phase=er_phase or rphase,
            ready=rphase == "Running",
            runner_id=200000 + hash_int(runner) % 90000,
            job=job_status(repo, run_id, 9_000_000 + hash_int(runner) % 999_999, job, workflow),
        )
    ]
    if not novolume and hook:
        s.pvcs = (s.pvcs or []) + [work_pvc(runner, t(created))]
    if hook and with_wf:
        wname = f"{runner}-workflow"
        if job_state is None:
            job_state = running(t(w_started))
        if job_phase == "Running" and "running" in job_state:
            wconds = conds_running(t(w_created), t(w_created - 0.01), t(w_started - 0.01))
        else:
            wconds = conds_finished(t(w_created), t(w_created - 0.01), t(end))
        last = None
        if job_restarts:
            last = terminated(137, "Error", t(w_started + 1), t(w_started + 0.5))
        s.pods.append(
            workflow_pod(
                runner,
                image=job_image,
                created=t(w_created),
                phase=job_phase,
                node=node,
                start_time=t(w_created - 0.01),
                conditions=wconds,
                novolume=novolume,
                post_start=post_start,
                extra_volumes=wf_extra_volumes,
                extra_mounts=wf_extra_mounts,
                statuses=[container_status("job", job_image, job_state, last_state=last, restarts=job_restarts)],
            )
        )
        s.scheduled(wname, node, w_created - 0.01)
        s.started(wname, node, job_image, w_started, "job", pull_secs=0)
        if steps:
            s.logs[wname] = {"job": text(steps)}


def checkout_steps(repo: str, sha: str) -> list[str]:
    return [
        "##[group]Run actions/checkout@v4",
        "with:",
        f"  repository: {repo}",
        "  fetch-depth: 1",
        "##[endgroup]",
        "Syncing repository: " + repo,
        "##[group]Getting Git version info",
        "git version 2.43.0",
        "##[endgroup]",
        f"/usr/bin/git -c protocol.version=2 fetch --no-tags --prune --no-recurse-submodules --depth=1 origin "
        f"+{sha}:refs/remotes/origin/main",
        f"From https://github.com/{repo}",
        f" * [new ref]         {sha} -> origin/main",
        f"HEAD is now at {sha[:7]} [CI] Bump torch-npu to 2.7.1 (#4410)",
    ]


def pip_noise() -> list[str]:
    return [
        "Looking in indexes: http://cache-service.nginx-pypi-cache.svc.cluster.local/pypi/simple",
        "Requirement already satisfied: pip in /usr/local/python3.11.13/lib/python3.11/site-packages (25.2)",
        "Requirement already satisfied: numpy<2.0 in /usr/local/python3.11.13/lib/python3.11/site-packages (1.26.4)",
        "Requirement already satisfied: pyyaml in /usr/local/python3.11.13/lib/python3.11/site-packages (6.0.2)",
        "WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour with "
        "the system package manager, possibly rendering your system unusable. It is recommended to use a virtual "
        "environment instead: https://pip.pypa.io/warnings/venv. Use the --root-user-action option if you know "
        "what you are doing and want to suppress this warning.",
    ]


def post_job_noise() -> list[str]:
    return [
        "##[group]Run actions/upload-artifact@v4",
        "with:",
        "  name: test-logs",
        "  path: /tmp/logs",
        "  if-no-files-found: warn",
        "##[endgroup]",
        "With the provided path, there will be 3 files uploaded",
        "Artifact name is valid!",
        "Root directory input is valid!",
        "Beginning upload of artifact content to blob storage",
        "Uploaded bytes 48213",
        "Finished uploading artifact content to blob storage!",
        "Artifact test-logs.zip successfully finalized. Artifact ID 4598812231",
        "Post job cleanup.",
        "Cleaning up orphan processes",
    ]


GIT_SHA = "9f3c2a71be04d85e6a1c0f42d7b3e98a15c6d204"


# ---------------------------------------------------------------------------------------------
# building blocks for pods that never got their job container running


def runner_running_hook(
    s: Scenario,
    runner: str,
    *,
    node: str,
    created: float,
    job: str,
    repo: str,
    run_id: int,
    workflow: str = "ci.yaml",
    lines: list[str] | None = None,
    result: str | None = None,
    end: float = 1.0,
) -> None:
    """A runner pod that started and handed its job to a workflow pod (built by the caller)."""
    add_job(
        s,
        runner,
        node=node,
        hook=True,
        job=job,
        repo=repo,
        run_id=run_id,
        workflow=workflow,
        created=created,
        runner_lines=lines,
        result=result,
        end=end,
        with_wf=False,
    )


def hook_wait_error(wname: str, phase: str = "Pending") -> list[str]:
    return [
        f"##[error]Error: pod failed to come online with error: Error: Pod {wname} is unhealthy with phase status "
        f"{phase}",
        "##[error]Executing the custom container implementation failed. Please contact your self hosted runner "
        "administrator.",
    ]


def pending_workflow(
    s: Scenario, runner: str, *, node: str, image: str, created: float, state: Obj, initialized: bool = True, **kw: Any
) -> str:
    wname = f"{runner}-workflow"
    s.pods.append(
        workflow_pod(
            runner,
            image=image,
            created=t(created),
            phase="Pending",
            node=node,
            start_time=t(created - 0.01),
            conditions=conds_creating(t(created), t(created - 0.01), initialized=initialized),
            statuses=[container_status("job", image, state)],
            **kw,
        )
    )
    s.scheduled(wname, node, created - 0.01)
    return wname


def pull_failure_events(
    s: Scenario, pod: str, node: str, image: str, message: str, first: float, count: int = 6
) -> None:
    s.ev(pod, "Pulling", f'Pulling image "{image}"', first, first - 0.2 * count, count=count, host=node)
    s.ev(
        pod,
        "Failed",
        f'Failed to pull image "{image}": {message}',
        first - 0.02,
        first - 0.2 * count - 0.02,
        warn=True,
        count=count,
        host=node,
    )
    s.ev(
        pod,
        "Failed",
        "Error: ErrImagePull",
        first - 0.03,
        first - 0.2 * count - 0.03,
        warn=True,
        count=count,
        host=node,
    )
    s.ev(pod, "BackOff", f'Back-off pulling image "{image}"', first - 0.05, 0.3, count=count * 9, host=node)
    s.ev(pod, "Failed", "Error: ImagePullBackOff", first - 0.06, 0.3, warn=True, count=count * 9, host=node)


# ---------------------------------------------------------------------------------------------
# pod.image.*


@scenario
def pod_image_invalid_name() -> Scenario:
    runner = runner_name("linux-aarch64-a2-1", "rq8ts", "4mhbw")
    wname = f"{runner}-workflow"
    image = f"{SWR}/ascend-ci/vllm-ascend:v0.11.0rc1 -a2"
    s = Scenario(
        "pod-image-invalid-name",
        "The workflow pod's job container stays Waiting with InvalidImageName because the container.image "
        "in the workflow has a space in the tag, so the image name itself must be fixed.",
        f"pod/{wname}",
    )
    runner_running_hook(
        s, runner, node="npu-a2-02", created=14, job="e2e-test (a2-1)", repo=REPO_VLLM, run_id=19384456120
    )
    msg = f'Failed to apply default image tag "{image}": couldn\'t parse image name "{image}": invalid reference format'
    pending_workflow(s, runner, node="npu-a2-02", image=image, created=12, state=waiting("InvalidImageName", msg))
    s.ev(wname, "InspectFailed", msg, 11.9, 0.4, warn=True, count=58, host="npu-a2-02")
    s.ev(wname, "Failed", "Error: InvalidImageName", 11.9, 0.4, warn=True, count=58, host="npu-a2-02")
    return expect(s, "pod.image.invalid-name", excludes=["pod.image.pull-failed"], last_stage="scheduled")


@scenario
def pod_image_pull_failed_not_found() -> Scenario:
    runner = runner_name("linux-aarch64-a2-4", "b7xkq", "z2p9d")
    wname = f"{runner}-workflow"
    image = f"{SWR}/ascend-ci/vllm-ascend:v0.13.0-a2"
    s = Scenario(
        "pod-image-pull-failed-not-found",
        "The runner handed its job to a workflow pod whose image tag v0.13.0-a2 does not exist, so the "
        "workflow pod loops in ErrImagePull/ImagePullBackOff and the runner gives up waiting for it.",
        f"pod/{runner}",
    )
    msg = (
        f'rpc error: code = NotFound desc = failed to pull and unpack image "{image}": failed to resolve '
        f'reference "{image}": {image}: not found'
    )
    runner_running_hook(
        s,
        runner,
        node="npu-a2-01",
        created=16,
        job="multicard-test (a2-4)",
        repo=REPO_VLLM,
        run_id=19384470002,
        lines=hook_wait_error(wname),
        result="Failed",
        end=2,
    )
    pending_workflow(
        s,
        runner,
        node="npu-a2-01",
        image=image,
        created=15,
        state=waiting("ImagePullBackOff", f'Back-off pulling image "{image}": ErrImagePull: {msg}'),
    )
    pull_failure_events(s, wname, "npu-a2-01", image, msg, 14.9)
    return expect(s, "pod.image.pull-failed", excludes=["pod.image.pull-unauthorized", "pod.image.invalid-name"])


def image_pull_runner_scenario(name: str, runner: str, image: str, *, with_expect: bool = True) -> Scenario:
    s = Scenario(
        name,
        "The runner pod itself cannot start because its runner image tag 2.331.0 was never pushed to the "
        "mirror registry, so kubelet reports ErrImagePull/ImagePullBackOff and the EphemeralRunner never "
        "registers with GitHub.",
        f"runner/{runner}",
    )
    node = "npu-a2-03"
    msg = (
        f'rpc error: code = NotFound desc = failed to pull and unpack image "{image}": failed to resolve '
        f'reference "{image}": {image}: not found'
    )
    s.pods.append(
        runner_pod(
            runner,
            created=t(23),
            phase="Pending",
            node=node,
            hook=True,
            start_time=t(22.98),
            image=image,
            conditions=conds_creating(t(23), t(22.98)),
            statuses=[
                container_status("runner", image, waiting("ImagePullBackOff", f'Back-off pulling image "{image}"'))
            ],
        )
    )
    s.scheduled(runner, node, 22.98)
    pull_failure_events(s, runner, node, image, msg, 22.9, count=8)
    s.ers = [ephemeral_runner(runner, created=t(23.01), phase="Pending", ready=False)]
    # A healthy sibling runner of the same scale set, on the old image, for contrast.
    other = runner_name("linux-aarch64-a2-1", runner.split("-runner-")[0].rsplit("-", 1)[1], "k4w8n")
    add_job(
        s,
        other,
        node="npu-a2-01",
        hook=True,
        job="unit-test (a2-1)",
        repo=REPO_VLLM,
        run_id=19384488771,
        created=95,
        with_wf=False,
        result="Succeeded",
        end=70,
    )
    return expect(s, "pod.image.pull-failed", excludes=["pod.image.pull-unauthorized"], last_stage="scheduled")


@scenario
def pod_image_pull_failed_runner_image() -> Scenario:
    runner = runner_name("linux-aarch64-a2-1", "m5cq2", "s8v3r")
    return image_pull_runner_scenario(
        "pod-image-pull-failed-runner-image", runner, f"{SWR}/ascend-ci/actions-runner:2.331.0"
    )


@scenario
def pod_image_pull_failed_no_credential() -> Scenario:
    runner = runner_name("linux-aarch64-a3-16", "d2hvn", "q6tjx")
    wname = f"{runner}-workflow"
    image = "docker.io/ascendai/sglang-internal:nightly-a3"
    s = Scenario(
        "pod-image-pull-failed-no-credential",
        "The workflow uses a private Docker Hub image but the pod has no imagePullSecret, so containerd "
        "reports pull access denied / insufficient_scope (no credential at all, not a 401 from a changed "
        "registry) and the pod sits in ImagePullBackOff.",
        f"pod/{wname}",
    )
    runner_running_hook(
        s, runner, node="npu-a3-02", created=21, job="nightly-a3 (deepseek-v3)", repo=REPO_SGL, run_id=19384512345
    )
    msg = (
        f'rpc error: code = Unknown desc = failed to pull and unpack image "{image}": failed to resolve '
        f'reference "{image}": pull access denied, repository does not exist or may require authorization: '
        "server message: insufficient_scope: authorization failed"
    )
    pending_workflow(
        s,
        runner,
        node="npu-a3-02",
        image=image,
        created=20,
        state=waiting("ImagePullBackOff", f'Back-off pulling image "{image}": ErrImagePull: {msg}'),
    )
    pull_failure_events(s, wname, "npu-a3-02", image, msg, 19.9)
    return expect(s, "pod.image.pull-failed", last_stage="scheduled")


@scenario
def pod_image_pull_unauthorized() -> Scenario:
    runner = runner_name("linux-aarch64-a2-1", "v9wl4", "h3nfc")
    wname = f"{runner}-workflow"
    image = "swr.cn-north-4.myhuaweicloud.com/ascend-ci/vllm-ascend:nightly-ci-main-a5"
    s = Scenario(
        "pod-image-pull-unauthorized",
        "The repository switched its image to another SWR region (cn-north-4) for which the runner's pull "
        "secret has no rights, so the pull fails with failed to authorize ... 401 Unauthorized; the 401 is "
        "the specific cause, the generic pull failure only follows from it.",
        f"pod/{wname}",
    )
    runner_running_hook(
        s,
        runner,
        node="npu-a2-03",
        created=18,
        job="nightly (a5-smoke)",
        repo=REPO_VLLM,
        run_id=19384533310,
        workflow="nightly_a5.yaml",
    )
    msg = (
        f'rpc error: code = Unknown desc = failed to pull and unpack image "{image}": failed to resolve '
        f'reference "{image}": failed to authorize: failed to fetch anonymous token: unexpected status: '
        "401 Unauthorized"
    )
    pending_workflow(
        s,
        runner,
        node="npu-a2-03",
        image=image,
        created=17,
        image_pull_secrets=["swr-pull-secret"],
        state=waiting("ImagePullBackOff", f'Back-off pulling image "{image}": ErrImagePull: {msg}'),
    )
    pull_failure_events(s, wname, "npu-a2-03", image, msg, 16.9)
    return expect(s, "pod.image.pull-unauthorized", last_stage="scheduled")


@scenario
def pod_image_mirror_not_synced() -> Scenario:
    runner = runner_name("linux-aarch64-cpu-16", "xw7pn", "g5d2m")
    image_ref = f"{SWR}/ascend-ci/vllm-ascend/vllm-ascend:v0.28.0-fd81546-a3"
    s = Scenario(
        "pod-image-mirror-not-synced",
        "An image build fails with failed to resolve source metadata ... not found because the base image "
        "source moved (quay.io/ascend -> quay.io/atlas-ci) and the SWR redirect path was not updated, so the "
        "mirror mapping must be synced; this is not a BuildKit cache problem.",
        f"pod/{runner}",
    )
    steps = steplog(
        38,
        [
            *checkout_steps(REPO_VLLM, GIT_SHA),
            "##[group]Run docker buildx build -f Dockerfile.a3 -t vllm-ascend-ci:pr-4410 .",
            '#0 building with "builder-a3" instance using remote driver',
            "#1 [internal] load build definition from Dockerfile.a3",
            "#1 transferring dockerfile: 2.91kB done",
            "#1 DONE 0.0s",
            f"#2 [internal] load metadata for {image_ref}",
            f"#2 ERROR: {image_ref}: not found",
            "#3 [internal] load .dockerignore",
            "#3 transferring context: 312B done",
            "#3 DONE 0.0s",
            "------",
            f" > [internal] load metadata for {image_ref}:",
            "------",
            "Dockerfile.a3:17",
            "--------------------",
            f"  15 |     ARG BASE_IMAGE={image_ref}",
            "  16 |     ",
            "  17 | >>> FROM ${BASE_IMAGE}",
            "--------------------",
            f"ERROR: failed to solve: {image_ref}: failed to resolve source metadata for {image_ref}: "
            f"{image_ref}: not found",
            "##[error]Process completed with exit code 1.",
            "Post job cleanup.",
        ],
    )
    add_job(
        s,
        runner,
        node="cpu-arm-01",
        hook=False,
        job="build-image (a3)",
        repo=REPO_VLLM,
        run_id=19384550021,
        workflow="image_build.yaml",
        created=40,
        steps=steps,
        result="Failed",
        end=36,
    )
    return expect(s, "pod.image.mirror-not-synced", excludes=["ci.build.buildkit-cache"])


@scenario
def pod_image_pull_slow() -> Scenario:
    runner = runner_name("linux-aarch64-a2-8", "p4kzs", "c7fqw")
    wname = f"{runner}-workflow"
    image = "ghcr.io/inclusionai/areal_npu:v1.0.5-a2"
    s = Scenario(
        "pod-image-pull-slow",
        "The workflow pod has been pulling an uncached ghcr.io image for 52 minutes without any error "
        "(Pulling event, no Pulled, ContainerCreating), so GitHub shows Initialize containers stuck; use "
        "the ghcr mirror or sync the image to SWR.",
        f"pod/{wname}",
    )
    runner_running_hook(
        s,
        runner,
        node="npu-a2-02",
        created=54,
        job="e2e-npu (a2-8)",
        repo=REPO_AREAL,
        run_id=19384577777,
        workflow="test_npu.yml",
    )
    pending_workflow(s, runner, node="npu-a2-02", image=image, created=53, state=waiting("ContainerCreating"))
    s.ev(wname, "Pulling", f'Pulling image "{image}"', 52.9, host="npu-a2-02")
    return expect(s, "pod.image.pull-slow", excludes=["pod.image.pull-failed"], last_stage="scheduled")


# ---------------------------------------------------------------------------------------------
# pod.container.*


@scenario
def pod_container_config_error_secret() -> Scenario:
    runner = runner_name("linux-aarch64-a2-1", "f3ncx", "w2r7b")
    s = Scenario(
        "pod-container-config-error-secret",
        "The runner pod references a Secret hf-token-a2 that does not exist in arc-runners, so its runner "
        "container stays in CreateContainerConfigError and never starts.",
        f"pod/{runner}",
    )
    node = "npu-a2-01"
    extra = [{"name": "HF_TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf-token-a2", "key": "token"}}}]
    s.pods.append(
        runner_pod(
            runner,
            created=t(9),
            phase="Pending",
            node=node,
            hook=True,
            start_time=t(8.98),
            extra_env=extra,
            conditions=conds_creating(t(9), t(8.98)),
            statuses=[
                container_status(
                    "runner", RUNNER_IMAGE, waiting("CreateContainerConfigError", 'secret "hf-token-a2" not found')
                )
            ],
        )
    )
    s.scheduled(runner, node, 8.98)
    s.ev(
        runner, "Pulled", f'Container image "{RUNNER_IMAGE}" already present on machine', 8.9, 0.2, count=44, host=node
    )
    s.ev(runner, "Failed", 'Error: secret "hf-token-a2" not found', 8.9, 0.2, warn=True, count=44, host=node)
    s.ers = [ephemeral_runner(runner, created=t(9.01), phase="Pending", ready=False)]
    return expect(s, "pod.container.config-error", last_stage="scheduled")


@scenario
def pod_container_config_error_configmap() -> Scenario:
    runner = runner_name("linux-aarch64-310p-1", "n8dkt", "v5xh2")
    wname = f"{runner}-workflow"
    s = Scenario(
        "pod-container-config-error-configmap",
        "The hook pod template injects envFrom a ConfigMap pip-mirror-conf that was never created, so the "
        "workflow pod's job container is stuck in CreateContainerConfigError.",
        f"pod/{wname}",
    )
    runner_running_hook(
        s,
        runner,
        node="npu-310p-01",
        created=12,
        job="310p-test",
        repo=REPO_VLLM,
        run_id=19384601234,
        workflow="vllm_ascend_test_310p.yaml",
    )
    pending_workflow(
        s,
        runner,
        node="npu-310p-01",
        image=VLLM_IMAGE.replace("main-a2", "main-310p"),
        created=11,
        env_from=[{"configMapRef": {"name": "pip-mirror-conf"}}],
        state=waiting("CreateContainerConfigError", 'configmap "pip-mirror-conf" not found'),
    )
    s.ev(
        wname,
        "Pulled",
        f'Container image "{VLLM_IMAGE.replace("main-a2", "main-310p")}" already present on machine',
        10.9,
        0.3,
        count=51,
        host="npu-310p-01",
    )
    s.ev(
        wname,
        "Failed",
        'Error: configmap "pip-mirror-conf" not found',
        10.9,
        0.3,
        warn=True,
        count=51,
        host="npu-310p-01",
    )
    return expect(s, "pod.container.config-error", last_stage="scheduled")


NPU_HOOK = "npu-smi info &> /dev/null; for i in $(seq 1 30); do npu-smi info -t health -i 0 && break; sleep 2; done"


@scenario
def pod_container_poststart_killed_drain() -> Scenario:
    runner = runner_name("linux-aarch64-a2-1", "t6hjd", "x9c4k")
    wname = f"{runner}-workflow"
    s = Scenario(
        "pod-container-poststart-killed-drain",
        "The job container dies with exit 137 right after start, but it is the postStart hook (bash '&>' run "
        "by dash, npu-smi left holding the exec pipes, containerd drain timeout 2s) that made kubelet kill "
        "it; GitHub's 'Likely OOM' hint is misleading and nothing was OOMKilled.",
        f"pod/{runner}",
    )
    lines = [
        f'##[error]Error: failed to start the container: container "job" in pod {wname}: Error (exit code 137). '
        "Likely OOM",
        "##[error]Error: pod failed to come online with error: Error: Pod "
        + wname
        + " is unhealthy with phase status Failed",
        "##[error]Executing the custom container implementation failed. Please contact your self hosted runner "
        "administrator.",
    ]
    add_job(
        s,
        runner,
        node="npu-a2-02",
        hook=True,
        job="e2e-test (a2-1)",
        repo=REPO_VLLM,
        run_id=19384620001,
        created=8,
        runner_lines=lines,
        result="Failed",
        end=5.5,
        post_start=NPU_HOOK,
        job_phase="Failed",
        job_state=terminated(137, "Error", t(6.0), t(5.95)),
        steps=None,
    )
    pod_s = f"{wname}_{NS}({pod_uid(wname)})"
    drain = (
        f'Exec lifecycle hook ([/bin/sh -c {NPU_HOOK}]) for Container "job" in Pod "{pod_s}" failed - '
        "error: rpc error: code = Unknown desc = failed to exec in container: failed to drain exec process "
        f'"{stable_uid("exec", wname).replace("-", "")}" io: failed to drain exec process io in 2s, '
        'message: ""'
    )
    s.ev(wname, "FailedPostStartHook", drain, 5.97, warn=True, host="npu-a2-02")
    s.ev(wname, "Killing", "FailedPostStartHook", 5.96, host="npu-a2-02")
    return expect(s, "pod.container.poststart-killed", excludes=["pod.run.oom-killed"])


@scenario
def pod_container_poststart_killed_exit137() -> Scenario:
    runner = runner_name("linux-aarch64-a3-2", "h2mfa", "r8p3z")
    wname = f"{runner}-workflow"
    s = Scenario(
        "pod-container-poststart-killed-exit137",
        "FailedPostStartHook reports the postStart command exited with 137 and kubelet then killed the job "
        "container (exit 137, reason Error, not OOMKilled, memory far below its limit), so the fix is the "
        "hook script, not the memory limit.",
        f"pod/{wname}",
    )
    add_job(
        s,
        runner,
        node="npu-a3-01",
        hook=True,
        job="accuracy-test (a3-2)",
        repo=REPO_VLLM,
        run_id=19384621111,
        job_image=VLLM_IMAGE.replace("main-a2", "main-a3"),
        created=10,
        result="Failed",
        end=7,
        runner_lines=hook_wait_error(wname, "Failed"),
        post_start=NPU_HOOK,
        job_phase="Failed",
        job_state=terminated(137, "Error", t(8.0), t(7.9)),
    )
    pod_s = f"{wname}_{NS}({pod_uid(wname)})"
    msg = (
        f'Exec lifecycle hook ([/bin/sh -c {NPU_HOOK}]) for Container "job" in Pod "{pod_s}" failed - '
        f"error: command '/bin/sh -c {NPU_HOOK}' exited with 137: , message: \"\""
    )
    s.ev(wname, "FailedPostStartHook", msg, 7.92, warn=True, host="npu-a3-01")
    s.ev(wname, "Killing", "FailedPostStartHook", 7.91, host="npu-a3-01")
    return expect(s, "pod.container.poststart-killed", excludes=["pod.run.oom-killed"], last_stage="containers-started")


# ---------------------------------------------------------------------------------------------
# pod.schedule.* and pod.storage.*


def unschedulable_runner(
    s: Scenario,
    runner: str,
    *,
    created: float,
    message: str,
    node_selector: dict[str, str] | None = None,
    count: int = 30,
    extra_spec: Obj | None = None,
    resources: Obj | None = None,
) -> None:
    s.pods.append(
        runner_pod(
            runner,
            created=t(created),
            phase="Pending",
            node=None,
            hook=False,
            node_selector=node_selector,
            extra_spec=extra_spec,
            resources=resources,
            conditions=conds_pending_unschedulable(t(created - 0.01), message),
            statuses=[],
        )
    )
    s.ev(
        runner, "FailedScheduling", message, created - 0.01, 0.4, warn=True, count=count, component="default-scheduler"
    )
    s.ers = (s.ers or []) + [ephemeral_runner(runner, created=t(created + 0.01), phase="Pending", ready=False)]


@scenario
def pod_schedule_selector_mismatch() -> Scenario:
    runner = runner_name("linux-aarch64-a2b3-8", "wd4nk", "p2xk7")
    s = Scenario(
        "pod-schedule-selector-mismatch",
        "The runner pod's nodeSelector asks for ascend-ci/npu-type=a2b3, a label no node carries, so every "
        "FailedScheduling says all 12 nodes didn't match the node affinity/selector.",
        f"pod/{runner}",
    )
    msg = (
        "0/12 nodes are available: 12 node(s) didn't match Pod's node affinity/selector. preemption: 0/12 nodes "
        "are available: 12 Preemption is not helpful for scheduling."
    )
    unschedulable_runner(
        s, runner, created=26, message=msg, node_selector={"ascend-ci/npu-type": "a2b3", "kubernetes.io/arch": "arm64"}
    )
    return expect(
        s, "pod.schedule.selector-mismatch", excludes=["pod.schedule.insufficient-resources"], last_stage="pod-created"
    )


@scenario
def pod_schedule_insufficient_resources() -> Scenario:
    runner = runner_name("linux-aarch64-a2-16", "s4bqm", "n6v2h")
    s = Scenario(
        "pod-schedule-insufficient-resources",
        "The runner asks for 16 Ascend910 NPUs on the a2 label whose nodes have 8 each, so the 3 matching "
        "nodes report Insufficient huawei.com/Ascend910; the 9 selector mismatches are just the other pools.",
        f"pod/{runner}",
    )
    msg = (
        "0/12 nodes are available: 3 Insufficient huawei.com/Ascend910, 9 node(s) didn't match Pod's node "
        "affinity/selector. preemption: 0/12 nodes are available: 3 No preemption victims found for incoming "
        "pod, 9 Preemption is not helpful for scheduling."
    )
    unschedulable_runner(s, runner, created=19, message=msg)
    return expect(
        s, "pod.schedule.insufficient-resources", excludes=["pod.schedule.selector-mismatch"], last_stage="pod-created"
    )


@scenario
def pod_schedule_insufficient_outofcpu() -> Scenario:
    runner = runner_name("linux-aarch64-cpu-8", "c9rxs", "j4mwt")
    s = Scenario(
        "pod-schedule-insufficient-outofcpu",
        "The runner template pins nodeName cpu-arm-01, bypassing the scheduler, and kubelet rejects the pod "
        "with OutOfcpu (requested 8000m, used 29895m of 31850m) so it goes straight to phase Failed.",
        f"pod/{runner}",
    )
    s.nodes = standard_nodes()
    for n in s.nodes:
        if n["metadata"]["name"] == "cpu-arm-01":
            n["status"]["allocatable"]["cpu"] = "31850m"
    msg = "Node didn't have enough resource: cpu, requested: 8000, used: 29895, capacity: 31850"
    res = {"limits": {"cpu": "8", "memory": "16Gi"}, "requests": {"cpu": "8", "memory": "16Gi"}}
    s.pods.append(
        runner_pod(
            runner,
            created=t(4),
            phase="Failed",
            node="cpu-arm-01",
            hook=False,
            resources=res,
            node_selector={},
            reason="OutOfcpu",
            message="Pod was rejected: " + msg,
            start_time=t(3.99),
            conditions=[],
            statuses=[],
        )
    )
    s.ev(runner, "OutOfcpu", msg, 3.99, warn=True, host="cpu-arm-01")
    # other pods keep cpu-arm-01 busy
    for i, sfx in enumerate(("b2k9d", "q7w3e", "m4n8c")):
        other = runner_name("linux-aarch64-cpu-8", "c9rxs", sfx)
        add_job(
            s,
            other,
            node="cpu-arm-01",
            hook=False,
            job=f"lint ({i})",
            repo=REPO_VLLM,
            run_id=19384700100 + i,
            created=30 - 5 * i,
            steps=steplog(29 - 5 * i, ["Run pre-commit run --all-files"]),
        )
    s.ers = (s.ers or []) + [
        ephemeral_runner(runner, created=t(4.01), phase="Pending", ready=False, failures={pod_uid(runner): t(3.99)})
    ]
    return expect(s, "pod.schedule.insufficient-resources", excludes=["pod.run.crash-on-start"])


@scenario
def pod_schedule_node_unschedulable() -> Scenario:
    runner = runner_name("linux-aarch64-a3-16", "g8tmz", "k3s9q")
    s = Scenario(
        "pod-schedule-node-unschedulable",
        "All a3 nodes that match the runner's selector are out of service (two cordoned, one NotReady/"
        "unreachable), so the scheduler finds no node although the selector itself is right.",
        f"pod/{runner}",
    )
    s.nodes = standard_nodes(
        {"npu-a3-01": {"unschedulable": True}, "npu-a3-02": {"unschedulable": True}, "npu-a3-03": {"ready": "Unknown"}}
    )
    msg = (
        "0/12 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 2 node(s) "
        "were unschedulable, 9 node(s) didn't match Pod's node affinity/selector. preemption: 0/12 nodes are "
        "available: 12 Preemption is not helpful for scheduling."
    )
    unschedulable_runner(s, runner, created=33, message=msg)
    return expect(
        s, "pod.schedule.node-unschedulable", excludes=["pod.schedule.selector-mismatch"], last_stage="pod-created"
    )


def shared_pvcs() -> list[Obj]:
    return [
        pvc("model-cache-a2", "2026-08-01T02:00:00Z"),
        pvc("model-cache-a3", "2026-08-01T02:00:00Z"),
        pvc("pip-cache", "2026-08-01T02:00:00Z", size="500Gi"),
    ]


@scenario
def pod_storage_pvc_missing() -> Scenario:
    runner = runner_name("linux-aarch64-a3-8", "f5hwn", "t8x2v")
    wname = f"{runner}-workflow"
    s = Scenario(
        "pod-storage-pvc-missing",
        "The workflow mounts a PVC vllm-model-cache-a3 that does not exist in arc-runners (the existing one "
        "is model-cache-a3), so the workflow pod cannot be scheduled.",
        f"pod/{wname}",
    )
    runner_running_hook(
        s, runner, node="npu-a3-02", created=15, job="e2e-test (a3-8)", repo=REPO_VLLM, run_id=19384730303
    )
    msg = (
        '0/12 nodes are available: persistentvolumeclaim "vllm-model-cache-a3" not found. preemption: 0/12 nodes '
        "are available: 12 Preemption is not helpful for scheduling."
    )
    s.pods.append(
        workflow_pod(
            runner,
            image=VLLM_IMAGE.replace("main-a2", "main-a3"),
            created=t(14),
            phase="Pending",
            node=None,
            conditions=conds_pending_unschedulable(t(13.99), msg),
            statuses=[],
            extra_volumes=[{"name": "models", "persistentVolumeClaim": {"claimName": "vllm-model-cache-a3"}}],
            extra_mounts=[{"name": "models", "mountPath": "/root/.cache"}],
        )
    )
    s.ev(wname, "FailedScheduling", msg, 13.99, 0.5, warn=True, count=17, component="default-scheduler")
    s.pvcs = (s.pvcs or []) + shared_pvcs()
    return expect(s, "pod.storage.pvc-unbound", last_stage="pod-created")


@scenario
def pod_storage_pvc_failedbinding() -> Scenario:
    runner = runner_name("linux-aarch64-a2-2", "z3kdp", "c5w8m")
    s = Scenario(
        "pod-storage-pvc-failedbinding",
        "The runner pod mounts the PVC ci-shared-cache which has no storage class and no matching volume, so "
        "the PVC reports FailedBinding and the pod stays unschedulable with an unbound immediate claim.",
        f"pod/{runner}",
    )
    msg = (
        "0/12 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/12 nodes are "
        "available: 12 Preemption is not helpful for scheduling."
    )
    s.pods.append(
        runner_pod(
            runner,
            created=t(22),
            phase="Pending",
            node=None,
            hook=False,
            volumes_extra=[{"name": "cache", "persistentVolumeClaim": {"claimName": "ci-shared-cache"}}],
            mounts=[{"name": "cache", "mountPath": "/mnt/share"}],
            conditions=conds_pending_unschedulable(t(21.99), msg),
            statuses=[],
        )
    )
    s.ev(runner, "FailedScheduling", msg, 21.99, 0.6, warn=True, count=21, component="default-scheduler")
    s.pvcs = [*shared_pvcs(), pvc("ci-shared-cache", t(22.5), phase="Pending", storage_class="", size="1Ti")]
    s.ev(
        "ci-shared-cache",
        "FailedBinding",
        "no persistent volumes available for this claim and no storage class is set",
        22.4,
        0.2,
        warn=True,
        count=90,
        component="persistentvolume-controller",
        kind="PersistentVolumeClaim",
        uid=stable_uid(NS, "ci-shared-cache"),
    )
    s.ers = [ephemeral_runner(runner, created=t(22.01), phase="Pending", ready=False)]
    return expect(s, "pod.storage.pvc-unbound", last_stage="pod-created")


@scenario
def pod_storage_hostpath_missing() -> Scenario:
    runner = runner_name("linux-aarch64-a2-4", "l6qrn", "d9f3x")
    wname = f"{runner}-workflow"
    s = Scenario(
        "pod-storage-hostpath-missing",
        "The hook pod template mounts hostPath /mnt/models (type Directory) which does not exist on npu-a2-03 "
        "after a disk path change, so kubelet's FailedMount keeps the workflow pod in ContainerCreating.",
        f"pod/{wname}",
    )
    runner_running_hook(
        s, runner, node="npu-a2-03", created=13, job="e2e-test (a2-4)", repo=REPO_VLLM, run_id=19384744444
    )
    pending_workflow(
        s,
        runner,
        node="npu-a2-03",
        image=VLLM_IMAGE,
        created=12,
        state=waiting("ContainerCreating"),
        extra_volumes=[{"name": "models", "hostPath": {"path": "/mnt/models", "type": "Directory"}}],
        extra_mounts=[{"name": "models", "mountPath": "/root/.cache/modelscope", "readOnly": True}],
    )
    s.ev(
        wname,
        "FailedMount",
        'MountVolume.SetUp failed for volume "models" : hostPath type check failed: /mnt/models is not a directory',
        11.9,
        0.3,
        warn=True,
        count=14,
        host="npu-a2-03",
    )
    return expect(s, "pod.storage.hostpath-missing", last_stage="scheduled")


# ---------------------------------------------------------------------------------------------
# pod.run.*


@scenario
def pod_run_crash_on_start_starterror() -> Scenario:
    runner = runner_name("linux-aarch64-a2-1", "y8vcz", "b6n4s")
    image = f"{SWR}/ascend-ci/actions-runner-npu:2.330.0-cann8.3"
    s = Scenario(
        "pod-run-crash-on-start-starterror",
        "The custom runner image has no /home/runner/entrypoint.sh, so the container's command cannot even "
        "be executed (StartError, exit 128) and the runner pod fails immediately.",
        f"pod/{runner}",
    )
    node = "npu-a2-01"
    msg = (
        "failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create "
        "failed: unable to start container process: error during container init: exec: "
        '"/home/runner/entrypoint.sh": stat /home/runner/entrypoint.sh: no such file or directory: unknown'
    )
    s.pods.append(
        runner_pod(
            runner,
            created=t(3),
            phase="Failed",
            node=node,
            hook=True,
            image=image,
            command=["/home/runner/entrypoint.sh"],
            start_time=t(2.98),
            conditions=conds_finished(t(3), t(2.98), t(2.9)),
            statuses=[
                container_status("runner", image, terminated(128, "StartError", "1970-01-01T00:00:00Z", t(2.9), msg))
            ],
        )
    )
    s.scheduled(runner, node, 2.98)
    s.ev(runner, "Pulled", f'Container image "{image}" already present on machine', 2.95, host=node)
    s.ev(runner, "Created", "Created container: runner", 2.94, host=node)
    s.ev(runner, "Failed", "Error: " + msg, 2.9, warn=True, host=node)
    s.ers = [
        ephemeral_runner(
            runner,
            created=t(3.01),
            phase="Pending",
            ready=False,
            failures={stable_uid(NS, runner + "-1"): t(9), pod_uid(runner): t(2.9)},
        )
    ]
    return expect(s, "pod.run.crash-on-start")


@scenario
def pod_run_crash_on_start_dependency() -> Scenario:
    runner = runner_name("linux-aarch64-310p-2", "k2mfp", "w7c5d")
    s = Scenario(
        "pod-run-crash-on-start-dependency",
        "The runner container exits 1 two seconds after start because its entrypoint needs the CA bundle "
        "from the ci-certs volume which is not mounted; no job was ever picked up, so this is a start-up "
        "dependency problem, not a failing workflow step.",
        f"pod/{runner}",
    )
    node = "npu-310p-02"
    s.pods.append(
        runner_pod(
            runner,
            created=t(6),
            phase="Failed",
            node=node,
            hook=True,
            start_time=t(5.98),
            command=["/home/runner/start.sh"],
            conditions=conds_finished(t(6), t(5.98), t(5.5)),
            statuses=[container_status("runner", RUNNER_IMAGE, terminated(1, "Error", t(5.55), t(5.52)))],
        )
    )
    s.scheduled(runner, node, 5.98)
    s.started(runner, node, RUNNER_IMAGE, 5.56, "runner")
    s.logs[runner] = {
        "runner": text(
            [
                "[start.sh] configuring runner for 310p pool",
                "[start.sh] installing corporate CA bundle",
                "cp: cannot stat '/etc/ci-certs/ca-bundle.crt': No such file or directory",
                "[start.sh] ERROR: /etc/ci-certs/ca-bundle.crt is missing; is the ci-certs volume mounted?",
            ]
        )
    }
    s.ers = [
        ephemeral_runner(runner, created=t(6.01), phase="Pending", ready=False, failures={pod_uid(runner): t(5.5)})
    ]
    return expect(s, "pod.run.crash-on-start", excludes=["ci.run.user-script"], last_stage="containers-started")


def pytest_head(test: str) -> list[str]:
    return [
        f"##[group]Run pytest -sv {test}",
        f"pytest -sv {test}",
        "shell: bash -el {0}",
        "env:",
        "  VLLM_USE_MODELSCOPE: True",
        "  HF_HUB_OFFLINE: 1",
        "##[endgroup]",
        "============================= test session starts ==============================",
        "platform linux -- Python 3.11.13, pytest-8.4.2, pluggy-1.6.0 -- /usr/local/python3.11.13/bin/python3.11",
        "rootdir: /__w/vllm-ascend/vllm-ascend",
        "configfile: pyproject.toml",
        "plugins: anyio-4.10.0, timeout-2.4.0, mock-3.14.1",
        "collecting ... collected 4 items",
        "",
    ]


@scenario
def pod_run_oom_killed() -> Scenario:
    runner = runner_name("linux-aarch64-a2-2", "u4jxc", "e8m2k")
    wname = f"{runner}-workflow"
    s = Scenario(
        "pod-run-oom-killed",
        "The job container was killed by the kernel OOM killer (terminated reason OOMKilled, exit 137) while "
        "loading a 32B model into a container limited to 192Gi, so the memory limit must be raised.",
        f"pod/{wname}",
    )
    steps = steplog(
        25,
        checkout_steps(REPO_VLLM, GIT_SHA)
        + pytest_head("tests/e2e/multicard/test_qwen3_32b.py")
        + [
            "INFO 11-20 07:37:12 [__init__.py:216] Automatically detected platform npu.",
            "INFO 11-20 07:37:40 [model_runner_v1.py:2201] Starting to load model /root/.cache/modelscope/models/Qwen/Qwen3-32B...",
            "Loading safetensors checkpoint shards:  41% Completed | 7/17 [01:12<01:43, 10.3s/it]",
            "/__w/_temp/6b0f3f4e-91c2-4e43-a1b7-0c1c2f5e9a11.sh: line 1:   412 Killed                  pytest -sv "
            "tests/e2e/multicard/test_qwen3_32b.py",
            "##[error]Process completed with exit code 137.",
        ],
    )
    add_job(
        s,
        runner,
        node="npu-a2-02",
        hook=True,
        job="multicard-test (a2-2)",
        repo=REPO_VLLM,
        run_id=19384760000,
        created=27,
        steps=steps,
        result="Failed",
        end=20,
        job_phase="Failed",
        job_state=terminated(137, "OOMKilled", t(25), t(20.1)),
    )
    for p in s.pods:
        if p["metadata"]["name"] == wname:
            p["spec"]["containers"][0]["resources"]["limits"]["memory"] = "192Gi"
    return expect(
        s,
        "pod.run.oom-killed",
        excludes=["ci.run.host-oom", "pod.container.poststart-killed"],
        last_stage="containers-started",
    )


@scenario
def pod_run_shm_exhausted_bus_error() -> Scenario:
    runner = runner_name("linux-aarch64-a2-2", "r7bvd", "h5q8n")
    wname = f"{runner}-workflow"
    s = Scenario(
        "pod-run-shm-exhausted-bus-error",
        "A Qwen2.5-VL multimodal test on a 2-card runner dies with a DataLoader bus error caused by the 1Gi "
        "/dev/shm running out, which needs a label with a larger /dev/shm or lower concurrency.",
        f"pod/{wname}",
    )
    steps = steplog(
        18,
        [
            *pytest_head("tests/e2e/singlecard/test_qwen2_5_vl.py"),
            "INFO 11-20 07:43:02 [__init__.py:216] Automatically detected platform npu.",
            "tests/e2e/singlecard/test_qwen2_5_vl.py::test_multimodal_vl[image] PASSED",
            "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).",
            "tests/e2e/singlecard/test_qwen2_5_vl.py::test_multimodal_vl[video] FAILED",
            "=================================== FAILURES ===================================",
            "________________________ test_multimodal_vl[video] _________________________",
            "E   RuntimeError: DataLoader worker (pid 4721) is killed by signal: Bus error. It is possible that "
            "dataloader's workers are out of shared memory. Please try to raise your shared memory limit.",
            "=========================== short test summary info ============================",
            "FAILED tests/e2e/singlecard/test_qwen2_5_vl.py::test_multimodal_vl[video] - RuntimeError: DataLoader worker "
            "(pid 4721) is killed by signal: Bus error.",
            "==================== 1 failed, 1 passed in 412.31s (0:06:52) ====================",
            "##[error]Process completed with exit code 1.",
            *post_job_noise(),
        ],
    )
    add_job(
        s,
        runner,
        node="npu-a2-01",
        hook=True,
        job="multimodal (a2-2)",
        repo=REPO_VLLM,
        run_id=19384771111,
        created=20,
        steps=steps,
        result="Failed",
        end=9,
    )
    return expect(s, "pod.run.shm-exhausted", excludes=["pod.run.oom-killed", "pod.run.disk-full"])


@scenario
def pod_run_shm_exhausted_enospc() -> Scenario:
    runner = runner_name("linux-aarch64-a2-2", "a5tvw", "k2m7p")
    wname = f"{runner}-workflow"
    s = Scenario(
        "pod-run-shm-exhausted-enospc",
        "Errno 28 No space left on device is raised for a file under /dev/shm (the 1Gi memory-backed shm is "
        "full), which is shared-memory exhaustion and not a full disk.",
        f"pod/{wname}",
    )
    steps = steplog(
        16,
        [
            *pytest_head("tests/e2e/singlecard/test_qwen2_5_vl_video.py"),
            "+ df -h /dev/shm /__w",
            "Filesystem      Size  Used Avail Use% Mounted on",
            "shm             1.0G  1.0G     0 100% /dev/shm",
            "/dev/vdb        100G   23G   77G  23% /__w",
            "Traceback (most recent call last):",
            '  File "/vllm-workspace/vllm/vllm/multimodal/cache.py", line 312, in put',
            "    self._ring.write(key, payload)",
            '  File "/vllm-workspace/vllm/vllm/distributed/device_communicators/shm_object_storage.py", line 214, in write',
            "    os.posix_fallocate(self._fd, offset, size)",
            "OSError: [Errno 28] No space left on device: '/dev/shm/vllm_mm_cache_4f1d2c9a'",
            "FAILED tests/e2e/singlecard/test_qwen2_5_vl_video.py::test_video_inputs - OSError: [Errno 28] No space left "
            "on device: '/dev/shm/vllm_mm_cache_4f1d2c9a'",
            "========================= 1 failed, 3 passed in 288.02s ==========================",
            "##[error]Process completed with exit code 1.",
            *post_job_noise(),
        ],
    )
    add_job(
        s,
        runner,
        node="npu-a2-03",
        hook=True,
        job="multimodal (a2-2)",
        repo=REPO_VLLM,
        run_id=19384772222,
        created=18,
        steps=steps,
        result="Failed",
        end=8,
    )
    return expect(s, "pod.run.shm-exhausted", excludes=["pod.run.disk-full", "pod.run.disk-quota"])


@scenario
def pod_run_disk_full_tempdir() -> Scenario:
    runner = runner_name("linux-aarch64-cpu-16", "e3ncw", "v4t9s")
    s = Scenario(
        "pod-run-disk-full-tempdir",
        "An a5 image build fails with failed to create temp dir ... no space left on device because the "
        "builder's disk filled up (the a5 image is larger than the buildkit keep-storage threshold allows).",
        f"pod/{runner}",
    )
    steps = steplog(
        44,
        [
            *checkout_steps(REPO_VLLM, GIT_SHA),
            "##[group]Run docker buildx build -f Dockerfile.a5 -t vllm-ascend:nightly-ci-main-a5 --push .",
            '#0 building with "builder-a5" instance using remote driver',
            "#5 [base 1/9] FROM " + f"{SWR}/ascend-ci/cann:9.0.0-a5-ubuntu22.04-py3.11@sha256:"
            "5b1e0c6a9d7f3e2b4c8a1f0d9e7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c",
            "#12 [build 6/9] RUN pip install -v -e . --no-build-isolation",
            "#12 1422.7 Successfully built vllm_ascend",
            "#14 exporting to image",
            "#14 exporting layers 241.3s done",
            "#14 ERROR: failed to create temp dir: mkdir /var/lib/buildkit/runc-overlayfs/content/ingest/"
            "3c1f2e9b8a7d6c5b: no space left on device",
            "------",
            " > exporting to image:",
            "------",
            "ERROR: failed to solve: failed to create temp dir: mkdir /var/lib/buildkit/runc-overlayfs/content/ingest/"
            "3c1f2e9b8a7d6c5b: no space left on device",
            "##[error]Process completed with exit code 1.",
            "Post job cleanup.",
            "Cleaning up orphan processes",
        ],
    )
    add_job(
        s,
        runner,
        node="cpu-arm-02",
        hook=False,
        job="build-image (a5)",
        repo=REPO_VLLM,
        run_id=19384780000,
        workflow="image_build.yaml",
        created=46,
        steps=steps,
        result="Failed",
        end=15,
    )
    return expect(
        s, "pod.run.disk-full", excludes=["ci.build.buildkit-cache", "pod.run.disk-quota", "pod.run.shm-exhausted"]
    )


@scenario
def pod_run_disk_full_errno28() -> Scenario:
    runner = runner_name("linux-aarch64-a3-4", "j7gxq", "s3d8w")
    wname = f"{runner}-workflow"
    s = Scenario(
        "pod-run-disk-full-errno28",
        "Downloading Qwen3-30B-A3B into the model cache on the node's local disk fails with OSError Errno 28 "
        "No space left on device (a normal path, not /dev/shm and not a quota), followed by unrelated "
        "teardown noise.",
        f"pod/{wname}",
    )
    steps = steplog(
        31,
        [
            *pytest_head("tests/e2e/multicard/test_qwen3_moe.py"),
            "Downloading Model from https://www.modelscope.cn to directory: /root/.cache/modelscope/hub/models/Qwen/"
            "Qwen3-30B-A3B",
            "Downloading [model-00007-of-00016.safetensors]:  63%|██████▎   | 2.49G/3.96G [00:41<00:23, 64.1MB/s]",
            "Traceback (most recent call last):",
            '  File "/usr/local/python3.11.13/lib/python3.11/site-packages/modelscope/hub/file_download.py", line 612, in '
            "download_part_with_retry",
            "    f.write(chunk)",
            "OSError: [Errno 28] No space left on device: '/root/.cache/modelscope/hub/models/Qwen/Qwen3-30B-A3B/"
            "._____temp/model-00007-of-00016.safetensors'",
            "FAILED tests/e2e/multicard/test_qwen3_moe.py::test_models_distributed_Qwen3_MOE_TP2 - OSError: [Errno 28] "
            "No space left on device",
            "===================== 1 failed, 0 passed, 0 errors in 97.11s =====================",
            "##[error]Process completed with exit code 1.",
            *post_job_noise(),
        ],
    )
    add_job(
        s,
        runner,
        node="npu-a3-03",
        hook=True,
        job="multicard-test (a3-4)",
        repo=REPO_VLLM,
        run_id=19384781111,
        job_image=VLLM_IMAGE.replace("main-a2", "main-a3"),
        created=33,
        steps=steps,
        result="Failed",
        end=24,
    )
    return expect(s, "pod.run.disk-full", excludes=["pod.run.shm-exhausted", "pod.run.disk-quota"])


@scenario
def pod_run_disk_quota() -> Scenario:
    runner = runner_name("linux-aarch64-a3-16", "w2cfr", "n9k4t")
    wname = f"{runner}-workflow"
    s = Scenario(
        "pod-run-disk-quota",
        "Writing DeepSeek weights to the shared SFS cache fails with OSError Errno 122 Disk quota exceeded: "
        "the share's quota is used up, which is different from a full disk (Errno 28).",
        f"pod/{wname}",
    )
    quota = (
        "OSError: [Errno 122] Disk quota exceeded: '/mnt/share/cache/huggingface/hub/"
        "models--deepseek-ai--DeepSeek-V3.2-Exp/blobs/7c4e0d9a1b2f3e4d5c6b7a8f9e0d1c2b3a4f5e6d.incomplete'"
    )
    steps = steplog(
        52,
        [
            *pytest_head("tests/e2e/nightly/test_deepseek_v3_2.py"),
            "Fetching 171 files:  12%|█▏        | 21/171 [03:10<22:40,  9.07s/it]",
            "Traceback (most recent call last):",
            '  File "/usr/local/python3.11.13/lib/python3.11/site-packages/huggingface_hub/file_download.py", line 1737, '
            "in _download_to_tmp_and_move",
            "    http_get(",
            quota,
            "ERROR tests/e2e/nightly/test_deepseek_v3_2.py::test_deepseek_v3_2_w8a8 - " + quota,
            "========================= 1 error in 201.40s (0:03:21) =========================",
            "##[error]Process completed with exit code 1.",
            *post_job_noise(),
        ],
    )
    add_job(
        s,
        runner,
        node="npu-a3-01",
        hook=True,
        job="nightly (deepseek-v3.2)",
        repo=REPO_VLLM,
        run_id=19384790000,
        workflow="nightly_a3.yaml",
        job_image=VLLM_IMAGE.replace("main-a2", "main-a3"),
        created=54,
        steps=steps,
        result="Failed",
        end=47,
        wf_extra_volumes=[{"name": "share", "persistentVolumeClaim": {"claimName": "model-cache-a3"}}],
        wf_extra_mounts=[{"name": "share", "mountPath": "/mnt/share"}],
    )
    s.pvcs = (s.pvcs or []) + shared_pvcs()
    return expect(s, "pod.run.disk-quota", excludes=["pod.run.disk-full"])


@scenario
def pod_run_stale_file_handle() -> Scenario:
    runner = runner_name("linux-aarch64-a2-4", "q3pzk", "f6b2v")
    wname = f"{runner}-workflow"
    s = Scenario(
        "pod-run-stale-file-handle",
        "Loading the model config from the NFS-backed share fails with OSError Errno 116 Stale file handle "
        "after the share was remounted underneath the running pod.",
        f"pod/{wname}",
    )
    steps = steplog(
        21,
        [
            *pytest_head("tests/e2e/multicard/test_offline_inference_distributed.py"),
            "INFO 11-20 07:40:01 [__init__.py:216] Automatically detected platform npu.",
            "Traceback (most recent call last):",
            '  File "/usr/local/python3.11.13/lib/python3.11/site-packages/transformers/configuration_utils.py", line 721,'
            " in _get_config_dict",
            "    config_dict = cls._dict_from_json_file(resolved_config_file)",
            "OSError: [Errno 116] Stale file handle: '/mnt/share/models/Qwen/Qwen3-8B/config.json'",
            "FAILED tests/e2e/multicard/test_offline_inference_distributed.py::test_models_distributed_Qwen3_8B - OSError: "
            "[Errno 116] Stale file handle",
            "##[error]Process completed with exit code 1.",
            *post_job_noise(),
        ],
    )
    add_job(
        s,
        runner,
        node="npu-a2-01",
        hook=True,
        job="multicard-test (a2-4)",
        repo=REPO_VLLM,
        run_id=19384799999,
        created=23,
        steps=steps,
        result="Failed",
        end=17,
        wf_extra_volumes=[{"name": "share", "persistentVolumeClaim": {"claimName": "model-cache-a2"}}],
        wf_extra_mounts=[{"name": "share", "mountPath": "/mnt/share"}],
    )
    s.pvcs = (s.pvcs or []) + shared_pvcs()
    return expect(s, "pod.run.stale-file-handle")


@scenario
def pod_run_stale_lock_hang_file_baton() -> Scenario:
    runner = runner_name("linux-aarch64-a3-8", "m8xws", "p4c6j")
    wname = f"{runner}-workflow"
    s = Scenario(
        "pod-run-stale-lock-hang-file-baton",
        "A multi-card test hangs for hours at engine init because a leftover torch_extensions lock file "
        "from a SIGKILLed run is never released; the pytest-timeout stack dump ends in torch/utils/"
        "file_baton.py wait().",
        f"pod/{wname}",
    )
    steps = steplog(
        200,
        [
            *pytest_head("tests/e2e/multicard/test_torchair_graph_mode.py"),
            "INFO 11-20 04:41:10 [__init__.py:216] Automatically detected platform npu.",
            "(EngineCore_DP0 pid=2211) INFO 11-20 04:41:33 [core.py:75] Initializing a V1 LLM engine with config: "
            "model='/root/.cache/modelscope/models/deepseek-ai/DeepSeek-V2-Lite'",
            "(EngineCore_DP0 pid=2211) Using /root/.cache/torch_extensions/py311_cpu as PyTorch extensions root...",
            (10800.0, "+++++++++++++++++++++++++++++++++++ Timeout +++++++++++++++++++++++++++++++++++"),
            "~~~~~~~~~~~~~~~~~~~~~~ Stack of <unknown> (281472956174720) ~~~~~~~~~~~~~~~~~~~~~~~",
            '  File "/usr/local/python3.11.13/lib/python3.11/site-packages/torch/utils/cpp_extension.py", line 2117, in '
            "_jit_compile",
            "    baton.wait()",
            '  File "/usr/local/python3.11.13/lib/python3.11/site-packages/torch/utils/file_baton.py", line 43, in wait',
            "    time.sleep(self.wait_seconds)",
            "+++++++++++++++++++++++++++++++++++ Timeout +++++++++++++++++++++++++++++++++++",
            "FAILED tests/e2e/multicard/test_torchair_graph_mode.py::test_e2e_deepseekv2lite_with_torchair - Failed: "
            "Timeout >10800.0s",
        ],
    )
    add_job(
        s,
        runner,
        node="npu-a3-02",
        hook=True,
        job="multicard-test (a3-8)",
        repo=REPO_VLLM,
        run_id=19384800001,
        job_image=VLLM_IMAGE.replace("main-a2", "main-a3"),
        created=202,
        steps=steps,
        result=None,
    )
    return expect(s, "pod.run.stale-lock-hang", excludes=["ci.run.engine-hang"], last_stage="containers-started")


@scenario
def pod_run_stale_lock_hang_filelock() -> Scenario:
    runner = runner_name("linux-aarch64-a2-2", "c4hzq", "y7w3m")
    wname = f"{runner}-workflow"
    s = Scenario(
        "pod-run-stale-lock-hang-filelock",
        "The job has been waiting for 95 minutes on a modelscope lock file on the shared cache left behind "
        "by a killed run; filelock keeps printing 'not acquired ... waiting' and nothing else happens.",
        f"pod/{wname}",
    )
    lock = "/mnt/share/modelscope/hub/.lock/Qwen___Qwen2.5-VL-7B-Instruct"
    waits = [
        (300.0 + 60 * i, f"DEBUG:filelock:Lock 281472955320912 not acquired on {lock}, waiting 60 seconds ...")
        for i in range(90)
    ]
    steps = steplog(
        100,
        [
            *pytest_head("tests/e2e/singlecard/test_qwen2_5_vl.py"),
            "INFO 11-20 06:20:44 [__init__.py:216] Automatically detected platform npu.",
            f"DEBUG:filelock:Attempting to acquire lock 281472955320912 on {lock}",
            *waits,
        ],
    )
    add_job(
        s,
        runner,
        node="npu-a2-03",
        hook=True,
        job="multimodal (a2-2)",
        repo=REPO_VLLM,
        run_id=19384811111,
        created=102,
        steps=steps,
        result=None,
        wf_extra_volumes=[{"name": "share", "persistentVolumeClaim": {"claimName": "model-cache-a2"}}],
        wf_extra_mounts=[{"name": "share", "mountPath": "/mnt/share"}],
    )
    s.pvcs = (s.pvcs or []) + shared_pvcs()
    return expect(s, "pod.run.stale-lock-hang", excludes=["ci.run.engine-hang"], last_stage="containers-started")


@scenario
def pod_arch_mismatch_wheel() -> Scenario:
    runner = runner_name("linux-aarch64-a2-0", "v2ksc", "g8h4r")
    wname = f"{runner}-workflow"
    image = "quay.io/ascend-ci/lint:py3.11-x86_64"
    s = Scenario(
        "pod-arch-mismatch-wheel",
        "A lint job whose workflow pod has no nodeSelector landed on an aarch64 NPU node while its image and "
        "cached wheels are x86_64, so pre-commit fails with ModuleNotFoundError No module named 'rpds.rpds'.",
        f"pod/{wname}",
    )
    steps = steplog(
        12,
        [
            *checkout_steps(REPO_VLLM, GIT_SHA),
            "##[group]Run pre-commit run --all-files --show-diff-on-failure",
            "##[endgroup]",
            "[INFO] Initializing environment for https://github.com/python-jsonschema/check-jsonschema.",
            "Traceback (most recent call last):",
            '  File "/usr/local/lib/python3.11/site-packages/jsonschema/__init__.py", line 13, in <module>',
            "    from jsonschema._format import FormatChecker",
            '  File "/usr/local/lib/python3.11/site-packages/referencing/_core.py", line 9, in <module>',
            "    from rpds import HashTrieMap, HashTrieSet, List",
            '  File "/usr/local/lib/python3.11/site-packages/rpds/__init__.py", line 1, in <module>',
            "    from .rpds import *",
            "ModuleNotFoundError: No module named 'rpds.rpds'",
            "##[error]Process completed with exit code 1.",
        ],
    )
    add_job(
        s,
        runner,
        node="npu-a2-03",
        hook=True,
        job="lint",
        repo=REPO_VLLM,
        run_id=19384820000,
        workflow="pre-commit.yml",
        job_image=image,
        created=14,
        steps=steps,
        result="Failed",
        end=10,
    )
    for p in s.pods:
        if p["metadata"]["name"] == wname:
            p["spec"].pop("nodeSelector", None)
            p["spec"]["containers"][0]["resources"] = {
                "limits": {"cpu": "4", "memory": "8Gi"},
                "requests": {"cpu": "2", "memory": "4Gi"},
            }
    return expect(s, "pod.arch-mismatch")


@scenario
def pod_arch_mismatch_exec_format() -> Scenario:
    runner = runner_name("linux-amd64-cpu-8", "b5xwq", "m2t7z")
    wname = f"{runner}-workflow"
    image = CANN_IMAGE
    s = Scenario(
        "pod-arch-mismatch-exec-format",
        "An arm64-only CANN image was started on an amd64 CPU runner node, so the job container dies at once "
        "with exec format error; use an image built for the node's architecture or an arm64 label.",
        f"pod/{wname}",
    )
    add_job(
        s,
        runner,
        node="cpu-x86-01",
        hook=True,
        job="build-wheel",
        repo=REPO_VLLM,
        run_id=19384830000,
        job_image=image,
        created=9,
        result="Failed",
        end=7,
        runner_lines=hook_wait_error(wname, "Failed"),
        job_phase="Failed",
        job_state=terminated(255, "Error", t(7.6), t(7.59)),
    )
    s.logs[wname] = {"job": text(["exec /usr/bin/tail: exec format error"])}
    return expect(s, "pod.arch-mismatch", excludes=["pod.run.crash-on-start"])


@scenario
def pod_liqo_offloading_backoff() -> Scenario:
    runner = runner_name("linux-aarch64-a3-16-gy004", "h9dkw", "r2v5c")
    s = Scenario(
        "pod-liqo-offloading-backoff",
        "The runner pod was scheduled onto the Liqo virtual node for remote cluster gy004 but the remote "
        "namespace lacks Liqo's takeover labels, so the NamespaceOffloading is in CreationLoopBackOff and the "
        "pod sits in OffloadingBackOff while the job waits.",
        f"pod/{runner}",
    )
    vnode = "liqo-gy004"
    s.nodes.append(
        make_node(
            vnode,
            "arm64",
            {
                "liqo.io/type": "virtual-node",
                "liqo.io/remote-cluster-id": "gy004",
                "ascend-ci/npu-type": "a3",
                "node.kubernetes.io/exclude-from-external-load-balancers": "true",
            },
            {"cpu": "2560", "memory": "12672Gi", NPU: "128"},
        )
    )
    s.nodes[-1]["spec"]["taints"] = [
        {"key": "virtual-node.liqo.io/not-allowed", "value": "true", "effect": "NoExecute"}
    ]
    msg = (
        "pod offloading to remote cluster gy004 failed: remote namespace arc-runners is not ready "
        "(CreationLoopBackOff: namespace already exists and is not managed by Liqo)"
    )
    p = runner_pod(
        runner,
        created=t(47),
        phase="Pending",
        node=vnode,
        hook=False,
        start_time=t(46.99),
        node_selector={"liqo.io/remote-cluster-id": "gy004"},
        reason="OffloadingBackOff",
        message=msg,
        conditions=[condition("PodScheduled", "True", t(46.99))],
        statuses=[],
    )
    p["spec"]["tolerations"].append(
        {"key": "virtual-node.liqo.io/not-allowed", "operator": "Exists", "effect": "NoExecute"}
    )
    s.pods.append(p)
    s.scheduled(runner, vnode, 46.99)
    s.ev(runner, "OffloadingBackOff", msg, 46.9, 0.5, warn=True, count=31, component="liqo-virtual-kubelet", host=vnode)
    s.offloadings = [
        {
            "apiVersion": "offloading.liqo.io/v1beta1",
            "kind": "NamespaceOffloading",
            "metadata": meta("offloading", NS, created="2026-10-30T09:12:00Z"),
            "spec": {
                "namespaceMappingStrategy": "EnforceSameName",
                "podOffloadingStrategy": "LocalAndRemote",
                "clusterSelector": {
                    "nodeSelectorTerms": [
                        {
                            "matchExpressions": [
                                {"key": "liqo.io/remote-cluster-id", "operator": "In", "values": ["gy004", "cn12-001"]}
                            ]
                        }
                    ]
                },
            },
            "status": {
                "offloadingPhase": "SomeFailed",
                "remoteNamespaceName": NS,
                "observedGeneration": 3,
                "remoteNamespacesConditions": {
                    "cn12-001": [
                        {
                            "type": "OffloadingRequired",
                            "status": "True",
                            "lastTransitionTime": "2026-10-30T09:12:02Z",
                            "reason": "ClusterSelected",
                            "message": "You have selected this cluster for offloading",
                        },
                        {
                            "type": "Ready",
                            "status": "True",
                            "lastTransitionTime": "2026-10-30T09:12:05Z",
                            "reason": "NamespaceCreated",
                            "message": "Namespace correctly offloaded on this cluster",
                        },
                    ],
                    "gy004": [
                        {
                            "type": "OffloadingRequired",
                            "status": "True",
                            "lastTransitionTime": t(60 * 26),
                            "reason": "ClusterSelected",
                            "message": "You have selected this cluster for offloading",
                        },
                        {
                            "type": "Ready",
                            "status": "False",
                            "lastTransitionTime": t(60 * 26),
                            "reason": "CreationLoopBackOff",
                            "message": "Some problems occurred during remote Namespace creation: namespace arc-runners "
                            "already exists and is not managed by Liqo (ReflectionDisabled)",
                        },
                    ],
                },
            },
        }
    ]
    s.ers = [ephemeral_runner(runner, created=t(47.01), phase="Pending", ready=False)]
    return expect(s, "pod.liqo.offloading-backoff", excludes=["pod.schedule.selector-mismatch"])


# ---------------------------------------------------------------------------------------------
# ci.*

A3_IMAGE = VLLM_IMAGE.replace("main-a2", "main-a3")
HOOK_FAILED = (
    "##[error]Executing the custom container implementation failed. Please contact your self hosted "
    "runner administrator."
)


@scenario
def ci_runner_novolume_hash() -> Scenario:
    runner = runner_name("linux-aarch64-a2-1", "n4wzk", "f8q2t")
    s = Scenario(
        "ci-runner-novolume-hash",
        "In runner-container-hooks novolume mode every copy of the workspace back from the job pod fails the "
        "directory hash check and is retried until the job fails after ~11 minutes in post-checkout; this is "
        "the upstream novolume defect, not the user's workflow.",
        f"pod/{runner}",
    )
    lines = []
    for i in range(6):
        want = stable_uid("want", str(i)).replace("-", "") + stable_uid("w2", str(i)).replace("-", "")
        got = stable_uid("got", str(i)).replace("-", "") + stable_uid("g2", str(i)).replace("-", "")
        lines.append(f"##[debug]The hash of the directory does not match the expected value; want='{want}' got='{got}'")
        lines.append(
            f"##[debug]Retrying copy of /home/runner/_work from pod {runner}-workflow:/__w (attempt {i + 2}/7) in 110s"
        )
    lines += [
        "##[error]Error: The hash of the directory does not match the expected value after 7 attempts",
        HOOK_FAILED,
    ]
    steps = steplog(24, checkout_steps(REPO_VLLM, GIT_SHA))
    add_job(
        s,
        runner,
        node="npu-a2-01",
        hook=True,
        novolume=True,
        job="unit-test (a2-1)",
        repo=REPO_VLLM,
        run_id=19384900000,
        created=26,
        steps=steps,
        runner_lines=lines,
        result="Failed",
        end=12,
    )
    return expect(s, "ci.runner.novolume", excludes=["ci.run.user-script", "ci.control-plane.blip"])


@scenario
def ci_runner_novolume_missing_action() -> Scenario:
    runner = runner_name("linux-aarch64-a2-1", "j3vbq", "x5c8r")
    s = Scenario(
        "ci-runner-novolume-missing-action",
        "A local composite action (uses: ./.github/actions/collect-env) cannot find its script in the job "
        "pod because novolume mode does not map /home/runner/_work to /__w, so python reports can't open "
        "file ... No such file or directory.",
        f"pod/{runner}",
    )
    steps = steplog(
        14,
        [
            *checkout_steps(REPO_VLLM, GIT_SHA),
            "##[group]Run ./.github/actions/collect-env",
            "##[endgroup]",
            "##[group]Run python3 /home/runner/_work/vllm-ascend/vllm-ascend/.github/actions/collect-env/collect_env.py",
            "##[endgroup]",
            "python3: can't open file '/home/runner/_work/vllm-ascend/vllm-ascend/.github/actions/collect-env/"
            "collect_env.py': [Errno 2] No such file or directory",
            "##[error]Process completed with exit code 2.",
        ],
    )
    add_job(
        s,
        runner,
        node="npu-a2-02",
        hook=True,
        novolume=True,
        job="unit-test (a2-1)",
        repo=REPO_VLLM,
        run_id=19384911111,
        created=16,
        steps=steps,
        result="Failed",
        end=11,
    )
    return expect(s, "ci.runner.novolume", excludes=["pod.run.crash-on-start"])


@scenario
def ci_run_user_script() -> Scenario:
    runner = runner_name("linux-aarch64-a2-1", "p6dfm", "q3z9w")
    s = Scenario(
        "ci-run-user-script",
        "The runner and job containers started fine and the workflow ran; the pytest step itself failed an "
        "assertion and exited 1, so it is the user's test to fix and the platform is healthy.",
        f"pod/{runner}",
    )
    steps = steplog(
        30,
        checkout_steps(REPO_VLLM, GIT_SHA)
        + pip_noise()
        + pytest_head("tests/ut/ops/test_rotary_embedding.py")
        + [
            "tests/ut/ops/test_rotary_embedding.py::test_rope_forward_oot[bf16] PASSED",
            "tests/ut/ops/test_rotary_embedding.py::test_rope_forward_oot[fp16] PASSED",
            "tests/ut/ops/test_rotary_embedding.py::test_rope_neox_style FAILED",
            "=================================== FAILURES ===================================",
            "____________________________ test_rope_neox_style _____________________________",
            "    def test_rope_neox_style():",
            ">       torch.testing.assert_close(out, ref, atol=1e-3, rtol=1e-3)",
            "E       AssertionError: Tensor-likes are not close!",
            "E       Mismatched elements: 96 / 4096 (2.3%)",
            "E       Greatest absolute difference: 0.0078125 at index (3, 17) (up to 0.001 allowed)",
            "tests/ut/ops/test_rotary_embedding.py:88: AssertionError",
            "=========================== short test summary info ============================",
            "FAILED tests/ut/ops/test_rotary_embedding.py::test_rope_neox_style - AssertionError: Tensor-likes are not "
            "close!",
            "========================= 1 failed, 2 passed in 38.90s =========================",
            "##[error]Process completed with exit code 1.",
        ]
        + post_job_noise(),
    )
    add_job(
        s,
        runner,
        node="npu-a2-03",
        hook=True,
        job="unit-test (a2-1)",
        repo=REPO_VLLM,
        run_id=19384920000,
        created=32,
        steps=steps,
        result="Failed",
        end=26,
    )
    return expect(s, "ci.run.user-script", excludes=["pod.run.crash-on-start", "pod.run.oom-killed"])


@scenario
def ci_run_kubeconfig_wrong_cluster() -> Scenario:
    runner = runner_name("linux-amd64-cpu-4", "r2xqh", "m6w9b")
    s = Scenario(
        "ci-run-kubeconfig-wrong-cluster",
        "kubectl inside the job times out dialing 10.120.4.17:5443 because the kubeconfig in the repository "
        "secret points at another (Hong Kong) cluster; DNS and the runner's own API access are fine.",
        f"pod/{runner}",
    )
    err = (
        'E1120 07:41:32.118202     412 memcache.go:265] "Unhandled Error" err="couldn\'t get current server API '
        'group list: Get \\"https://10.120.4.17:5443/api?timeout=32s\\": dial tcp 10.120.4.17:5443: i/o timeout"'
    )
    steps = steplog(
        22,
        [
            *checkout_steps(REPO_CI, GIT_SHA),
            "##[group]Run azure/setup-kubectl@v4",
            "Kubectl tool version: 'v1.31.6' has been cached at /opt/hostedtoolcache/kubectl/1.31.6/x64/kubectl",
            "##[endgroup]",
            '##[group]Run echo "$KUBECONFIG_B64" | base64 -d > $HOME/.kube/config && kubectl apply -f deploy/rayjob.yaml',
            "env:",
            "  KUBECONFIG_B64: ***",
            "##[endgroup]",
            err,
            err,
            err,
            "Unable to connect to the server: dial tcp 10.120.4.17:5443: i/o timeout",
            "##[error]Process completed with exit code 1.",
            "Post job cleanup.",
        ],
    )
    add_job(
        s,
        runner,
        node="cpu-x86-02",
        hook=False,
        job="deploy-ray-e2e",
        repo=REPO_CI,
        run_id=19384930000,
        workflow="ray-e2e.yaml",
        created=24,
        steps=steps,
        result="Failed",
        end=18,
    )
    return expect(s, "ci.run.kubeconfig-wrong-cluster", excludes=["ci.node.dns", "ci.control-plane.blip"])


@scenario
def ci_run_upload_blocked() -> Scenario:
    runner = runner_name("linux-aarch64-a2-4", "h5kvd", "t2r8n")
    s = Scenario(
        "ci-run-upload-blocked",
        "Tests passed but uploading the benchmark artifact stalls ('Upload progress stalled') because the "
        "upload endpoint is not on the network allow-list, after which the container hook fails with exit "
        "code 1.",
        f"pod/{runner}",
    )
    steps = steplog(
        40,
        [
            *pytest_head("benchmarks/test_serving_perf.py"),
            "benchmarks/test_serving_perf.py::test_qwen3_8b_throughput PASSED",
            "==================== 1 passed, 0 errors, 3 warnings in 611.20s ====================",
            "##[group]Run actions/upload-artifact@v4",
            "with:",
            "  name: perf-results",
            "  path: /tmp/perf",
            "##[endgroup]",
            "With the provided path, there will be 12 files uploaded",
            "Beginning upload of artifact content to blob storage",
            "Uploaded bytes 8388608",
            "Uploaded bytes 16777216",
            (1260.0, "Error: Upload progress stalled."),
        ],
    )
    lines = [HOOK_FAILED, "##[error]Process completed with exit code 1."]
    add_job(
        s,
        runner,
        node="npu-a2-02",
        hook=True,
        job="perf-benchmark (a2-4)",
        repo=REPO_VLLM,
        run_id=19384940000,
        created=42,
        steps=steps,
        runner_lines=lines,
        result="Failed",
        end=19,
    )
    return expect(
        s, "ci.run.upload-blocked", excludes=["ci.control-plane.blip", "ci.runner.novolume", "ci.run.user-script"]
    )


@scenario
def ci_run_host_oom() -> Scenario:
    runner = runner_name("linux-aarch64-a2b3-8", "k9wcx", "s4p7j")
    wname = f"{runner}-workflow"
    s = Scenario(
        "ci-run-host-oom",
        "The process exits with torch.OutOfMemoryError from allocate_host_memory_slowpath, aclrtMallocHostWithCfg "
        "error code 207001 and Memory_Allocation_Failure(EL0004): the node's host memory (pinned memory / "
        "hicache) ran out; the container was not OOMKilled and its limit was not reached.",
        f"pod/{wname}",
    )
    steps = steplog(
        35,
        [
            *pytest_head("tests/e2e/nightly/test_hicache.py"),
            "INFO 11-20 07:27:03 [__init__.py:216] Automatically detected platform npu.",
            "INFO 11-20 07:29:51 [kv_cache_manager.py:88] hicache: allocating 384.00 GiB host KV cache (concurrency=64)",
            "(EngineCore_DP0 pid=3321) Traceback (most recent call last):",
            '(EngineCore_DP0 pid=3321)   File "/vllm-workspace/vllm-ascend/vllm_ascend/worker/model_runner_v1.py", '
            "line 2890, in initialize_kv_cache",
            "(EngineCore_DP0 pid=3321)     host_buf = torch.empty(size, dtype=torch.uint8, pin_memory=True)",
            "(EngineCore_DP0 pid=3321) torch.OutOfMemoryError: allocate_host_memory_slowpath:build/CMakeFiles/"
            "torch_npu.dir/compiler_depend.ts:172 NPU function error: aclrtMallocHostWithCfg(&ptr, size, &cfg), error "
            "code is 207001",
            "(EngineCore_DP0 pid=3321) [ERROR] 2026-11-20-07:29:53 (PID:3321, Device:0, RankID:-1) ERR00100 PTA call acl "
            "api failed",
            "(EngineCore_DP0 pid=3321) [Error]: Memory allocation failed. ",
            "(EngineCore_DP0 pid=3321)         Check whether the host memory is sufficient.",
            "(EngineCore_DP0 pid=3321) EL0004: [PID: 3321] 2026-11-20-07:29:53.874.112 Memory_Allocation_Failure(EL0004): "
            "Failed to allocate memory.",
            "(EngineCore_DP0 pid=3321)         Possible Cause: Available memory is insufficient.",
            "(EngineCore_DP0 pid=3321)         Solution: Close applications not in use.",
            "FAILED tests/e2e/nightly/test_hicache.py::test_qwen3_235b_hicache - RuntimeError: Engine core "
            "initialization failed. See root cause above.",
            "================== 1 failed, 0 errors in 177.02s (0:02:57) ==================",
            "##[error]Process completed with exit code 1.",
            *post_job_noise(),
        ],
    )
    add_job(
        s,
        runner,
        node="npu-a2-02",
        hook=True,
        job="nightly (hicache)",
        repo=REPO_SGL,
        run_id=19384950000,
        workflow="nightly-test-npu.yml",
        created=37,
        steps=steps,
        result="Failed",
        end=29,
    )
    return expect(s, "ci.run.host-oom", excludes=["pod.run.oom-killed"])


@scenario
def ci_build_parallel_oom() -> Scenario:
    runner = runner_name("linux-aarch64-a3-800i-16", "w7bnd", "c2x5v")
    s = Scenario(
        "ci-build-parallel-oom",
        "Building vllm-ascend from source, the script parsed 800 cards from the a3-800i label and derived "
        "MAX_JOBS=384 from the host's 192 cores instead of the pod's 23 CPUs, so many cc1plus processes are "
        "Killed and the install fails; the container itself was not OOMKilled.",
        f"pod/{runner}",
    )
    killed = ["c++: fatal error: Killed signal terminated program cc1plus", "compilation terminated."]
    steps = steplog(
        48,
        [
            *checkout_steps(REPO_VLLM, GIT_SHA),
            "##[group]Run bash .github/workflows/scripts/build_from_source.sh",
            "##[endgroup]",
            "+ NPU_NUM=$(echo linux-aarch64-a3-800i-16 | sed -E 's/.*a3-([0-9]+).*/\\1/')",
            "+ echo 'detected 800 NPUs, 192 CPU cores (nproc)'",
            "detected 800 NPUs, 192 CPU cores (nproc)",
            "+ export MAX_JOBS=384",
            "+ pip install -v -e . --no-build-isolation",
            "  [112/1936] Building CXX object csrc/CMakeFiles/vllm_ascend_C.dir/kernels/pos_encoding_kernels.cpp.o",
            *killed,
            *killed,
            "  [187/1936] Building CXX object csrc/CMakeFiles/vllm_ascend_C.dir/torch_binding.cpp.o",
            *killed,
            *killed,
            *killed,
            "  ninja: build stopped: subcommand failed.",
            "  error: subprocess-exited-with-error",
            "ERROR: Failed building editable for vllm_ascend",
            "##[error]Process completed with exit code 1.",
        ],
    )
    add_job(
        s,
        runner,
        node="npu-a3-01",
        hook=False,
        job="build-from-source (a3-800i)",
        repo=REPO_VLLM,
        run_id=19384960000,
        created=50,
        steps=steps,
        result="Failed",
        end=33,
    )
    return expect(s, "ci.build.parallel-oom", excludes=["pod.run.oom-killed", "ci.run.user-script"])


def deps_scenario(
    name: str,
    description: str,
    runner: str,
    lines: list[str],
    *,
    repo: str = REPO_VLLM,
    target_wf: bool = True,
    node: str = "npu-a2-01",
    excludes: list[str] | None = None,
) -> Scenario:
    wname = f"{runner}-workflow"
    s = Scenario(name, description, f"pod/{wname}" if target_wf else f"pod/{runner}")
    steps = steplog(
        20,
        [
            *checkout_steps(repo, GIT_SHA),
            "##[group]Run pip install -r requirements-dev.txt",
            "##[endgroup]",
            *pip_noise(),
            *lines,
            "##[error]Process completed with exit code 1.",
            *post_job_noise(),
        ],
    )
    add_job(
        s,
        runner,
        node=node,
        hook=True,
        job="unit-test (a2-1)",
        repo=repo,
        run_id=19384970000 + hash_int(name) % 999,
        created=22,
        steps=steps,
        result="Failed",
        end=12,
    )
    return expect(s, "ci.deps.cache", excludes=excludes)


CACHE_HOST = "cache-service.nginx-pypi-cache.svc.cluster.local"


@scenario
def ci_deps_cache_read_timeout() -> Scenario:
    retry = (
        "WARNING: Retrying (Retry(total={n}, connect=None, read=None, redirect=None, status=None)) after "
        "connection broken by 'ReadTimeoutError(\"HTTPConnectionPool(host='" + CACHE_HOST + "', port=80): Read "
        "timed out. (read timeout=15)\")': /pypi/simple/torch-npu/"
    )
    return deps_scenario(
        "ci-deps-cache-read-timeout",
        "pip install through the in-cluster PyPI cache times out (Read timed out) because the nginx cache's "
        "upstream is slow or rate-limited; retry or have CI fix the cache, the requirements are fine.",
        runner_name("linux-aarch64-a2-1", "d8mtk", "h2w6q"),
        ["Collecting torch-npu==2.7.1 (from -r requirements-dev.txt (line 4))"]
        + [retry.format(n=n) for n in (4, 3, 2, 1, 0)]
        + [
            "ERROR: Exception:",
            "Traceback (most recent call last):",
            '  File "/usr/local/python3.11.13/lib/python3.11/site-packages/pip/_vendor/urllib3/response.py", line 438, '
            "in _error_catcher",
            "    yield",
            f"pip._vendor.urllib3.exceptions.ReadTimeoutError: HTTPConnectionPool(host='{CACHE_HOST}', port=80): Read "
            "timed out.",
        ],
        excludes=["ci.node.dns"],
    )


@scenario
def ci_deps_cache_incomplete_download() -> Scenario:
    url = (
        f"http://{CACHE_HOST}/pypi/packages/9c/4e/3b1f2a0e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b/"
        "torch-2.7.1-cp311-cp311-manylinux_2_28_aarch64.whl"
    )
    return deps_scenario(
        "ci-deps-cache-incomplete-download",
        "Downloading the torch wheel through the PyPI cache is cut short ('Download failed because not enough bytes "
        "were received'), a cache/mirror short read rather than a problem in the job.",
        runner_name("linux-aarch64-a2-1", "g4qxn", "z7k3d"),
        [
            "Collecting torch==2.7.1 (from -r requirements-dev.txt (line 3))",
            "  Downloading " + url.rsplit("/", 1)[1] + " (102.3 MB)",
            "     ━━━━━━━━━━━━━━━━━━╸━━━━━━━━━━━━━━━━━━━━━ 47.2/102.3 MB 1.1 MB/s eta 0:00:51",
            "WARNING: Connection timed out while downloading.",
            "error: incomplete-download",
            "",
            "× Download failed because not enough bytes were received (47.2 MB/102.3 MB)",
            "╰─> URL: " + url,
            "",
            "note: This is an issue with network connectivity, not pip.",
            "hint: Consider using --resume-retries to enable download resumption.",
        ],
    )


@scenario
def ci_deps_cache_http_503() -> Scenario:
    url = f"http://{CACHE_HOST}/pypi/simple/transformers/"
    return deps_scenario(
        "ci-deps-cache-http-503",
        "uv cannot fetch the package index because the PyPI cache service answers HTTP 503 Service Unavailable.",
        runner_name("linux-aarch64-a3-2", "t9cwm", "b3v8k"),
        [
            "+ uv pip install --system -r requirements-dev.txt",
            "Using Python 3.11.13 environment at: /usr/local/python3.11.13",
            "  × Failed to fetch: `" + url + "`",
            "  ├─▶ Request failed after 3 retries",
            "  ╰─▶ HTTP status server error (503 Service Unavailable) for url (" + url + ")",
        ],
        node="npu-a3-02",
        target_wf=False,
    )


@scenario
def ci_deps_cache_hash_mismatch() -> Scenario:
    return deps_scenario(
        "ci-deps-cache-hash-mismatch",
        "pip rejects torch_npu because the wheel served by the download-r2 mirror does not match the pinned sha256 "
        "(mirror not synced / outdated cache); CI must refresh the mirror, retrying will not help.",
        runner_name("linux-aarch64-a2-1", "u5hzr", "n4t2c"),
        [
            "Collecting torch-npu==2.7.1 (from -r requirements-dev.txt (line 4))",
            "  Downloading https://download-r2.ci.internal/ascend/torch_npu-2.7.1-cp311-cp311-manylinux_2_28_aarch64.whl "
            "(21.9 MB)",
            "ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE. If you have updated the package "
            "versions, please update the hashes. Otherwise, examine the package contents carefully; someone may have "
            "tampered with them.",
            "    torch-npu==2.7.1 from https://download-r2.ci.internal/ascend/torch_npu-2.7.1-cp311-cp311-"
            "manylinux_2_28_aarch64.whl#sha256=5c1f0a9e8d7b6c5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1a "
            "(from -r requirements-dev.txt (line 4)):",
            "        Expected sha256 5c1f0a9e8d7b6c5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1a",
            "             Got        e8b1c3d5f7a9021436587a9cbedf0123456789abcdef0fedcba9876543210aa1",
        ],
        excludes=["rlark.risk.credentials-exposed"],
    )


@scenario
def ci_deps_cache_crates_timeout() -> Scenario:
    runner = runner_name("linux-aarch64-cpu-16", "a8vkp", "r6m3x")
    s = Scenario(
        "ci-deps-cache-crates-timeout",
        "cargo times out fetching crates through the crates.io reverse proxy while building sgl-kernel's "
        "Rust tokenizer; re-run failed jobs and report to CI if it repeats.",
        f"pod/{runner}",
    )
    proxy = "https://crates-proxy.ci.internal/api/v1/crates"
    steps = steplog(
        41,
        [
            *checkout_steps(REPO_SGL, GIT_SHA),
            "##[group]Run cargo build --release --manifest-path sgl-router/Cargo.toml",
            "##[endgroup]",
            "    Updating `ci-mirror` index",
            " Downloading crates ...",
            "  Downloaded itoa v1.0.14",
            "  Downloaded serde v1.0.217",
            "warning: spurious network error (3 tries remaining): [28] Timeout was reached (Operation timed out after "
            "30000 milliseconds with 0 out of 0 bytes received)",
            "warning: spurious network error (2 tries remaining): [28] Timeout was reached (Operation timed out after "
            "30000 milliseconds with 0 out of 0 bytes received)",
            "warning: spurious network error (1 tries remaining): [28] Timeout was reached (Operation timed out after "
            "30001 milliseconds with 0 out of 0 bytes received)",
            f"error: failed to download from `{proxy}/tokio/1.43.0/download`",
            "",
            "Caused by:",
            "  [28] Timeout was reached (Operation timed out after 30000 milliseconds with 0 out of 0 bytes received)",
            "##[error]Process completed with exit code 101.",
            "Post job cleanup.",
        ],
    )
    add_job(
        s,
        runner,
        node="cpu-arm-01",
        hook=False,
        job="build-router",
        repo=REPO_SGL,
        run_id=19384980000,
        workflow="pr-test-rust.yml",
        created=43,
        steps=steps,
        result="Failed",
        end=30,
    )
    return expect(s, "ci.deps.cache", excludes=["ci.node.dns"])


@scenario
def ci_build_buildkit_cache() -> Scenario:
    runner = runner_name("linux-aarch64-cpu-16", "e6wrd", "k8n2p")
    s = Scenario(
        "ci-build-buildkit-cache",
        "The image build fails at once with failed to compute cache key: parent snapshot sha256:... does not "
        "exist: not found because this agent's local buildx cache chain is broken; CI must rebuild that "
        "agent's cache (this is not a missing base image).",
        f"pod/{runner}",
    )
    snap = "sha256:0b5c8f1e2d3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c"
    steps = steplog(
        17,
        [
            *checkout_steps(REPO_VLLM, GIT_SHA),
            "##[group]Run docker buildx build -f Dockerfile -t vllm-ascend-ci:pr-4410 --cache-from type=local,src=/cache .",
            '#0 building with "builder-a2" instance using docker-container driver',
            f"#4 [base 1/7] FROM {SWR}/ascend-ci/cann:8.3.rc1-910b-ubuntu22.04-py3.11@sha256:"
            "7e1d2c3b4a5f6e7d8c9b0a1f2e3d4c5b6a7f8e9d0c1b2a3f4e5d6c7b8a9f0e1d",
            "#4 CACHED",
            "#9 [build 4/7] COPY . /vllm-workspace/vllm-ascend/",
            f"#9 ERROR: failed to compute cache key: parent snapshot {snap} does not exist: not found",
            "------",
            " > [build 4/7] COPY . /vllm-workspace/vllm-ascend/:",
            "------",
            f"ERROR: failed to solve: failed to compute cache key: parent snapshot {snap} does not exist: not found",
            "##[error]Process completed with exit code 1.",
            "Post job cleanup.",
        ],
    )
    add_job(
        s,
        runner,
        node="cpu-arm-02",
        hook=False,
        job="build-image (a2)",
        repo=REPO_VLLM,
        run_id=19384990000,
        workflow="image_build.yaml",
        created=19,
        steps=steps,
        result="Failed",
        end=14,
    )
    return expect(s, "ci.build.buildkit-cache", excludes=["pod.image.mirror-not-synced", "pod.run.disk-full"])


@scenario
def ci_run_engine_hang() -> Scenario:
    runner = runner_name("linux-aarch64-a3-16", "b4ktz", "w9d2f")
    wname = f"{runner}-workflow"
    s = Scenario(
        "ci-run-engine-hang",
        "A 16-card DP x TP + expert-parallel + speculative-decoding streaming test printed nothing for about "
        "four hours until the job timed out; the stack ends in async_llm.py await q.get(), i.e. the vLLM "
        "engine core hung (the pod only looks Running because the container is alive).",
        f"pod/{wname}",
    )
    steps = steplog(
        250,
        [
            *pytest_head("tests/e2e/nightly/multi_node/test_deepseek_r1_mtp.py"),
            "+ vllm serve /root/.cache/modelscope/models/vllm-ascend/DeepSeek-R1-W8A8 --data-parallel-size 2 "
            "--tensor-parallel-size 8 --enable-expert-parallel --speculative-config "
            '\'{"method": "deepseek_mtp", "num_speculative_tokens": 1}\' --port 8080',
            "INFO 11-20 03:51:20 [api_server.py:1912] Starting vLLM API server 0 on http://0.0.0.0:8080",
            "INFO 11-20 03:53:02 [loggers.py:123] Engine 000: Avg prompt throughput: 1821.4 tokens/s, Avg generation "
            "throughput: 412.7 tokens/s, Running: 64 reqs, Waiting: 0 reqs, GPU KV cache usage: 31.2%",
            "INFO 11-20 03:53:12 [loggers.py:123] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation "
            "throughput: 0.0 tokens/s, Running: 64 reqs, Waiting: 0 reqs, GPU KV cache usage: 31.2%",
            (
                14700.0,
                "##[error]The job running on runner " + runner + " has exceeded the maximum execution time of 245 "
                "minutes.",
            ),
            "Traceback (most recent call last):",
            '  File "/vllm-workspace/vllm-ascend/tests/e2e/nightly/multi_node/scripts/stream_client.py", line 88, in run',
            "    async for out in engine.generate(prompt, sampling_params, request_id):",
            '  File "/vllm-workspace/vllm/vllm/v1/engine/async_llm.py", line 349, in generate',
            "    out = q.get_nowait() or await q.get()",
            "                            ^^^^^^^^^^^^^",
            '  File "/vllm-workspace/vllm/vllm/v1/engine/output_processor.py", line 64, in get',
            "    await self.ready.wait()",
            '  File "/usr/local/python3.11.13/lib/python3.11/asyncio/locks.py", line 213, in wait',
            "    await fut",
            "asyncio.exceptions.CancelledError",
            "##[error]The operation was canceled.",
        ],
    )
    add_job(
        s,
        runner,
        node="npu-a3-01",
        hook=True,
        job="multi-node (deepseek-r1-mtp)",
        repo=REPO_VLLM,
        run_id=19385000000,
        workflow="nightly_multi_node.yaml",
        job_image=A3_IMAGE,
        created=252,
        steps=steps,
        result=None,
    )
    return expect(s, "ci.run.engine-hang", excludes=["pod.run.stale-lock-hang"], last_stage="containers-started")


@scenario
def ci_comm_hccl_port() -> Scenario:
    runner = runner_name("linux-aarch64-a3-16", "v7nqc", "j5x3h")
    wname = f"{runner}-workflow"
    s = Scenario(
        "ci-comm-hccl-port",
        "HCCL cannot bind port 60000 (Communication_Error_Bind_IP_Port EI0019) because the test started a "
        "second service process on the same device; the decisive line is in the middle and is followed by "
        "a long tail of abort noise from the other ranks.",
        f"pod/{wname}",
    )
    noise_after = []
    for rank in range(1, 8):
        noise_after += [
            f"(EngineCore_DP0 pid={5123 + rank}) [rank{rank}]:[W1120 07:31:49.{100 + rank}] ProcessGroupHCCL.cpp:1231 "
            "Warning: ProcessGroupHCCL is aborting, aborting pending collectives.",
            f"(EngineCore_DP0 pid={5123 + rank}) ERROR 11-20 07:31:49 [core.py:712] EngineCore encountered a fatal "
            "error.",
        ]
    steps = steplog(
        15,
        [
            *pytest_head("tests/e2e/nightly/models/test_deepseek_v3_1.py"),
            "+ python -m tests.e2e.nightly.launch --config tests/e2e/nightly/config/DeepSeek-V3_1.yaml",
            "INFO 11-20 07:30:12 [__init__.py:216] Automatically detected platform npu.",
            "INFO 11-20 07:31:40 [parallel_state.py:1165] rank 0 in world size 16 is assigned as DP rank 0, PP rank 0, "
            "TP rank 0, EP rank 0",
            "(EngineCore_DP0 pid=5123) ERROR 11-20 07:31:44 [core.py:708] RuntimeError: createHCCLComm:torch_npu/csrc/"
            "distributed/ProcessGroupHCCL.cpp:2468 HCCL function error: HcclGetRootInfo(&hcclID), error code is 7",
            "(EngineCore_DP0 pid=5123) EI0019: [PID: 5123] 2026-11-20-07:31:44.120.331 Communication_Error_Bind_IP_Port"
            "(EI0019): Cannot bind IF. ip is ***, port is 60000, bind fail. Reason: The IP and port have been bound "
            "already.",
            "(EngineCore_DP0 pid=5123)         Solution: Check whether the port is occupied by other processes, maybe the "
            "port is occupied by other processes, or there are duplicate startup service processes on the same device. "
            "You can use the environment variable HCCL_IF_BASE_PORT to adjust the port, or use sysctl -w "
            "net.ipv4.ip_local_reserved_ports=****-**** to adjust the reserved port range.",
            *noise_after,
            "ERROR 11-20 07:31:50 [multiproc_executor.py:154] Worker proc VllmWorker-3 died unexpectedly, shutting down "
            "executor.",
            "(APIServer pid=5001) ERROR 11-20 07:31:50 [async_llm.py:480] AsyncLLM output_handler failed.",
            "(APIServer pid=5001) vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack "
            "trace (above) for the root cause.",
            "[ERROR] 2026-11-20-07:31:51 (PID:5001, Device:-1, RankID:-1) ERR99999 UNKNOWN applicaiton exception",
            "FAILED tests/e2e/nightly/models/test_deepseek_v3_1.py::test_deepseek_v3_1_w8a8 - vllm.v1.engine.exceptions."
            "EngineDeadError",
            "========================= 1 failed, 0 errors in 131.9s =========================",
            "##[error]Process completed with exit code 1.",
            *post_job_noise(),
        ],
    )
    add_job(
        s,
        runner,
        node="npu-a3-02",
        hook=True,
        job="nightly (DeepSeek-V3_1)",
        repo=REPO_VLLM,
        run_id=19385010000,
        workflow="nightly_a3.yaml",
        job_image=A3_IMAGE,
        created=17,
        steps=steps,
        result="Failed",
        end=9,
    )
    return expect(s, "ci.comm.hccl-port", excludes=["ci.node.npu-busy", "rlark.run.nccl"])


def model_cache_scenario(name: str, description: str, runner: str, lines: list[str]) -> Scenario:
    wname = f"{runner}-workflow"
    s = Scenario(name, description, f"pod/{wname}")
    steps = steplog(
        19,
        [
            *pytest_head("tests/e2e/singlecard/test_models.py"),
            "INFO 11-20 07:42:10 [__init__.py:216] Automatically detected platform npu.",
            *lines,
            "##[error]Process completed with exit code 1.",
            *post_job_noise(),
        ],
    )
    add_job(
        s,
        runner,
        node="npu-a2-02",
        hook=True,
        job="e2e-test (a2-1)",
        repo=REPO_VLLM,
        run_id=19385020000 + hash_int(name) % 999,
        created=21,
        steps=steps,
        result="Failed",
        end=13,
    )
    return expect(s, "ci.env.model-cache", excludes=["pod.storage.hostpath-missing", "pod.storage.pvc-unbound"])


@scenario
def ci_env_model_cache_incomplete() -> Scenario:
    snap = "/root/.cache/huggingface/hub/models--Wan-AI--Wan2.2-T2V-A14B-Diffusers/snapshots/" + GIT_SHA
    return model_cache_scenario(
        "ci-env-model-cache-incomplete",
        "The cached Wan2.2-T2V snapshot on this cluster is incomplete (3 files missing) and offline mode cannot "
        "fetch them, so the model cache must be re-downloaded by infra.",
        runner_name("linux-aarch64-a2-1", "s2fpw", "v8k4n"),
        [
            "Traceback (most recent call last):",
            '  File "/usr/local/python3.11.13/lib/python3.11/site-packages/huggingface_hub/_snapshot_download.py", '
            "line 231, in snapshot_download",
            f"huggingface_hub.errors.IncompleteSnapshotError: The cached snapshot '{snap}' is incomplete: 3 file(s) are "
            "missing (transformer/diffusion_pytorch_model-00003-of-00006.safetensors, ...)",
            "FAILED tests/e2e/singlecard/test_models.py::test_wan22_t2v - huggingface_hub.errors.IncompleteSnapshotError",
        ],
    )


@scenario
def ci_env_model_cache_not_found() -> Scenario:
    return model_cache_scenario(
        "ci-env-model-cache-not-found",
        "The job landed on a cluster without the Qwen3-8B cache and HF_HUB_OFFLINE=1 forbids downloading it, so "
        "huggingface_hub raises LocalEntryNotFoundError.",
        runner_name("linux-aarch64-a2-1", "m9rcd", "g3t7w"),
        [
            "Traceback (most recent call last):",
            '  File "/usr/local/python3.11.13/lib/python3.11/site-packages/huggingface_hub/_snapshot_download.py", '
            "line 235, in snapshot_download",
            "    raise LocalEntryNotFoundError(",
            "huggingface_hub.errors.LocalEntryNotFoundError: Cannot find an appropriate cached snapshot folder for the "
            "specified revision on the local disk and outgoing traffic has been disabled. To enable repo look-ups and "
            "downloads online, set 'HF_HUB_OFFLINE=0' as environment variable.",
            "FAILED tests/e2e/singlecard/test_models.py::test_qwen3_8b - huggingface_hub.errors.LocalEntryNotFoundError",
        ],
    )


@scenario
def ci_env_model_cache_version() -> Scenario:
    return model_cache_scenario(
        "ci-env-model-cache-version",
        "Loading DeepSeek-V3.2 weights fails with KeyError 'wkv.weight_offset' because the cache holds an older "
        "version of the quantized model whose index does not match the current code; clean the old cache and "
        "download again.",
        runner_name("linux-aarch64-a2-1", "x4dwh", "p9m2r"),
        [
            "(EngineCore_DP0 pid=2817) Traceback (most recent call last):",
            '(EngineCore_DP0 pid=2817)   File "/vllm-workspace/vllm-ascend/vllm_ascend/models/deepseek_v3_2.py", line '
            "611, in load_weights",
            "(EngineCore_DP0 pid=2817)     param = params_dict[name]",
            "(EngineCore_DP0 pid=2817)             ~~~~~~~~~~~^^^^^^",
            "(EngineCore_DP0 pid=2817) KeyError: 'wkv.weight_offset'",
            "FAILED tests/e2e/singlecard/test_models.py::test_deepseek_v3_2_w8a8_pruned - KeyError: 'wkv.weight_offset'",
        ],
    )


@scenario
def ci_node_npu_busy_8020() -> Scenario:
    runner = runner_name("linux-aarch64-a2-1", "q8wbn", "d4c6z")
    wname = f"{runner}-workflow"
    s = Scenario(
        "ci-node-npu-busy-8020",
        "npu-smi inside the job reports dcmi model initialized failed, because the device is used. ret is "
        "-8020: the NPU is held by a process outside Kubernetes (bare docker) that the device plugin does not "
        "see, so the node must be cleaned, not the workflow.",
        f"pod/{wname}",
    )
    steps = steplog(
        11,
        [
            "##[group]Run npu-smi info",
            "##[endgroup]",
            "dcmi model initialized failed, because the device is used. ret is -8020",
            "##[error]Process completed with exit code 1.",
            *post_job_noise(),
        ],
    )
    add_job(
        s,
        runner,
        node="npu-a2-03",
        hook=True,
        job="e2e-test (a2-1)",
        repo=REPO_VLLM,
        run_id=19385030000,
        created=13,
        steps=steps,
        result="Failed",
        end=9,
    )
    return expect(s, "ci.node.npu-busy", excludes=["pod.schedule.insufficient-resources"])


@scenario
def ci_node_npu_busy_davinci() -> Scenario:
    runner = runner_name("linux-aarch64-a2-2", "f6tzr", "b9w4h")
    wname = f"{runner}-workflow"
    s = Scenario(
        "ci-node-npu-busy-davinci",
        "The device plugin's Allocate fails with davinci[davinci0] already in use although kubelet counted the "
        "card free (a volcano-scheduled or out-of-band container holds it), so kubelet rejects the workflow "
        "pod with UnexpectedAdmissionError.",
        f"pod/{wname}",
    )
    runner_running_hook(
        s,
        runner,
        node="npu-a2-02",
        created=7,
        job="multicard-test (a2-2)",
        repo=REPO_VLLM,
        run_id=19385040000,
        lines=hook_wait_error(wname, "Failed"),
        result="Failed",
        end=5,
    )
    msg = (
        "Allocate failed due to rpc error: code = Unknown desc = davinci[davinci0] already in use, which is unexpected"
    )
    s.pods.append(
        workflow_pod(
            runner,
            image=VLLM_IMAGE,
            created=t(6),
            phase="Failed",
            node="npu-a2-02",
            start_time=t(5.99),
            reason="UnexpectedAdmissionError",
            message=msg,
            conditions=[condition("PodScheduled", "True", t(5.99))],
            statuses=[],
        )
    )
    s.scheduled(wname, "npu-a2-02", 5.99)
    s.ev(wname, "UnexpectedAdmissionError", msg, 5.98, warn=True, host="npu-a2-02")
    return expect(s, "ci.node.npu-busy", excludes=["pod.schedule.insufficient-resources", "pod.run.crash-on-start"])


def blip_lines(kind: str, runner: str) -> list[str]:
    if kind == "refused":
        err = [
            "##[error]FetchError: request to https://10.247.0.1:443/apis/authorization.k8s.io/v1/"
            "selfsubjectaccessreviews failed, reason: connect ECONNREFUSED 10.247.0.1:443"
        ]
    else:
        sa = f"system:serviceaccount:{NS}:{scale_set_of(runner)}-gha-rs-kube-mode"
        err = [
            "##[error]HttpError: HTTP request failed",
            '##[error]{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":'
            '"selfsubjectaccessreviews.authorization.k8s.io is forbidden: User \\"' + sa + '\\" cannot create '
            'resource \\"selfsubjectaccessreviews\\" in API group \\"authorization.k8s.io\\" at the cluster scope",'
            '"reason":"Forbidden","details":{"group":"authorization.k8s.io","kind":"selfsubjectaccessreviews"},'
            '"code":403}',
        ]
    return [
        "##[group]Run '/home/runner/k8s/index.js'",
        "shell: /home/runner/externals/node20/bin/node {0}",
        "##[endgroup]",
        *err,
        "##[error]Process completed with exit code 1.",
        HOOK_FAILED,
    ]


def blip_scenario(name: str, kind: str, description: str, suffixes: list[str]) -> Scenario:
    runners = [runner_name("linux-aarch64-a2-1", "z5gkm", sfx) for sfx in suffixes]
    s = Scenario(name, description, f"pod/{runners[0]}")
    for i, runner in enumerate(runners):
        steps = steplog(
            20 - i,
            [
                *pytest_head("tests/ut"),
                "======================= 412 passed, 0 errors, 7 skipped in 301.47s (0:05:01) =======================",
                *post_job_noise(),
            ],
        )
        repo = [REPO_VLLM, REPO_SGL, REPO_VERL][i % 3]
        add_job(
            s,
            runner,
            node=f"npu-a2-0{i + 1}",
            hook=True,
            job="unit-test (a2-1)",
            repo=repo,
            run_id=19385050000 + i * 17,
            created=22 - i,
            steps=steps,
            result="Failed",
            end=4.2 - 0.1 * i,
            runner_lines=blip_lines(kind, runner),
        )
    return expect(
        s,
        "ci.control-plane.blip",
        excludes=["ci.run.kubeconfig-wrong-cluster", "ci.run.user-script", "ci.run.upload-blocked"],
    )


@scenario
def ci_control_plane_blip_refused() -> Scenario:
    return blip_scenario(
        "ci-control-plane-blip-refused",
        "refused",
        "All tests passed but the container hook's cleanup pre-check got ECONNREFUSED from the API server, and two "
        "other repositories' runners failed the same way in the same minute: a control-plane blip, just re-run.",
        ["w3x8d", "k7p2q", "c5n9v"],
    )


@scenario
def ci_control_plane_blip_forbidden() -> Scenario:
    return blip_scenario(
        "ci-control-plane-blip-forbidden",
        "forbidden",
        "The hook's selfsubjectaccessreviews pre-check during cleanup returned 403 Forbidden for the runner's "
        "ServiceAccount during an apiserver rotation although the same account worked minutes earlier; re-run and do "
        "not change RBAC.",
        ["m2v6t", "h8r4j"],
    )


@scenario
def ci_node_dns_github() -> Scenario:
    runner = runner_name("linux-aarch64-a2-1", "o3kdw", "n7q5x")
    s = Scenario(
        "ci-node-dns-github",
        "The runner cannot resolve pipelinesghubeus11.actions.githubusercontent.com (Socket Error: TryAgain), "
        "so it never gets its job: the node's DNS is broken and the node should be replaced.",
        f"pod/{runner}",
    )
    host = "pipelinesghubeus11.actions.githubusercontent.com"
    lines = (
        runner_intro(40)
        + [
            rlog(
                39.5,
                f"Runner connect error: Resource temporarily unavailable ({host}:443). Retrying until reconnected.",
            ),
            rlog(
                38.5,
                f"Runner connect error: Resource temporarily unavailable ({host}:443). Retrying until reconnected.",
            ),
            "[RUNNER " + _dt(38).strftime("%Y-%m-%d %H:%M:%SZ") + " ERR  GitHubActionsService] GET request to "
            f"https://{host}/_apis/distributedtask/pools/1/messages failed. HTTP Status: Unknown",
            "[RUNNER " + _dt(38).strftime("%Y-%m-%d %H:%M:%SZ") + " ERR  Runner] Socket Error: TryAgain",
            "curl: (6) Could not resolve host: " + host,
        ]
        + [
            rlog(
                37 - 3 * i,
                f"Runner connect error: Resource temporarily unavailable ({host}:443). Retrying until reconnected.",
            )
            for i in range(10)
        ]
    )
    node = "npu-a2-02"
    s.pods.append(
        runner_pod(
            runner,
            created=t(41),
            phase="Running",
            node=node,
            hook=True,
            start_time=t(40.98),
            conditions=conds_running(t(41), t(40.98), t(40.5)),
            statuses=[container_status("runner", RUNNER_IMAGE, running(t(40.5)))],
        )
    )
    s.scheduled(runner, node, 40.98)
    s.started(runner, node, RUNNER_IMAGE, 40.5, "runner")
    s.logs[runner] = {"runner": text(lines)}
    s.ers = [ephemeral_runner(runner, created=t(41.01), phase="Running", ready=True, runner_id=204411)]
    return expect(s, "ci.node.dns", excludes=["ci.runner.version-too-old", "ci.control-plane.blip"])


@scenario
def ci_node_dns_service() -> Scenario:
    runner = runner_name("linux-aarch64-a2-8", "i6wcz", "t2m8k")
    wname = f"{runner}-workflow"
    s = Scenario(
        "ci-node-dns-service",
        "A job cannot resolve rayjob-submitter.ci-system.svc.cluster.local because that service is not "
        "deployed on the cluster the job landed on; the in-job kubeconfig and the cluster API are fine.",
        f"pod/{wname}",
    )
    steps = steplog(
        16,
        [
            *checkout_steps(REPO_AREAL, GIT_SHA),
            "##[group]Run curl -sf -X POST http://rayjob-submitter.ci-system.svc.cluster.local:8265/api/jobs/ -d @job.json",
            "##[endgroup]",
            "curl: (6) Could not resolve host: rayjob-submitter.ci-system.svc.cluster.local",
            "##[error]Process completed with exit code 6.",
            *post_job_noise(),
        ],
    )
    add_job(
        s,
        runner,
        node="npu-a2-01",
        hook=True,
        job="ray-e2e (a2-8)",
        repo=REPO_AREAL,
        run_id=19385060000,
        workflow="test_npu.yml",
        created=18,
        steps=steps,
        result="Failed",
        end=14,
    )
    return expect(s, "ci.node.dns", excludes=["ci.run.kubeconfig-wrong-cluster"])


@scenario
def ci_node_hardware_fault() -> Scenario:
    runner = runner_name("linux-aarch64-310p-4", "c3vxd", "k6w2m")
    node = "npu-310p-02"
    s = Scenario(
        "ci-node-hardware-fault",
        "The 310P node hard-hung during an ACLGraph capture test, stopped posting status (NotReady) and was "
        "reset out-of-band; the pods are being evicted and the NPU still reports PCIe errors, so the node "
        "needs a hardware NPU reset and the job a re-run elsewhere.",
        f"pod/{runner}",
    )
    s.nodes = standard_nodes(
        {
            node: {
                "ready": "Unknown",
                "annotations": {
                    "huawei.com/Ascend310P-Unhealthy": "Ascend310P-0,Ascend310P-1,Ascend310P-2,Ascend310P-3"
                },
            }
        }
    )
    steps = steplog(
        45,
        [
            *pytest_head("tests/e2e/310p/test_aclgraph_capture.py"),
            "INFO 11-20 07:16:04 [__init__.py:216] Automatically detected platform npu.",
            "INFO 11-20 07:17:40 [acl_graph.py:201] Capturing ACL graphs for batch sizes [1, 2, 4, 8, 16, 32]",
            "Capturing ACL graphs (mixed prefill-decode, PIECEWISE):  33%|███▎      | 2/6 [00:04<00:08,  2.1s/it]",
        ],
    )
    add_job(
        s,
        runner,
        node=node,
        hook=True,
        job="310p-test (aclgraph)",
        repo=REPO_VLLM,
        run_id=19385070000,
        workflow="vllm_ascend_test_310p.yaml",
        created=47,
        steps=steps,
        result=None,
    )
    for p in s.pods:
        p["metadata"]["deletionTimestamp"] = t(32)
        p["metadata"]["deletionGracePeriodSeconds"] = 30
        p["status"]["conditions"] = [
            c for c in p["status"]["conditions"] if c["type"] not in ("Ready", "ContainersReady")
        ]
        p["status"]["conditions"] += [
            condition("Ready", "False", t(38)),
            condition("ContainersReady", "False", t(38)),
            condition(
                "DisruptionTarget",
                "True",
                t(32),
                "DeletionByTaintManager",
                "Taint manager: deleting due to NoExecute taint",
            ),
        ]
        s.ev(p["metadata"]["name"], "NodeNotReady", "Node is not ready", 38, warn=True, component="node-controller")
        s.ev(
            p["metadata"]["name"],
            "TaintManagerEviction",
            f"Marking for deletion Pod {NS}/{p['metadata']['name']}",
            32,
            component="taint-eviction-controller",
        )
    s.default_events = [
        event(
            "default",
            kind="Node",
            name=node,
            uid=stable_uid("", node),
            reason="NodeNotReady",
            message=f"Node {node} status is now: NodeNotReady",
            first=t(38),
            component="node-controller",
        ),
        event(
            "default",
            kind="Node",
            name=node,
            uid=stable_uid("", node),
            reason="Rebooted",
            message=f"Node {node} has been rebooted, boot id: {stable_uid('boot2', node)}",
            first=t(33),
            etype="Warning",
            component="kubelet",
            host=node,
        ),
        event(
            "default",
            kind="Node",
            name=node,
            uid=stable_uid("", node),
            reason="NPUHealthCheckFailed",
            message="Ascend310P-0: PCIe link error, device I/O error after reboot (errcode 0x80E18402)",
            first=t(31),
            etype="Warning",
            component="ascend-device-plugin",
            host=node,
        ),
    ]
    return expect(s, "ci.node.hardware-fault", excludes=["pod.run.oom-killed", "infra.arc.stale-runner"])


@scenario
def ci_runner_version_too_old() -> Scenario:
    runner = runner_name("linux-aarch64-a2-1", "l2nhv", "w4x9c")
    s = Scenario(
        "ci-runner-version-too-old",
        "The runner image still ships actions/runner 2.328.0, below the minimum version GitHub now accepts, so "
        "every runner pod exits right after connecting and the EphemeralRunner keeps failing; the runner "
        "image must be upgraded.",
        f"runner/{runner}",
    )
    node = "npu-a2-01"
    image = f"{SWR}/ascend-ci/actions-runner:2.328.0"
    lines = [
        *runner_intro(2.6, "2.328.0"),
        "An error occurred: Runner version v2.328.0 is deprecated and cannot receive messages.",
        "Runner listener exit with terminated error, stop the service, no retry needed.",
        "Exiting runner...",
    ]
    s.pods.append(
        runner_pod(
            runner,
            created=t(3),
            phase="Failed",
            node=node,
            hook=True,
            image=image,
            start_time=t(2.98),
            conditions=conds_finished(t(3), t(2.98), t(2.5)),
            statuses=[container_status("runner", image, terminated(1, "Error", t(2.7), t(2.5)))],
        )
    )
    s.scheduled(runner, node, 2.98)
    s.started(runner, node, image, 2.7, "runner")
    s.logs[runner] = {"runner": text(lines)}
    s.ers = [
        ephemeral_runner(
            runner,
            created=t(14),
            phase="Pending",
            ready=False,
            failures={
                stable_uid(NS, runner, "1"): t(13),
                stable_uid(NS, runner, "2"): t(9),
                stable_uid(NS, runner, "3"): t(5.5),
                pod_uid(runner): t(2.5),
            },
        )
    ]
    return expect(s, "ci.runner.version-too-old", excludes=["pod.run.crash-on-start", "ci.node.dns"])


# ---------------------------------------------------------------------------------------------
# infra.* (scheduled checks) and healthy runners


def busy_background(s: Scenario, count: int = 2) -> None:
    """Healthy running runners so the checks have something that must NOT alert."""
    for i in range(count):
        r = runner_name("linux-aarch64-a2-1", "bg7ws", ["p3k8d", "x6m2q", "r4v9t"][i])
        steps = steplog(20 - 3 * i, checkout_steps(REPO_VLLM, GIT_SHA) + pip_noise())
        add_job(
            s,
            r,
            node=f"npu-a2-0{i + 1}",
            hook=True,
            job="unit-test (a2-1)",
            repo=REPO_VLLM,
            run_id=19385100000 + i,
            created=22 - 3 * i,
            steps=steps,
            result=None,
        )


@scenario
def infra_pending_long() -> Scenario:
    runner = runner_name("linux-aarch64-a3-16", "a7ncz", "g2w5r")
    s = Scenario(
        "infra-pending-long",
        "A 16-card a3 runner pod has been Pending for over three hours with FailedScheduling Insufficient "
        "huawei.com/Ascend910, so the long-pending check must alert on it (and only on it).",
        f"pod/{runner}",
    )
    msg = (
        "0/12 nodes are available: 3 Insufficient huawei.com/Ascend910, 9 node(s) didn't match Pod's node "
        "affinity/selector. preemption: 0/12 nodes are available: 3 No preemption victims found for incoming "
        "pod, 9 Preemption is not helpful for scheduling."
    )
    unschedulable_runner(s, runner, created=190, message=msg, count=140)
    busy_background(s)
    s.nodepools = [nodepool("npu-a3", npu_type="a3", healthy=True, nodes=3)]
    return expect(
        s,
        "pod.schedule.insufficient-resources",
        last_stage="pod-created",
        checks={"alerts": [{"check": "long-pending", "case": "infra.pending.long", "object": obj_ref("Pod", runner)}]},
    )



@scenario
def ci_runner_dind_not_running() -> Scenario:
    runner = runner_name("linux-aarch64-a2-1", "d1ndq", "m4x7c")
    wname = f"{runner}-workflow"
    s = Scenario(
        "ci-runner-dind-not-running",
        "An image-build step runs docker, but the runner has no Docker daemon to talk to (no dind sidecar is "
        "running), so docker cannot connect to /var/run/docker.sock and the step exits 1.",
        f"pod/{wname}",
    )
    steps = steplog(
        6,
        [
            *checkout_steps(REPO_VLLM, GIT_SHA),
            "##[group]Run docker build -t vllm-ascend:ci-test -f Dockerfile.a2 .",
            "docker build -t vllm-ascend:ci-test -f Dockerfile.a2 .",
            "shell: bash -el {0}",
            "##[endgroup]",
            "ERROR: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?",
            "##[error]Process completed with exit code 1.",
            *post_job_noise(),
        ],
    )
    add_job(
        s,
        runner,
        node="npu-a2-03",
        hook=True,
        job="image-build (a2-1)",
        repo=REPO_VLLM,
        run_id=19385070000,
        created=8,
        steps=steps,
        result="Failed",
        end=3,
    )
    return expect(s, "ci.runner.dind-not-running", excludes=["ci.run.user-script"])


@scenario
def ci_node_mixed_schedulers() -> Scenario:
    first = runner_name("linux-aarch64-a2-4", "vk4mz", "s2d8n")
    second = runner_name("linux-aarch64-a2-8", "vc9lk", "t7q3w")
    s = Scenario(
        "ci-node-mixed-schedulers",
        "default-scheduler placed a 4-card runner on npu-a2-01 and volcano, which does not count that pod, placed "
        "an 8-card runner on the same 8-card node; the second job then finds its card already in use.",
        f"pod/{second}",
    )
    add_job(
        s,
        first,
        node="npu-a2-01",
        hook=False,
        job="multicard-test (a2-4)",
        repo=REPO_VLLM,
        run_id=19385080000,
        created=12,
        steps=steplog(11, checkout_steps(REPO_VLLM, GIT_SHA) + pip_noise()),
        result=None,
    )
    add_job(
        s,
        second,
        node="npu-a2-01",
        hook=False,
        job="e2e-test (a2-8)",
        repo=REPO_VLLM,
        run_id=19385080001,
        created=6,
        steps=steplog(
            5,
            [
                *pytest_head("tests/e2e/multicard/test_qwen3_moe.py"),
                "RuntimeError: dcmi model initialized failed, because the device is used. ret is -8020",
                "##[error]Process completed with exit code 1.",
            ],
        ),
        result="Failed",
        end=2,
    )
    for pod in s.pods:
        if pod["metadata"]["name"] == second:
            pod["spec"]["schedulerName"] = "volcano"
    return expect(s, "ci.node.mixed-schedulers")


@scenario
def infra_arc_runner_too_old() -> Scenario:
    runner = runner_name("linux-aarch64-a3-16", "o1dxr", "k9p2v")
    s = Scenario(
        "infra-arc-runner-too-old",
        "A 16-card runner has existed for over 13 hours, longer than the 12-hour runner age limit; its pod is still "
        "running and printing, so it is not stale, but no job should take that long.",
        f"runner/{runner}",
    )
    add_job(
        s,
        runner,
        node="npu-a3-01",
        hook=True,
        job="nightly (a3-16)",
        repo=REPO_VLLM,
        run_id=19385090000,
        created=13 * 60 + 20,
        steps=steplog(4, [*pytest_head("tests/e2e/nightly/test_long_context.py"),
                          "tests/e2e/nightly/test_long_context.py::test_128k[qwen3] PASSED"]),
        result=None,
    )
    return expect(
        s,
        "infra.arc.runner-too-old",
        checks={
            "alerts": [
                {"check": "runner-too-old", "case": "infra.arc.runner-too-old", "object": obj_ref("EphemeralRunner", runner)}
            ]
        },
    )

@scenario
def infra_arc_stale_runner_pod_gone() -> Scenario:
    runner = runner_name("linux-aarch64-a2-4", "u8dqs", "c5t2k")
    s = Scenario(
        "infra-arc-stale-runner-pod-gone",
        "The EphemeralRunner has been Running for 14 hours with a finished job's request id but its pod was "
        "removed by a node drain, so it occupies a runner slot forever (ARC #4148) and must be deleted.",
        f"runner/{runner}",
    )
    busy_background(s)
    s.ers = (s.ers or []) + [
        ephemeral_runner(
            runner,
            created=t(14 * 60 + 12),
            phase="Running",
            ready=True,
            runner_id=203377,
            job=job_status(REPO_VLLM, 19381200000, 9_011_223, "multicard-test (a2-4)", "ci.yaml"),
        )
    ]
    return expect(
        s,
        "infra.arc.stale-runner",
        checks={
            "alerts": [
                {
                    "check": "stale-runner",
                    "case": "infra.arc.stale-runner",
                    "object": obj_ref("EphemeralRunner", runner),
                }
            ]
        },
    )


@scenario
def infra_arc_stale_runner_too_many_failures() -> Scenario:
    runner = runner_name("linux-aarch64-310p-1", "e4kwn", "z8q3d")
    s = Scenario(
        "infra-arc-stale-runner-too-many-failures",
        "An EphemeralRunner that failed with TooManyPodFailures 20 hours ago is still left behind (its pods "
        "are gone) and is never cleaned up, blocking a slot of the scale set.",
        f"runner/{runner}",
    )
    busy_background(s)
    failures = {stable_uid(NS, runner, str(i)): t(20 * 60 + 30 - 4 * i) for i in range(5)}
    s.ers = (s.ers or []) + [
        ephemeral_runner(
            runner,
            created=t(20 * 60 + 31),
            phase="Failed",
            ready=False,
            reason="TooManyPodFailures",
            message="Pod has failed to start more than 5 times: ",
            failures=failures,
        )
    ]
    return expect(
        s,
        "infra.arc.stale-runner",
        checks={
            "alerts": [
                {
                    "check": "stale-runner",
                    "case": "infra.arc.stale-runner",
                    "object": obj_ref("EphemeralRunner", runner),
                }
            ]
        },
    )


@scenario
def infra_karpenter_nodepool_unhealthy() -> Scenario:
    runner = runner_name("linux-aarch64-a3-16", "k5rvx", "m3d7w")
    s = Scenario(
        "infra-karpenter-nodepool-unhealthy",
        "The runner pod waits for the npu-a3 NodePool to add a node, but Karpenter marked that NodePool "
        "NodeRegistrationHealthy=False five hours ago after failed launches and no longer retries, so the "
        "pod stays Pending until the condition is cleared.",
        f"pod/{runner}",
    )
    msg = (
        "0/12 nodes are available: 3 Insufficient huawei.com/Ascend910, 9 node(s) didn't match Pod's node "
        "affinity/selector. preemption: 0/12 nodes are available: 3 No preemption victims found for incoming "
        "pod, 9 Preemption is not helpful for scheduling."
    )
    unschedulable_runner(
        s,
        runner,
        created=185,
        message=msg,
        count=120,
        node_selector={"ascend-ci/npu-type": "a3", "karpenter.sh/nodepool": "npu-a3"},
    )
    s.nodepools = [
        nodepool("npu-a2", npu_type="a2", healthy=True, nodes=3),
        nodepool("npu-a3", npu_type="a3", healthy=False, unhealthy_since=t(5 * 60 + 10), nodes=3),
    ]
    fail = (
        "InsufficientCapacityError: no instance type physical.kat2e.48xlarge.16.a3 available in "
        "cn-southwest-2a (sold out)"
    )
    s.nodeclaims = [
        nodeclaim(f"npu-a3-{sfx}", "npu-a3", created=t(m), launched=False, message=fail)
        for sfx, m in (("x7qkd", 5 * 60 + 40), ("b2nwc", 5 * 60 + 25), ("r9tfz", 5 * 60 + 12))
    ]
    s.nodeclaims += [
        nodeclaim(f"npu-a3-{sfx}", "npu-a3", created="2026-11-02T10:00:00Z", launched=True, node=f"npu-a3-0{i + 1}")
        for i, sfx in enumerate(("h4kcw", "j8vtp", "n2mxs"))
    ]
    return expect(
        s,
        "infra.karpenter.nodepool-unhealthy",
        checks={
            "alerts": [
                {
                    "check": "nodepool-unhealthy",
                    "case": "infra.karpenter.nodepool-unhealthy",
                    "object": f"{CLUSTER}//NodePool/npu-a3",
                },
                {"check": "long-pending", "case": "infra.pending.long", "object": obj_ref("Pod", runner)},
            ]
        },
    )


BENIGN_TEST_OUTPUT = [
    "tests/e2e/singlecard/test_sampler.py::test_topk_topp_sampler PASSED",
    "tests/e2e/singlecard/test_sampler.py::test_error_rate_metric PASSED",
    "tests/e2e/singlecard/test_guided_decoding.py::test_guided_json_no_errors PASSED",
    "INFO 11-20 07:51:12 [metrics.py:77] serving stats: error_rate=0.000 p99_latency_ms=412.6 tokens/s=1834.2",
    "WARNING 11-20 07:51:13 [config.py:1104] Possibly too large swap space. 16.00 GiB out of the 754.00 GiB "
    "total CPU memory is allocated for the swap space.",
    "lm_eval: gsm8k exact_match,strict-match: 0.8711 (expected >= 0.85)",
]


@scenario
def healthy_ci_running() -> Scenario:
    runner = runner_name("linux-aarch64-a2-1", "h1qzt", "k9d4s")
    s = Scenario(
        "healthy-ci-running",
        "A runner and its workflow pod are Running normally and the tests are passing; warnings, '0 errors', "
        "error_rate metrics, digests and git SHAs in the log are benign and nothing must be reported as an "
        "error.",
        f"pod/{runner}",
    )
    steps = steplog(
        14,
        [
            *checkout_steps(REPO_VLLM, GIT_SHA),
            "##[group]Run pip install -r requirements-dev.txt",
            "##[endgroup]",
            *pip_noise(),
            "Successfully installed pytest-asyncio-1.1.0 modelscope-1.29.1",
            f"Image digest: {VLLM_IMAGE}@sha256:4f2a9c1e7b3d5f8a0c2e4b6d8f1a3c5e7b9d0f2a4c6e8b1d3f5a7c9e0b2d4f6a",
            *pytest_head("tests/e2e/singlecard"),
            *BENIGN_TEST_OUTPUT,
        ],
    )
    add_job(
        s,
        runner,
        node="npu-a2-01",
        hook=True,
        job="e2e-test (a2-1)",
        repo=REPO_VLLM,
        run_id=19385200000,
        created=16,
        steps=steps,
        result=None,
    )
    return expect(s, healthy=True, last_stage="containers-started")


@scenario
def healthy_ci_succeeded() -> Scenario:
    runner = runner_name("linux-aarch64-cpu-16", "s5gwp", "v2n8h")
    s = Scenario(
        "healthy-ci-succeeded",
        "A direct (no job container) build runner finished its job with result Succeeded and exited 0; the "
        "pod is Succeeded and its log noise (root pip warning, 'Requirement already satisfied', sha256 "
        "digests, '0 errors') must not produce any error finding.",
        f"pod/{runner}",
    )
    steps = steplog(
        33,
        checkout_steps(REPO_VLLM, GIT_SHA)
        + pip_noise()
        + [
            "##[group]Run docker buildx build -f Dockerfile -t vllm-ascend-ci:pr-4410 --push .",
            '#0 building with "builder-a2" instance using docker-container driver',
            f"#4 [base 1/7] FROM {SWR}/ascend-ci/cann:8.3.rc1-910b-ubuntu22.04-py3.11@sha256:"
            "7e1d2c3b4a5f6e7d8c9b0a1f2e3d4c5b6a7f8e9d0c1b2a3f4e5d6c7b8a9f0e1d",
            "#4 CACHED",
            "#11 exporting to image",
            "#11 pushing layers 41.2s done",
            "#11 pushing manifest for " + f"{SWR}/ascend-ci/vllm-ascend-ci:pr-4410@sha256:"
            "c0ffee1234567890abcdef1234567890abcdef1234567890abcdef1234567890 0.4s done",
            "#11 DONE 63.0s",
            "##[group]Run python tools/check_wheels.py dist/",
            "Checked 3 wheels: 0 errors, 0 warnings",
            "Post job cleanup.",
            "Cleaning up orphan processes",
        ],
    )
    add_job(
        s,
        runner,
        node="cpu-arm-02",
        hook=False,
        job="build-image (a2)",
        repo=REPO_VLLM,
        run_id=19385210000,
        workflow="image_build.yaml",
        created=35,
        steps=steps,
        result="Succeeded",
        end=3,
    )
    return expect(s, healthy=True)


@scenario
def healthy_ci_checks() -> Scenario:
    fresh = runner_name("linux-aarch64-a2-1", "f0wqk", "n3z6c")
    steady = runner_name("linux-aarch64-a2-1", "f0wqk", "t7b2x")
    s = Scenario(
        "healthy-ci-checks",
        "Nothing is wrong: one runner pod was created two minutes ago and is still pulling its image, "
        "another runner is Running with its pod present, and every NodePool is Ready, so no scheduled check "
        "may alert.",
        f"pod/{steady}",
    )
    steps = steplog(
        9,
        checkout_steps(REPO_VLLM, GIT_SHA)
        + pip_noise()
        + pytest_head("tests/ut")
        + ["tests/ut/test_platform.py::test_device_count PASSED"],
    )
    add_job(
        s,
        steady,
        node="npu-a2-01",
        hook=True,
        job="unit-test (a2-1)",
        repo=REPO_VLLM,
        run_id=19385220000,
        created=11,
        steps=steps,
        result=None,
    )
    node = "npu-a2-02"
    s.pods.append(
        runner_pod(
            fresh,
            created=t(2),
            phase="Pending",
            node=node,
            hook=True,
            start_time=t(1.98),
            conditions=conds_creating(t(2), t(1.98)),
            statuses=[container_status("runner", RUNNER_IMAGE, waiting("ContainerCreating"))],
        )
    )
    s.scheduled(fresh, node, 1.98)
    s.ev(fresh, "Pulling", f'Pulling image "{RUNNER_IMAGE}"', 1.9, host=node)
    s.ers = (s.ers or []) + [ephemeral_runner(fresh, created=t(2.01), phase="Pending", ready=False)]
    s.nodepools = [
        nodepool("npu-a2", npu_type="a2", healthy=True, nodes=3),
        nodepool("npu-a3", npu_type="a3", healthy=True, nodes=3),
    ]
    s.nodeclaims = [
        nodeclaim(f"npu-a3-{sfx}", "npu-a3", created="2026-11-02T10:00:00Z", launched=True, node=f"npu-a3-0{i + 1}")
        for i, sfx in enumerate(("h4kcw", "j8vtp", "n2mxs"))
    ]
    return expect(s, healthy=True, last_stage="containers-started", checks={"alerts": []})


# ---------------------------------------------------------------------------------------------


def build_example() -> None:
    runner = runner_name("linux-aarch64-a2-1", "kq7xv", "x7k2p")
    s = image_pull_runner_scenario("ci-runner-image-pull", runner, f"{SWR}/ascend-ci/actions-runner:2.331.0")
    root = EXAMPLES / "ci-runner-image-pull"
    s.write(root, with_expect=False)
    (root / "TARGET").write_text(f"runner/{runner}\n", encoding="utf-8")  # what scripts/demo diagnoses
    (root / "README.md").write_text(
        "# Example: CI runner pod stuck in ImagePullBackOff\n\n"
        "A GitHub ARC runner pod in namespace `arc-runners` of cluster `ci-cluster` "
        f"(`{runner}`, the pod of the EphemeralRunner of the same name) cannot start because its runner "
        "image `actions-runner:2.331.0` was never pushed to the SWR mirror: kubelet reports `ErrImagePull` with "
        "`not found`, then `ImagePullBackOff`, and the EphemeralRunner stays `Pending` without ever registering "
        "with GitHub, so jobs for `linux-aarch64-a2-1` wait for a runner. The bundle (captured 2026-11-20T08:00:00Z) "
        "holds the nodes, pods, events, PVCs, the EphemeralRunner custom resources and the logs of a healthy sibling "
        "runner; try `rlark-bot diagnose runner/" + runner + " --snapshot examples/ci-runner-image-pull` "
        "(or `pod/" + runner + "`), which should answer `pod.image.pull-failed`.\n",
        encoding="utf-8",
    )


def main() -> None:
    SCENARIOS.mkdir(parents=True, exist_ok=True)
    names: set[str] = set()
    for fn in SCENARIO_FUNCS:
        s = fn()
        assert s.name.startswith(PREFIXES), s.name
        assert s.name not in names, s.name
        names.add(s.name)
        s.write(SCENARIOS / s.name)
    # Remove stale directories of ours that no scenario produces any more.
    for d in sorted(SCENARIOS.iterdir()):
        if d.is_dir() and d.name.startswith(PREFIXES) and d.name not in names:
            shutil.rmtree(d)
    build_example()
    print(f"wrote {len(names)} scenarios and examples/ci-runner-image-pull")


if __name__ == "__main__":
    main()
