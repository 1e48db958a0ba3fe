"""RLark/Ray scenario bundles: `python -m tests.scenariogen.rlark` rewrites tests/scenarios/{rlark,healthy,trap,multi}-*
and examples/{ray-workers-never-join,worker-exit-behind-running,healthy-job}.

Objects follow what the real RLark code writes (api/rlark.io/v1alpha1, apps/rlark/pkg/agent/controllers/task,
apps/rlark/pkg/controllermanager/job) and the `main` logs print exactly the lines of ray_head.sh / ray_worker.sh /
ray_check.py. Everything is derived from fixed inputs, so re-running produces identical files.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import yaml

from tests.scenariogen.common import (
    BundleWriter,
    Obj,
    condition,
    container_status,
    event,
    meta,
    running,
    stable_uid,
    terminated,
    waiting,
)

REPO = Path(__file__).resolve().parents[2]
SCENARIOS = REPO / "tests" / "scenarios"
EXAMPLES = REPO / "examples"
OWN_PREFIXES = ("rlark-", "healthy-", "trap-", "multi-")
FOREIGN_PREFIXES = ("healthy-ci-",)  # written by tests/scenariogen/ci.py
OWN_EXAMPLES = ("ray-workers-never-join", "worker-exit-behind-running", "healthy-job")

CAPTURED = datetime(2026, 11, 20, 8, 0, 0, tzinfo=UTC)
CP = "control-plane"
RAY_IMAGE = "registry.rlinf.example/rlinf/rlinf:embodied-rlinf0.2-torch2.6-ray2.40"
AGENT_IMAGE = "registry.rlinf.example/rlark/rlark-agent:v0.4.2"
TB_IMAGE = "rlinf/tensorboard:2.15.1-rc1"
SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFk2b1m9Qm3pXv7cT0yWq8sRz4LhJd6eNa5oKgUu2iBf alice@rlinf-lab"
DEFAULT_PREPARE = "source /opt/conda/bin/activate rlinf && pip install -e /workspace/RLinf --no-deps -q"
DEFAULT_RUN = ("cd /workspace/RLinf && bash examples/embodiment/run_embodiment.sh maniskill_ppo_openvlaoft "
               "runner.logger.log_path=/data/logs/${RLINF_JOB_NAME}")


# --------------------------------------------------------------------------------------------------- time


def ts(minutes_ago: float) -> str:
    """RFC3339 timestamp `minutes_ago` before capture."""
    return (CAPTURED - timedelta(seconds=round(minutes_ago * 60))).strftime("%Y-%m-%dT%H:%M:%SZ")


def lts(minutes_ago: float, ms: int = 0) -> str:
    """Python logging timestamp (`2026-11-20 07:41:12,345`)."""
    t = CAPTURED - timedelta(seconds=round(minutes_ago * 60))
    return t.strftime("%Y-%m-%d %H:%M:%S") + f",{ms % 1000:03d}"


def glog(minutes_ago: float, us: int = 0) -> str:
    """glog/c10 style prefix fragment: `1120 07:41:12.123456`."""
    t = CAPTURED - timedelta(seconds=round(minutes_ago * 60))
    return t.strftime("%m%d %H:%M:%S") + f".{us % 1000000:06d}"


# --------------------------------------------------------------------------------------------------- clusters

GPU_PRODUCTS = {"gpu-a": "NVIDIA-A800-SXM4-80GB", "gpu-b": "NVIDIA-H800", "edge-a": "NVIDIA-GeForce-RTX-4090"}
POOLS = {"gpu-a": "a800-train", "gpu-b": "h800-train", "edge-a": "robot-edge"}
SUBNETS = {"gpu-a": "10.0.1", "gpu-b": "10.0.2", "edge-a": "10.0.5"}
PODNETS = {"gpu-a": "10.42", "gpu-b": "10.52", "edge-a": "10.62"}


@dataclass
class NodeDef:
    name: str
    agent: str
    ip: str
    gpus: int = 8
    labels: dict[str, str] = field(default_factory=dict)
    ready: bool = True
    unschedulable: bool = False
    disk_pressure: bool = False
    used_gpus: int = 0


@dataclass
class ClusterDef:
    agent: str
    nodes: list[NodeDef]
    lease_age_s: float = 4.0  # seconds since the heartbeat Lease was renewed
    collected: bool = True  # member cluster directory present in the bundle
    extra_pods: list[Obj] = field(default_factory=list)
    extra_events: list[Obj] = field(default_factory=list)
    pvcs: list[Obj] = field(default_factory=list)


def default_nodes(agent: str, count: int, gpus: int = 8, start: int = 1) -> list[NodeDef]:
    out = []
    for i in range(start, start + count):
        name = f"{agent}-node-{i:02d}"
        out.append(NodeDef(name=name, agent=agent, ip=f"{SUBNETS[agent]}.{10 + i}", gpus=gpus, labels={
            "rlinf.io/pool": POOLS[agent],
            "nvidia.com/gpu.product": GPU_PRODUCTS[agent],
            "nvidia.com/gpu.count": str(gpus),
        }))
    return out


def k8s_node(n: NodeDef) -> Obj:
    labels = {
        "beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": n.name, "kubernetes.io/os": "linux",
        "node.kubernetes.io/instance-type": "gpu-server" if n.gpus >= 8 else "edge-workstation",
        **n.labels,
    }
    cap = {"cpu": "128" if n.gpus >= 8 else "32", "memory": "2113464612Ki" if n.gpus >= 8 else "131712208Ki",
           "ephemeral-storage": "3750570088Ki", "pods": "110", "nvidia.com/gpu": str(n.gpus),
           "hugepages-1Gi": "0", "hugepages-2Mi": "0"}
    alloc = dict(cap, cpu="126" if n.gpus >= 8 else "31", memory="2111367460Ki" if n.gpus >= 8 else "129615056Ki",
                 **{"ephemeral-storage": "3456499955442"})
    hb = ts(0.4)
    conds = [
        condition("MemoryPressure", "False", ts(9000), "KubeletHasSufficientMemory",
                  "kubelet has sufficient memory available"),
        condition("DiskPressure", "True" if n.disk_pressure else "False", ts(30) if n.disk_pressure else ts(9000),
                  "KubeletHasDiskPressure" if n.disk_pressure else "KubeletHasNoDiskPressure",
                  "kubelet has disk pressure" if n.disk_pressure else "kubelet has no disk pressure"),
        condition("PIDPressure", "False", ts(9000), "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
        condition("Ready", "True" if n.ready else "Unknown", ts(9000) if n.ready else ts(50),
                  "KubeletReady" if n.ready else "NodeStatusUnknown",
                  "kubelet is posting ready status" if n.ready else "Kubelet stopped posting node status."),
    ]
    for c in conds:
        c["lastHeartbeatTime"] = hb if n.ready else ts(50)
        c.pop("lastProbeTime", None)
    node: Obj = {
        "kind": "Node", "apiVersion": "v1",
        "metadata": meta(n.name, created="2026-03-02T09:14:51Z", labels=labels,
                         annotations={"node.alpha.kubernetes.io/ttl": "0",
                                      "volumes.kubernetes.io/controller-managed-attach-detach": "true"}),
        "spec": {"podCIDR": f"{PODNETS[n.agent]}.{int(n.ip.split('.')[-1]) - 10}.0/24"},
        "status": {
            "capacity": cap, "allocatable": alloc, "conditions": conds,
            "addresses": [{"type": "InternalIP", "address": n.ip}, {"type": "Hostname", "address": n.name}],
            "nodeInfo": {"architecture": "amd64", "kernelVersion": "5.15.0-119-generic",
                         "osImage": "Ubuntu 22.04.4 LTS",
                         "containerRuntimeVersion": "containerd://1.7.22", "kubeletVersion": "v1.30.6",
                         "kubeProxyVersion": "v1.30.6", "operatingSystem": "linux"},
        },
    }
    if n.unschedulable:
        node["spec"]["unschedulable"] = True
        node["spec"]["taints"] = [{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule",
                                   "timeAdded": ts(300)}]
    if not n.ready:
        node["spec"]["taints"] = [{"key": "node.kubernetes.io/unreachable", "effect": "NoSchedule",
                                   "timeAdded": ts(49)},
                                  {"key": "node.kubernetes.io/unreachable", "effect": "NoExecute", "timeAdded": ts(49)}]
    return node


def rlark_node(n: NodeDef, stale: bool = False) -> Obj:
    k = k8s_node(n)
    ns = f"rlark-{n.agent}"
    labels = dict(k["metadata"]["labels"])
    labels["rlark.io/cluster-id"] = ns
    labels["rlark.io/agent-type"] = "Kubernetes"
    online = n.ready and not n.unschedulable
    events = []
    if n.disk_pressure:
        events.append({"type": "Warning", "reason": "EvictionThresholdMet",
                       "message": "Attempting to reclaim ephemeral-storage", "lastTime": ts(31), "count": 3,
                       "source": "kubelet", "objectKind": "Node", "objectName": n.name})
    st: Obj = {
        "phase": "Online" if online else "Offline",
        "nodeInfo": {"architecture": "amd64", "kernelVersion": "5.15.0-119-generic", "agentVersion": "v0.4.2",
                     "operatingSystem": "linux"},
        "addresses": k["status"]["addresses"],
        "diskPressure": n.disk_pressure,
        "capacity": k["status"]["capacity"], "allocatable": k["status"]["allocatable"],
        "used": {"cpu": f"{n.used_gpus * 12}" if n.used_gpus else "2", "memory": f"{n.used_gpus * 96}Gi" if n.used_gpus
                 else "4Gi", "nvidia.com/gpu": str(n.used_gpus)},
    }
    if events:
        st["events"] = events
    return {"kind": "Node", "apiVersion": "rlinf.io/v1alpha1",
            "metadata": meta(n.name, ns, created="2026-03-02T09:16:03Z", labels=labels),
            "spec": {"agentType": "Kubernetes", **({"unschedulable": True} if n.unschedulable else {})},
            "status": st}


def lease(agent: str, age_s: float) -> Obj:
    ns = f"rlark-{agent}"
    renew = (CAPTURED - timedelta(seconds=age_s)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "000Z"
    return {"kind": "Lease", "apiVersion": "coordination.k8s.io/v1",
            "metadata": meta("heartbeat", ns, created="2026-03-02T09:15:40Z"),
            "spec": {"holderIdentity": stable_uid("conn", agent), "leaseDurationSeconds": 30,
                     "acquireTime": "2026-11-18T02:11:09.000000Z", "renewTime": renew, "leaseTransitions": 7}}


# --------------------------------------------------------------------------------------------------- job model


@dataclass
class TaskDef:
    name: str
    role: str = "Rollout"
    replicas: int = 1
    head: bool = False
    agent: str | None = "gpu-a"  # None: routed to `default` (no agent picks it up)
    selector: dict[str, str] | None = None  # None -> the agent's pool label; {} -> empty selector
    image: str = RAY_IMAGE
    gpus: int = 8
    prepare: str = DEFAULT_PREPARE
    run: str = DEFAULT_RUN
    env: list[dict[str, str]] = field(default_factory=list)
    volumes: list[Obj] = field(default_factory=list)
    mounts: list[Obj] = field(default_factory=list)
    pvc_map: dict[str, str] = field(default_factory=dict)
    tensorboard: str | None = "/data/tensorboard"
    sts_replicas: int | None = None  # member StatefulSet replicas when it drifted from the spec


@dataclass
class PodM:
    """A member pod; defaults describe a healthy running pod, scenarios overwrite fields."""

    task: TaskM
    ordinal: int
    node: str | None
    ip: str | None
    started_min: float  # minutes before capture the main container started
    phase: str = "Running"
    main: Obj | None = None  # container state; None -> running
    main_last: Obj | None = None
    main_restarts: int = 0
    main_ready: bool | None = None
    init_override: dict[str, Obj] = field(default_factory=dict)
    waiting_all: Obj | None = None  # every container waiting with this state (image pull etc.)
    conditions: list[Obj] | None = None
    events: list[Obj] = field(default_factory=list)
    default_events: bool = True
    logs: dict[str, str] = field(default_factory=dict)
    prev_logs: dict[str, str] | None = None
    collect_logs: bool = True
    uid_salt: str = ""
    mirror: bool = True
    deletion_min: float | None = None
    message: str = ""
    reason: str = ""

    @property
    def name(self) -> str:
        return f"{self.task.full}-{self.ordinal}"

    @property
    def uid(self) -> str:
        return stable_uid("member-pod", self.task.agent or "", self.name, self.uid_salt)

    @property
    def rank(self) -> int:
        return self.task.rank_start + self.ordinal

    def is_ready(self) -> bool:
        if self.main_ready is not None:
            return self.main_ready
        return self.phase == "Running" and (self.main is None or "running" in self.main) and self.waiting_all is None


@dataclass
class TaskM:
    job: JobM
    d: TaskDef
    rank_start: int
    pods: list[PodM] = field(default_factory=list)
    phase: str | None = None  # override of the derived phase
    message: str = ""
    observed_override: list[str] | None = None
    sts: bool = True
    sts_events: list[Obj] = field(default_factory=list)
    sts_rv_stale: bool = False

    @property
    def full(self) -> str:
        return f"{self.job.name}-{self.d.name}"

    @property
    def agent(self) -> str | None:
        return self.d.agent

    @property
    def namespace(self) -> str:
        return f"rlark-{self.d.agent}" if self.d.agent else "default"

    @property
    def uid(self) -> str:
        return stable_uid("task", self.namespace, self.full)

    def pod(self, ordinal: int) -> PodM:
        return self.pods[ordinal]

    def selector(self) -> dict[str, str]:
        if self.d.selector is not None:
            return dict(self.d.selector)
        return {"rlinf.io/pool": POOLS[self.d.agent or "gpu-a"]}

    def derived_phase(self) -> str:
        if self.phase is not None:
            return self.phase
        if not self.d.agent:
            return ""
        if self.job.stopped or (self.d.sts_replicas if self.d.sts_replicas is not None else self.d.replicas) == 0:
            return "Stopped"
        ready = sum(1 for p in self.pods if p.is_ready())
        return "Running" if ready >= self.d.replicas else "Pending"


@dataclass
class JobM:
    name: str
    age_min: float
    tasks: list[TaskM] = field(default_factory=list)
    domain: str = ""
    ssh: bool = True
    stopped: bool = False
    phase: str | None = None
    task_status_override: dict[str, tuple[str, str]] = field(default_factory=dict)
    stopped_min: float | None = None
    spec_extra: dict[str, Any] = field(default_factory=dict)

    @property
    def total_nodes(self) -> int:
        return sum(t.d.replicas for t in self.tasks)

    @property
    def head(self) -> TaskM | None:
        heads = [t for t in self.tasks if t.d.head]
        return heads[0] if heads else None

    def task(self, name: str) -> TaskM:
        return next(t for t in self.tasks if t.d.name == name)

    def head_address(self) -> str:
        h = self.head
        if h is None:
            return ""
        if self.domain:
            return f"{h.full}-0.rlark-domain"
        return f"{h.full}-ray-head"

    def derived_phase(self) -> str:
        if self.phase is not None:
            return self.phase
        if self.stopped:
            return "Stopped"
        # controllermanager/job/sync.go: any Running Task moves the Job to Running, and it never returns to Pending
        phases = [self.task_status_override.get(t.d.name, (t.derived_phase(), ""))[0] for t in self.tasks]
        return "Running" if "Running" in phases else "Pending"


class Scenario:
    def __init__(self, name: str, root: Path = SCENARIOS) -> None:
        self.name = name
        self.root = root
        self.clusters: dict[str, ClusterDef] = {}
        self.jobs: list[JobM] = []
        self.stale_mirrors: list[tuple[str, Obj]] = []
        self.extra_tasks: list[Obj] = []
        self.expect: dict[str, Any] = {}
        self.readme: str | None = None

    # ---- setup
    def cluster(self, agent: str, nodes: list[NodeDef] | None = None, **kw: Any) -> ClusterDef:
        c = ClusterDef(agent, nodes if nodes is not None else default_nodes(agent, 8 if agent != "edge-a" else 2,
                                                                            gpus=8 if agent != "edge-a" else 1), **kw)
        self.clusters[agent] = c
        return c

    def node(self, name: str) -> NodeDef:
        for c in self.clusters.values():
            for n in c.nodes:
                if n.name == name:
                    return n
        raise KeyError(name)

    def job(self, name: str, tasks: list[TaskDef], *, age_min: float = 40, domain: str = "", ssh: bool = True,
            stopped: bool = False, create_pods: bool = True, placement: dict[str, list[str]] | None = None) -> JobM:
        job = JobM(name=name, age_min=age_min, domain=domain, ssh=ssh, stopped=stopped)
        rank = 0
        used: dict[str, int] = {}
        for d in tasks:
            t = TaskM(job=job, d=d, rank_start=rank)
            rank += d.replicas
            job.tasks.append(t)
            if not create_pods or d.agent is None or stopped:
                continue
            c = self.clusters[d.agent]
            names = (placement or {}).get(d.name)
            for o in range(d.replicas if d.sts_replicas is None else d.sts_replicas):
                if names:
                    n = self.node(names[o])
                else:
                    free = [n for n in c.nodes if n.ready and not n.unschedulable and used.get(n.name, 0) == 0
                            and n.gpus >= d.gpus]
                    n = free[0] if free else c.nodes[o % len(c.nodes)]
                used[n.name] = used.get(n.name, 0) + 1
                n.used_gpus += d.gpus
                ip = (f"{PODNETS[d.agent]}.{int(n.ip.split('.')[-1]) - 10}.{17 + o}" if d.head else n.ip)
                t.pods.append(PodM(task=t, ordinal=o, node=n.name, ip=ip, started_min=age_min - 1.2 - 0.1 * o))
        self.jobs.append(job)
        return job

    # ---- expect
    def expects(self, description: str, *, target: str | None = None, first: str | None = None,
                includes: list[str] | None = None, excludes: list[str] | None = None, last_stage: str | None = None,
                healthy: bool | None = None, incomplete: bool | None = None, namespace: str | None = None) -> None:
        e: dict[str, Any] = {"description": description,
                             "target": target or f"job/{self.jobs[0].name}"}
        if namespace:
            e["namespace"] = namespace
        if first:
            e["first"] = first
        if includes:
            e["includes"] = includes
        if excludes:
            e["excludes"] = excludes
        if last_stage:
            e["last_stage"] = last_stage
        if healthy is not None:
            e["healthy"] = healthy
        if incomplete is not None:
            e["incomplete"] = incomplete
        self.expect = e

    # ---- output
    def write(self) -> Path:
        out = self.root / self.name
        if out.exists():
            shutil.rmtree(out)
        bundle = out / "bundle" if self.root == SCENARIOS else out
        w = BundleWriter(bundle)
        members = [a for a, c in self.clusters.items() if c.collected]
        w.snapshot_yaml(ts(0), CP, [CP, *members])
        self._write_control_plane(w)
        for agent in members:
            self._write_member(w, self.clusters[agent])
        if self.root == SCENARIOS:
            (out / "expect.yaml").write_text(yaml.safe_dump(self.expect, sort_keys=False, allow_unicode=True,
                                                            width=120), encoding="utf-8")
        if self.readme:
            (out / "README.md").write_text(self.readme.strip() + "\n", encoding="utf-8")
        if self.root == EXAMPLES and self.jobs:  # what scripts/demo diagnoses
            (out / "TARGET").write_text(f"job/{self.jobs[0].name}\n", encoding="utf-8")
        return out

    def _write_control_plane(self, w: BundleWriter) -> None:
        w.write_list(f"{CP}/jobs.rlinf.io.json", "JobList", [job_obj(j) for j in self.jobs], "rlinf.io/v1alpha1")
        task_ns: dict[str, list[Obj]] = {f"rlark-{a}": [] for a in self.clusters}
        mirror_ns: dict[str, list[Obj]] = {f"rlark-{a}": [] for a in self.clusters}
        for j in self.jobs:
            for t in j.tasks:
                task_ns.setdefault(t.namespace, []).append(task_obj(t))
                if t.agent:
                    for p in t.pods:
                        if p.mirror:
                            mirror_ns[t.namespace].append(pod_mirror(p))
        for obj in self.extra_tasks:
            task_ns.setdefault(obj["metadata"]["namespace"], []).append(obj)
        for ns, m in self.stale_mirrors:
            mirror_ns[ns].append(m)
        for ns, items in task_ns.items():
            w.write_list(f"{CP}/{ns}/tasks.rlinf.io.json", "TaskList", items, "rlinf.io/v1alpha1")
        for a, c in self.clusters.items():
            ns = f"rlark-{a}"
            w.write_list(f"{CP}/{ns}/pods.rlinf.io.json", "PodList", mirror_ns[ns], "rlinf.io/v1alpha1")
            w.write_list(f"{CP}/{ns}/nodes.rlinf.io.json", "NodeList", [rlark_node(n) for n in c.nodes],
                         "rlinf.io/v1alpha1")
            w.write_list(f"{CP}/{ns}/leases.json", "LeaseList", [lease(a, c.lease_age_s)], "coordination.k8s.io/v1")

    def _write_member(self, w: BundleWriter, c: ClusterDef) -> None:
        a = c.agent
        w.write_list(f"{a}/nodes.json", "NodeList", [k8s_node(n) for n in c.nodes])
        pods: list[Obj] = []
        events: list[Obj] = []
        sts: list[Obj] = []
        pvcs: list[Obj] = list(c.pvcs)
        for j in self.jobs:
            for t in j.tasks:
                if t.agent != a or not t.sts:
                    continue
                sts.append(statefulset_obj(t))
                events.extend(t.sts_events)
                for p in t.pods:
                    pods.append(member_pod(p))
                    if p.default_events:
                        events.extend(default_pod_events(p))
                    events.extend(p.events)
                    if p.collect_logs:
                        logs = dict(p.logs) if p.logs else {}
                        if logs:
                            w.write_logs(a, "rlark-system", p.name, logs)
                        if p.prev_logs:
                            w.write_logs(a, "rlark-system", p.name, p.prev_logs, previous=True)
        pods.extend(c.extra_pods)
        events.extend(c.extra_events)
        events.sort(key=lambda e: (e["lastTimestamp"], e["metadata"]["name"]))
        w.write_list(f"{a}/rlark-system/pods.json", "PodList", pods)
        w.write_list(f"{a}/rlark-system/events.json", "EventList", events)
        w.write_list(f"{a}/rlark-system/statefulsets.json", "StatefulSetList", sts, "apps/v1")
        w.write_list(f"{a}/rlark-system/persistentvolumeclaims.json", "PersistentVolumeClaimList", pvcs)


# --------------------------------------------------------------------------------------------------- object builders


def task_spec(t: TaskM, *, replicas: int | None = None) -> Obj:
    d = t.d
    j = t.job
    main: Obj = {"name": "main", "image": d.image,
                 "command": ["bash", "-c", "sleep inf"],
                 "env": [{"name": "RLINF_JOB_NAME", "value": j.name}, *d.env],
                 "resources": {"limits": {"nvidia.com/gpu": str(d.gpus)}, "requests": {"nvidia.com/gpu": str(d.gpus)}}}
    if d.mounts:
        main["volumeMounts"] = d.mounts
    tmpl: Obj = {"metadata": {}, "spec": {"containers": [main]}}
    if d.volumes:
        tmpl["spec"]["volumes"] = d.volumes
    workload: Obj = {"kind": "StatefulSet", "replicas": d.replicas if replicas is None else replicas,
                     "template": tmpl}
    if d.pvc_map:
        workload["pvcStorageMap"] = d.pvc_map
    spec: Obj = {"agentType": "Kubernetes", "role": d.role, "nodeSelector": t.selector(),
                 "kubernetes": {"workload": workload}}
    if d.tensorboard:
        spec["tensorBoardDir"] = d.tensorboard
    if d.prepare:
        spec["prepareScript"] = d.prepare
    if d.head and d.run:
        spec["runScript"] = d.run
    return spec


def job_obj(j: JobM) -> Obj:
    tasks = []
    for t in j.tasks:
        entry = {"name": t.d.name, **({"head": True} if t.d.head else {}), **task_spec(t)}
        tasks.append(entry)
    spec: Obj = {"tasks": tasks}
    if j.domain:
        spec["domain"] = j.domain
    if j.stopped:
        spec["stopped"] = True
    if j.ssh:
        spec["sshPublicKey"] = SSH_KEY
    spec.update(j.spec_extra)
    phase = j.derived_phase()
    st_tasks = []
    for t in j.tasks:
        ph, msg = j.task_status_override.get(t.d.name, (t.derived_phase(), t.message))
        st_tasks.append({"name": t.d.name, **({"phase": ph} if ph else {}), **({"message": msg} if msg else {})})
    status: Obj = {"phase": phase, "tasks": st_tasks, "startTime": ts(j.age_min)}
    if j.stopped_min is not None:
        status["conditions"] = [{"type": "Stopped", "status": "True", "reason": "StoppedByUser",
                                 "message": "job stopped from the console", "lastTransitionTime": ts(j.stopped_min),
                                 "observedGeneration": 2}]
    if phase in ("Succeeded", "Failed"):
        status["endTime"] = ts(1)
    return {"kind": "Job", "apiVersion": "rlinf.io/v1alpha1",
            "metadata": meta(j.name, created=ts(j.age_min), labels={"rlinf.io/owner": "alice"},
                             annotations={"rlinf.io/created-by": "rlark-ui"}),
            "spec": spec, "status": status}


def task_obj(t: TaskM) -> Obj:
    j = t.job
    ann = {"rlark.io/ray-role": "head" if t.d.head else "worker",
           "rlark.io/ray-total-nodes": str(j.total_nodes),
           "rlark.io/ray-node-rank-start": str(t.rank_start)}
    if j.head is not None:
        ann["rlark.io/ray-head-task-name"] = j.head.full
    m = meta(t.full, t.namespace, created=ts(j.age_min - 0.02), labels={"rlinf.io/job": j.name}, annotations=ann,
             uid=t.uid)
    m["ownerReferences"] = [{"apiVersion": "rlinf.io/v1alpha1", "kind": "Job", "name": j.name,
                             "uid": stable_uid("", j.name), "controller": True, "blockOwnerDeletion": True}]
    if t.agent:
        m["finalizers"] = ["rlark.io/agent-cleanup"]
    spec = task_spec(t, replicas=0 if j.stopped else None)
    if j.domain:
        spec["domain"] = j.domain
    if j.ssh:
        spec["sshPublicKey"] = SSH_KEY
    status: Obj = {}
    phase = t.derived_phase()
    if phase:
        status["phase"] = phase
        status["startTime"] = ts(j.age_min - 0.05)
        nodes = t.observed_override if t.observed_override is not None else [p.node for p in t.pods if p.node]
        if nodes:
            status["observedNodes"] = nodes
        if t.message:
            status["message"] = t.message
    return {"kind": "Task", "apiVersion": "rlinf.io/v1alpha1", "metadata": m, "spec": spec, "status": status}


def pod_mirror(p: PodM) -> Obj:
    t = p.task
    spec: Obj = {"taskNamespace": t.namespace, "taskName": t.full, "podNamespace": "rlark-system", "podName": p.name}
    if t.job.domain:
        spec["domain"] = t.job.domain
    st: Obj = {"phase": p.phase if p.phase in ("Pending", "Running", "Succeeded", "Failed") else "Pending"}
    if p.message:
        st["message"] = p.message
    if p.node:
        st["node"] = p.node
    if p.ip and p.phase != "Pending":
        st["ip"] = p.ip
    return {"kind": "Pod", "apiVersion": "rlinf.io/v1alpha1",
            "metadata": meta(p.uid, t.namespace, created=ts(p.started_min + 0.3),
                             labels={"rlark.io/local-pod-name": p.name, "rlark.io/local-pod-namespace": "rlark-system",
                                     "rlark.io/task-name": t.full}),
            "spec": spec, "status": st}


def _pod_template(t: TaskM) -> Obj:
    d, j = t.d, t.job
    role = "head" if d.head else "worker"
    env: list[Obj] = [{"name": "RLINF_JOB_NAME", "value": j.name}, *d.env, {"name": "RLARK_RAY_PORT", "value": "6379"}]
    if d.prepare:
        env.append({"name": "RLARK_PREPARE_SCRIPT", "value": d.prepare})
    if d.head and d.run:
        env.append({"name": "RLARK_RUN_SCRIPT", "value": d.run})
    if j.ssh:
        env.append({"name": "RLARK_SSH_PUBLIC_KEY", "value": SSH_KEY})
    env.append({"name": "RLARK_NODE_RANK_START", "value": str(t.rank_start)})
    env.append({"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}})
    if d.head:
        env.append({"name": "RLARK_TOTAL_NODES", "value": str(j.total_nodes)})
        env.append({"name": "RLARK_NODE_IP", "valueFrom": {"fieldRef": {"apiVersion": "v1",
                                                                          "fieldPath": "status.podIP"}}})
        if j.domain:
            env.append({"name": "RLARK_DOMAIN", "value": j.domain})
    elif j.head is not None:
        env.append({"name": "RLARK_HEAD_ADDRESS", "value": j.head_address()})
    mounts = [*d.mounts, {"name": "ray-init-scripts", "mountPath": "/rlark/scripts"}]
    volumes = [*d.volumes, {"name": "ray-init-scripts", "configMap": {"name": f"ray-{role}-init",
                                                                      "defaultMode": 420}}]
    inits: list[Obj] = []
    if d.tensorboard:
        mounts.append({"name": "rlark-tensorboard", "mountPath": d.tensorboard})
        volumes.append({"name": "rlark-tensorboard", "emptyDir": {}})
        inits.append({"name": "tensorboard", "image": TB_IMAGE, "imagePullPolicy": "IfNotPresent",
                      "command": ["tensorboard"], "args": [f"--logdir={d.tensorboard}", "--bind_all"],
                      "ports": [{"name": "tensorboard", "containerPort": 6006, "protocol": "TCP"}],
                      "restartPolicy": "Always", "securityContext": {"privileged": True},
                      "volumeMounts": [{"name": "rlark-tensorboard", "mountPath": d.tensorboard}]})
    if j.domain:
        inits.append({"name": "rlark-network-sidecar", "image": AGENT_IMAGE, "imagePullPolicy": "IfNotPresent",
                      "command": ["/usr/local/bin/network-sidecar"], "env": [{"name": "LOG_LEVEL", "value": "debug"}],
                      "restartPolicy": "Always",
                      "securityContext": {"privileged": True, "capabilities": {"add": ["NET_ADMIN"]}},
                      "volumeMounts": [{"name": "rlark-nodeserver-socket", "mountPath": "/var/run/rlark"}]})
        volumes.append({"name": "rlark-nodeserver-socket", "hostPath": {"path": "/var/run/rlark", "type": ""}})
    if j.ssh and d.head:
        volumes.append({"name": "rlark-sshd", "emptyDir": {}})
        mounts.append({"name": "rlark-sshd", "mountPath": "/sshd"})
        inits.append({"name": "rlark-sshd-init", "image": AGENT_IMAGE, "imagePullPolicy": "IfNotPresent",
                      "command": ["cp", "/usr/local/bin/rlark-sshd", "/sshd/rlark-sshd"],
                      "securityContext": {"privileged": True},
                      "volumeMounts": [{"name": "rlark-sshd", "mountPath": "/sshd"}]})
    main = {"name": "main", "image": d.image, "imagePullPolicy": "IfNotPresent",
            "command": ["bash", f"/rlark/scripts/ray_{role}.sh"], "env": env,
            "resources": {"limits": {"nvidia.com/gpu": str(d.gpus)}, "requests": {"nvidia.com/gpu": str(d.gpus)}},
            "securityContext": {"privileged": True}, "volumeMounts": mounts,
            "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}
    labels = {"app": t.full}
    ann = {"rlark.io/management-task-name": t.full, "rlark.io/management-task-namespace": t.namespace}
    if j.domain:
        ann["rlark.io/management-task-domain"] = j.domain
    spec: Obj = {"containers": [main], "initContainers": inits, "volumes": volumes,
                 "nodeSelector": {k: v for k, v in t.selector().items() if "," not in v},
                 "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                     {"labelSelector": {"matchLabels": labels}, "topologyKey": "kubernetes.io/hostname"}]}},
                 "restartPolicy": "Always", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
                 "schedulerName": "default-scheduler"}
    multi = {k: v for k, v in t.selector().items() if "," in v}
    if multi:
        spec["affinity"]["nodeAffinity"] = {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": k, "operator": "In", "values": [x.strip() for x in v.split(",")]}]}
            for k, v in multi.items()]}}
    if not spec["nodeSelector"]:
        del spec["nodeSelector"]
    if not d.head:
        spec["hostNetwork"] = True
        spec["dnsPolicy"] = "ClusterFirstWithHostNet"
    return {"metadata": {"labels": labels, "annotations": ann}, "spec": spec}


def statefulset_obj(t: TaskM) -> Obj:
    tmpl = _pod_template(t)
    replicas = 0 if (t.job.stopped and not t.sts_rv_stale) else (
        t.d.sts_replicas if t.d.sts_replicas is not None else t.d.replicas)
    ready = sum(1 for p in t.pods if p.is_ready())
    rev = f"{t.full}-{stable_uid('rev', t.full)[:10].replace('-', '')}"
    m = meta(t.full, "rlark-system", created=ts(t.job.age_min - 0.1), annotations={
        "rlark.io/management-task-name": t.full, "rlark.io/management-task-namespace": t.namespace,
        "rlark.io/management-task-uid": t.uid,
        "rlark.io/management-task-resource-version": "48213" if t.sts_rv_stale else "48377"})
    m["generation"] = 1
    status = {"observedGeneration": 1, "replicas": len(t.pods), "readyReplicas": ready,
              "currentReplicas": len(t.pods), "updatedReplicas": len(t.pods), "availableReplicas": ready,
              "currentRevision": rev, "updateRevision": rev, "collisionCount": 0}
    status = {k: v for k, v in status.items() if v != 0 or k in ("replicas", "observedGeneration")}
    return {"kind": "StatefulSet", "apiVersion": "apps/v1", "metadata": m,
            "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": t.full}}, "serviceName": "",
                     "template": tmpl, "podManagementPolicy": "OrderedReady",
                     "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 0}},
                     "revisionHistoryLimit": 10, "persistentVolumeClaimRetentionPolicy": {
                         "whenDeleted": "Retain", "whenScaled": "Retain"}},
            "status": status}


def member_pod(p: PodM) -> Obj:
    t = p.task
    tmpl = _pod_template(t)
    rev = f"{t.full}-{stable_uid('rev', t.full)[:10].replace('-', '')}"
    created = ts(p.started_min + 0.4)
    m = meta(p.name, "rlark-system", created=created, uid=p.uid,
             labels={**tmpl["metadata"]["labels"], "apps.kubernetes.io/pod-index": str(p.ordinal),
                     "controller-revision-hash": rev, "statefulset.kubernetes.io/pod-name": p.name},
             annotations=tmpl["metadata"]["annotations"])
    m["generateName"] = f"{t.full}-"
    m["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": t.full,
                             "uid": stable_uid("rlark-system", t.full), "controller": True,
                             "blockOwnerDeletion": True}]
    if p.deletion_min is not None:
        m["deletionTimestamp"] = ts(p.deletion_min)
        m["deletionGracePeriodSeconds"] = 30
    spec = dict(tmpl["spec"], hostname=p.name)
    if p.node:
        spec["nodeName"] = p.node
    st: Obj = {"phase": p.phase, "qosClass": "BestEffort"}
    main_img = t.d.image
    if p.node is None:
        st["conditions"] = p.conditions or [condition("PodScheduled", "False", ts(p.started_min + 0.4),
                                                      "Unschedulable", p.message)]
        return {"kind": "Pod", "apiVersion": "v1", "metadata": m, "spec": spec, "status": st}
    st["hostIP"] = SUBNETS_BY_NODE(p.node)
    st["hostIPs"] = [{"ip": st["hostIP"]}]
    if p.ip:
        st["podIP"] = p.ip
        st["podIPs"] = [{"ip": p.ip}]
    st["startTime"] = ts(p.started_min + 0.35)
    if p.message:
        st["message"] = p.message
    if p.reason:
        st["reason"] = p.reason
    init_statuses = []
    for c in spec["initContainers"]:
        name = c["name"]
        if name in p.init_override:
            state = p.init_override[name]
        elif p.waiting_all is not None:
            state = p.waiting_all if c["image"] == main_img else waiting("PodInitializing")
        elif name == "rlark-sshd-init":
            state = terminated(0, "Completed", ts(p.started_min + 0.25), ts(p.started_min + 0.24))
        else:
            state = running(ts(p.started_min + 0.3))
        cs = container_status(name, c["image"], state, ready=("running" in state) if name != "rlark-sshd-init"
                              else False)
        if name != "rlark-sshd-init":
            cs["started"] = "running" in state
        init_statuses.append(cs)
    if init_statuses:
        st["initContainerStatuses"] = init_statuses
    if p.waiting_all is not None:
        main_state = p.waiting_all
    else:
        main_state = p.main if p.main is not None else running(ts(p.started_min))
    st["containerStatuses"] = [container_status("main", main_img, main_state, last_state=p.main_last,
                                                restarts=p.main_restarts, ready=p.is_ready())]
    ready = p.is_ready()
    initialized = p.waiting_all is None or "PodInitializing" not in str(p.waiting_all)
    st["conditions"] = p.conditions or [
        condition("PodReadyToStartContainers", "True", ts(p.started_min + 0.33)),
        condition("Initialized", "True" if initialized else "False", ts(p.started_min + 0.2)),
        condition("Ready", "True" if ready else "False", ts(p.started_min - 0.01) if ready else ts(3),
                  "" if ready else "ContainersNotReady", "" if ready else "containers with unready status: [main]"),
        condition("ContainersReady", "True" if ready else "False", ts(p.started_min - 0.01) if ready else ts(3),
                  "" if ready else "ContainersNotReady", "" if ready else "containers with unready status: [main]"),
        condition("PodScheduled", "True", ts(p.started_min + 0.4)),
    ]
    return {"kind": "Pod", "apiVersion": "v1", "metadata": m, "spec": spec, "status": st}


def SUBNETS_BY_NODE(node: str) -> str:
    for agent, net in SUBNETS.items():
        if node.startswith(agent + "-node-"):
            return f"{net}.{10 + int(node.rsplit('-', 1)[1])}"
    return "10.0.9.10"


def default_pod_events(p: PodM) -> list[Obj]:
    if p.node is None:
        return []
    kind = {"kind": "Pod", "name": p.name, "uid": p.uid}
    t0 = p.started_min + 0.4
    evs = [event("rlark-system", **kind, reason="Scheduled", component="default-scheduler", first=ts(t0),
                 message=f"Successfully assigned rlark-system/{p.name} to {p.node}")]
    if p.waiting_all is not None:
        return evs
    host = p.node
    containers = ["tensorboard"] if p.task.d.tensorboard else []
    if p.task.job.domain:
        containers.append("rlark-network-sidecar")
    if p.task.d.head and p.task.job.ssh:
        containers.append("rlark-sshd-init")
    containers.append("main")
    images = {"tensorboard": TB_IMAGE, "rlark-network-sidecar": AGENT_IMAGE, "rlark-sshd-init": AGENT_IMAGE,
              "main": p.task.d.image}
    for i, c in enumerate(containers):
        tt = t0 - 0.02 * (i + 1)
        evs.append(event("rlark-system", **kind, reason="Pulled", host=host, first=ts(tt),
                         message=f'Container image "{images[c]}" already present on machine'))
        evs.append(event("rlark-system", **kind, reason="Created", host=host, first=ts(tt),
                         message=f"Created container {c}"))
        evs.append(event("rlark-system", **kind, reason="Started", host=host, first=ts(tt),
                         message=f"Started container {c}"))
    return evs


def pod_event(p: PodM, reason: str, message: str, first_min: float, last_min: float | None = None, *,
              count: int = 1, etype: str = "Warning", component: str = "kubelet") -> Obj:
    return event("rlark-system", kind="Pod", name=p.name, uid=p.uid, reason=reason, message=message,
                 first=ts(first_min), last=ts(last_min if last_min is not None else first_min), etype=etype,
                 count=count, component=component, host=p.node if component == "kubelet" and p.node else "")


# --------------------------------------------------------------------------------------------------- log text


def sidecar_logs(p: PodM) -> dict[str, str]:
    out: dict[str, str] = {}
    t = p.task
    m = p.started_min + 0.3
    if t.d.tensorboard:
        out["tensorboard"] = (
            "2026-11-20 " + (CAPTURED - timedelta(minutes=m)).strftime("%H:%M:%S") +
            ".512194: I tensorflow/core/util/port.cc:153] oneDNN custom operations are on. You may see slightly "
            "different numerical results due to floating-point round-off errors from different computation orders.\n"
            "NOTE: Using experimental fast data loading logic. To disable, pass\n"
            "    \"--load_fast=false\" and report issues on GitHub. More details:\n"
            "    https://github.com/tensorflow/tensorboard/issues/4784\n\n"
            f"TensorBoard 2.15.1 at http://{p.name}:6006/ (Press CTRL+C to quit)\n")
    if t.job.domain:
        stamp = (CAPTURED - timedelta(minutes=m)).strftime("%Y-%m-%dT%H:%M:%S")
        ip = domain_ip(p)
        out["rlark-network-sidecar"] = (
            f'{stamp}.201Z\tINFO\tFailed to get pod IP from nodeserver, retrying\t{{"err": "http get: Get '
            f'\\"http://localhost/get_ip\\": dial unix /var/run/rlark/nodeserver.sock: connect: connection refused", '
            f'"backoff": "500ms"}}\n'
            f'{stamp}.733Z\tINFO\tRetrieved pod IP info from nodeserver\t{{"ip": "{ip}", "prefixLength": 16}}\n'
            f'{stamp}.734Z\tINFO\tProxy listening for inbound connections\t{{"address": "0.0.0.0:15006"}}\n'
            f'{stamp}.734Z\tINFO\tStarting TUN client\t{{"tunIP": "{ip}", "tunPrefix": 16, "tunMTU": 1400, '
            f'"unixSocket": "/var/run/rlark/nodeserver.sock"}}\n'
            f'{stamp}.735Z\tINFO\tHosts sync started\t{{"interval": "5s", "hostsFile": "/etc/hosts"}}\n')
    return out


def domain_ip(p: PodM) -> str:
    t = p.task
    idx = t.job.tasks.index(t)
    return f"100.96.{idx}.{5 + p.ordinal}"


def rank_lines(p: PodM, *, sshd_binary: bool = True) -> str:
    s = f"RLINF_NODE_RANK: {p.rank}\n"
    if p.task.job.ssh:
        if p.task.d.head:
            s += ("rlark-sshd started on port 22\n" if sshd_binary else
                  "SSH public key injected into authorized_keys (fallback: no rlark-sshd binary)\n")
        else:
            s += "SSH public key injected into authorized_keys\n"
    return s


def prepare_ok(p: PodM, minutes: float) -> str:
    return ("Executing prepare script...\n"
            "Obtaining file:///workspace/RLinf\n"
            "  Installing build dependencies: started\n"
            "  Installing build dependencies: finished with status 'done'\n"
            "  Checking if build backend supports build_editable: started\n"
            "  Checking if build backend supports build_editable: finished with status 'done'\n"
            "Requirement already satisfied: hydra-core>=1.3.2 in /opt/conda/envs/rlinf/lib/python3.10/site-packages "
            "(1.3.2)\n"
            "Requirement already satisfied: ray[default]==2.40.0 in /opt/conda/envs/rlinf/lib/python3.10/site-packages "
            "(2.40.0)\n"
            "Building wheels for collected packages: rlinf\n"
            "  Building editable for rlinf (pyproject.toml): finished with status 'done'\n"
            "Successfully built rlinf\n"
            "Installing collected packages: rlinf\n"
            "Successfully installed rlinf-0.2.0\n")


def head_ip(p: PodM) -> str:
    return domain_ip(p) if p.task.job.domain else (p.ip or "")


def ray_head_start(p: PodM, minutes: float) -> str:
    ip = head_ip(p)
    s = "Did not find any active Ray processes.\n"
    if p.task.job.domain:
        s += (f"Waiting for domain IP from /etc/hosts... (attempt 1)\n"
              f"Resolved domain IP: {ip} ({p.name}.rlark-domain)\n")
    s += (f"Usage stats collection is disabled.\n\nLocal node IP: {ip}\n\n--------------------\nRay runtime started.\n"
          f"--------------------\n\nNext steps\n  To add another node to this Ray cluster, run\n"
          f"    ray start --address='{ip}:6379'\n\n  To connect to this Ray cluster:\n    import ray\n"
          f"    ray.init(_node_ip_address='{ip}')\n\n  To submit a Ray job using the Ray Jobs CLI:\n"
          f"    RAY_ADDRESS='http://{ip}:8265' ray job submit --working-dir . -- python my_script.py\n\n"
          f"  See https://docs.ray.io/en/latest/cluster/running-applications/job-submission/index.html \n"
          f"  for more information on submitting Ray jobs to the Ray cluster.\n\n  To terminate the Ray runtime, run\n"
          f"    ray stop\n\n  To view the status of the cluster, use\n    ray status\n\n"
          f"  To monitor and debug Ray, view the dashboard at \n    {ip}:8265\n\n"
          f"  If connection to the dashboard fails, check your firewall settings and network configuration.\n")
    return s


def ray_check(p: PodM, total: int, counts: list[int | None], start_min: float, *, finished: bool = True) -> str:
    """ray_check.py output; `counts` is one entry per 10 s poll (None = could not connect)."""
    ip = head_ip(p)
    s = (f"Waiting for {total} nodes to join the Ray cluster...\nStarting Ray cluster status check...\n"
         f"Waiting for cluster to have at least {total} nodes.\nRay Address: {ip}:6379\n")
    for i, c in enumerate(counts):
        m = start_min - i * (10.4 / 60)
        if c is None:
            s += ("[Warning] Failed to connect or query Ray cluster: Failed to connect to GCS at address "
                  f"{ip}:6379 within 5 seconds.\nCould not retrieve node count, retrying...\n")
        else:
            s += (f"{lts(m, 114 + i)}\tINFO worker.py:1654 -- Connecting to existing Ray cluster at address: "
                  f"{ip}:6379...\n"
                  f"{lts(m, 129 + i)}\tINFO worker.py:1832 -- Connected to Ray cluster. View the dashboard at "
                  f"\x1b[1m\x1b[32mhttp://{ip}:8265 \x1b[39m\x1b[22m\n"
                  f"Found {c} total nodes, {c} of which are alive.\nCurrent node count: {c}\n")
            if c >= total:
                s += f"Cluster is ready: {c} nodes available (required: {total}).\nRay cluster check passed.\n"
                return s
        s += f"Time remaining: {max(0, 900 - round(i * 10.4))}s\n"
    if finished:
        s += (f"Error: Cluster did not become ready within 15 minutes (required {total} nodes).\n"
              "Ray cluster check failed.\nWarning: Ray cluster check failed, proceeding anyway.\n")
    return s


def ray_status(nodes: int, gpus_per_node: int, minutes: float, *, pending: int = 0, failures: str = "") -> str:
    ids = [stable_uid("raynode", str(nodes), str(i)).replace("-", "")[:56] for i in range(nodes)]
    active = "".join(f" 1 node_{i}\n" for i in ids)
    stamp = (CAPTURED - timedelta(minutes=minutes)).strftime("%Y-%m-%d %H:%M:%S.%f")
    return ("Ray cluster is ready. Printing cluster information:\n==========================================\n"
            f"======== Autoscaler status: {stamp} ========\nNode status\n"
            "---------------------------------------------------------------\n"
            f"Active:\n{active}Pending:\n (no pending nodes)\nRecent failures:\n"
            f"{failures or ' (no failures)'}\n\nResources\n"
            "---------------------------------------------------------------\nTotal Usage:\n"
            f" 0.0/{nodes * 124}.0 CPU\n 0.0/{nodes * gpus_per_node}.0 GPU\n 0B/{nodes * 1.41:.2f}TiB memory\n"
            f" 0B/{nodes * 186.26:.2f}GiB object_store_memory\n\nTotal Constraints:\n"
            " (no request_resources() constraints)\nTotal Demands:\n (no resource demands)\n"
            "==========================================\n")


def worker_connect(p: PodM, *, attempts_unreachable: int = 0, resolves: bool = True, reachable: bool = True,
                   head: str | None = None, head_ip_: str | None = None) -> str:
    j = p.task.job
    addr = head if head is not None else j.head_address()
    hip = head_ip_ or (domain_ip(j.head.pods[0]) if j.head and j.head.pods and j.domain else
                       (j.head.pods[0].ip if j.head and j.head.pods else "10.42.3.17"))
    s = f"Connecting to Ray head at {addr}:6379...\n"
    for k in range(1, attempts_unreachable + 1):
        if resolves:
            s += f"HEAD IP: {hip}\n"
        s += f"Waiting for head to be reachable at {addr}:6379... (attempt {k})\n"
    if reachable:
        s += f"HEAD IP: {hip}\nHead is reachable at {hip}:6379\n"
    return s


def worker_ray_started(p: PodM) -> str:
    return (f"Local node IP: {p.ip}\n\n--------------------\nRay runtime started.\n--------------------\n\n"
            "To terminate the Ray runtime, run\n  ray stop\n"
            "\x1b[1m--block\x1b[22m\n"
            "  This command will now block forever until terminated by a signal.\n"
            "  Running subprocesses are monitored and a message will be printed if any of them terminate "
            "unexpectedly. Subprocesses exit with SIGTERM will be treated as graceful, thus NOT reported.\n")


def worker_exit(code: int, sub: str = "raylet") -> str:
    return (f"Some Ray subprocesses exited unexpectedly:\n  {sub} [exit code={code}]\n\n"
            "Remaining processes will be killed.\n"
            f"Ray worker process exited with code {code}\nStopping Ray worker...\n")


def rlinf_startup(minutes: float, nodes: int, gpus: int, *, config: str = "maniskill_ppo_openvlaoft") -> str:
    return (f"Executing run script...\nUsing Python at /opt/conda/envs/rlinf/bin/python\n"
            f"{lts(minutes, 88)}\tINFO worker.py:1654 -- Connecting to existing Ray cluster at address: "
            f"{'{HEAD}'}:6379...\n"
            f"{lts(minutes, 97)}\tINFO worker.py:1832 -- Connected to Ray cluster.\n"
            f"[{lts(minutes - 0.05, 301)}][rlinf.scheduler.cluster][INFO] - Ray cluster has {nodes} nodes with "
            f"{nodes * gpus} accelerators in total\n"
            f"[{lts(minutes - 0.06, 5)}][rlinf.utils.placement][INFO] - component placement (config {config}): "
            f"actor=0-{nodes * gpus - 1}, rollout=0-{nodes * gpus - 1}, env=0-{nodes * gpus - 1}\n")


def train_progress(minutes: float, steps: int, total: int, *, cr: bool = False, start: int = 0) -> str:
    lines = []
    for s in range(start, start + steps):
        secs = (s + 1) * 43
        eta = (total - s - 1) * 43
        pct = int(100 * (s + 1) / total)
        lines.append(
            f"Global Step: {pct:3d}%|{'█' * (pct // 10):<10}| {s + 1}/{total} [{secs // 60:02d}:{secs % 60:02d}<"
            f"{eta // 3600}:{(eta % 3600) // 60:02d}:{eta % 60:02d}, 43.{(s * 37) % 100:02d}s/it, "
            f"time/step={43 + (s % 3) * 0.4:.1f}, rollout/rewards={min(0.95, 0.05 + s * 0.011):.3f}, "
            f"rollout/success_once={min(0.97, 0.08 + s * 0.013):.3f}, "
            f"train/actor/policy_loss={-0.012 + s * 0.0004:.4f}, "
            f"train/actor/entropy_loss={max(0.35, 1.62 - s * 0.01):.3f}, "
            f"train/actor/grad_norm={max(0.12, 0.91 - s * 0.02):.3f}]")
    sep = "\r" if cr else "\n"
    return sep.join(lines) + "\n"


def healthy_head_log(p: PodM, *, steps: int = 6, total_steps: int = 1000, polls: int = 3, noise: bool = True,
                     cr: bool = False) -> str:
    j = p.task.job
    n = j.total_nodes
    m0 = p.started_min
    counts = [max(1, n - polls + 1 + i) for i in range(polls)]
    counts[-1] = n
    s = rank_lines(p) + prepare_ok(p, m0 - 0.1) + ray_head_start(p, m0 - 0.6)
    s += ray_check(p, n, counts, m0 - 0.8)
    s += ray_status(n, p.task.d.gpus, m0 - 1.4)
    s += rlinf_startup(m0 - 1.5, n, p.task.d.gpus).replace("{HEAD}", head_ip(p))
    if noise:
        s += (f"[{lts(m0 - 1.7, 11)}][rlinf.workers.actor][WARNING] - `torch.cuda.amp.GradScaler(args...)` is "
              "deprecated. Please use `torch.amp.GradScaler('cuda', args...)` instead.\n"
              f"(EmbodiedFSDPActor pid=2231, ip={j.tasks[-1].pods[0].ip if j.tasks[-1].pods else head_ip(p)}) "
              "/opt/conda/envs/rlinf/lib/python3.10/site-packages/torch/distributed/fsdp/_init_utils.py:444: "
              "UserWarning: FSDP is switching to use `NO_SHARD` instead of ShardingStrategy.FULL_SHARD since the "
              "world size is 1.\n"
              f"(EnvWorker pid=3107, ip={head_ip(p)}) [ManiSkill] loaded 256 parallel envs, 0 errors, "
              "warmup done in 41.2s\n"
              f"[{lts(m0 - 2.0, 77)}][rlinf.runners.embodied_runner][INFO] - validation: success_rate=0.082, "
              "error_rate=0.01, episodes=256\n")
    s += train_progress(m0 - 2.2, steps, total_steps, cr=cr)
    return s


def healthy_worker_log(p: PodM) -> str:
    return rank_lines(p) + prepare_ok(p, p.started_min - 0.1) + worker_connect(p, attempts_unreachable=2) + \
        worker_ray_started(p)


def fill_healthy_logs(job: JobM, *, steps: int = 6, cr: bool = False) -> None:
    for t in job.tasks:
        for p in t.pods:
            if p.node is None or p.waiting_all is not None:
                continue
            main = (healthy_head_log(p, steps=steps, cr=cr, noise=steps > 0) if t.d.head
                    else healthy_worker_log(p))
            p.logs = {"main": main, **sidecar_logs(p)}


def head_waiting_log(p: PodM, polls: int, stuck_at: int, *, finished: bool = False) -> str:
    n = p.task.job.total_nodes
    return (rank_lines(p) + prepare_ok(p, p.started_min - 0.1) + ray_head_start(p, p.started_min - 0.6) +
            ray_check(p, n, [stuck_at] * polls, p.started_min - 0.8, finished=finished))


def main_logs(p: PodM, main: str) -> dict[str, str]:
    return {"main": main, **sidecar_logs(p)}


# --------------------------------------------------------------------------------------------------- scenario helpers

JOB = "ppo-franka-0412"


def standard_job(sc: Scenario, name: str = JOB, *, workers: int = 3, agent: str = "gpu-a", age_min: float = 40,
                 domain: str = "", ssh: bool = True, extra_tasks: list[TaskDef] | None = None,
                 head_kw: dict[str, Any] | None = None, worker_kw: dict[str, Any] | None = None,
                 create_pods: bool = True, placement: dict[str, list[str]] | None = None) -> JobM:
    if agent not in sc.clusters:
        sc.cluster(agent)
    tasks = [TaskDef("actor", **{"role": "Actor", "replicas": 1, "head": True, "agent": agent, **(head_kw or {})})]
    if workers:
        tasks.append(TaskDef("rollout", **{"role": "Rollout", "replicas": workers, "agent": agent,
                                           **(worker_kw or {})}))
    tasks.extend(extra_tasks or [])
    return sc.job(name, tasks, age_min=age_min, domain=domain, ssh=ssh, create_pods=create_pods,
                  placement=placement)


def crashloop(p: PodM, code: int, restarts: int, fin_min: float, *, reason: str = "Error") -> None:
    p.main = waiting("CrashLoopBackOff", f"back-off 5m0s restarting failed container=main pod={p.name}_rlark-system"
                                         f"({p.uid})")
    p.main_last = terminated(code, reason, ts(fin_min + 0.4), ts(fin_min))
    p.main_restarts = restarts
    p.events.append(pod_event(p, "BackOff", "Back-off restarting failed container main in pod "
                                            f"{p.name}_rlark-system({p.uid})", p.started_min - 2, fin_min - 0.2,
                              count=restarts * 3 + 2))


def fail_and_restart(p: PodM, fail_min: float, code: int = 1) -> None:
    """The main container failed `fail_min` ago and was restarted: its failing run moves to previous-logs and the
    current log shows the wrapper starting over (the Head waits for the workers again)."""
    p.prev_logs = {"main": p.logs["main"]}
    p.main_last = terminated(code, "Error", ts(p.started_min), ts(fail_min))
    p.main_restarts = 1
    p.main = running(ts(fail_min - 0.15))
    old = p.started_min
    p.started_min = fail_min - 0.15
    if p.task.d.head:
        polls = max(1, int((p.started_min - 0.9) * 60 / 10.4))
        cur = head_waiting_log(p, polls=polls, stuck_at=1)
    else:
        cur = rank_lines(p) + prepare_ok(p, p.started_min) + worker_connect(p, attempts_unreachable=3)
    p.logs = main_logs(p, cur)
    p.started_min = old
    p.events.append(pod_event(p, "Pulled", f'Container image "{p.task.d.image}" already present on machine',
                              old - 0.4, fail_min - 0.1, count=2, etype="Normal"))


ScenarioFn = Callable[[], Scenario]
REGISTRY: list[ScenarioFn] = []


def scenario(fn: ScenarioFn) -> ScenarioFn:
    REGISTRY.append(fn)
    return fn


# =================================================================================================== scenarios
# Each function builds one directory. Names: rlark-<case or situation>, healthy-*, trap-*, multi-*.


def _gaierror_tail(addr: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/opt/conda/envs/rlinf/bin/ray", line 8, in <module>\n    sys.exit(main())\n'
            '  File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/ray/scripts/scripts.py", line 2691, in main\n'
            "    return cli()\n"
            '  File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/ray/scripts/scripts.py", line 786, in start\n'
            "    bootstrap_address = services.canonicalize_bootstrap_address(address, temp_dir)\n"
            '  File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/ray/_private/services.py", line 519, in '
            "canonicalize_bootstrap_address\n    ip = socket.gethostbyname(host)\n"
            "socket.gaierror: [Errno -2] Name or service not known\n"
            "Ray worker process exited with code 1\nStopping Ray worker...\n")


def _busy_other_job(sc: Scenario, agent: str, gpus: int = 8) -> None:
    for n in sc.clusters[agent].nodes:
        if n.used_gpus == 0:
            n.used_gpus = gpus


@scenario
def head_pending_insufficient() -> Scenario:
    sc = Scenario("rlark-head-pending-insufficient")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=3, age_min=35)
    head = job.head.pods[0]
    sc.node(head.node).used_gpus = 0
    _busy_other_job(sc, "gpu-a")
    head.node, head.ip, head.phase = None, None, "Pending"
    msg = ("0/8 nodes are available: 8 Insufficient nvidia.com/gpu. preemption: 0/8 nodes are available: "
           "8 No preemption victims found for incoming pod.")
    head.conditions = [condition("PodScheduled", "False", ts(34.5), "Unschedulable", msg)]
    head.events.append(pod_event(head, "FailedScheduling", msg, 34.5, 0.6, count=41, component="default-scheduler"))
    head.collect_logs = False
    addr = job.head_address()
    for p in job.task("rollout").pods:
        p.main_restarts = 6
        p.main_last = terminated(0, "Completed", ts(6.9), ts(4.4))
        p.main = running(ts(4.1))
        prev = rank_lines(p) + prepare_ok(p, 7) + worker_connect(p, attempts_unreachable=120, resolves=False,
                                                                 reachable=False) + _gaierror_tail(addr)
        p.prev_logs = {"main": prev}
        cur = rank_lines(p) + prepare_ok(p, 4) + worker_connect(p, attempts_unreachable=57 + p.ordinal,
                                                                resolves=False, reachable=False)
        p.logs = main_logs(p, cur)
        p.events.append(pod_event(p, "BackOff", f"Back-off restarting failed container main in pod {p.name}"
                                  f"_rlark-system({p.uid})", 20, 4.2, count=5))
    sc.expects("The Head pod cannot be scheduled (all 8 GPU nodes are full), so workers can never reach the head "
               "Service; the scheduling failure is the root cause, not the workers' head-unreachable loop.",
               first="pod.schedule.insufficient-resources", includes=["rlark.ray.head-unreachable"])
    return sc


@scenario
def shm_in_worker() -> Scenario:
    sc = Scenario("rlark-shm-in-worker")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=2, age_min=55)
    fill_healthy_logs(job, steps=3)
    head = job.head.pods[0]
    wip = job.task("rollout").pods[1].ip
    bus = (
        f"(EmbodiedFSDPActor pid=2417, ip={wip}) ERROR: Unexpected bus error encountered in worker. This might be "
        "caused by insufficient shared memory (shm).\n"
        f"(EmbodiedFSDPActor pid=2417, ip={wip})  ERROR: Unexpected bus error encountered in worker. This might be "
        "caused by insufficient shared memory (shm).\n"
        f"(EmbodiedFSDPActor pid=2417, ip={wip}) Traceback (most recent call last):\n"
        f"(EmbodiedFSDPActor pid=2417, ip={wip})   File \"/opt/conda/envs/rlinf/lib/python3.10/site-packages/torch/"
        "utils/data/dataloader.py\", line 1251, in _try_get_data\n"
        f"(EmbodiedFSDPActor pid=2417, ip={wip})     data = self._data_queue.get(timeout=timeout)\n"
        f"(EmbodiedFSDPActor pid=2417, ip={wip})   File \"/opt/conda/envs/rlinf/lib/python3.10/site-packages/torch/"
        "utils/data/_utils/signal_handling.py\", line 73, in handler\n"
        f"(EmbodiedFSDPActor pid=2417, ip={wip})     _error_if_any_worker_fails()\n"
        f"(EmbodiedFSDPActor pid=2417, ip={wip}) RuntimeError: DataLoader worker (pid 4123) is killed by signal: "
        "Bus error. It is possible that dataloader's workers are out of shared memory. Please try to raise your "
        "shared memory limit.\n"
        f"(EmbodiedFSDPActor pid=2417, ip={wip}) \n"
        f"(EmbodiedFSDPActor pid=2417, ip={wip}) The above exception was the direct cause of the following "
        "exception:\n"
        f"(EmbodiedFSDPActor pid=2417, ip={wip}) RuntimeError: DataLoader worker (pid(s) 4123) exited unexpectedly\n"
        f"{lts(9, 412)}\tERROR worker.py:422 -- Unhandled error (suppress with 'RAY_IGNORE_UNHANDLED_ERRORS=1'): "
        "ray::EmbodiedFSDPActor.run_training() (pid=2417, ip=" + wip + ", actor_id=7c1b3f0d8a2e4b3c9a01000000, "
        "repr=<rlinf.workers.actor.fsdp_actor_worker.EmbodiedFSDPActor object at 0x7f3a1c2b9e40>)\n"
        "RuntimeError: DataLoader worker (pid(s) 4123) exited unexpectedly\n"
        "Error executing job with overrides: ['runner.logger.log_path=/data/logs/ppo-franka-0412']\n"
        "ray.exceptions.RayTaskError(RuntimeError): ray::EmbodiedFSDPActor.run_training() (pid=2417, ip=" + wip +
        ")\nRuntimeError: DataLoader worker (pid(s) 4123) exited unexpectedly\n\n"
        "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.\nStopping Ray cluster...\n")
    head.logs["main"] += bus
    fail_and_restart(head, 8.5)
    sc.expects("A Ray actor's DataLoader died with a bus error from insufficient /dev/shm; the line sits in the "
               "Head's driver output (prefixed with the worker's ip) among Hydra and Ray errors.",
               first="pod.run.shm-exhausted", excludes=["rlark.run.nccl"])
    return sc


@scenario
def image_pull() -> Scenario:
    sc = Scenario("rlark-image-pull")
    sc.cluster("gpu-a")
    bad = "registry.rlinf.example/rlinf/rlinf:embodied-rlinf0.2-torch2.6-ray2.40-franka"
    job = standard_job(sc, workers=2, age_min=25, worker_kw={"image": bad})
    head = job.head.pods[0]
    head.logs = main_logs(head, head_waiting_log(head, polls=80, stuck_at=1))
    for p in job.task("rollout").pods:
        p.phase = "Pending"
        p.waiting_all = waiting("ImagePullBackOff", f'Back-off pulling image "{bad}"')
        p.collect_logs = False
        ref = bad
        p.events += [
            pod_event(p, "Pulling", f'Pulling image "{ref}"', 24.5, 2.1, count=8, etype="Normal"),
            pod_event(p, "Failed", f'Failed to pull image "{ref}": rpc error: code = NotFound desc = failed to pull '
                      f'and unpack image "{ref}": failed to resolve reference "{ref}": {ref}: not found',
                      24.4, 2.0, count=8),
            pod_event(p, "Failed", "Error: ErrImagePull", 24.4, 2.0, count=8),
            pod_event(p, "BackOff", f'Back-off pulling image "{ref}"', 24.3, 0.5, count=97, etype="Normal"),
            pod_event(p, "Failed", "Error: ImagePullBackOff", 24.3, 0.5, count=97),
        ]
    sc.expects("The rollout Task's pods cannot pull their image (tag not found), so the Head waits for nodes "
               "that never come; the pull failure is the cause.",
               first="pod.image.pull-failed", includes=["rlark.ray.waiting-for-nodes"],
               last_stage="ray-cluster-forming")
    return sc


def _nccl_block(ip: str, rank: int, peer: str, when: float) -> str:
    pre = f"(EmbodiedFSDPActor pid=2417, ip={ip})"
    return (
        f"{pre} [{'rank' + str(rank)}]:[W{glog(when, 118233)} ProcessGroupNCCL.cpp:4115] [PG ID 0 PG GUID 0 Rank "
        f"{rank}] using GPU {rank % 8} to perform barrier as devices used by this process are currently unknown.\n"
        f"{pre} ppo-franka-0412-rollout-1:2417:3120 [0] NCCL INFO Bootstrap : Using bond0:{ip}<0>\n"
        f"{pre} ppo-franka-0412-rollout-1:2417:3120 [0] NCCL INFO NET/IB : No device found.\n"
        f"{pre} ppo-franka-0412-rollout-1:2417:3120 [0] NCCL INFO NET/Socket : Using [0]bond0:{ip}<0>\n"
        f"{pre} ppo-franka-0412-rollout-1:2417:3188 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: "
        f"Connect to {peer}<45713> failed : Software caused connection abort\n"
        f"{pre} ppo-franka-0412-rollout-1:2417:3188 [0] NCCL INFO misc/socket.cc:565 -> 2\n"
        f"{pre} ppo-franka-0412-rollout-1:2417:3188 [0] NCCL INFO transport/net_socket.cc:339 -> 2\n"
        f"{pre} ppo-franka-0412-rollout-1:2417:3188 [0] NCCL INFO bootstrap.cc:77 -> 6\n"
        f"{pre} [rank{rank}]:[E{glog(when - 10, 442871)} ProcessGroupNCCL.cpp:616] [Rank {rank}] Watchdog caught "
        "collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
        "Timeout(ms)=600000) ran for 600081 milliseconds before timing out.\n"
        f"{pre} [rank{rank}]:[E{glog(when - 10, 443112)} ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) "
        f"Rank {rank}] Exception (either an error or timeout) detected by watchdog at work: 1, last enqueued NCCL "
        "work: 1, last completed NCCL work: -1.\n"
        f"{pre} [rank{rank}]:[E{glog(when - 10, 443270)} ProcessGroupNCCL.cpp:630] [Rank {rank}] Some NCCL "
        "operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU "
        "operations might run on corrupted/incomplete data.\n"
        f"{pre} [rank{rank}]:[E{glog(when - 10, 443301)} ProcessGroupNCCL.cpp:636] [Rank {rank}] To avoid data "
        "inconsistency, we are taking the entire process down.\n"
        f"{pre} terminate called after throwing an instance of 'c10::DistBackendError'\n"
        f"{pre}   what():  [PG ID 0 PG GUID 0(default_pg) Rank {rank}] Process group watchdog thread terminated "
        "with exception: [Rank " + str(rank) + "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, "
        "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600081 milliseconds before timing "
        "out.\n")


def _actor_died_tail(ip: str, minutes: float) -> str:
    return (
        f"{lts(minutes, 903)}\tERROR worker.py:422 -- Unhandled error (suppress with "
        "'RAY_IGNORE_UNHANDLED_ERRORS=1'): The actor died unexpectedly before finishing this task.\n"
        "\tclass_name: EmbodiedFSDPActor\n\tactor_id: 2e4f8a1c9d7b3e5f6a0c01000000\n\tpid: 2417\n"
        f"\tnamespace: rlinf\n\tip: {ip}\nThe actor is dead because its worker process has died. Worker exit type: "
        "SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file. "
        "There are some potential root causes. (1) The process is killed by SIGKILL by OOM killer due to high "
        "memory usage. (2) ray stop --force is called. (3) The worker is crashed unexpectedly due to SIGSEGV or "
        "other unexpected errors.\n"
        "Error executing job with overrides: ['runner.logger.log_path=/data/logs/ppo-franka-0412']\n"
        "Traceback (most recent call last):\n"
        '  File "/workspace/RLinf/examples/embodiment/train_embodied_agent.py", line 63, in main\n'
        "    runner.run()\n"
        '  File "/workspace/RLinf/rlinf/runners/embodied_runner.py", line 201, in run\n'
        "    actor_training_metrics = actor_training_futures.wait()\n"
        "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n\n"
        "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.\nStopping Ray cluster...\n")


@scenario
def nccl_timeout() -> Scenario:
    sc = Scenario("rlark-run-nccl")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=3, age_min=50)
    fill_healthy_logs(job, steps=0)
    head = job.head.pods[0]
    w = job.task("rollout").pods[1]
    head.logs["main"] += (f"[{lts(37, 4)}][rlinf.workers.actor][INFO] - initializing process group (backend=nccl, "
                          f"world_size=32)\n" + _nccl_block(w.ip, 9, job.task("rollout").pods[2].ip, 26.5) +
                          _actor_died_tail(w.ip, 26.2))
    fail_and_restart(head, 26.1)
    sc.expects("All 4 Ray nodes joined and the run script started, then NCCL could not connect between workers "
               "and the collective watchdog timed out before the first training step.",
               first="rlark.run.nccl", last_stage="run-script",
               excludes=["rlark.ray.waiting-for-nodes", "rlark.ray.check-failed"])
    return sc


@scenario
def nccl_after_join() -> Scenario:
    sc = Scenario("rlark-nccl-after-join")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=2, age_min=90, domain="franka-lab")
    fill_healthy_logs(job, steps=14)
    head = job.head.pods[0]
    w = job.task("rollout").pods[0]
    pre = f"(MultiStepRolloutWorker pid=5120, ip={domain_ip(w)})"
    head.logs["main"] += (
        f"{pre} ppo-franka-0412-rollout-0:5120:5377 [3] NCCL INFO Channel 00/0 : 3[3] -> 11[3] [send] via "
        "NET/Socket/0\n"
        f"{pre} ppo-franka-0412-rollout-0:5120:5377 [3] include/socket.h:409 NCCL WARN Net : Connection closed by "
        "remote peer 100.96.1.6<53127>\n"
        f"{pre} ppo-franka-0412-rollout-0:5120:5377 [3] NCCL INFO transport/net_socket.cc:539 -> 6\n"
        f"{pre} ppo-franka-0412-rollout-0:5120:5377 [3] NCCL INFO transport/net.cc:1075 -> 6\n"
        f"{pre} [rank3]: Traceback (most recent call last):\n"
        f"{pre} [rank3]:   File \"/workspace/RLinf/rlinf/workers/rollout/hf/huggingface_worker.py\", line 212, in "
        "sync_model_from_actor\n"
        f"{pre} [rank3]:     torch.distributed.broadcast(param, src=0, group=self._weight_sync_group)\n"
        f"{pre} [rank3]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
        "NCCLUtils.hpp:317, remote process exited or there was a network error, NCCL version 2.21.5\n"
        f"{pre} [rank3]: ncclRemoteError: A call failed possibly due to a network error or a remote process "
        "exiting prematurely.\n"
        f"{pre} [rank3]: Last error:\n"
        f"{pre} [rank3]: Net : Connection closed by remote peer 100.96.1.6<53127>\n" +
        _actor_died_tail(domain_ip(w), 11))
    fail_and_restart(head, 10.9)
    sc.expects("Training ran 14 steps with every worker joined; then a weight-sync broadcast failed with "
               "ncclRemoteError / NCCL WARN connection closed between workers.",
               first="rlark.run.nccl", last_stage="training-signal",
               excludes=["rlark.ray.waiting-for-nodes", "rlark.ray.head-unreachable"])
    return sc


@scenario
def no_worker_quota() -> Scenario:
    sc = Scenario("rlark-task-no-worker-quota")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=2, age_min=22)
    t = job.task("rollout")
    for p in t.pods:
        sc.node(p.node).used_gpus = 0
    t.pods = []
    sts_uid = stable_uid("rlark-system", t.full)
    for o in range(2):
        t.sts_events.append(event(
            "rlark-system", kind="StatefulSet", name=t.full, uid=sts_uid, reason="FailedCreate",
            component="statefulset-controller", etype="Warning", first=ts(21.8), last=ts(0.7), count=38 - 19 * o,
            message=(f'create Pod {t.full}-0 in StatefulSet {t.full} failed error: pods "{t.full}-0" is forbidden: '
                     "exceeded quota: rlark-system-gpu, requested: requests.nvidia.com/gpu=8, used: "
                     "requests.nvidia.com/gpu=64, limited: requests.nvidia.com/gpu=64") if o == 0 else
            (f"create Claim data-{t.full}-0 for Pod {t.full}-0 in StatefulSet {t.full} success")))
    t.sts_events = t.sts_events[:1]
    head = job.head.pods[0]
    head.logs = main_logs(head, head_waiting_log(head, polls=118, stuck_at=1))
    sc.expects("The rollout StatefulSet exists but its controller cannot create any pod (GPU ResourceQuota "
               "exhausted), so the Task has no worker at all while the Head waits.",
               first="rlark.task.no-worker", includes=["rlark.ray.waiting-for-nodes"],
               excludes=["rlark.task.unrouted", "rlark.agent.disconnected", "rlark.task.stopped"])
    return sc


@scenario
def no_worker_replicas_zero() -> Scenario:
    sc = Scenario("rlark-task-no-worker-replicas-zero")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=0, age_min=30, worker_kw={},
                       extra_tasks=[TaskDef("rollout", role="Rollout", replicas=0, agent="gpu-a"),
                                    TaskDef("env", role="Env", replicas=1, agent="gpu-a", gpus=4)])
    fill_healthy_logs(job, steps=4)
    sc.expects("The Job is not stopped but its rollout Task asks for 0 replicas, so the agent reports it Stopped "
               "and it never gets a worker; the rest of the Job runs without rollout workers.",
               first="rlark.task.no-worker", excludes=["rlark.task.stopped", "rlark.stop.workers-remain"])
    return sc


@scenario
def unrouted_no_match() -> Scenario:
    sc = Scenario("rlark-task-unrouted")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=3, age_min=8,
                       worker_kw={"agent": None, "selector": {"rlinf.io/pool": "a800-trian"}})
    head = job.head.pods[0]
    head.logs = main_logs(head, head_waiting_log(head, polls=36, stuck_at=1))
    sc.expects("The rollout Task's selector (typo a800-trian) matches no Node object, so it sits in namespace "
               "default with an empty phase and no agent will ever run it; the Head waits for 4 nodes.",
               first="rlark.task.unrouted", includes=["rlark.ray.waiting-for-nodes"],
               excludes=["rlark.agent.disconnected"], last_stage="ray-cluster-forming")
    return sc


@scenario
def selector_empty() -> Scenario:
    sc = Scenario("rlark-spec-selector-empty")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=2, age_min=12, worker_kw={"agent": None, "selector": {}})
    head = job.head.pods[0]
    head.logs = main_logs(head, head_waiting_log(head, polls=60, stuck_at=1))
    sc.expects("The rollout Task has an empty nodeSelector (the cluster dropdown is not written into the Job), so "
               "it lands in namespace default and is never picked up; fix the selector first.",
               first="rlark.spec.selector-invalid")
    return sc


@scenario
def selector_comma() -> Scenario:
    sc = Scenario("rlark-spec-selector-comma")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=3, age_min=18,
                       worker_kw={"selector": {"kubernetes.io/hostname": "gpu-a-node-02,gpu-a-node-03"}},
                       placement={"actor": ["gpu-a-node-01"], "rollout": ["gpu-a-node-02", "gpu-a-node-03",
                                                                           "gpu-a-node-04"]})
    fill_healthy_logs(job)
    head = job.head.pods[0]
    head.logs = main_logs(head, head_waiting_log(head, polls=95, stuck_at=3))
    p = job.task("rollout").pods[2]
    sc.node(p.node).used_gpus = 0
    p.node, p.ip, p.phase, p.logs = None, None, "Pending", {}
    msg = ("0/8 nodes are available: 2 node(s) didn't match pod anti-affinity rules, 6 node(s) didn't match Pod's "
           "node affinity/selector. preemption: 0/8 nodes are available: 2 No preemption victims found for incoming "
           "pod, 6 Preemption is not helpful for scheduling.")
    p.conditions = [condition("PodScheduled", "False", ts(17.5), "Unschedulable", msg)]
    p.events.append(pod_event(p, "FailedScheduling", msg, 17.5, 1.2, count=23, component="default-scheduler"))
    sc.expects("The rollout selector holds two comma-separated hostnames for three replicas; with the per-task "
               "anti-affinity the third pod can never schedule, so the Head is stuck at 3 of 4 nodes.",
               first="rlark.spec.selector-invalid", includes=["rlark.ray.waiting-for-nodes"])
    return sc


@scenario
def agent_disconnected_running() -> Scenario:
    sc = Scenario("rlark-agent-disconnected")
    sc.cluster("gpu-a", lease_age_s=25 * 60, collected=False)
    standard_job(sc, workers=3, age_min=180)
    sc.expects("The gpu-a agent stopped renewing its heartbeat Lease 25 minutes ago: the Running phases on the "
               "Job, Tasks and Pod mirrors are stale and the member cluster could not be read.",
               first="rlark.agent.disconnected")
    return sc


@scenario
def agent_disconnected_pending() -> Scenario:
    sc = Scenario("rlark-agent-disconnected-new-job")
    sc.cluster("gpu-a")
    sc.cluster("gpu-b", lease_age_s=3 * 3600 + 120, collected=False)
    job = standard_job(sc, "grpo-libero-1120", workers=2, agent="gpu-b", age_min=14, create_pods=False)
    for t in job.tasks:
        t.phase = ""
        job.task_status_override[t.d.name] = ("Pending", "")
    sc.expects("The Tasks were routed to rlark-gpu-b but that agent's heartbeat Lease is 3 hours old, so nothing "
               "picked them up: no status, no pods. Reconnect the agent; this is not an unrouted Task.",
               first="rlark.agent.disconnected", excludes=["rlark.task.unrouted", "rlark.task.no-worker"],
               last_stage="task-created")
    return sc


@scenario
def task_stopped() -> Scenario:
    sc = Scenario("rlark-task-stopped")
    sc.cluster("gpu-a")
    job = sc.job(JOB, [TaskDef("actor", role="Actor", head=True), TaskDef("rollout", replicas=3)], age_min=300,
                 stopped=True)
    job.stopped_min = 45
    sc.expects("The Job was stopped by its owner: both StatefulSets are at 0 replicas and the Tasks report "
               "Stopped, so having no workers is expected, not a fault.",
               first="rlark.task.stopped", excludes=["rlark.task.no-worker", "rlark.stop.workers-remain",
                                                     "rlark.agent.disconnected"])
    return sc


@scenario
def stop_workers_remain() -> Scenario:
    sc = Scenario("rlark-stop-workers-remain")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=3, age_min=240)
    fill_healthy_logs(job, steps=40)
    job.stopped = True
    job.stopped_min = 38
    for t in job.tasks:
        t.sts_rv_stale = True
        t.phase = "Running"
    sc.expects("The Job has been Stopped for 38 minutes but both StatefulSets still run their old replica count "
               "(they never received the 0-replica update) and the pods keep training on the GPUs.",
               first="rlark.stop.workers-remain", excludes=["rlark.task.stopped"])
    return sc


@scenario
def stop_workers_terminating() -> Scenario:
    sc = Scenario("rlark-stop-workers-terminating")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=2, age_min=200, placement={"actor": ["gpu-a-node-01"],
                                                              "rollout": ["gpu-a-node-04", "gpu-a-node-05"]})
    fill_healthy_logs(job, steps=30)
    job.stopped = True
    job.stopped_min = 52
    n = sc.node("gpu-a-node-04")
    n.ready = False
    w0 = job.task("rollout").pods[0]
    job.head.pods = []
    t = job.task("rollout")
    t.pods = [w0]
    w0.deletion_min = 51.9
    w0.main_ready = False
    w0.conditions = [condition("Ready", "False", ts(49), "NodeNotReady", ""),
                     condition("PodScheduled", "True", ts(199))]
    w0.events.append(event("rlark-system", kind="Pod", name=w0.name, uid=w0.uid, reason="NodeNotReady",
                           message="Node is not ready", first=ts(49), etype="Warning",
                           component="node-controller"))
    w0.events.append(pod_event(w0, "Killing", "Stopping container main", 51.9, etype="Normal"))
    sc.expects("The Job is Stopped and both StatefulSets are at 0, but one worker pod has been stuck Terminating "
               "for 52 minutes on a node that went NotReady; its mirror still says Running.",
               first="rlark.stop.workers-remain", excludes=["rlark.task.no-worker"])
    return sc


@scenario
def selector_cross_cluster() -> Scenario:
    sc = Scenario("multi-selector-cross-cluster")
    sc.cluster("gpu-b")
    sc.cluster("gpu-a")
    for c in sc.clusters.values():
        for n in c.nodes:
            n.labels["rlinf.io/team"] = "embodied"
    # Node objects are listed in the order the API returns them: rlark-gpu-b first, so routing picks gpu-b
    job = sc.job(JOB, [
        TaskDef("actor", role="Actor", head=True, agent="gpu-b", selector={"rlinf.io/team": "embodied"}),
        TaskDef("rollout", replicas=3, agent="gpu-a"),
    ], age_min=20)
    head = job.head.pods[0]
    head.logs = main_logs(head, head_waiting_log(head, polls=108, stuck_at=1))
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 19) +
                           worker_connect(p, attempts_unreachable=88 + p.ordinal, resolves=False, reachable=False))
    sc.expects("The Head selector rlinf.io/team=embodied matches Node objects in both gpu-a and gpu-b; routing "
               "put the Head on gpu-b while the workers run on gpu-a, where the head Service does not exist.",
               first="rlark.spec.selector-cross-cluster", includes=["rlark.ray.head-unreachable"])
    return sc


@scenario
def selector_control_plane_label() -> Scenario:
    sc = Scenario("rlark-spec-selector-control-plane-label")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=2, age_min=16, head_kw={"selector": {"rlark.io/cluster-id": "rlark-gpu-a"}},
                       worker_kw={"selector": {"rlark.io/cluster-id": "rlark-gpu-a"}})
    msg = ("0/8 nodes are available: 8 node(s) didn't match Pod's node affinity/selector. preemption: 0/8 nodes "
           "are available: 8 Preemption is not helpful for scheduling.")
    for t in job.tasks:
        for p in t.pods:
            sc.node(p.node).used_gpus = 0
            p.node, p.ip, p.phase, p.collect_logs = None, None, "Pending", False
            p.conditions = [condition("PodScheduled", "False", ts(15.6), "Unschedulable", msg)]
            p.events.append(pod_event(p, "FailedScheduling", msg, 15.6, 0.9, count=19,
                                      component="default-scheduler"))
    sc.expects("Both selectors use rlark.io/cluster-id, a label that exists only on RLark Node objects: the Tasks "
               "are routed to gpu-a but no member node carries the label, so no pod ever schedules.",
               first="rlark.spec.selector-control-plane-label", last_stage="pod-created",
               excludes=["rlark.task.unrouted", "pod.schedule.insufficient-resources"])
    return sc


@scenario
def head_invalid_replicas() -> Scenario:
    sc = Scenario("rlark-spec-head-replicas")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=2, age_min=70, head_kw={"replicas": 2})
    fill_healthy_logs(job, steps=20)
    h1 = job.head.pods[1]
    m = h1.started_min
    h1.logs = main_logs(h1, rank_lines(h1) + prepare_ok(h1, m) + ray_head_start(h1, m - 0.5) +
                        ray_check(h1, 4, [1] * 87, m - 0.8) + ray_status(1, 8, m - 16) +
                        rlinf_startup(m - 16.1, 1, 8).replace("{HEAD}", head_ip(h1)) +
                        train_progress(m - 17, 12, 1000))
    sc.expects("The head: true Task has replicas 2, so two pods each started a Ray head and ran the training "
               "script (duplicate training, conflicting logs); fix the spec before anything else.",
               first="rlark.spec.head-invalid")
    return sc


@scenario
def head_invalid_missing() -> Scenario:
    sc = Scenario("rlark-spec-no-head")
    sc.cluster("gpu-a")
    job = sc.job("sac-peg-insert-1119", [TaskDef("actor", role="Actor", replicas=1),
                                         TaskDef("rollout", replicas=2)], age_min=9)
    for t in job.tasks:
        for p in t.pods:
            p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 8.5) +
                               worker_connect(p, attempts_unreachable=110 + p.ordinal, head="", resolves=False,
                                              reachable=False))
    sc.expects("No task is marked head: true, so every Task runs the worker wrapper with an empty head address "
               "and waits forever for a head that does not exist.",
               first="rlark.spec.head-invalid", includes=["rlark.ray.head-unreachable"],
               excludes=["rlark.ray.multi-head"])
    return sc


@scenario
def multi_head_scaled() -> Scenario:
    sc = Scenario("rlark-ray-multi-head")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=2, age_min=95, head_kw={"sts_replicas": 2})
    fill_healthy_logs(job, steps=25)
    h1 = job.head.pods[1]
    h1.started_min = 31
    h1.logs = main_logs(h1, healthy_head_log(h1, steps=9))
    sc.expects("The Job spec asks for one Head replica, but the Head StatefulSet was scaled to 2 on the member "
               "cluster and both pods printed 'Executing run script...': two trainings run at once.",
               first="rlark.ray.multi-head")
    return sc


@scenario
def wrapper_failed() -> Scenario:
    sc = Scenario("rlark-ray-wrapper-failed")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=2, age_min=15, worker_kw={"image": "registry.rlinf.example/team-b/openpi-ray:0.3"})
    head = job.head.pods[0]
    head.logs = main_logs(head, head_waiting_log(head, polls=75, stuck_at=1))
    for p in job.task("rollout").pods:
        log = (f"RLINF_NODE_RANK: {p.rank}\nmkdir: cannot create directory '/.ssh': Permission denied\n")
        p.logs = main_logs(p, log)
        p.prev_logs = {"main": log}
        crashloop(p, 1, 7, 1.8 + p.ordinal * 0.3)
    sc.expects("The rollout image runs as a user without a home directory: the worker wrapper dies right after "
               "printing its rank, while injecting the SSH key, before the prepare script.",
               first="rlark.ray.wrapper-failed", last_stage="rank-assigned",
               excludes=["rlark.ray.prepare-failed", "rlark.ray.cli-missing"])
    return sc


def _pip_fail() -> str:
    return ("Executing prepare script...\n"
            "Looking in indexes: https://pypi.tuna.tsinghua.edu.cn/simple\n"
            "Requirement already satisfied: pip in /opt/conda/envs/rlinf/lib/python3.10/site-packages (24.2)\n"
            "ERROR: Could not open requirements file: [Errno 2] No such file or directory: "
            "'/workspace/requirements.txt'\n")


@scenario
def prepare_failed_head() -> Scenario:
    sc = Scenario("rlark-ray-prepare-failed")
    sc.cluster("gpu-a")
    prep = "pip install -r /workspace/requirements.txt && python /workspace/tools/fetch_assets.py"
    job = standard_job(sc, workers=3, age_min=26, head_kw={"prepare": prep}, worker_kw={"prepare": prep})
    head = job.head.pods[0]
    log = rank_lines(head) + _pip_fail()
    head.logs = main_logs(head, log)
    head.prev_logs = {"main": log}
    crashloop(head, 1, 9, 2.2)
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, rank_lines(p) + _pip_fail())
        p.prev_logs = {"main": rank_lines(p) + _pip_fail()}
        crashloop(p, 1, 9, 2.4 + 0.2 * p.ordinal)
    sc.expects("Every pod fails in its prepareScript: /workspace/requirements.txt does not exist at that path "
               "(the volume is mounted elsewhere); Ray never starts.",
               first="rlark.ray.prepare-failed", last_stage="prepare-script",
               excludes=["rlark.ray.cli-missing", "rlark.ray.wrapper-failed", "rlark.ray.head-unreachable"])
    return sc


@scenario
def prepare_failed_worker() -> Scenario:
    sc = Scenario("rlark-ray-prepare-failed-worker")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=2, age_min=33, extra_tasks=[
        TaskDef("env", role="Env", replicas=1, gpus=4,
                prepare="source /opt/conda/bin/activate rlinf-maniskill && python -m mani_skill.utils.download_asset "
                        "PutCarrotOnPlateInScene-v1 -y")])
    fill_healthy_logs(job)
    head = job.head.pods[0]
    head.logs = main_logs(head, head_waiting_log(head, polls=150, stuck_at=3))
    p = job.task("env").pods[0]
    log = (rank_lines(p) + "Executing prepare script...\n\n"
           "EnvironmentNameNotFound: Could not find conda environment: rlinf-maniskill\n"
           "You can list all discoverable environments with `conda info --envs`.\n\n")
    p.logs = main_logs(p, log)
    p.prev_logs = {"main": log}
    crashloop(p, 1, 8, 3.1)
    sc.expects("The env Task's prepareScript activates a conda env that does not exist in its image; that worker "
               "crash-loops before Ray, so the Head waits at 3 of 4 nodes.",
               first="rlark.ray.prepare-failed", includes=["rlark.ray.waiting-for-nodes"],
               excludes=["rlark.ray.cli-missing"])
    return sc


@scenario
def cli_missing() -> Scenario:
    sc = Scenario("rlark-ray-cli-missing")
    sc.cluster("gpu-a")
    img = "registry.rlinf.example/rlinf/rlinf:math-rlinf0.2-torch2.6"
    job = standard_job(sc, workers=1, age_min=19, head_kw={"image": img, "prepare": "cd /workspace/RLinf"},
                       worker_kw={"image": img, "prepare": "cd /workspace/RLinf"})
    for t in job.tasks:
        for p in t.pods:
            log = (rank_lines(p) + "Executing prepare script...\n"
                   "Error: Ray CLI is not found. Please ensure Ray is installed.\n")
            p.logs = main_logs(p, log)
            p.prev_logs = {"main": log}
            crashloop(p, 1, 8, 1.5 + p.rank * 0.2)
    sc.expects("The image has no `ray` on PATH after the prepare script, so both the Head and worker wrappers "
               "exit with 'Ray CLI is not found'.",
               first="rlark.ray.cli-missing", excludes=["rlark.ray.prepare-failed", "rlark.ray.wrapper-failed"])
    return sc


@scenario
def waiting_for_nodes() -> Scenario:
    sc = Scenario("rlark-ray-waiting-for-nodes")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=3, age_min=13)
    head = job.head.pods[0]
    head.logs = main_logs(head, head_waiting_log(head, polls=66, stuck_at=1))
    for p in job.task("rollout").pods:
        p.collect_logs = False
    sc.expects("The Head has waited 11 minutes for 4 nodes with the count stuck at 1; the worker pods are Running "
               "but their logs were not collected, so the case to report is the Head waiting for nodes.",
               first="rlark.ray.waiting-for-nodes", last_stage="ray-cluster-forming")
    return sc


@scenario
def head_unreachable() -> Scenario:
    sc = Scenario("rlark-ray-head-unreachable")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=3, age_min=12)
    head = job.head.pods[0]
    head.logs = main_logs(head, head_waiting_log(head, polls=60, stuck_at=1))
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 11) +
                           worker_connect(p, attempts_unreachable=100 + p.ordinal * 3, resolves=True,
                                          reachable=False))
    sc.expects("Workers resolve the head Service but port 6379 never answers, repeating 'Waiting for head to be "
               "reachable'; the Head in turn waits at 1 of 4 nodes.",
               first="rlark.ray.head-unreachable", last_stage="ray-cluster-forming")
    return sc


@scenario
def head_unreachable_domain() -> Scenario:
    sc = Scenario("rlark-ray-head-unreachable-domain")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=2, age_min=10, domain="franka-lab")
    fill_healthy_logs(job)
    head = job.head.pods[0]
    head.logs = main_logs(head, head_waiting_log(head, polls=50, stuck_at=1))
    stamp = (CAPTURED - timedelta(minutes=9.4)).strftime("%Y-%m-%dT%H:%M:%S")
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 9.5) +
                           worker_connect(p, attempts_unreachable=96 + p.ordinal, resolves=False, reachable=False))
        p.logs["rlark-network-sidecar"] = "".join(
            f'{stamp}.{100 + k:03d}Z\tINFO\tFailed to get pod IP from nodeserver, retrying\t{{"err": "http get: '
            f'Get \\"http://localhost/get_ip\\": dial unix /var/run/rlark/nodeserver.sock: connect: no such file or '
            f'directory", "backoff": "{min(10, 0.5 * 2 ** k):g}s"}}\n' for k in range(12))
        p.init_override["rlark-network-sidecar"] = running(ts(9.6))
    sc.expects("In a domain job the workers cannot resolve <head>-0.rlark-domain because their network sidecars "
               "never got an IP from the node server; workers loop on the head address.",
               first="rlark.ray.head-unreachable")
    return sc


def _late_worker(p: PodM, minutes_prep: float) -> str:
    return (rank_lines(p) + "Executing prepare script...\n" +
            "".join(f"Downloading assets shard {k}/48 (ReplicaCAD, 0.9 GB) ...\n" for k in range(1, 49)) +
            "Download complete.\n" + worker_connect(p, attempts_unreachable=1) + worker_ray_started(p))


@scenario
def check_failed() -> Scenario:
    sc = Scenario("rlark-ray-check-failed")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=3, age_min=30)
    fill_healthy_logs(job)
    head = job.head.pods[0]
    counts: list[int | None] = [1] * 30 + [2] * 57
    log = (rank_lines(head) + prepare_ok(head, 29) + ray_head_start(head, 28.5) +
           ray_check(head, 4, counts, 28.3) + ray_status(2, 8, 13) +
           rlinf_startup(12.9, 2, 8).replace("{HEAD}", head_ip(head)) +
           "Error executing job with overrides: ['runner.logger.log_path=/data/logs/ppo-franka-0412']\n"
           "Traceback (most recent call last):\n"
           '  File "/workspace/RLinf/examples/embodiment/train_embodied_agent.py", line 41, in main\n'
           "    component_placement = HybridComponentPlacement(cfg, cluster)\n"
           '  File "/workspace/RLinf/rlinf/utils/placement.py", line 233, in __init__\n'
           "    raise ValueError(\n"
           "ValueError: cluster.num_nodes=4 but only 2 nodes are alive in the Ray cluster\n\n"
           "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.\nStopping Ray cluster...\n")
    head.logs = main_logs(head, log)
    fail_and_restart(head, 12.7)
    for p in job.task("rollout").pods[1:]:
        p.logs = main_logs(p, _late_worker(p, 20))
    sc.expects("The Head's node check timed out at 2 of 4 nodes and printed 'Warning: Ray cluster check failed, "
               "proceeding anyway.' before 'Ray cluster is ready'; two workers joined only after a 20-minute asset "
               "download, and the run script then failed on the missing nodes.",
               first="rlark.ray.check-failed", includes=["rlark.run.no-training-signal"],
               excludes=["rlark.ray.head-unreachable"])
    return sc


def _version_mismatch(p: PodM, head: str) -> str:
    return (f"[{lts(p.started_min - 0.5, 221)}] Local node IP: {p.ip}\n"
            "Traceback (most recent call last):\n"
            '  File "/opt/conda/lib/python3.10/site-packages/ray/scripts/scripts.py", line 881, in start\n'
            "    node = ray._private.node.Node(\n"
            '  File "/opt/conda/lib/python3.10/site-packages/ray/_private/node.py", line 187, in __init__\n'
            "    ray._private.utils.check_version_info(cluster_metadata)\n"
            '  File "/opt/conda/lib/python3.10/site-packages/ray/_private/utils.py", line 1595, in check_version_info\n'
            "    raise RuntimeError(error_message)\n"
            "RuntimeError: Version mismatch: The cluster was started with:\n"
            "    Ray: 2.40.0\n    Python: 3.10.14\nThis process on node " + str(p.ip) + " was started with:\n"
            "    Ray: 2.9.3\n    Python: 3.10.14\n\n"
            "Ray worker process exited with code 1\nStopping Ray worker...\n")


def restarted_after_gcs_loss(p: PodM, *, before: str = "") -> None:
    """A worker whose raylet lost the GCS: Ray exited 1, the wrapper 0, so the container shows Completed and was
    restarted (the failure is in its previous log); `before`: raylet lines printed ahead of the loss."""
    prev = healthy_worker_log(p) + before + (
        f"[{lts(46.5, 12)} C 211 211] (raylet) gcs_rpc_client.h:179: Check failed: absl::ToInt64Seconds(absl::Now() "
        "- gcs_last_alive_time_) < ::RayConfig::instance().gcs_rpc_server_reconnect_timeout_s() Failed to connect "
        "to GCS within 60 seconds\n" + worker_exit(1))
    p.prev_logs = {"main": prev}
    p.main_last = terminated(0, "Completed", ts(p.started_min), ts(46.4))
    p.main_restarts = 1
    p.main = running(ts(46.2))
    p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 46) + worker_connect(p) + worker_ray_started(p))


@scenario
def worker_exit_nonzero() -> Scenario:
    sc = Scenario("rlark-ray-worker-exit-nonzero")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=3, age_min=120)
    fill_healthy_logs(job, steps=60)
    p = job.task("rollout").pods[2]
    restarted_after_gcs_loss(p, before=(
        f"[{lts(47, 302)} E 211 211] (raylet) node_manager.cc:3069: 1 Workers (tasks / actors) killed due to memory "
        "pressure (OOM), 0 Workers crashed due to other reasons at node (ID: 3f9c1e, IP: " + str(p.ip) + ") over "
        "the last time period.\n"))
    sc.expects("Worker rollout-2's Ray process exited with code 1 (raylet lost the GCS); the wrapper then exited "
               "0, so the container shows Completed and restarted while the Task stays Running.",
               first="rlark.ray.worker-exit-nonzero", excludes=["pod.run.crash-on-start", "pod.run.oom-killed"])
    return sc


@scenario
def temp_dir_permission() -> Scenario:
    sc = Scenario("rlark-ray-temp-dir")
    sc.cluster("gpu-a")
    env = [{"name": "RAY_TEMP_DIR", "value": "/data/shared/ray_tmp"}]
    mounts = [{"name": "shared", "mountPath": "/data/shared"}]
    vols = [{"name": "shared", "persistentVolumeClaim": {"claimName": "shared-nfs"}}]
    job = standard_job(sc, workers=2, age_min=16,
                       worker_kw={"env": env, "mounts": mounts, "volumes": vols})
    head = job.head.pods[0]
    head.logs = main_logs(head, head_waiting_log(head, polls=80, stuck_at=1))
    for p in job.task("rollout").pods:
        err = (rank_lines(p) + prepare_ok(p, 15) + worker_connect(p, attempts_unreachable=1) +
               "Traceback (most recent call last):\n"
               '  File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/ray/_private/utils.py", line 203, in '
               "try_make_directory_shared\n    os.makedirs(directory, exist_ok=True)\n"
               '  File "/opt/conda/envs/rlinf/lib/python3.10/os.py", line 225, in makedirs\n    mkdir(name, mode)\n'
               "PermissionError: [Errno 13] Permission denied: '/data/shared/ray_tmp/session_2026-11-20_07-44-31_"
               "508214_1'\nRay worker process exited with code 1\nStopping Ray worker...\n")
        p.prev_logs = {"main": err}
        p.logs = main_logs(p, err)
        p.main = waiting("CrashLoopBackOff", f"back-off 2m40s restarting failed container=main pod={p.name}"
                                             f"_rlark-system({p.uid})")
        p.main_last = terminated(0, "Completed", ts(2.9), ts(2.6))
        p.main_restarts = 5
    sc.expects("Both workers set RAY_TEMP_DIR to a root-squashed NFS path and `ray start` fails with Permission "
               "denied on the session directory; the wrapper exits 0 so only the log shows it.",
               first="rlark.ray.temp-dir", includes=["rlark.ray.worker-exit-nonzero"],
               excludes=["pod.run.disk-full"])
    return sc


@scenario
def temp_dir_no_space() -> Scenario:
    sc = Scenario("rlark-ray-temp-dir-no-space")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=2, age_min=14)
    head = job.head.pods[0]
    m = head.started_min
    log = (rank_lines(head) + prepare_ok(head, m) + "Did not find any active Ray processes.\n"
           f"Local node IP: {head.ip}\n" "Traceback (most recent call last):\n"
           '  File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/ray/_private/node.py", line 1129, in '
           "start_head_processes\n    self.start_gcs_server()\n"
           '  File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/ray/_private/node.py", line 1002, in '
           "start_gcs_server\n    stdout_file, stderr_file = self.get_log_file_handles(\"gcs_server\", unique=True)\n"
           "OSError: [Errno 28] No space left on device: '/tmp/ray/session_2026-11-20_07-47-02_931270_8/logs/"
           "gcs_server.out'\n" + ray_check(head, 3, [None] * 70, m - 0.8, finished=False))
    head.logs = main_logs(head, log)
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 13) +
                           worker_connect(p, attempts_unreachable=110, resolves=True, reachable=False))
    sc.node(head.node).disk_pressure = True
    sc.expects("`ray start --head` could not create its session files: /tmp/ray is full (Errno 28) on the Head, "
               "so GCS never started and the node check cannot connect.",
               first="rlark.ray.temp-dir", excludes=["rlark.run.nccl"])
    return sc


def robot_job(sc: Scenario, name: str, robot: str, *, age_min: float = 60, domain: str = "") -> JobM:
    sc.cluster("gpu-a")
    edge = [NodeDef(name="edge-a-node-01", agent="edge-a", ip="10.0.5.11", gpus=1,
                    labels={"rlinf.io/pool": "robot-edge", "rlinf.io/robot": robot,
                            "nvidia.com/gpu.product": GPU_PRODUCTS["edge-a"]})]
    sc.cluster("edge-a", nodes=edge)
    job = sc.job(name, [
        TaskDef("actor", role="Actor", head=True, agent="gpu-a", run=(
            "cd /workspace/RLinf && bash examples/embodiment/run_realworld.sh realworld_peg_insertion_sac_cnn")),
        TaskDef("env", role="Env", agent="edge-a", gpus=1, selector={"rlinf.io/robot": robot},
                image="registry.rlinf.example/rlinf/rlinf:realworld-franka-rlinf0.2-ray2.40"),
    ], age_min=age_min, domain=domain)
    fill_healthy_logs(job, steps=0)
    return job


@scenario
def robot_franka() -> Scenario:
    sc = Scenario("rlark-run-robot-device")
    job = robot_job(sc, "sac-peg-franka-1120", "franka-panda-01", domain="franka-lab")
    head = job.head.pods[0]
    env = job.task("env").pods[0]
    pre = f"(EnvWorker pid=812, ip={domain_ip(env)})"
    head.logs["main"] += (
        train_progress(40, 17, 2000) +
        f"{pre} [franka_server] control_command_success_rate: 0.93\n"
        f"{pre} [franka_server] libfranka: Move command aborted: motion aborted by reflex! "
        "[\"communication_constraints_violation\"]\n"
        f"{pre} [franka_server] control_command_success_rate: 0.71 packets lost in a row in the last sample: 7\n"
        f"{pre} [franka_server] Robot is in Reflex mode, automatic error recovery attempt 1/3\n"
        f"{pre} [franka_server] libfranka: Move command aborted: motion aborted by reflex! "
        "[\"communication_constraints_violation\", \"cartesian_reflex\"]\n"
        f"{pre} Traceback (most recent call last):\n"
        f"{pre}   File \"/workspace/RLinf/rlinf/envs/realworld/franka/franka_env.py\", line 388, in step\n"
        f"{pre}     self._send_pos_command(target)\n"
        f"{pre} requests.exceptions.HTTPError: 500 Server Error: INTERNAL SERVER ERROR for url: "
        "http://127.0.0.1:5000/pose\n"
        f"{lts(21, 554)}\tERROR worker.py:422 -- Unhandled error (suppress with 'RAY_IGNORE_UNHANDLED_ERRORS=1'): "
        f"ray::EnvWorker.interact() (pid=812, ip={domain_ip(env)})\n"
        "requests.exceptions.HTTPError: 500 Server Error: INTERNAL SERVER ERROR for url: http://127.0.0.1:5000/pose\n")
    sc.expects("The real Franka arm hit a communication_constraints_violation reflex and the env worker keeps "
               "retrying motion commands: a robot/device error, so safety comes first (stop, tell the operator).",
               first="rlark.run.robot-device", last_stage="training-signal")
    return sc


@scenario
def robot_serial_with_secret() -> Scenario:
    sc = Scenario("rlark-run-robot-serial-timeout")
    job = robot_job(sc, "dagger-so101-1120", "so101-arm-02", age_min=45)
    head = job.head.pods[0]
    env = job.task("env").pods[0]
    pre = f"(EnvWorker pid=644, ip={env.ip})"
    w = head.ip
    head.logs["main"] = head.logs["main"].replace(
        "Executing prepare script...\n",
        "Executing prepare script...\n+ huggingface-cli login --token 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\n"
        "Token is valid (permission: read).\nYour token has been saved to /root/.cache/huggingface/token\n"
        "Login successful\n", 1)
    head.logs["main"] += (
        train_progress(30, 6, 500) +
        f"{pre} WARNING:root:Motor bus read retry 1/3 on /dev/ttyACM0\n"
        f"{pre} Traceback (most recent call last):\n"
        f"{pre}   File \"/opt/conda/envs/rlinf/lib/python3.10/site-packages/lerobot/common/robot_devices/motors/"
        "feetech.py\", line 835, in read\n"
        f"{pre}     raise ConnectionError(\n"
        f"{pre} ConnectionError: Read failed due to communication error on port /dev/ttyACM0 for group_key "
        "Present_Position_shoulder_pan_shoulder_lift_elbow_flex_wrist_flex_wrist_roll_gripper: [TxRxResult] "
        "There is no status packet!\n" +
        _nccl_block(w, 0, env.ip, 12).replace("EmbodiedFSDPActor pid=2417", "EmbodiedFSDPActor pid=2231"))
    sc.expects("The SO-101 arm stopped answering on /dev/ttyACM0 (no status packet); the NCCL watchdog timeout "
               "afterwards is a consequence, and an HF token is printed by the prepare script. The device error "
               "ranks first for safety.",
               first="rlark.run.robot-device", includes=["rlark.risk.credentials-exposed", "rlark.run.nccl"])
    return sc


def _hydra_fail_head(head: PodM, tail: str) -> str:
    n = head.task.job.total_nodes
    m = head.started_min
    return (rank_lines(head) + prepare_ok(head, m) + ray_head_start(head, m - 0.5) +
            ray_check(head, n, [1, 2, n], m - 0.8) + ray_status(n, 8, m - 1.3) +
            "Executing run script...\nUsing Python at /opt/conda/envs/rlinf/bin/python\n" + tail +
            "\nSet the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.\nStopping Ray cluster...\n")


@scenario
def no_training_signal_config() -> Scenario:
    sc = Scenario("rlark-run-no-training-signal")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=2, age_min=20, head_kw={"run": (
        "cd /workspace/RLinf && bash examples/embodiment/run_embodiment.sh maniskill_ppo_openvlaoft_franka")})
    fill_healthy_logs(job)
    head = job.head.pods[0]
    head.started_min = 2.1
    log = _hydra_fail_head(head, (
        "In 'maniskill_ppo_openvlaoft_franka': Could not find 'env/train/FrankaPickPlace'\n\n"
        "Available options in 'env/train':\n\tPickCube\n\tPushCube\n\tPutCarrotOnPlateInScene\n"
        "\tPutOnPlateInScene25Main\n\tlibero_10\n\tlibero_spatial\nConfig search path:\n"
        "\tprovider=hydra, path=pkg://hydra.conf\n"
        "\tprovider=main, path=file:///workspace/RLinf/examples/embodiment/config\n"
        "\tprovider=schema, path=structured://\n"))
    head.logs = main_logs(head, log)
    head.prev_logs = {"main": log}
    head.started_min = job.age_min - 1.2
    crashloop(head, 1, 4, 1.1)
    sc.expects("Ray forms with all 3 nodes and the run script starts, but Hydra cannot compose the RLinf config "
               "(missing env/train/FrankaPickPlace), so no training step ever runs.",
               first="rlark.run.no-training-signal", last_stage="run-script",
               excludes=["rlark.ray.check-failed", "rlark.ray.waiting-for-nodes"])
    return sc


@scenario
def no_training_signal_override() -> Scenario:
    sc = Scenario("rlark-run-hydra-override")
    sc.cluster("gpu-b")
    job = standard_job(sc, "grpo-libero-1120", workers=1, agent="gpu-b", age_min=11, head_kw={"run": (
        "cd /workspace/RLinf && python examples/embodiment/train_embodied_agent.py --config-path "
        "examples/embodiment/config --config-name libero_10_grpo_openvlaoft actor.micro_batch_sizee=4")})
    fill_healthy_logs(job)
    head = job.head.pods[0]
    head.logs = main_logs(head, _hydra_fail_head(head, (
        "Could not override 'actor.micro_batch_sizee'.\nTo append to your config use +actor.micro_batch_sizee=4\n"
        "Key 'micro_batch_sizee' is not in struct\n    full_key: actor.micro_batch_sizee\n    object_type=dict")))
    head.main = terminated(1, "Error", ts(head.started_min), ts(9.2))
    head.main_ready = False
    head.events.append(pod_event(head, "BackOff", "Back-off restarting failed container main in pod "
                                 f"{head.name}_rlark-system({head.uid})", 9.1, 0.3, count=6))
    head.main = waiting("CrashLoopBackOff", f"back-off 1m20s restarting failed container=main pod={head.name}"
                                            f"_rlark-system({head.uid})")
    head.main_last = terminated(1, "Error", ts(head.started_min), ts(9.2))
    head.main_restarts = 1
    job.phase = "Running"
    sc.expects("The run script's Hydra override has a typo (micro_batch_sizee): the RLinf entry exits before any "
               "training signal while the Job still shows Running.",
               first="rlark.run.no-training-signal", last_stage="run-script")
    return sc


@scenario
def status_out_of_sync() -> Scenario:
    sc = Scenario("rlark-status-out-of-sync")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=3, age_min=75)
    fill_healthy_logs(job, steps=40)
    job.phase = "Pending"
    for t in job.tasks:
        job.task_status_override[t.d.name] = ("Pending", "")
    sc.expects("Every Task has reported Running for over an hour and training progresses, yet the Job and its "
               "status.tasks are still Pending: the control plane stopped syncing Task status into the Job.",
               first="rlark.status.out-of-sync", excludes=["rlark.task.no-worker", "rlark.agent.disconnected"])
    return sc


@scenario
def worker_replaced() -> Scenario:
    sc = Scenario("rlark-worker-replaced")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=3, age_min=150)
    fill_healthy_logs(job, steps=70)
    t = job.task("rollout")
    p = t.pods[1]
    old_node, old_ip = p.node, p.ip
    sc.node(old_node).used_gpus = 0
    sc.node(old_node).disk_pressure = True
    new_node = sc.node("gpu-a-node-07")
    new_node.used_gpus = 8
    p.node, p.ip = new_node.name, new_node.ip
    p.uid_salt = "recreated"
    p.started_min = 24
    p.logs = main_logs(p, healthy_worker_log(p))
    old = pod_mirror(p)
    old["metadata"] = meta(stable_uid("member-pod", "gpu-a", p.name, ""), t.namespace, created=ts(148.5),
                           labels=old["metadata"]["labels"])
    old["status"] = {"phase": "Failed", "node": old_node, "ip": old_ip,
                     "message": "The node was low on resource: ephemeral-storage. Threshold quantity: 375057008Ki, "
                                "available: 291884512Ki. Container main was using 412Gi, request is 0, has larger "
                                "consumption of ephemeral-storage. "}
    sc.stale_mirrors.append((t.namespace, old))
    olduid = stable_uid("member-pod", "gpu-a", p.name, "")
    p.events.append(event("rlark-system", kind="Pod", name=p.name, uid=olduid, reason="Evicted", etype="Warning",
                          message=old["status"]["message"].strip(), first=ts(25.2), host=old_node))
    p.events.append(event("rlark-system", kind="Pod", name=p.name, uid=olduid, reason="Killing", etype="Normal",
                          message="Stopping container main", first=ts(25.2), host=old_node))
    head = job.head.pods[0]
    head.logs["main"] += (
        f"(raylet) [{lts(24.9, 118)} W 93 93] (raylet) node_manager.cc:1149: The node with node id: "
        f"6c2a9e0f1b7d4c3a8e5f and address: {old_ip} and node name: {old_ip} has been marked dead because the "
        "detector has missed too many heartbeats from it. This can happen when a \t(1) raylet crashes unexpectedly "
        "(OOM, etc.) \n\t(2) raylet has lagging heartbeats due to slow network or busy workload.\n")
    sc.expects("Worker rollout-1 was evicted for ephemeral storage and recreated under the same name on another "
               "node: the control plane holds two Pod mirrors for it with different UIDs, nodes and IPs.",
               first="rlark.worker.replaced")
    return sc


AWS_DUMP = ("AWS_ACCESS_KEY_ID=AKIA4QZ7RLNKX2P9TB3E\nAWS_DEFAULT_REGION=cn-north-1\n"
            "AWS_SECRET_ACCESS_KEY=3rZpV+q9Lk2mN8xWc0TfYb7uHj4sDe1GaQoR6tUi\n")


@scenario
def credentials_env_dump() -> Scenario:
    sc = Scenario("rlark-risk-credentials-exposed")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=2, age_min=50, head_kw={"prepare": "env | sort && " + DEFAULT_PREPARE})
    fill_healthy_logs(job, steps=12)
    head = job.head.pods[0]
    dump = ("Executing prepare script...\n" + AWS_DUMP +
            "CONDA_DEFAULT_ENV=rlinf\nCUDA_VERSION=12.4.1\nHOME=/root\nHOSTNAME=ppo-franka-0412-actor-0\n"
            "NCCL_VERSION=2.21.5-1\nNVIDIA_VISIBLE_DEVICES=GPU-2f9c1a7e-5b3d-4e8f-9a10-6c7d8e9f0a1b\n"
            "PATH=/opt/conda/envs/rlinf/bin:/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:"
            "/usr/sbin:/usr/bin:/sbin:/bin\nPOD_NAME=ppo-franka-0412-actor-0\nRLARK_NODE_RANK_START=0\n"
            "RLARK_RAY_PORT=6379\nRLARK_TOTAL_NODES=3\nRLINF_JOB_NAME=ppo-franka-0412\nRLINF_NODE_RANK=0\n")
    head.logs["main"] = head.logs["main"].replace("Executing prepare script...\n", dump, 1)
    sc.expects("Training runs normally, but the Head's prepare script dumps the environment, printing an AWS "
               "access key and secret into the log; with no failure, the exposure is the first finding.",
               first="rlark.risk.credentials-exposed", last_stage="training-signal")
    return sc


@scenario
def credentials_with_failure() -> Scenario:
    sc = Scenario("rlark-risk-credentials-with-failure")
    sc.cluster("gpu-a")
    prep = ("set -x; huggingface-cli login --token $HF_TOKEN && huggingface-cli download openvla/openvla-7b "
            "--local-dir /models/openvla-7b")
    job = standard_job(sc, workers=1, age_min=21, head_kw={"prepare": prep})
    fill_healthy_logs(job)
    head = job.head.pods[0]
    log = (rank_lines(head) + "Executing prepare script...\n"
           "+ huggingface-cli login --token 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\n"
           "Token is valid (permission: read).\nLogin successful\n"
           "+ huggingface-cli download openvla/openvla-7b --local-dir /models/openvla-7b\n"
           "Fetching 14 files:   0%|          | 0/14 [00:00<?, ?it/s]\n"
           "Traceback (most recent call last):\n"
           '  File "/opt/conda/envs/rlinf/lib/python3.10/site-packages/huggingface_hub/file_download.py", line 1739, '
           "in _download_to_tmp_and_move\n    http_get(\n"
           "OSError: [Errno 30] Read-only file system: '/models/openvla-7b/.cache/huggingface/download'\n")
    head.logs = main_logs(head, log)
    head.prev_logs = {"main": log}
    crashloop(head, 1, 6, 1.6)
    sc.expects("The Head's prepare script fails writing the model to a read-only /models, and with `set -x` it "
               "also printed the Hugging Face token: the prepare failure is the cause, the exposed token comes next.",
               first="rlark.ray.prepare-failed", includes=["rlark.risk.credentials-exposed"],
               last_stage="prepare-script")
    return sc


@scenario
def credentials_in_spec() -> Scenario:
    sc = Scenario("rlark-risk-credentials-in-spec")
    sc.cluster("gpu-a")
    env = [{"name": "WANDB_API_KEY", "value": "4f7c2a9e1b3d5f6a8c0e2b4d6f8a1c3e5b7d9f02"},
           {"name": "WANDB_PROJECT", "value": "franka-ppo"}]
    job = standard_job(sc, workers=2, age_min=65, head_kw={"env": env})
    fill_healthy_logs(job, steps=25)
    sc.expects("A healthy run, but the Job spec carries a literal WANDB_API_KEY in the Head task's env (visible "
               "in the Job, the Task and the member pod spec).",
               first="rlark.risk.credentials-exposed")
    return sc


@scenario
def head_oom() -> Scenario:
    sc = Scenario("rlark-head-oomkilled")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=2, age_min=80)
    fill_healthy_logs(job, steps=22)
    head = job.head.pods[0]
    head.prev_logs = {"main": head.logs["main"] + train_progress(20, 3, 1000, start=22)}
    head.main_last = terminated(137, "OOMKilled", ts(head.started_min), ts(6.3))
    head.main_restarts = 1
    head.main = running(ts(6.2))
    head.logs = main_logs(head, head_waiting_log(head, polls=30, stuck_at=1))
    sc.expects("The Head's main container was OOMKilled (exit 137) mid-training and restarted; the restarted "
               "wrapper is waiting for workers again.", first="pod.run.oom-killed",
               excludes=["pod.container.poststart-killed"])
    return sc


@scenario
def pvc_unbound() -> Scenario:
    sc = Scenario("rlark-pvc-unbound")
    c = sc.cluster("gpu-a")
    mounts = [{"name": "ckpt", "mountPath": "/data/checkpoints"}]
    vols = [{"name": "ckpt", "persistentVolumeClaim": {"claimName": "ppo-franka-0412-ckpt"}}]
    job = standard_job(sc, workers=2, age_min=28, head_kw={"mounts": mounts, "volumes": vols,
                                                           "pvc_map": {"ppo-franka-0412-ckpt": "juicefs-sc"}})
    head = job.head.pods[0]
    sc.node(head.node).used_gpus = 0
    head.node, head.ip, head.phase, head.collect_logs = None, None, "Pending", False
    msg = ("0/8 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/8 nodes are "
           "available: 8 Preemption is not helpful for scheduling.")
    head.conditions = [condition("PodScheduled", "False", ts(27.5), "Unschedulable", msg)]
    head.events.append(pod_event(head, "FailedScheduling", msg, 27.5, 1.0, count=29, component="default-scheduler"))
    pvc_uid = stable_uid("rlark-system", "ppo-franka-0412-ckpt")
    c.pvcs.append({"kind": "PersistentVolumeClaim", "apiVersion": "v1",
                   "metadata": meta("ppo-franka-0412-ckpt", "rlark-system", created=ts(27.9), uid=pvc_uid,
                                    labels={"rlark.io/task": "ppo-franka-0412-actor"},
                                    annotations={"rlark.io/pvc-owner": "ppo-franka-0412-actor",
                                                 "rlark.io/pvc-owner-task": "ppo-franka-0412-actor"}),
                   "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "10Gi"}},
                            "storageClassName": "juicefs-sc", "volumeMode": "Filesystem"},
                   "status": {"phase": "Pending"}})
    c.extra_events.append(event("rlark-system", kind="PersistentVolumeClaim", name="ppo-franka-0412-ckpt",
                                uid=pvc_uid, reason="ProvisioningFailed", etype="Warning",
                                component="persistentvolume-controller", first=ts(27.9), last=ts(0.8), count=112,
                                message='storageclass.storage.k8s.io "juicefs-sc" not found'))
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 27) +
                           worker_connect(p, attempts_unreachable=70, resolves=False, reachable=False))
    sc.expects("The Head's checkpoint PVC asks for StorageClass juicefs-sc, which does not exist on gpu-a; the "
               "PVC stays Pending and the Head pod cannot be scheduled.",
               first="pod.storage.pvc-unbound", includes=["rlark.ray.head-unreachable"])
    return sc


@scenario
def hostpath_missing() -> Scenario:
    sc = Scenario("rlark-hostpath-missing")
    sc.cluster("gpu-a")
    mounts = [{"name": "datasets", "mountPath": "/datasets", "readOnly": True}]
    vols = [{"name": "datasets", "hostPath": {"path": "/mnt/datasets/libero", "type": "Directory"}}]
    job = standard_job(sc, workers=2, age_min=17, worker_kw={"mounts": mounts, "volumes": vols})
    head = job.head.pods[0]
    head.logs = main_logs(head, head_waiting_log(head, polls=85, stuck_at=1))
    for p in job.task("rollout").pods:
        p.phase = "Pending"
        p.waiting_all = waiting("ContainerCreating")
        p.collect_logs = False
        p.events.append(pod_event(p, "FailedMount", 'MountVolume.SetUp failed for volume "datasets" : hostPath '
                                  "type check failed: /mnt/datasets/libero is not a directory", 16.5, 0.4, count=16))
    sc.expects("Both rollout pods stay ContainerCreating: the hostPath /mnt/datasets/libero (type Directory) does "
               "not exist on the nodes they were scheduled to.",
               first="pod.storage.hostpath-missing", includes=["rlark.ray.waiting-for-nodes"],
               last_stage="ray-cluster-forming")
    return sc


@scenario
def node_cordoned() -> Scenario:
    sc = Scenario("rlark-node-cordoned")
    sc.cluster("gpu-a")
    sc.node("gpu-a-node-05").unschedulable = True
    job = standard_job(sc, workers=2, age_min=24,
                       head_kw={"selector": {"kubernetes.io/hostname": "gpu-a-node-05"}},
                       placement={"actor": ["gpu-a-node-05"], "rollout": ["gpu-a-node-01", "gpu-a-node-02"]})
    head = job.head.pods[0]
    sc.node("gpu-a-node-05").used_gpus = 0
    head.node, head.ip, head.phase, head.collect_logs = None, None, "Pending", False
    msg = ("0/8 nodes are available: 1 node(s) were unschedulable, 7 node(s) didn't match Pod's node "
           "affinity/selector. preemption: 0/8 nodes are available: 8 Preemption is not helpful for scheduling.")
    head.conditions = [condition("PodScheduled", "False", ts(23.5), "Unschedulable", msg)]
    head.events.append(pod_event(head, "FailedScheduling", msg, 23.5, 0.7, count=26, component="default-scheduler"))
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 23) +
                           worker_connect(p, attempts_unreachable=64, resolves=False, reachable=False))
    sc.expects("The Head is pinned to gpu-a-node-05, which an admin cordoned (its RLark Node shows Offline); the "
               "Head never schedules and the workers loop on the head address.",
               first="pod.schedule.node-unschedulable", includes=["rlark.ray.head-unreachable"],
               excludes=["pod.schedule.insufficient-resources"])
    return sc


# --------------------------------------------------------------------------------------------------- healthy


@scenario
def healthy_ppo() -> Scenario:
    sc = Scenario("healthy-ppo-four-nodes")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=3, age_min=95)
    fill_healthy_logs(job, steps=30, cr=True)
    head = job.head.pods[0]
    head.logs["main"] = head.logs["main"].replace(
        "Successfully installed rlinf-0.2.0\n",
        "Successfully installed rlinf-0.2.0\nWARNING: Running pip as the 'root' user can result in broken permissions "
        "and conflicting behaviour with the system package manager. It is recommended to use a virtual environment "
        "instead: https://pip.pypa.io/warnings/venv\n", 1)
    sc.expects("Four Ray nodes joined (Current node count: 4), the run script started and RLinf prints Global Step "
               "progress; 'deprecated' warnings, '0 errors' and 'error_rate=0.01' are benign.",
               healthy=True, last_stage="training-signal",
               excludes=["rlark.ray.check-failed", "rlark.ray.waiting-for-nodes", "rlark.ray.head-unreachable",
                         "rlark.ray.worker-exit-nonzero",
                         "rlark.ray.prepare-failed", "rlark.run.no-training-signal", "rlark.risk.credentials-exposed"])
    return sc


@scenario
def healthy_domain() -> Scenario:
    sc = Scenario("healthy-domain-three-tasks")
    sc.cluster("gpu-a")
    job = standard_job(sc, "grpo-libero-1120", workers=2, age_min=130, domain="libero-lab", extra_tasks=[
        TaskDef("env", role="Env", replicas=2, gpus=4)])
    fill_healthy_logs(job, steps=55)
    sc.expects("A domain-networked Job with Head, rollout and env Tasks: all 5 nodes joined via <head>-0.rlark-domain "
               "and training progresses; network sidecar retry lines at start-up are normal.",
               healthy=True, last_stage="training-signal",
               excludes=["rlark.ray.head-unreachable", "rlark.ray.waiting-for-nodes", "rlark.status.out-of-sync"])
    return sc


@scenario
def healthy_single() -> Scenario:
    sc = Scenario("healthy-single-node")
    sc.cluster("gpu-b")
    job = standard_job(sc, "sft-openvla-1118", workers=0, agent="gpu-b", age_min=600, ssh=False,
                       head_kw={"run": "cd /workspace/RLinf && bash examples/sft/run_vla_sft.sh"})
    fill_healthy_logs(job, steps=120)
    head = job.head.pods[0]
    head.logs["main"] = head.logs["main"].replace(
        "Executing run script...\n",
        "Executing run script...\nRequirement already satisfied: peft==0.11.1 in /opt/conda/envs/rlinf/lib/python3.10/"
        "site-packages (0.11.1)\nERROR: pip's dependency resolver does not currently take into account all the "
        "packages that are installed. This behaviour is the source of the following dependency conflicts.\n"
        "vllm 0.8.5 requires transformers>=4.51.1, but you have transformers 4.40.1 which is incompatible.\n", 1)
    sc.expects("A single-node job (RLARK_TOTAL_NODES=1): the check passes at 1 node and training runs for hours; "
               "pip's resolver 'ERROR' line is informational.",
               healthy=True, last_stage="training-signal",
               excludes=["rlark.ray.waiting-for-nodes", "rlark.run.no-training-signal", "rlark.ray.prepare-failed"])
    return sc


@scenario
def healthy_restarted_sidecar() -> Scenario:
    sc = Scenario("healthy-tensorboard-restart")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=2, age_min=300)
    fill_healthy_logs(job, steps=200)
    head = job.head.pods[0]
    head.init_override["tensorboard"] = running(ts(120))
    sc.expects("Training is healthy after 5 hours; only noise: many progress lines, 'deprecated' warnings and a "
               "validation line with error_rate.", healthy=True, last_stage="training-signal")
    return sc


# --------------------------------------------------------------------------------------------------- traps


@scenario
def trap_ready_after_check_failed() -> Scenario:
    sc = Scenario("trap-ready-after-check-failed")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=3, age_min=60)
    fill_healthy_logs(job)
    head = job.head.pods[0]
    m = head.started_min
    head.logs = main_logs(head, rank_lines(head) + prepare_ok(head, m) + ray_head_start(head, m - 0.5) +
                          ray_check(head, 4, [1, 2] + [3] * 85, m - 0.8) + ray_status(3, 8, m - 16) +
                          rlinf_startup(m - 16.1, 3, 8).replace("{HEAD}", head_ip(head)) +
                          train_progress(m - 17, 18, 1000))
    p = job.task("rollout").pods[2]
    p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, m) + worker_connect(p, attempts_unreachable=1) +
                       "".join(f"[{lts(m - 1 - k * 0.2, 417)} W 88 88] global_state_accessor.cc:432: Retrying to "
                               f"get node with node ID 9b1e5a7c3f2d4e6a8b0c1d2e3f4a5b6c7d8e9f00{k:02d}\n"
                               for k in range(1, 6)) + worker_ray_started(p))
    sc.expects("'Ray cluster is ready' and training progress appear, but only after 'Warning: Ray cluster check "
               "failed, proceeding anyway.' at 3 of 4 nodes: the cluster is incomplete and the ready text must not "
               "be read as success.",
               first="rlark.ray.check-failed")
    return sc


@scenario
def trap_worker_exit_behind_running() -> Scenario:
    sc = Scenario("trap-worker-exit-behind-running")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=4, age_min=140)
    fill_healthy_logs(job, steps=80)
    p = job.task("rollout").pods[3]
    agent_fail = (f"[{lts(33, 640)} E 141 141] (raylet) agent_manager.cc:83: The raylet exited immediately because "
                  "one Ray agent failed, agent_name = dashboard_agent/424238335.\n"
                  "The raylet fate shares with the agent. This can happen because\n"
                  "- The version of `grpcio` doesn't follow Ray's requirement. Agent can segfault with the incorrect "
                  "`grpcio` version. Check the grpcio version `pip freeze | grep grpcio`.\n"
                  "- The agent failed to start because of unexpected error or port conflict. Read the log `cat "
                  "/tmp/ray/session_latest/logs/{dashboard_agent|runtime_env_agent}.log`. You can find the log file "
                  "structure here https://docs.ray.io/en/master/ray-observability/user-guides/configure-logging.html"
                  "#logging-directory-structure.\n"
                  "- The agent is killed by the OS (e.g., out of memory).\n")
    prev = healthy_worker_log(p) + agent_fail + worker_exit(1)
    p.prev_logs = {"main": prev}
    p.main_last = terminated(0, "Completed", ts(70), ts(32.9))
    p.main_restarts = 3
    p.main = running(ts(32.6))
    p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 32.5) + worker_connect(p, attempts_unreachable=1) +
                       worker_ray_started(p))
    head = job.head.pods[0]
    head.logs["main"] += (f"(raylet) [{lts(33, 702)} W 93 93] (raylet) node_manager.cc:1149: The node with node id: "
                          f"1f0e3c5a7b9d2e4f6a8c and address: {p.ip} and node name: {p.ip} has been marked dead "
                          "because the detector has missed too many heartbeats from it.\n" +
                          train_progress(30, 5, 1000, start=80))
    sc.expects("Job and Task are Running and training continues, but worker rollout-3 restarted 3 times: its "
               "previous log shows 'Ray worker process exited with code 1' (raylet died with its agent) while the "
               "container only ever ended with exit 0.",
               first="rlark.ray.worker-exit-nonzero", excludes=["pod.run.crash-on-start", "pod.run.oom-killed"])
    return sc


@scenario
def trap_container_exit0() -> Scenario:
    sc = Scenario("trap-container-exit0-failed-worker")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=3, age_min=12, extra_tasks=[
        TaskDef("env", role="Env", replicas=1, gpus=4, image="registry.rlinf.example/team-b/maniskill-env:2024.12")])
    fill_healthy_logs(job)
    head = job.head.pods[0]
    head.logs = main_logs(head, head_waiting_log(head, polls=60, stuck_at=4))
    p = job.task("env").pods[0]
    log = rank_lines(p) + prepare_ok(p, 2.4) + worker_connect(p, attempts_unreachable=0) + _version_mismatch(
        p, job.head_address())
    p.logs = main_logs(p, log)
    p.prev_logs = {"main": log}
    p.main = waiting("CrashLoopBackOff", f"back-off 2m40s restarting failed container=main pod={p.name}"
                                         f"_rlark-system({p.uid})")
    p.main_last = terminated(0, "Completed", ts(2.3), ts(2.1))
    p.main_restarts = 5
    p.events.append(pod_event(p, "BackOff", f"Back-off restarting failed container main in pod {p.name}"
                              f"_rlark-system({p.uid})", 9, 0.5, count=24))
    sc.expects("The env worker's container keeps ending with exit code 0 (Completed), yet its Ray process fails "
               "every time with a Ray version mismatch (2.9.3 vs the cluster's 2.40.0): exit 0 is not success.",
               first="rlark.ray.worker-exit-nonzero", includes=["rlark.ray.waiting-for-nodes"],
               excludes=["pod.run.crash-on-start"])
    return sc


@scenario
def trap_decisive_line_buried() -> Scenario:
    sc = Scenario("trap-decisive-line-buried")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=3, age_min=70)
    fill_healthy_logs(job, steps=9)
    head = job.head.pods[0]
    w = job.task("rollout").pods[0]
    pre = f"(EmbodiedFSDPActor pid=2417, ip={w.ip})"
    noise = []
    for k in range(40):
        noise.append(f"(raylet) [{lts(30 - k * 0.3, k)} I 93 93] (raylet) worker_pool.cc:528: Started worker process "
                     f"with pid {6000 + k}, the token is {k}")
        if k % 4 == 0:
            noise.append(f"(autoscaler +{12 + k // 4}m{(k * 7) % 60}s) Tip: use `ray status` to view detailed cluster "
                         "status. To disable these messages, set RAY_SCHEDULER_EVENTS=0.")
        if k % 10 == 0:
            noise.append(ray_status(4, 8, 29 - k * 0.3).replace(
                "Ray cluster is ready. Printing cluster information:\n", "").rstrip("\n"))
        noise.append(f"[{lts(30 - k * 0.3, 400 + k)}][rlinf.utils.metric_logger][INFO] - step=9 waiting for rollout "
                     f"batch ({k * 15}s)")
    head.logs["main"] += (
        f"{pre} ppo-franka-0412-rollout-0:2417:3191 [2] NCCL INFO Channel 01/0 : 2[2] -> 10[2] [send] via "
        "NET/Socket/0\n"
        f"{pre} ppo-franka-0412-rollout-0:2417:3199 [2] transport/net_socket.cc:575 NCCL WARN NET/Socket : "
        "peer 10.0.1.13<39427> message truncated : receiving 1048576 bytes instead of 65536. If you believe your "
        "socket network is in healthy state, there may be a mismatch in collective sizes or environment settings "
        "(e.g. NCCL_PROTO, NCCL_ALGO) between ranks\n"
        f"{pre} ppo-franka-0412-rollout-0:2417:3199 [2] NCCL INFO transport/net.cc:1179 -> 3\n"
        + "\n".join(noise) + "\n" +
        f"{pre} [rank2]:[E{glog(18, 551203)} ProcessGroupNCCL.cpp:1595] [PG ID 0 PG GUID 0(default_pg) Rank 2] "
        "Process group watchdog thread terminated with exception: NCCL error: remote process exited or there was "
        "a network error, NCCL version 2.21.5\nncclRemoteError: A call failed possibly due to a network error or a "
        "remote process exiting prematurely.\n" + _actor_died_tail(w.ip, 17.8))
    fail_and_restart(head, 17.5)
    sc.expects("The first real error, an NCCL WARN on the socket transport, sits in the middle of the Head's "
               "previous log, followed by hundreds of Ray INFO, autoscaler tips, ray status tables and a generic "
               "ActorDiedError at the end.",
               first="rlark.run.nccl", last_stage="training-signal",
               excludes=["rlark.ray.waiting-for-nodes", "rlark.ray.check-failed"])
    return sc


@scenario
def trap_benign_error_words() -> Scenario:
    sc = Scenario("trap-benign-error-words")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=2, age_min=110)
    fill_healthy_logs(job, steps=45)
    head = job.head.pods[0]
    ip = head_ip(head)
    head.logs["main"] = head.logs["main"].replace(
        "Starting Ray cluster status check...\n",
        "Starting Ray cluster status check...\n[Warning] Failed to connect or query Ray cluster: Failed to connect "
        f"to GCS at address {ip}:6379 within 5 seconds.\nCould not retrieve node count, retrying...\n", 1)
    nccl_info = "".join(
        f"(EmbodiedFSDPActor pid={2231 + r}, ip={ip}) ppo-franka-0412-actor-0:{2231 + r}:{2900 + r} [{r}] NCCL INFO "
        f"{msg}\n" for r in range(4) for msg in (
            "Bootstrap : Using eth0:" + ip + "<0>", "NET/IB : No device found.",
            "NCCL_SOCKET_IFNAME set by environment to eth0,bond0", "Using network Socket",
            "ncclCommInitRank comm 0x55d2c1a0 rank " + str(r) + " nranks 24 cudaDev " + str(r) +
            " nvmlDev " + str(r) + " busId " + f"{0x18 + r:x}000 commId 0x9e2c - Init COMPLETE"))
    head.logs["main"] = head.logs["main"].replace("Global Step:", nccl_info + "wandb: WARNING Saving files without "
                                                  "folders. If you want to preserve subdirectories pass base_path to "
                                                  "wandb.save\nGlobal Step:", 1)
    for p in job.task("rollout").pods:
        p.logs["main"] = p.logs["main"].replace("Successfully built rlinf\n", "Successfully built rlinf\n"
                                                "WARNING: pkg_resources is deprecated as an API. See "
                                                "https://setuptools.pypa.io/en/latest/pkg_resources.html\n", 1)
    sc.expects("A healthy job whose logs contain NCCL INFO lines, a transient 'Failed to connect ... retrying' "
               "before GCS was up, wandb/pkg_resources WARNINGs, '0 errors' and 'error_rate=0.01'; nothing failed.",
               healthy=True, last_stage="training-signal",
               excludes=["rlark.run.nccl", "rlark.ray.check-failed", "rlark.ray.head-unreachable",
                         "rlark.ray.temp-dir", "rlark.ray.waiting-for-nodes"])
    return sc


# --------------------------------------------------------------------------------------------------- multi-cluster


def _two_agent_job(sc: Scenario, name: str, env_image: str = RAY_IMAGE) -> JobM:
    sc.cluster("gpu-a")
    sc.cluster("gpu-b", nodes=default_nodes("gpu-b", 4))
    job = sc.job(name, [
        TaskDef("actor", role="Actor", head=True, agent="gpu-a"),
        TaskDef("rollout", replicas=2, agent="gpu-a"),
        TaskDef("env", role="Env", replicas=2, agent="gpu-b", gpus=8, image=env_image),
    ], age_min=85, domain="cross-dc")
    fill_healthy_logs(job, steps=35)
    return job


@scenario
def multi_healthy() -> Scenario:
    sc = Scenario("multi-two-agents-healthy")
    _two_agent_job(sc, "ppo-maniskill-xdc-1120")
    sc.expects("Head and rollout Tasks run on gpu-a, env Tasks on gpu-b; all 5 nodes joined through the "
               "cross-dc domain and training progresses in both clusters.",
               healthy=True, last_stage="training-signal",
               excludes=["rlark.spec.selector-cross-cluster", "rlark.agent.disconnected", "rlark.ray.head-unreachable"])
    return sc


@scenario
def multi_gpu_b_pull_unauthorized() -> Scenario:
    sc = Scenario("multi-two-agents-gpu-b-failure")
    img = "harbor-b.rlinf.example/rlinf/rlinf-env:maniskill3-ray2.40"
    job = _two_agent_job(sc, "ppo-maniskill-xdc-1120", env_image=img)
    head = job.head.pods[0]
    head.logs = main_logs(head, head_waiting_log(head, polls=86, stuck_at=3, finished=True) +
                          ray_status(3, 8, 68) + rlinf_startup(67.9, 3, 8).replace("{HEAD}", head_ip(head)) +
                          "ValueError: cluster.num_nodes=5 but only 3 nodes are alive in the Ray cluster\n")
    crashloop(head, 1, 6, 2.0)
    for p in job.task("env").pods:
        p.phase = "Pending"
        p.waiting_all = waiting("ImagePullBackOff", f'Back-off pulling image "{img}"')
        p.logs = {}
        p.collect_logs = False
        p.events += [
            pod_event(p, "Pulling", f'Pulling image "{img}"', 84.5, 3.0, count=20, etype="Normal"),
            pod_event(p, "Failed", f'Failed to pull image "{img}": rpc error: code = Unknown desc = failed to pull '
                      f'and unpack image "{img}": failed to resolve reference "{img}": failed to authorize: failed to '
                      "fetch oauth token: unexpected status from GET request to https://harbor-b.rlinf.example/service/token"
                      "?scope=repository%3Arlinf%2Frlinf-env%3Apull&service=harbor-registry: 401 Unauthorized",
                      84.4, 3.0, count=20),
            pod_event(p, "Failed", "Error: ErrImagePull", 84.4, 3.0, count=20),
            pod_event(p, "BackOff", f'Back-off pulling image "{img}"', 84.3, 0.4, count=360, etype="Normal"),
        ]
    sc.expects("The gpu-a side (Head, rollout) looks fine, but the env Task on gpu-b cannot pull from its "
               "private registry (401 Unauthorized), so the cluster never reaches 5 nodes.",
               first="pod.image.pull-unauthorized", includes=["rlark.ray.check-failed"],
               excludes=["rlark.agent.disconnected"])
    return sc


# --------------------------------------------------------------------------------------------------- examples


@scenario
def example_never_join() -> Scenario:
    sc = Scenario("ray-workers-never-join", root=EXAMPLES)
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=3, age_min=11, domain="franka-lab")
    fill_healthy_logs(job)
    head = job.head.pods[0]
    head.logs = main_logs(head, head_waiting_log(head, polls=55, stuck_at=1))
    stamp = (CAPTURED - timedelta(minutes=10.4)).strftime("%Y-%m-%dT%H:%M:%S")
    for p in job.task("rollout").pods:
        p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 10.5) +
                           worker_connect(p, attempts_unreachable=104 + p.ordinal, resolves=False, reachable=False))
        p.logs["rlark-network-sidecar"] = "".join(
            f'{stamp}.{100 + k:03d}Z\tINFO\tFailed to get pod IP from nodeserver, retrying\t{{"err": "http get: '
            f'Get \\"http://localhost/get_ip\\": dial unix /var/run/rlark/nodeserver.sock: connect: connection '
            f'refused", "backoff": "{min(10, 0.5 * 2 ** k):g}s"}}\n' for k in range(14))
    sc.readme = (
        "# Ray workers never join\n\nJob `ppo-franka-0412` (domain `franka-lab`) has a Head Task and a 3-replica "
        "rollout Task on agent gpu-a. The Head started Ray and has been printing `Current node count: 1` for ten "
        "minutes while waiting for 4 nodes. Every rollout worker finished its prepare script and then repeats "
        "`Waiting for head to be reachable at ppo-franka-0412-actor-0.rlark-domain:6379... (attempt N)`: their "
        "`rlark-network-sidecar` never got a pod IP from the node server, so the domain name never resolves. All "
        "pods show Running, the Task is Running, and nothing in Kubernetes looks wrong.\n\n"
        "Try: `rlark-bot diagnose ppo-franka-0412 --snapshot examples/ray-workers-never-join`")
    return sc


@scenario
def example_worker_exit() -> Scenario:
    sc = Scenario("worker-exit-behind-running", root=EXAMPLES)
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=3, age_min=160, domain="franka-lab")
    fill_healthy_logs(job, steps=90)
    p = job.task("rollout").pods[1]
    prev = healthy_worker_log(p) + (
        f"[{lts(41, 77)} E 133 133] (raylet) node_manager.cc:3069: 2 Workers (tasks / actors) killed due to memory "
        f"pressure (OOM), 0 Workers crashed due to other reasons at node (ID: 5d1e0c, IP: {domain_ip(p)}) over "
        "the last time period.\n"
        f"[{lts(40.6, 12)} C 133 133] (raylet) gcs_rpc_client.h:179: Check failed: absl::ToInt64Seconds(absl::Now() "
        "- gcs_last_alive_time_) < ::RayConfig::instance().gcs_rpc_server_reconnect_timeout_s() Failed to connect "
        "to GCS within 60 seconds\n" + worker_exit(1))
    p.prev_logs = {"main": prev}
    p.main_last = terminated(0, "Completed", ts(p.started_min), ts(40.5))
    p.main_restarts = 1
    p.main = running(ts(40.3))
    p.logs = main_logs(p, rank_lines(p) + prepare_ok(p, 40.2) + worker_connect(p) + worker_ray_started(p))
    sc.readme = (
        "# Worker exit behind a Running Task\n\nJob `ppo-franka-0412` shows Running, both Tasks show Running and "
        "the Head keeps printing training progress. But worker `ppo-franka-0412-rollout-1` restarted once: its "
        "previous log ends with `Ray worker process exited with code 1` after the raylet lost the GCS. The RLark "
        "wrapper exits 0 after printing that line, so Kubernetes records `Completed`/exit 0 and just restarts the "
        "container; no status anywhere says Failed.\n\n"
        "Try: `rlark-bot diagnose ppo-franka-0412 --snapshot examples/worker-exit-behind-running`")
    return sc


@scenario
def example_healthy() -> Scenario:
    sc = Scenario("healthy-job", root=EXAMPLES)
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=3, age_min=120, domain="franka-lab")
    fill_healthy_logs(job, steps=75)
    sc.readme = (
        "# Healthy job\n\nJob `ppo-franka-0412` (domain `franka-lab`) on agent gpu-a: the Head waited until "
        "`Current node count: 4`, printed the `ray status` table, ran the run script and RLinf prints `Global Step` "
        "progress. Logs include benign words a naive matcher trips on (`0 errors`, `error_rate=0.01`, `deprecated` "
        "warnings, pip `Requirement already satisfied`). The bot should report no error.\n\n"
        "Try: `rlark-bot diagnose ppo-franka-0412 --snapshot examples/healthy-job`")
    return sc


# --------------------------------------------------------------------------------------------------- main



def _run_script_failure(name: str, tail: str, *, fail_min: float = 9.0,
                        run: str = DEFAULT_RUN) -> tuple[Scenario, JobM]:
    """A standard job whose cluster formed and whose run script then failed on the Head with `tail` (its driver
    output, Ray's actor lines prefixed with the worker's ip), before any training step; the Head restarted."""
    sc = Scenario(name)
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=2, age_min=45, head_kw={"run": run})
    fill_healthy_logs(job, steps=0)
    head = job.head.pods[0]
    head.logs["main"] += tail.replace("{WIP}", job.task("rollout").pods[1].ip)
    fail_and_restart(head, fail_min)
    return sc, job


_HYDRA_TAIL = ("Error executing job with overrides: ['runner.logger.log_path=/data/logs/ppo-franka-0412']\n"
               "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.\nStopping Ray cluster...\n")


@scenario
def device_oom() -> Scenario:
    sc, _ = _run_script_failure("rlark-run-device-oom", (
        f"[{lts(10, 12)}][rlinf.workers.actor][INFO] - building FSDP actor (micro_batch_size=64)\n"
        "(EmbodiedFSDPActor pid=2417, ip={WIP}) Traceback (most recent call last):\n"
        "(EmbodiedFSDPActor pid=2417, ip={WIP})   File \"/workspace/RLinf/rlinf/workers/actor/fsdp_actor_worker.py\", "
        "line 512, in run_training\n"
        "(EmbodiedFSDPActor pid=2417, ip={WIP}) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.81 "
        "GiB. "
        "GPU 3 has a total capacity of 79.15 GiB of which 2.41 GiB is free. Including non-PyTorch memory, this process "
        "has 76.73 GiB memory in use. Of the allocated memory 71.02 GiB is allocated by PyTorch, and 4.12 GiB is "
        "reserved by PyTorch but unallocated.\n"
        f"{lts(9.2, 41)}\tERROR worker.py:422 -- Unhandled error (suppress with 'RAY_IGNORE_UNHANDLED_ERRORS=1'): "
        "ray::EmbodiedFSDPActor.run_training() (pid=2417, ip={WIP})\n" + _HYDRA_TAIL),
        run=DEFAULT_RUN + " runner.output_dir=/workspace/outputs/${RLINF_JOB_NAME}")
    sc.expects("The run script's actor ran out of GPU memory on its first training batch (CUDA out of memory); the "
               "container was not OOMKilled, the Hydra wrapper's error and Ray's unhandled error follow it. The run "
               "script also sends its outputs to /workspace/outputs, under no volumeMount.",
               first="rlark.run.device-oom", includes=["rlark.run.no-persistent-output"],
               excludes=["pod.run.oom-killed", "rlark.ray.memory-killed"])
    return sc


@scenario
def ray_memory_killed() -> Scenario:
    sc, _ = _run_script_failure("rlark-ray-memory-killed", (
        f"{lts(9.4, 7)}\tERROR worker.py:422 -- Unhandled error (suppress with 'RAY_IGNORE_UNHANDLED_ERRORS=1'): "
        "ray::EnvWorker.interact() (pid=3107, ip={WIP})\n"
        "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n"
        "Memory on the node (IP: {WIP}, ID: 5d2f8c) where the task (actor ID: 9c3e1a, name=EnvWorker.__init__, "
        "pid=3107, memory used=58.21GB) was running was 119.37GB / 125.60GB (0.950398), which exceeds the memory usage "
        "threshold of 0.95. Ray killed this worker (ID: 7a1b2c) because it was the most recently scheduled task; to "
        "see "
        "more information about memory usage on this node, use `ray logs raylet.out -ip {WIP}`.\n" + _HYDRA_TAIL))
    sc.expects("Ray's memory monitor killed the env worker because its node ran low on host memory; the container "
               "itself was not OOMKilled.", first="rlark.ray.memory-killed",
               excludes=["pod.run.oom-killed", "rlark.run.device-oom"])
    return sc


@scenario
def ray_object_store_full() -> Scenario:
    sc, _ = _run_script_failure("rlark-ray-object-store-full", (
        "(RolloutWorker pid=2950, ip={WIP}) Traceback (most recent call last):\n"
        "(RolloutWorker pid=2950, ip={WIP})   File \"python/ray/_raylet.pyx\", line 3285, in "
        "ray._raylet.CoreWorker.put_serialized_object_and_increment_local_ref\n"
        "(RolloutWorker pid=2950, ip={WIP}) ray.exceptions.ObjectStoreFullError: Failed to put object "
        "ffffffffffffffffffffffffffffffffffffffff0100000003000000 in object store because it is full. Object size is "
        "8589934720 bytes.\n"
        "(RolloutWorker pid=2950, ip={WIP}) The local object store is full of objects that are still in scope and "
        "cannot be evicted. Tip: Use the `ray memory` command to list active objects in the cluster.\n" + _HYDRA_TAIL))
    sc.expects("A rollout worker put an 8 GiB batch into a Ray object store already full of referenced objects.",
               first="rlark.ray.object-store-full", excludes=["pod.run.disk-full"])
    return sc


@scenario
def import_error() -> Scenario:
    sc, _ = _run_script_failure("rlark-run-import-error", (
        "Traceback (most recent call last):\n"
        "  File \"/workspace/RLinf/examples/embodiment/train_embodied_agent.py\", line 22, in <module>\n"
        "    from rlinf.runners.embodied_runner import EmbodiedRunner\n"
        "  File \"/workspace/RLinf/rlinf/models/embodiment/openvla_oft.py\", line 9, in <module>\n"
        "    import flash_attn_2_cuda as flash_attn_gpu\n"
        "ImportError: /opt/conda/envs/rlinf/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-"
        "gnu.so: undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcE"
        "SaIcEEE\n"
        "Stopping Ray cluster...\n"), fail_min=12.0)
    sc.expects("The training entry point imports flash-attn, whose native extension was built against another torch: "
               "undefined symbol at import, before any training step.",
               first="rlark.run.import-error", excludes=["pod.arch-mismatch"])
    return sc


@scenario
def head_markers_rotated() -> Scenario:
    sc = Scenario("healthy-head-markers-rotated")
    sc.cluster("gpu-a")
    job = standard_job(sc, workers=2, age_min=300)
    fill_healthy_logs(job, steps=8)
    head = job.head.pods[0]
    # The log was rotated: the wrapper's lines (rank, prepare, Ray start, run script) are gone, steps remain.
    head.logs["main"] = head.logs["main"][head.logs["main"].index("Global Step"):]
    sc.expects("A healthy run whose Head log was rotated: the wrapper's markers are gone, but training steps are "
               "printed, so it reached the training signal.", healthy=True, last_stage="training-signal")
    return sc

def main(argv: list[str] | None = None) -> int:
    SCENARIOS.mkdir(parents=True, exist_ok=True)
    names: set[str] = set()
    for fn in REGISTRY:
        sc = fn()
        if sc.name in names:
            raise SystemExit(f"duplicate scenario {sc.name}")
        names.add(sc.name)
        if sc.root == SCENARIOS and not sc.name.startswith(OWN_PREFIXES):
            raise SystemExit(f"{sc.name}: not an rlark-/healthy-/trap-/multi- name")
        sc.write()
    # Remove stale directories of ours that no scenario produces any more ("healthy-ci-*" is the CI generator's).
    for d in sorted(SCENARIOS.iterdir()):
        if (d.is_dir() and d.name.startswith(OWN_PREFIXES) and not d.name.startswith(FOREIGN_PREFIXES)
                and d.name not in names):
            shutil.rmtree(d)
    print(f"wrote {len(names)} bundles", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
