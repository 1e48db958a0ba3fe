"""Generate a synthetic evidence bundle for one large RLark job: the diagnosis-engine benchmark input.

One Job `ppo-bench-1k`: a Head task (`actor`, 1 replica) on agent `gpu-a` and two worker tasks of 500 replicas
each, `rollout-a` on `gpu-a` and `rollout-b` on `gpu-b` (1,001 pods, one 8-GPU node each, as the pods' hostname
anti-affinity demands). Objects have the shapes RLark and the kubelet write (see tests/scenariogen/rlark.py and
CONTRACT.md §1-2); logs are ~200 MiB in total of Ray/PyTorch/NCCL/tqdm noise, including lines that *look* like
errors but are benign (tracebacks the client retries, `error_rate=0.00`, NCCL's `WARN NET/Plugin` line the
runbook explicitly excludes), so matching has to be right, not only fast.

Planted failures (what a correct diagnosis must report):
  * rollout-b-317: the previous instance of `main` printed `Ray worker process exited with code 1` and the
    container exited 0 (restartCount 1): `rlark.ray.worker-exit-nonzero`.
  * rollout-a-123: `NCCL WARN Call to recv ... failed` and a ProcessGroupNCCL watchdog timeout in the middle of
    the log, with ordinary noise after it: `rlark.run.nccl`.

Deterministic: the same --seed and --mib give byte-identical files. Usage:
    .venv/bin/python bench/engine/gen.py [OUT_DIR] [--seed N] [--mib 200] [--workers 500]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

Obj = dict[str, Any]

REPO = Path(__file__).resolve().parents[2]
DEFAULT_OUT = REPO / "bench" / "out" / "engine-bundle"

JOB = "ppo-bench-1k"
DOMAIN = "bench"
CP = "control-plane"
NS = "rlark-system"
CAPTURED = datetime(2026, 11, 20, 8, 0, 0, tzinfo=UTC)
JOB_AGE_MIN = 300.0
RAY_IMAGE = "registry.rlinf.example/rlinf/rlinf:embodied-rlinf0.2-torch2.6-ray2.40"
AGENT_IMAGE = "registry.rlinf.example/rlark/rlark-agent:v0.4.2"
TB_IMAGE = "rlinf/tensorboard:2.15.1-rc1"
SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFk2b1m9Qm3pXv7cT0yWq8sRz4LhJd6eNa5oKgUu2iBf alice@rlinf-lab"
PREPARE = "source /opt/conda/bin/activate rlinf && pip install -e /workspace/RLinf --no-deps -q"
RUN = ("cd /workspace/RLinf && bash examples/embodiment/run_embodiment.sh maniskill_ppo_openvlaoft "
       "runner.logger.log_path=/data/logs/${RLINF_JOB_NAME}")
AGENT_NET = {"gpu-a": 1, "gpu-b": 2}  # second octet of node IPs (10.<n>.x.y)
POOLS = {"gpu-a": "a800-train", "gpu-b": "h800-train"}
GPU_PRODUCTS = {"gpu-a": "NVIDIA-A800-SXM4-80GB", "gpu-b": "NVIDIA-H800"}

EXIT_POD = f"{JOB}-rollout-b-317"
NCCL_POD = f"{JOB}-rollout-a-123"


def uid(*parts: str) -> str:
    """Stable UIDs: a regenerated bundle must be identical."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "/".join(parts)))


def ts(minutes_ago: float) -> str:
    return (CAPTURED - timedelta(seconds=round(minutes_ago * 60))).strftime("%Y-%m-%dT%H:%M:%SZ")


# --------------------------------------------------------------------------------------------------- topology


@dataclass
class TaskDef:
    name: str
    agent: str
    replicas: int
    rank_start: int
    head: bool = False

    @property
    def full(self) -> str:
        return f"{JOB}-{self.name}"

    @property
    def namespace(self) -> str:
        return f"rlark-{self.agent}"


@dataclass
class PodDef:
    task: TaskDef
    ordinal: int
    node: str
    node_ip: str
    ip: str
    domain_ip: str
    started_min: float

    @property
    def name(self) -> str:
        return f"{self.task.full}-{self.ordinal}"

    @property
    def uid(self) -> str:
        return uid("member-pod", self.task.agent, self.name)

    @property
    def rank(self) -> int:
        return self.task.rank_start + self.ordinal

    @property
    def restarted(self) -> bool:
        return self.name == EXIT_POD


def node_name(agent: str, i: int) -> str:
    return f"{agent}-node-{i:03d}"


def node_ip(agent: str, i: int) -> str:
    return f"10.{AGENT_NET[agent]}.{i // 200}.{10 + i % 200}"


def build_topology(workers: int) -> tuple[list[TaskDef], list[PodDef], dict[str, int]]:
    tasks = [TaskDef("actor", "gpu-a", 1, 0, head=True), TaskDef("rollout-a", "gpu-a", workers, 1),
             TaskDef("rollout-b", "gpu-b", workers, 1 + workers)]
    pods: list[PodDef] = []
    used = {"gpu-a": 0, "gpu-b": 0}
    for ti, t in enumerate(tasks):
        for o in range(t.replicas):
            i = used[t.agent]
            used[t.agent] += 1
            nip = node_ip(t.agent, i)
            # Workers run with hostNetwork (pod IP = node IP); the Head has a pod-network IP.
            ip = f"10.{40 + AGENT_NET[t.agent] * 2}.{i // 200}.{17 + i % 200}" if t.head else nip
            pods.append(PodDef(t, o, node_name(t.agent, i), nip, ip, f"100.96.{ti}.{5 + o % 250}" if o < 250
                               else f"100.97.{ti}.{o % 250}", JOB_AGE_MIN - 1.2 - 0.002 * o))
    return tasks, pods, used


# --------------------------------------------------------------------------------------------------- objects


def meta(name: str, namespace: str | None, *, created: str, labels: dict[str, str] | None = None,
         annotations: dict[str, str] | None = None, uid_: str | None = None) -> Obj:
    m: Obj = {"name": name, "uid": uid_ or uid(namespace or "", name), "creationTimestamp": created,
              "resourceVersion": "48377"}
    if namespace is not None:
        m["namespace"] = namespace
    if labels:
        m["labels"] = labels
    if annotations:
        m["annotations"] = annotations
    return m


def k8s_list(kind: str, items: list[Obj], api_version: str = "v1") -> Obj:
    return {"kind": kind, "apiVersion": api_version, "metadata": {"resourceVersion": "48377"}, "items": items}


def cond(ctype: str, status: str, when: str, reason: str = "", message: str = "") -> Obj:
    c: Obj = {"type": ctype, "status": status, "lastTransitionTime": when}
    if reason:
        c["reason"] = reason
    if message:
        c["message"] = message
    return c


def k8s_node(agent: str, i: int) -> Obj:
    name = node_name(agent, i)
    labels = {"kubernetes.io/arch": "amd64", "kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
              "node.kubernetes.io/instance-type": "gpu-server", "rlinf.io/pool": POOLS[agent],
              "nvidia.com/gpu.product": GPU_PRODUCTS[agent], "nvidia.com/gpu.count": "8"}
    cap = {"cpu": "128", "memory": "2113464612Ki", "ephemeral-storage": "3750570088Ki", "pods": "110",
           "nvidia.com/gpu": "8"}
    alloc = dict(cap, cpu="126", memory="2111367460Ki")
    conds = [cond("MemoryPressure", "False", ts(9000), "KubeletHasSufficientMemory",
                  "kubelet has sufficient memory available"),
             cond("DiskPressure", "False", ts(9000), "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
             cond("PIDPressure", "False", ts(9000), "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
             cond("Ready", "True", ts(9000), "KubeletReady", "kubelet is posting ready status")]
    for c in conds:
        c["lastHeartbeatTime"] = ts(0.4)
    return {"kind": "Node", "apiVersion": "v1",
            "metadata": meta(name, None, created="2026-03-02T09:14:51Z", labels=labels,
                             annotations={"node.alpha.kubernetes.io/ttl": "0"}),
            "spec": {"podCIDR": f"10.{40 + AGENT_NET[agent] * 2}.{i}.0/24"},
            "status": {"capacity": cap, "allocatable": alloc, "conditions": conds,
                       "addresses": [{"type": "InternalIP", "address": node_ip(agent, i)},
                                     {"type": "Hostname", "address": name}],
                       "nodeInfo": {"architecture": "amd64", "kernelVersion": "5.15.0-119-generic",
                                    "osImage": "Ubuntu 22.04.4 LTS", "containerRuntimeVersion": "containerd://1.7.22",
                                    "kubeletVersion": "v1.30.6", "operatingSystem": "linux"}}}


def rlark_node(agent: str, i: int) -> Obj:
    k = k8s_node(agent, i)
    ns = f"rlark-{agent}"
    labels = dict(k["metadata"]["labels"], **{"rlark.io/cluster-id": ns, "rlark.io/agent-type": "Kubernetes"})
    return {"kind": "Node", "apiVersion": "rlinf.io/v1alpha1",
            "metadata": meta(k["metadata"]["name"], ns, created="2026-03-02T09:16:03Z", labels=labels),
            "spec": {"agentType": "Kubernetes"},
            "status": {"phase": "Online", "diskPressure": False, "addresses": k["status"]["addresses"],
                       "capacity": k["status"]["capacity"], "allocatable": k["status"]["allocatable"],
                       "used": {"cpu": "96", "memory": "768Gi", "nvidia.com/gpu": "8"}}}


def lease(agent: str) -> Obj:
    renew = (CAPTURED - timedelta(seconds=4)).strftime("%Y-%m-%dT%H:%M:%S.000000Z")
    return {"kind": "Lease", "apiVersion": "coordination.k8s.io/v1",
            "metadata": meta("heartbeat", f"rlark-{agent}", created="2026-03-02T09:15:40Z"),
            "spec": {"holderIdentity": uid("conn", agent), "leaseDurationSeconds": 30, "renewTime": renew,
                     "leaseTransitions": 7}}


def head_address() -> str:
    return f"{JOB}-actor-0.rlark-domain"


def task_spec(t: TaskDef) -> Obj:
    main = {"name": "main", "image": RAY_IMAGE, "command": ["bash", "-c", "sleep inf"],
            "env": [{"name": "RLINF_JOB_NAME", "value": JOB}],
            "resources": {"limits": {"nvidia.com/gpu": "8"}, "requests": {"nvidia.com/gpu": "8"}}}
    spec: Obj = {"agentType": "Kubernetes", "role": "Actor" if t.head else "Rollout",
                 "nodeSelector": {"rlinf.io/pool": POOLS[t.agent]}, "tensorBoardDir": "/data/tensorboard",
                 "prepareScript": PREPARE,
                 "kubernetes": {"workload": {"kind": "StatefulSet", "replicas": t.replicas,
                                             "template": {"metadata": {}, "spec": {"containers": [main]}}}}}
    if t.head:
        spec["runScript"] = RUN
    return spec


def job_obj(tasks: list[TaskDef]) -> Obj:
    return {"kind": "Job", "apiVersion": "rlinf.io/v1alpha1",
            "metadata": meta(JOB, None, created=ts(JOB_AGE_MIN), labels={"rlinf.io/owner": "alice"},
                             annotations={"rlinf.io/created-by": "rlark-ui"}),
            "spec": {"domain": DOMAIN, "sshPublicKey": SSH_KEY,
                     "tasks": [{"name": t.name, **({"head": True} if t.head else {}), **task_spec(t)} for t in tasks]},
            "status": {"phase": "Running", "startTime": ts(JOB_AGE_MIN),
                       "tasks": [{"name": t.name, "phase": "Running"} for t in tasks]}}


def task_obj(t: TaskDef, total: int, pods: list[PodDef]) -> Obj:
    ann = {"rlark.io/ray-role": "head" if t.head else "worker", "rlark.io/ray-total-nodes": str(total),
           "rlark.io/ray-node-rank-start": str(t.rank_start), "rlark.io/ray-head-task-name": f"{JOB}-actor"}
    m = meta(t.full, t.namespace, created=ts(JOB_AGE_MIN - 0.02), labels={"rlinf.io/job": JOB}, annotations=ann,
             uid_=uid("task", t.namespace, t.full))
    m["ownerReferences"] = [{"apiVersion": "rlinf.io/v1alpha1", "kind": "Job", "name": JOB, "uid": uid("", JOB),
                             "controller": True, "blockOwnerDeletion": True}]
    m["finalizers"] = ["rlark.io/agent-cleanup"]
    spec = dict(task_spec(t), domain=DOMAIN, sshPublicKey=SSH_KEY)
    return {"kind": "Task", "apiVersion": "rlinf.io/v1alpha1", "metadata": m, "spec": spec,
            "status": {"phase": "Running", "startTime": ts(JOB_AGE_MIN - 0.05),
                       "observedNodes": [p.node for p in pods if p.task is t]}}


def pod_mirror(p: PodDef) -> Obj:
    t = p.task
    return {"kind": "Pod", "apiVersion": "rlinf.io/v1alpha1",
            "metadata": meta(p.uid, t.namespace, created=ts(p.started_min + 0.3),
                             labels={"rlark.io/local-pod-name": p.name, "rlark.io/local-pod-namespace": NS,
                                     "rlark.io/task-name": t.full}),
            "spec": {"taskNamespace": t.namespace, "taskName": t.full, "podNamespace": NS, "podName": p.name,
                     "domain": DOMAIN},
            "status": {"phase": "Running", "node": p.node, "ip": p.ip}}


def pod_template(t: TaskDef, total: int) -> Obj:
    role = "head" if t.head else "worker"
    env: list[Obj] = [{"name": "RLINF_JOB_NAME", "value": JOB}, {"name": "RLARK_RAY_PORT", "value": "6379"},
                      {"name": "RLARK_PREPARE_SCRIPT", "value": PREPARE},
                      {"name": "RLARK_SSH_PUBLIC_KEY", "value": SSH_KEY},
                      {"name": "RLARK_NODE_RANK_START", "value": str(t.rank_start)},
                      {"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1",
                                                                       "fieldPath": "metadata.name"}}}]
    if t.head:
        env += [{"name": "RLARK_RUN_SCRIPT", "value": RUN}, {"name": "RLARK_TOTAL_NODES", "value": str(total)},
                {"name": "RLARK_DOMAIN", "value": DOMAIN}]
    else:
        env.append({"name": "RLARK_HEAD_ADDRESS", "value": head_address()})
    mounts = [{"name": "ray-init-scripts", "mountPath": "/rlark/scripts"},
              {"name": "rlark-tensorboard", "mountPath": "/data/tensorboard"},
              {"name": "dshm", "mountPath": "/dev/shm"}]
    volumes: list[Obj] = [
        {"name": "ray-init-scripts", "configMap": {"name": f"ray-{role}-init", "defaultMode": 420}},
        {"name": "rlark-tensorboard", "emptyDir": {}}, {"name": "dshm", "emptyDir": {"medium": "Memory"}},
        {"name": "rlark-nodeserver-socket", "hostPath": {"path": "/var/run/rlark", "type": ""}}]
    # Native sidecars (init containers with restartPolicy Always), as the agent builds them.
    inits: list[Obj] = [
        {"name": "tensorboard", "image": TB_IMAGE, "command": ["tensorboard"],
         "args": ["--logdir=/data/tensorboard", "--bind_all"], "restartPolicy": "Always",
         "ports": [{"name": "tensorboard", "containerPort": 6006, "protocol": "TCP"}],
         "volumeMounts": [{"name": "rlark-tensorboard", "mountPath": "/data/tensorboard"}]},
        {"name": "rlark-network-sidecar", "image": AGENT_IMAGE, "command": ["/usr/local/bin/network-sidecar"],
         "restartPolicy": "Always", "securityContext": {"privileged": True, "capabilities": {"add": ["NET_ADMIN"]}},
         "volumeMounts": [{"name": "rlark-nodeserver-socket", "mountPath": "/var/run/rlark"}]}]
    if t.head:
        volumes.append({"name": "rlark-sshd", "emptyDir": {}})
        mounts.append({"name": "rlark-sshd", "mountPath": "/sshd"})
        inits.append({"name": "rlark-sshd-init", "image": AGENT_IMAGE,
                      "command": ["cp", "/usr/local/bin/rlark-sshd", "/sshd/rlark-sshd"],
                      "volumeMounts": [{"name": "rlark-sshd", "mountPath": "/sshd"}]})
    main = {"name": "main", "image": RAY_IMAGE, "imagePullPolicy": "IfNotPresent",
            "command": ["bash", f"/rlark/scripts/ray_{role}.sh"], "env": env,
            "resources": {"limits": {"nvidia.com/gpu": "8"}, "requests": {"nvidia.com/gpu": "8"}},
            "securityContext": {"privileged": True}, "volumeMounts": mounts,
            "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}
    labels = {"app": t.full}
    spec: Obj = {"containers": [main], "initContainers": inits, "volumes": volumes,
                 "nodeSelector": {"rlinf.io/pool": POOLS[t.agent]},
                 "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                     {"labelSelector": {"matchLabels": labels}, "topologyKey": "kubernetes.io/hostname"}]}},
                 "restartPolicy": "Always", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
                 "schedulerName": "default-scheduler"}
    if not t.head:
        spec["hostNetwork"] = True
        spec["dnsPolicy"] = "ClusterFirstWithHostNet"
    return {"metadata": {"labels": labels, "annotations": {"rlark.io/management-task-name": t.full,
                                                            "rlark.io/management-task-namespace": t.namespace,
                                                            "rlark.io/management-task-domain": DOMAIN}},
            "spec": spec}


def statefulset_obj(t: TaskDef, total: int) -> Obj:
    m = meta(t.full, NS, created=ts(JOB_AGE_MIN - 0.1), annotations={
        "rlark.io/management-task-name": t.full, "rlark.io/management-task-namespace": t.namespace,
        "rlark.io/management-task-uid": uid("task", t.namespace, t.full)})
    rev = f"{t.full}-{uid('rev', t.full)[:10].replace('-', '')}"
    return {"kind": "StatefulSet", "apiVersion": "apps/v1", "metadata": m,
            "spec": {"replicas": t.replicas, "selector": {"matchLabels": {"app": t.full}}, "serviceName": "",
                     "template": pod_template(t, total), "podManagementPolicy": "OrderedReady"},
            "status": {"observedGeneration": 1, "replicas": t.replicas, "readyReplicas": t.replicas,
                       "currentReplicas": t.replicas, "updatedReplicas": t.replicas,
                       "availableReplicas": t.replicas, "currentRevision": rev, "updateRevision": rev}}


def cstatus(name: str, image: str, state: Obj, *, last: Obj | None = None, restarts: int = 0,
            ready: bool = True) -> Obj:
    return {"name": name, "image": image, "imageID": f"{image.split(':')[0]}@sha256:{'ab' * 32}", "state": state,
            "lastState": last or {}, "ready": ready, "restartCount": restarts, "started": "running" in state}


def member_pod(p: PodDef, template: Obj) -> Obj:
    t = p.task
    rev = f"{t.full}-{uid('rev', t.full)[:10].replace('-', '')}"
    m = meta(p.name, NS, created=ts(p.started_min + 0.4), uid_=p.uid,
             labels={**template["metadata"]["labels"], "apps.kubernetes.io/pod-index": str(p.ordinal),
                     "controller-revision-hash": rev, "statefulset.kubernetes.io/pod-name": p.name},
             annotations=template["metadata"]["annotations"])
    m["generateName"] = f"{t.full}-"
    m["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": t.full,
                             "uid": uid(NS, t.full), "controller": True, "blockOwnerDeletion": True}]
    spec = dict(template["spec"], hostname=p.name, nodeName=p.node)
    start = ts(p.started_min)
    inits = [cstatus("tensorboard", TB_IMAGE, {"running": {"startedAt": ts(p.started_min + 0.3)}}),
             cstatus("rlark-network-sidecar", AGENT_IMAGE, {"running": {"startedAt": ts(p.started_min + 0.3)}})]
    if t.head:
        inits.append(cstatus("rlark-sshd-init", AGENT_IMAGE, {"terminated": {
            "exitCode": 0, "reason": "Completed", "startedAt": ts(p.started_min + 0.25),
            "finishedAt": ts(p.started_min + 0.24)}}, ready=False))
    if p.restarted:
        # The Ray wrapper exits 0 after a failed worker process: kubelet restarts `main` with no error state.
        restart_min = 95.0
        main = cstatus("main", RAY_IMAGE, {"running": {"startedAt": ts(restart_min)}}, restarts=1,
                       last={"terminated": {"exitCode": 0, "reason": "Completed", "startedAt": start,
                                            "finishedAt": ts(restart_min + 0.01),
                                            "containerID": "containerd://" + uid("prev", p.name).replace("-", "")}})
    else:
        main = cstatus("main", RAY_IMAGE, {"running": {"startedAt": start}})
    status = {"phase": "Running", "qosClass": "BestEffort", "hostIP": p.node_ip, "hostIPs": [{"ip": p.node_ip}],
              "podIP": p.ip, "podIPs": [{"ip": p.ip}], "startTime": ts(p.started_min + 0.35),
              "initContainerStatuses": inits, "containerStatuses": [main],
              "conditions": [cond("PodReadyToStartContainers", "True", ts(p.started_min + 0.33)),
                             cond("Initialized", "True", ts(p.started_min + 0.2)),
                             cond("Ready", "True", ts(p.started_min - 0.01)),
                             cond("ContainersReady", "True", ts(p.started_min - 0.01)),
                             cond("PodScheduled", "True", ts(p.started_min + 0.4))]}
    return {"kind": "Pod", "apiVersion": "v1", "metadata": m, "spec": spec, "status": status}


def event(p: PodDef, reason: str, message: str, minutes: float, *, etype: str = "Normal", count: int = 1,
          component: str = "kubelet", last_min: float | None = None) -> Obj:
    first = ts(minutes)
    return {"kind": "Event", "apiVersion": "v1",
            "metadata": meta(f"{p.name}.{uid(p.name, reason, message, first)[:16]}", NS, created=first),
            "involvedObject": {"kind": "Pod", "namespace": NS, "name": p.name, "uid": p.uid, "apiVersion": "v1"},
            "reason": reason, "message": message,
            "source": {"component": component, **({"host": p.node} if component == "kubelet" else {})},
            "firstTimestamp": first, "lastTimestamp": ts(last_min if last_min is not None else minutes),
            "count": count, "type": etype, "reportingComponent": component,
            "reportingInstance": p.node if component == "kubelet" else ""}


def pod_events(p: PodDef) -> list[Obj]:
    t0 = p.started_min + 0.4
    evs = [event(p, "Scheduled", f"Successfully assigned {NS}/{p.name} to {p.node}", t0,
                 component="default-scheduler")]
    containers = [("tensorboard", TB_IMAGE), ("rlark-network-sidecar", AGENT_IMAGE)]
    if p.task.head:
        containers.append(("rlark-sshd-init", AGENT_IMAGE))
    containers.append(("main", RAY_IMAGE))
    for i, (c, image) in enumerate(containers):
        tt = t0 - 0.02 * (i + 1)
        n, last = (2, 95.0) if (c == "main" and p.restarted) else (1, None)
        evs.append(event(p, "Pulled", f'Container image "{image}" already present on machine', tt, count=n,
                         last_min=last))
        evs.append(event(p, "Created", f"Created container {c}", tt, count=n, last_min=last))
        evs.append(event(p, "Started", f"Started container {c}", tt, count=n, last_min=last))
    return evs


# --------------------------------------------------------------------------------------------------- log text


def lts(minutes_ago: float) -> str:
    t = CAPTURED - timedelta(seconds=minutes_ago * 60)
    return t.strftime("%Y-%m-%d %H:%M:%S") + f",{t.microsecond // 1000:03d}"


def glog_ts(minutes_ago: float) -> str:
    t = CAPTURED - timedelta(seconds=minutes_ago * 60)
    return t.strftime("%m%d %H:%M:%S") + f".{t.microsecond:06d}"


class Noise:
    """Weighted noise lines. Each generator gets (rng, pod, minutes-ago, step) and returns one or more lines."""

    def __init__(self, p: PodDef, rng: random.Random, *, fancy_bars: bool) -> None:
        self.p = p
        self.rng = rng
        self.pid = 2000 + rng.randrange(4000)
        self.fancy = fancy_bars
        self.host = p.name if p.task.head else p.node
        gens: list[tuple[int, Callable[[float, int], str]]] = [
            (30, self.rlinf_info), (18, self.actor_line), (10, self.raylet), (10, self.nccl_info),
            (6, self.torch_warning), (6, self.tqdm), (4, self.metrics), (3, self.gpu_mem),
            (2, self.benign_error_words), (1, self.retry_traceback), (1, self.grpc_warning),
        ]
        self.funcs = [g for _, g in gens]
        self.weights = [w for w, _ in gens]

    def line(self, minutes: float, step: int) -> str:
        f = self.rng.choices(self.funcs, self.weights)[0]
        return f(minutes, step)

    def rlinf_info(self, m: float, step: int) -> str:
        r = self.rng
        comp = r.choice(("rlinf.workers.rollout.sglang", "rlinf.workers.env.maniskill", "rlinf.scheduler.channel",
                         "rlinf.workers.actor.fsdp", "rlinf.runners.embodied_runner"))
        body = r.choice((
            f"step {step}: generated {r.randrange(20000, 90000)} tokens in {r.uniform(1, 9):.2f}s "
            f"({r.uniform(4000, 16000):.1f} tok/s)",
            f"synced weights to {r.randrange(8, 64)} rollout engines in {r.uniform(0.2, 3):.3f}s (version {step})",
            f"env batch {step}: {r.randrange(64, 257)} episodes, mean length {r.uniform(40, 200):.1f}, "
            f"success_once={r.random():.3f}",
            f"channel rollout->actor queue depth {r.randrange(0, 32)} (max 32), put latency {r.uniform(0, 5):.2f}ms",
            f"offloaded optimizer state to CPU in {r.uniform(0.5, 4):.2f}s",
        ))
        return f"[{lts(m)}][{comp}][INFO] - {body}\n"

    def actor_line(self, m: float, step: int) -> str:
        r = self.rng
        cls = r.choice(("RolloutWorker", "EnvWorker", "EmbodiedFSDPActor", "HybridComponentWorker"))
        return (f"({cls} pid={self.pid + r.randrange(64)}, ip={self.p.ip}) [{cls.lower()}] iter={step} "
                f"reward_mean={r.uniform(-1, 1):.4f} success_rate={r.random():.3f} error_rate=0.00 "
                f"kl={r.uniform(0, 0.05):.5f} clip_frac={r.uniform(0, 0.3):.4f}\n")

    def raylet(self, m: float, step: int) -> str:
        r = self.rng
        lvl = "I" if r.random() < 0.8 else "W"
        msg = r.choice((
            f"node_manager.cc:1123: Reported {r.randrange(1, 400)} task events to GCS",
            f"object_manager.cc:{r.randrange(200, 900)}: Spilled {r.randrange(1, 50)} MiB, {r.randrange(1, 9)} objects",
            f"worker_pool.cc:{r.randrange(500, 1500)}: Started worker process with pid {r.randrange(3000, 90000)}",
            f"memory_monitor.cc:{r.randrange(100, 300)}: Node memory usage {r.uniform(40, 80):.2f}% is below "
            "the threshold 0.95",
            "local_object_manager.cc:490: Object store pull retry scheduled, will retry in 100ms",
        ))
        return f"[{lts(m).replace(',', '.')} {lvl} {self.pid} {self.pid}] (raylet) {msg}\n"

    def nccl_info(self, m: float, step: int) -> str:
        r = self.rng
        dev = r.randrange(8)
        tid = self.pid + 100 + dev
        msg = r.choice((
            f"Channel {r.randrange(32):02d}/32 : {dev}[{dev}] -> {(dev + 1) % 8}[{(dev + 1) % 8}] via P2P/CUMEM/read",
            f"comm 0x{r.getrandbits(40):010x} rank {dev} nRanks 8 nNodes 1 localRanks 8 localRank {dev} MNNVL 0",
            "Connected all rings, use ring PXN 0 GDR 1",
            f"NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB eth0:{self.p.node_ip}<0>",
            f"ncclCommInitRank comm 0x{r.getrandbits(40):010x} rank {dev} nranks 8 cudaDev {dev} "
            f"nvmlDev {dev} busId {dev + 0x18:x}000 commId 0x{r.getrandbits(60):x} - Init COMPLETE",
        ))
        return f"{self.host}:{self.pid}:{tid} [{dev}] NCCL INFO {msg}\n"

    def torch_warning(self, m: float, step: int) -> str:
        r = self.rng
        return r.choice((
            f"[rank{self.p.rank}]:[W{glog_ts(m)} ProcessGroupNCCL.cpp:4115] Warning: TORCH_NCCL_AVOID_RECORD_STREAMS=1"
            " has no effect for point-to-point collectives. (function operator())\n",
            "/opt/conda/envs/rlinf/lib/python3.10/site-packages/torch/distributed/fsdp/_init_utils.py:444: "
            "UserWarning: FSDP is switching to use `NO_SHARD` instead of ShardingStrategy.FULL_SHARD since the "
            "world size is 1.\n  warnings.warn(\n",
            "/opt/conda/envs/rlinf/lib/python3.10/site-packages/torch/utils/checkpoint.py:91: UserWarning: None of "
            "the inputs have requires_grad=True. Gradients will be None\n",
            "`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('cuda', args...)` "
            "instead.\n",
        ))

    def tqdm(self, m: float, step: int) -> str:
        """A tqdm bar redrawn with carriage returns: one physical line, many updates."""
        r = self.rng
        total = r.choice((64, 100, 128, 256))
        desc = r.choice(("Generating rollouts", "Env steps", "Collecting episodes", "Actor update"))
        parts = []
        for i in range(0, total + 1, max(1, total // r.randrange(6, 14))):
            pct = 100 * i // total
            fill = pct // 10
            bar = ("█" * fill + " " * (10 - fill)) if self.fancy else ("#" * fill + " " * (10 - fill))
            rate = r.uniform(2, 40)
            parts.append(f"{desc}: {pct:3d}%|{bar}| {i}/{total} [00:{i // 4:02d}<00:{(total - i) // 4:02d}, "
                         f"{rate:.2f}it/s]")
        return "\r".join(parts) + "\n"

    def metrics(self, m: float, step: int) -> str:
        r = self.rng
        return (f"[{lts(m)}][rlinf.utils.metric_logger][INFO] - step={step} train/actor/policy_loss="
                f"{r.uniform(-0.05, 0.05):.5f} train/actor/entropy_loss={r.uniform(0.5, 2):.4f} "
                f"train/actor/grad_norm={r.uniform(0.1, 2):.4f} rollout/rewards={r.uniform(0, 1):.4f} "
                f"eval/error_count=0 time/step={r.uniform(30, 60):.2f}\n")

    def gpu_mem(self, m: float, step: int) -> str:
        r = self.rng
        return (f"[{lts(m)}][rlinf.utils.utils][INFO] - GPU {r.randrange(8)} memory: allocated "
                f"{r.uniform(20, 70):.2f}GB, reserved {r.uniform(70, 78):.2f}GB, "
                f"max allocated {r.uniform(70, 79):.2f}GB\n")

    def benign_error_words(self, m: float, step: int) -> str:
        """Lines a naive `grep -i error` flags but that report success."""
        r = self.rng
        return r.choice((
            f"[ManiSkill] loaded {r.choice((64, 128, 256))} parallel envs, 0 errors, warmup done in "
            f"{r.uniform(20, 60):.1f}s\n",
            f"[{lts(m)}][rlinf.runners.embodied_runner][INFO] - validation: success_rate={r.random():.3f}, "
            f"error_rate=0.00, episodes=256, failures=0\n",
            "INFO: handler registered with ignore_errors=True, on_error=log\n",
            f"[{lts(m)}][rlinf.hybrid_engines][INFO] - no errors in weight sync (checked {r.randrange(100, 900)} "
            "tensors)\n",
        ))

    def retry_traceback(self, m: float, step: int) -> str:
        """A traceback the Ray client logs and then retries: scary-looking, harmless."""
        return (f"[{lts(m)}][ray.util.client][WARNING] - transient GCS RPC failure, will retry (attempt 1/5):\n"
                "Traceback (most recent call last):\n"
                "  File \"/opt/conda/envs/rlinf/lib/python3.10/site-packages/ray/_private/gcs_utils.py\", line 118, "
                "in wrapper\n    return f(self, *args, **kwargs)\n"
                "  File \"/opt/conda/envs/rlinf/lib/python3.10/site-packages/grpc/_channel.py\", line 1181, in "
                "__call__\n    return _end_unary_response_blocking(state, call, False, None)\n"
                "grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:\n"
                "\tstatus = StatusCode.UNAVAILABLE\n"
                "\tdetails = \"failed to connect to all addresses; last error: UNAVAILABLE: "
                f"ipv4:{self.p.node_ip}:6379: Socket closed\"\n>\n")

    def grpc_warning(self, m: float, step: int) -> str:
        return (f"[{lts(m).replace(',', '.')} W {self.pid} {self.pid + 7}] (gcs_server) gcs_health_check_manager.cc:"
                f"{self.rng.randrange(100, 200)}: Health check failed for node {uid('n', str(step))[:28]}, "
                "remaining checks 4, will retry\n")


def rank_lines(p: PodDef) -> str:
    ssh = "rlark-sshd started on port 22\n" if p.task.head else "SSH public key injected into authorized_keys\n"
    return f"RLINF_NODE_RANK: {p.rank}\n{ssh}"


PREPARE_OUT = ("Executing prepare script...\nObtaining file:///workspace/RLinf\n"
               "  Installing build dependencies: started\n"
               "  Installing build dependencies: finished with status 'done'\n"
               "Requirement already satisfied: hydra-core>=1.3.2 in /opt/conda/envs/rlinf/lib/python3.10/site-packages "
               "(1.3.2)\nBuilding wheels for collected packages: rlinf\n"
               "  Building editable for rlinf (pyproject.toml): finished with status 'done'\n"
               "Successfully built rlinf\nInstalling collected packages: rlinf\n"
               # pip prints this on most real images; it is benign, but it looks like the first error.
               "ERROR: pip's dependency resolver does not currently take into account all the packages that are "
               "installed. This behaviour is the source of the following dependency conflicts.\n"
               "vllm 0.8.5 requires torch==2.6.0, but you have torch 2.6.0+cu124 which is incompatible.\n"
               "Successfully installed rlinf-0.2.0\n")


def head_preamble(p: PodDef, total: int) -> str:
    ip = p.domain_ip
    s = rank_lines(p) + PREPARE_OUT
    s += (f"Did not find any active Ray processes.\nWaiting for domain IP from /etc/hosts... (attempt 1)\n"
          f"Resolved domain IP: {ip} ({p.name}.rlark-domain)\nUsage stats collection is disabled.\n\n"
          f"Local node IP: {ip}\n\n--------------------\nRay runtime started.\n--------------------\n\n")
    s += (f"Waiting for {total} nodes to join the Ray cluster...\nStarting Ray cluster status check...\n"
          f"Waiting for cluster to have at least {total} nodes.\nRay Address: {ip}:6379\n")
    for i, c in enumerate((1, 212, 655, 948, total)):
        s += (f"{lts(p.started_min - 0.8 - i * 0.17)}\tINFO worker.py:1654 -- Connecting to existing Ray cluster "
              f"at address: {ip}:6379...\nFound {c} total nodes, {c} of which are alive.\nCurrent node count: {c}\n")
        if c < total:
            s += f"Time remaining: {900 - i * 10}s\n"
    s += (f"Cluster is ready: {total} nodes available (required: {total}).\nRay cluster check passed.\n"
          "Ray cluster is ready. Printing cluster information:\n==========================================\n"
          "Node status\n---------------------------------------------------------------\nActive:\n")
    s += "".join(f" 1 node_{uid('raynode', str(i)).replace('-', '')[:56]}\n" for i in range(total))
    s += (f"Pending:\n (no pending nodes)\nRecent failures:\n (no failures)\n\nResources\n"
          f"---------------------------------------------------------------\nTotal Usage:\n 0.0/{total * 124}.0 CPU\n"
          f" 0.0/{total * 8}.0 GPU\n==========================================\n"
          "Executing run script...\nUsing Python at /opt/conda/envs/rlinf/bin/python\n"
          f"[{lts(p.started_min - 1.5)}][rlinf.scheduler.cluster][INFO] - Ray cluster has {total} nodes with "
          f"{total * 8} accelerators in total\n")
    return s


def worker_preamble(p: PodDef) -> str:
    addr, hip = head_address(), "100.96.0.5"
    return (rank_lines(p) + PREPARE_OUT + f"Connecting to Ray head at {addr}:6379...\nHEAD IP: {hip}\n"
            f"Waiting for head to be reachable at {addr}:6379... (attempt 1)\nHEAD IP: {hip}\n"
            f"Head is reachable at {hip}:6379\nLocal node IP: {p.ip}\n\n--------------------\nRay runtime started.\n"
            "--------------------\n\nTo terminate the Ray runtime, run\n  ray stop\n"
            "  This command will now block forever until terminated by a signal.\n"
            # Real NCCL prints this on every node without the IB plugin; the runbook's `unless` excludes it.
            f"{p.node}:{2100}:{2150} [0] NCCL WARN NET/Plugin : dlerror=libnccl-net.so: cannot open shared object "
            "file: No such file or directory No plugin found (libnccl-net.so), using internal implementation\n")


def nccl_failure(p: PodDef, m: float) -> str:
    peer = node_ip("gpu-b", 45)
    return (f"{p.node}:2231:2398 [3] NCCL WARN Call to recv from {peer}<50123> failed : Connection reset by peer\n"
            f"{p.node}:2231:2398 [3] NCCL INFO transport/net_socket.cc:541 -> 6\n"
            f"{p.node}:2231:2398 [3] NCCL INFO transport/net.cc:1301 -> 6\n"
            f"[rank{p.rank}]:[E{glog_ts(m)} ProcessGroupNCCL.cpp:616] [Rank {p.rank}] Watchdog caught collective "
            "operation timeout: WorkNCCL(SeqNum=45211, OpType=ALLREDUCE, NumelIn=1048576, NumelOut=1048576, "
            "Timeout(ms)=600000) ran for 600071 milliseconds before timing out.\n")


def worker_exit_block() -> str:
    return ("Some Ray subprocesses exited unexpectedly:\n  raylet [exit code=1]\n\n"
            "Remaining processes will be killed.\n"
            "Ray worker process exited with code 1\nStopping Ray worker...\n")


def fill(noise: Noise, budget: int, start_min: float, end_min: float, step0: int = 0) -> list[str]:
    """Noise lines totalling about `budget` characters, timestamps moving from start_min to end_min ago."""
    out: list[str] = []
    size = 0
    step = step0
    approx_lines = max(1, budget // 140)
    dt = (start_min - end_min) / approx_lines
    m = start_min
    while size < budget:
        s = noise.line(m, step)
        out.append(s)
        size += len(s)
        m = max(end_min, m - dt)
        step += 1
    return out


def tensorboard_log(p: PodDef) -> str:
    t = (CAPTURED - timedelta(minutes=p.started_min + 0.3)).strftime("%H:%M:%S")
    return (f"2026-11-20 {t}.512194: I tensorflow/core/util/port.cc:153] oneDNN custom operations are on.\n"
            "NOTE: Using experimental fast data loading logic. To disable, pass\n"
            "    \"--load_fast=false\" and report issues on GitHub. More details:\n"
            "    https://github.com/tensorflow/tensorboard/issues/4784\n\n"
            f"TensorBoard 2.15.1 at http://{p.name}:6006/ (Press CTRL+C to quit)\n")


def sidecar_log(p: PodDef) -> str:
    stamp = (CAPTURED - timedelta(minutes=p.started_min + 0.3)).strftime("%Y-%m-%dT%H:%M:%S")
    ip = p.domain_ip
    return (f'{stamp}.201Z\tINFO\tFailed to get pod IP from nodeserver, retrying\t{{"err": "dial unix '
            f'/var/run/rlark/nodeserver.sock: connect: connection refused", "backoff": "500ms"}}\n'
            f'{stamp}.733Z\tINFO\tRetrieved pod IP info from nodeserver\t{{"ip": "{ip}", "prefixLength": 16}}\n'
            f'{stamp}.735Z\tINFO\tHosts sync started\t{{"interval": "5s", "hostsFile": "/etc/hosts"}}\n')


def sections(ns: str, pod: str, containers: list[tuple[str, str]]) -> str:
    out = []
    for c, text in containers:
        out.append(f"==== START logs for container {c} of pod {ns}/{pod} ====\n{text}"
                   f"==== END logs for container {c} of pod {ns}/{pod} ====\n")
    return "".join(out)


def pod_logs(p: PodDef, total: int, budget: int, seed: int) -> tuple[str, str | None]:
    """(logs.txt, previous-logs.txt or None) for one pod; ~`budget` characters of `main` noise."""
    rng = random.Random(f"{seed}/{p.name}")
    # About a fifth of the pods draw tqdm bars with block characters: realistic, and it makes those Python
    # strings 2 bytes per character (PEP 393), which the memory measurement should see.
    noise = Noise(p, rng, fancy_bars=p.task.head or rng.random() < 0.2)
    start = p.started_min - 2
    side = [("tensorboard", tensorboard_log(p)), ("rlark-network-sidecar", sidecar_log(p))]
    previous = None
    if p.task.head:
        main = head_preamble(p, total) + "".join(fill(noise, budget, start, 0.1))
    elif p.name == NCCL_POD:
        half = budget // 2
        main = (worker_preamble(p) + "".join(fill(noise, half, start, 150)) + nccl_failure(p, 150)
                + "".join(fill(noise, budget - half, 149.9, 0.1, 10_000)))
    elif p.restarted:
        prev = worker_preamble(p) + "".join(fill(noise, budget // 2, start, 96)) + worker_exit_block()
        previous = sections(NS, p.name, [("main", prev)])
        main = worker_preamble(p) + "".join(fill(noise, budget // 2, 94, 0.1))
    else:
        main = worker_preamble(p) + "".join(fill(noise, budget, start, 0.1))
    # kubectl's dump lists containers in spec order: init containers (the sidecars) first.
    return sections(NS, p.name, [*side, ("main", main)]), previous


# --------------------------------------------------------------------------------------------------- writing


def write_list(path: Path, kind: str, items: list[Obj], api_version: str = "v1") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # kubectl writes indented JSON; keep the shape (and the parse cost) of a real dump.
    path.write_text(json.dumps(k8s_list(kind, items, api_version), indent=4, ensure_ascii=False) + "\n",
                    encoding="utf-8")


def generate(out: Path, *, seed: int = 1, mib: float = 200.0, workers: int = 500) -> dict[str, Any]:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    tasks, pods, used = build_topology(workers)
    total = len(pods)
    (out / "snapshot.yaml").write_text(f"capturedAt: '{CAPTURED.strftime('%Y-%m-%dT%H:%M:%SZ')}'\n"
                                       f"controlPlane: {CP}\nclusters:\n- {CP}\n- gpu-a\n- gpu-b\n", encoding="utf-8")
    write_list(out / CP / "jobs.rlinf.io.json", "JobList", [job_obj(tasks)], "rlinf.io/v1alpha1")
    for agent in ("gpu-a", "gpu-b"):
        ns = f"rlark-{agent}"
        write_list(out / CP / ns / "tasks.rlinf.io.json", "TaskList",
                   [task_obj(t, total, pods) for t in tasks if t.agent == agent], "rlinf.io/v1alpha1")
        write_list(out / CP / ns / "pods.rlinf.io.json", "PodList",
                   [pod_mirror(p) for p in pods if p.task.agent == agent], "rlinf.io/v1alpha1")
        write_list(out / CP / ns / "nodes.rlinf.io.json", "NodeList",
                   [rlark_node(agent, i) for i in range(used[agent])], "rlinf.io/v1alpha1")
        write_list(out / CP / ns / "leases.json", "LeaseList", [lease(agent)], "coordination.k8s.io/v1")
        write_list(out / agent / "nodes.json", "NodeList", [k8s_node(agent, i) for i in range(used[agent])])
        mine = [p for p in pods if p.task.agent == agent]
        templates = {t.name: pod_template(t, total) for t in tasks}
        write_list(out / agent / NS / "pods.json", "PodList", [member_pod(p, templates[p.task.name]) for p in mine])
        events = sorted((e for p in mine for e in pod_events(p)),
                        key=lambda e: (e["lastTimestamp"], e["metadata"]["name"]))
        write_list(out / agent / NS / "events.json", "EventList", events)
        write_list(out / agent / NS / "statefulsets.json", "StatefulSetList",
                   [statefulset_obj(t, total) for t in tasks if t.agent == agent], "apps/v1")
        write_list(out / agent / NS / "persistentvolumeclaims.json", "PersistentVolumeClaimList", [])
    # The Head's driver log carries every actor's forwarded output, so it is by far the largest.
    total_chars = int(mib * 1024 * 1024)
    head_budget = total_chars // 8
    worker_budget = (total_chars - head_budget) // (total - 1)
    log_bytes = 0
    for p in pods:
        logs, previous = pod_logs(p, total, head_budget if p.task.head else worker_budget, seed)
        d = out / p.task.agent / NS / p.name
        d.mkdir(parents=True, exist_ok=True)
        data = logs.encode("utf-8")
        (d / "logs.txt").write_bytes(data)
        log_bytes += len(data)
        if previous is not None:
            prev = previous.encode("utf-8")
            (d / "previous-logs.txt").write_bytes(prev)
            log_bytes += len(prev)
    return {"pods": total, "log_bytes": log_bytes, "job": JOB, "exit_pod": EXIT_POD, "nccl_pod": NCCL_POD}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mib", type=float, default=200.0, help="total log size target (MiB of characters)")
    ap.add_argument("--workers", type=int, default=500, help="replicas of each of the two worker tasks")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    info = generate(args.out, seed=args.seed, mib=args.mib, workers=args.workers)
    print(f"wrote {args.out}: job {info['job']}, {info['pods']} pods, {info['log_bytes'] / 2**20:.1f} MiB of logs "
          f"in {time.perf_counter() - t0:.1f}s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
