# ruff: noqa: E501  (log and event text is quoted verbatim, one line per log line)
"""RLark job bundles: control plane (Job, Tasks, Pod mirrors, Nodes, Lease) and member clusters (CONTRACT §1-§2)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import gen_k8s as k
import gen_logs as L

Obj = dict[str, Any]
IMAGE = "registry.rlinf.example/rlinf/rlinf:embodied-rlinf0.2-torch2.6-ray2.40"
AGENT_IMAGE = "registry.rlinf.example/rlark/rlark-agent:v0.4.2"
TB_IMAGE = "rlinf/tensorboard:2.15.1-rc1"
PREPARE = "source /opt/conda/bin/activate rlinf && pip install -e /workspace/RLinf --no-deps -q"
SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOq3b8Lh2VfR0mXyTz6Wc9Ds1aNpJ4kU7eGiH5tYv3Qo {user}@rlinf-lab"


@dataclass
class Ev:
    """A member-cluster event about a pod, times as offsets (seconds) from the pod's creation."""
    reason: str
    message: str
    first: float
    last: float | None = None
    count: int = 1
    etype: str = "Warning"
    component: str = "kubelet"


@dataclass
class PodSpec:
    ordinal: int
    node: str | None
    phase: str = "Running"
    main: Obj | None = None           # container state; default running
    last: Obj | None = None
    restarts: int = 0
    log: str | None = None            # main container log (None: not collected)
    prev_log: str | None = None
    events: list[Ev] = field(default_factory=list)
    created: float = 50.0             # seconds after the Task
    ip: str | None = None
    sched_message: str | None = None  # Pending + PodScheduled False message
    init_states: dict[str, Obj] = field(default_factory=dict)
    mirror: bool = True
    mirror_phase: str | None = None
    mirror_message: str | None = None
    history: list[tuple[str, str, str, str, float]] = field(default_factory=list)  # seed, ip, node, phase, created
    deletion: datetime | None = None
    default_events: bool = True
    uid_seed: str = ""
    sidecar: str | None = None         # network sidecar log override


@dataclass
class TaskSpec:
    name: str
    role: str
    head: bool = False
    replicas: int = 1
    selector: dict[str, str] = field(default_factory=lambda: {"rlinf.io/pool": "a800-train"})
    image: str = IMAGE
    device: tuple[str, int] | None = ("nvidia.com/gpu", 8)
    cpu_mem: tuple[str, str] | None = None
    prepare: str = PREPARE
    run: str | None = None
    env: list[Obj] = field(default_factory=list)
    mounts: list[Obj] = field(default_factory=list)
    volumes: list[Obj] = field(default_factory=list)
    pvc_map: dict[str, str] = field(default_factory=dict)
    agent: str | None = None          # None: job's agent; "default": unrouted
    phase: str | None = "Running"
    message: str | None = None
    status_extra: Obj = field(default_factory=dict)
    pods: list[PodSpec] = field(default_factory=list)
    sts: bool = True
    sts_replicas: int | None = None
    created: float = 1.0


@dataclass
class AgentSpec:
    nodes: list[k.NodeSpec]
    lease_age: float = 4.0
    member: bool = True               # member-cluster directory collected
    events_collected: bool = True
    extra_events: list[Obj] = field(default_factory=list)
    pvcs: list[Obj] = field(default_factory=list)


@dataclass
class JobSpec:
    name: str
    created: datetime
    captured: datetime
    tasks: list[TaskSpec]
    agents: dict[str, AgentSpec]
    agent: str = "gpu-a"
    domain: str | None = "franka-lab"
    phase: str = "Running"
    stopped: bool = False
    status_tasks: list[Obj] | None = None
    end_time: datetime | None = None
    owner: str = "alice"


def _task_ns(job: JobSpec, t: TaskSpec) -> str:
    a = t.agent or job.agent
    return "default" if a == "default" else f"rlark-{a}"


def _container(job: JobSpec, t: TaskSpec, rank_start: int, total: int, head_host: str) -> Obj:
    env: list[Obj] = [{"name": "RLINF_JOB_NAME", "value": job.name}, *copy.deepcopy(t.env)]
    res: Obj = {}
    if t.device:
        q = str(t.device[1])
        res = {"limits": {t.device[0]: q}, "requests": {t.device[0]: q}}
    if t.cpu_mem:
        res.setdefault("requests", {}).update({"cpu": t.cpu_mem[0], "memory": t.cpu_mem[1]})
        res.setdefault("limits", {}).update({"cpu": t.cpu_mem[0], "memory": t.cpu_mem[1]})
    c: Obj = {"name": "main", "image": t.image, "command": ["bash", "-c", "sleep inf"], "env": env, "resources": res}
    if t.mounts:
        c["volumeMounts"] = copy.deepcopy(t.mounts)
    return c


def _job_task(job: JobSpec, t: TaskSpec) -> Obj:
    spec: Obj = {"name": t.name}
    if t.head:
        spec["head"] = True
    tmpl: Obj = {"metadata": {}, "spec": {"containers": [_container(job, t, 0, 0, "")]}}
    if t.volumes:
        tmpl["spec"]["volumes"] = copy.deepcopy(t.volumes)
    wl: Obj = {"kind": "StatefulSet", "replicas": t.replicas, "template": tmpl}
    if t.pvc_map:
        wl["pvcStorageMap"] = dict(t.pvc_map)
    spec.update({"agentType": "Kubernetes", "role": t.role, "nodeSelector": dict(t.selector),
                 "kubernetes": {"workload": wl}, "tensorBoardDir": "/data/tensorboard", "prepareScript": t.prepare})
    if t.run:
        spec["runScript"] = t.run
    return spec


def _ranks(job: JobSpec) -> dict[str, int]:
    out, r = {}, 0
    for t in sorted(job.tasks, key=lambda x: not x.head):
        out[t.name] = r
        r += t.replicas
    return out


def _head(job: JobSpec) -> TaskSpec:
    return next((t for t in job.tasks if t.head), job.tasks[0])


def build_job(job: JobSpec) -> Obj:
    st: Obj = {"phase": job.phase, "startTime": k.ts(job.created)}
    st["tasks"] = job.status_tasks if job.status_tasks is not None else [
        {"name": t.name, "phase": t.phase or "Pending", **({"message": t.message} if t.message else {})}
        for t in job.tasks]
    if job.end_time:
        st["endTime"] = k.ts(job.end_time)
    spec: Obj = {"tasks": [_job_task(job, t) for t in job.tasks]}
    if job.domain:
        spec["domain"] = job.domain
    if job.stopped:
        spec["stopped"] = True
    spec["sshPublicKey"] = SSH_KEY.format(user=job.owner)
    return {"kind": "Job", "apiVersion": "rlinf.io/v1alpha1",
            "metadata": k.meta(job.name, job.created, None, labels={"rlinf.io/owner": job.owner},
                               annotations={"rlinf.io/created-by": "rlark-ui"}),
            "spec": spec, "status": st}


def pod_uid(job: JobSpec, t: TaskSpec, p: PodSpec, seed: str = "") -> str:
    return k.uid("pod", job.name, t.name, str(p.ordinal), seed or p.uid_seed)


def build_task(job: JobSpec, t: TaskSpec, job_obj: Obj) -> Obj:
    ranks = _ranks(job)
    total = sum(x.replicas for x in job.tasks)
    head = _head(job)
    ns = _task_ns(job, t)
    spec = _job_task(job, t)
    spec.pop("name")
    spec.pop("head", None)
    if job.domain:
        spec["domain"] = job.domain
    spec["sshPublicKey"] = SSH_KEY.format(user=job.owner)
    status: Obj = {}
    if t.phase:
        status["phase"] = t.phase
        status["startTime"] = k.ts(job.created + k.sec(t.created + 2))
    if t.message:
        status["message"] = t.message
    nodes = [p.node for p in t.pods if p.node]
    if nodes:
        status["observedNodes"] = nodes
    status.update(t.status_extra)
    m = k.meta(f"{job.name}-{t.name}", job.created + k.sec(t.created), ns,
               labels={"rlinf.io/job": job.name},
               annotations={"rlark.io/ray-role": "head" if t.head else "worker",
                            "rlark.io/ray-total-nodes": str(total),
                            "rlark.io/ray-node-rank-start": str(ranks[t.name]),
                            "rlark.io/ray-head-task-name": f"{job.name}-{head.name}"})
    m["ownerReferences"] = [{"apiVersion": "rlinf.io/v1alpha1", "kind": "Job", "name": job.name,
                             "uid": job_obj["metadata"]["uid"], "controller": True, "blockOwnerDeletion": True}]
    if ns != "default":
        m["finalizers"] = ["rlark.io/agent-cleanup"]
    return {"kind": "Task", "apiVersion": "rlinf.io/v1alpha1", "metadata": m, "spec": spec, "status": status}


def _pod_ip(t: TaskSpec, p: PodSpec) -> str:
    return p.ip or f"10.42.{(sum(map(ord, t.name)) % 200) + 1}.{17 + p.ordinal}"


def build_mirrors(job: JobSpec, t: TaskSpec, agent: str) -> list[Obj]:
    out = []
    for p in t.pods:
        local = f"{job.name}-{t.name}-{p.ordinal}"
        entries = [(h[0], h[1], h[2], h[3], h[4]) for h in p.history]
        if p.mirror:
            entries.append((p.uid_seed, _pod_ip(t, p) if p.node else "", p.node or "",
                            p.mirror_phase or p.phase, p.created))
        for seed, ip, node, phase, created in entries:
            u = k.uid("pod", job.name, t.name, str(p.ordinal), seed)
            st: Obj = {"phase": phase}
            if node:
                st["node"] = node
            if ip:
                st["ip"] = ip
            if p.mirror_message and seed == p.uid_seed:
                st["message"] = p.mirror_message
            out.append({"kind": "Pod", "apiVersion": "rlinf.io/v1alpha1",
                        "metadata": k.meta(u, job.created + k.sec(t.created + created + 6), f"rlark-{agent}",
                                           labels={"rlark.io/local-pod-name": local,
                                                   "rlark.io/local-pod-namespace": "rlark-system",
                                                   "rlark.io/task-name": f"{job.name}-{t.name}"}),
                        "spec": {"taskNamespace": f"rlark-{agent}", "taskName": f"{job.name}-{t.name}",
                                 "podNamespace": "rlark-system", "podName": local,
                                 **({"domain": job.domain} if job.domain else {})},
                        "status": st})
    return out


def _pod_spec(job: JobSpec, t: TaskSpec, head_host: str) -> Obj:
    ranks = _ranks(job)
    total = sum(x.replicas for x in job.tasks)
    c = _container(job, t, ranks[t.name], total, head_host)
    c["imagePullPolicy"] = "IfNotPresent"
    c["command"] = ["bash", "/rlark/scripts/ray_head.sh" if t.head else "/rlark/scripts/ray_worker.sh"]
    c["env"] += [{"name": "RLARK_RAY_PORT", "value": "6379"}, {"name": "RLARK_PREPARE_SCRIPT", "value": t.prepare}]
    if t.head and t.run:
        c["env"].append({"name": "RLARK_RUN_SCRIPT", "value": t.run})
    if not t.head:
        c["env"].append({"name": "RLARK_HEAD_ADDRESS", "value": head_host})
    c["env"] += [{"name": "RLARK_NODE_RANK_START", "value": str(ranks[t.name])},
                 {"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}},
                 {"name": "RLARK_TOTAL_NODES", "value": str(total)}]
    if job.domain:
        c["env"].append({"name": "RLARK_DOMAIN", "value": job.domain})
    c["securityContext"] = {"privileged": True}
    c["volumeMounts"] = [{"name": "ray-init-scripts", "mountPath": "/rlark/scripts"}, {"name": "rlark-tensorboard", "mountPath": "/data/tensorboard"}, *copy.deepcopy(t.mounts)]
    inits: list[Obj] = [
        {"name": "tensorboard", "image": TB_IMAGE, "imagePullPolicy": "IfNotPresent", "command": ["tensorboard"],
         "args": ["--logdir=/data/tensorboard", "--bind_all"], "restartPolicy": "Always",
         "volumeMounts": [{"name": "rlark-tensorboard", "mountPath": "/data/tensorboard"}]},
        {"name": "rlark-network-sidecar", "image": AGENT_IMAGE, "imagePullPolicy": "IfNotPresent",
         "command": ["/usr/local/bin/network-sidecar"], "restartPolicy": "Always",
         "securityContext": {"privileged": True, "capabilities": {"add": ["NET_ADMIN"]}},
         "volumeMounts": [{"name": "rlark-nodeserver-socket", "mountPath": "/var/run/rlark"}]},
    ]
    if t.head:
        inits.append({"name": "rlark-sshd-init", "image": AGENT_IMAGE, "imagePullPolicy": "IfNotPresent",
                      "command": ["cp", "/usr/local/bin/rlark-sshd", "/sshd/rlark-sshd"],
                      "volumeMounts": [{"name": "rlark-sshd", "mountPath": "/sshd"}]})
    vols: list[Obj] = [
        {"name": "ray-init-scripts", "configMap": {"name": "ray-head-init" if t.head else "ray-worker-init",
                                                   "defaultMode": 420}},
        {"name": "rlark-tensorboard", "emptyDir": {}},
        {"name": "rlark-nodeserver-socket", "hostPath": {"path": "/var/run/rlark", "type": ""}},
    ]
    if t.head:
        vols.append({"name": "rlark-sshd", "emptyDir": {}})
    vols += copy.deepcopy(t.volumes)
    return {"containers": [c], "initContainers": inits, "volumes": vols, "nodeSelector": dict(t.selector),
            "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": {"matchLabels": {"app": f"{job.name}-{t.name}"}},
                 "topologyKey": "kubernetes.io/hostname"}]}},
            "restartPolicy": "Always", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
            "schedulerName": "default-scheduler"}


def build_member_pod(job: JobSpec, t: TaskSpec, p: PodSpec, agent: str, node_ips: dict[str, str],
                     head_host: str) -> Obj:
    name = f"{job.name}-{t.name}-{p.ordinal}"
    created = job.created + k.sec(t.created + p.created)
    m = k.meta(name, created, "rlark-system",
               labels={"app": f"{job.name}-{t.name}", "apps.kubernetes.io/pod-index": str(p.ordinal),
                       "controller-revision-hash": f"{job.name}-{t.name}-7c9d5f6b84",
                       "statefulset.kubernetes.io/pod-name": name},
               annotations={"rlark.io/management-task-name": f"{job.name}-{t.name}",
                            "rlark.io/management-task-namespace": f"rlark-{agent}",
                            **({"rlark.io/management-task-domain": job.domain} if job.domain else {})})
    m["uid"] = pod_uid(job, t, p)
    m["generateName"] = f"{job.name}-{t.name}-"
    m["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": f"{job.name}-{t.name}",
                             "uid": k.uid("sts", job.name, t.name), "controller": True, "blockOwnerDeletion": True}]
    if p.deletion:
        m["deletionTimestamp"] = k.ts(p.deletion)
        m["deletionGracePeriodSeconds"] = 30
    spec = _pod_spec(job, t, head_host)
    spec["hostname"] = name
    if p.node:
        spec["nodeName"] = p.node
    start = created + k.sec(3)
    status: Obj = {"phase": p.phase, "qosClass": "Guaranteed" if t.cpu_mem else "BestEffort"}
    conds: list[Obj] = []
    if p.node:
        status.update({"hostIP": node_ips.get(p.node, "10.0.1.11"), "hostIPs": [{"ip": node_ips.get(p.node, "")}],
                       "podIP": _pod_ip(t, p), "podIPs": [{"ip": _pod_ip(t, p)}], "startTime": k.ts(start)})
        main_state = p.main or k.running(start + k.sec(18))
        inits = []
        for c in spec["initContainers"]:
            default = (k.terminated("Completed", 0, start + k.sec(6), start + k.sec(7))
                       if c["name"] == "rlark-sshd-init" else k.running(start + k.sec(3)))
            stt = p.init_states.get(c["name"], default)
            s = k.cstatus(c["name"], c["image"], stt)
            if c["name"] == "rlark-sshd-init" and "terminated" in stt:
                s["ready"], s["started"] = True, False
            inits.append(s)
        status["initContainerStatuses"] = inits
        pulled = not (("waiting" in main_state and "Pull" in main_state["waiting"].get("reason", ""))
                      or ("waiting" in main_state and main_state["waiting"].get("reason") == "ContainerCreating"))
        status["containerStatuses"] = [k.cstatus("main", t.image, main_state, last=p.last, restarts=p.restarts,
                                                 pulled=pulled)]
        ready = "running" in main_state
        conds = [
            {"type": "PodReadyToStartContainers", "status": "True", "lastTransitionTime": k.ts(start)},
            {"type": "Initialized", "status": "True", "lastTransitionTime": k.ts(start + k.sec(8))},
            {"type": "Ready", "status": "True" if ready else "False", "lastTransitionTime": k.ts(start + k.sec(20)),
             **({} if ready else {"reason": "ContainersNotReady", "message": "containers with unready status: [main]"})},
            {"type": "ContainersReady", "status": "True" if ready else "False",
             "lastTransitionTime": k.ts(start + k.sec(20)),
             **({} if ready else {"reason": "ContainersNotReady", "message": "containers with unready status: [main]"})},
            {"type": "PodScheduled", "status": "True", "lastTransitionTime": k.ts(created)},
        ]
    else:
        sc: Obj = {"type": "PodScheduled", "status": "False", "lastTransitionTime": k.ts(created),
                   "reason": "Unschedulable"}
        if p.sched_message:
            sc["message"] = p.sched_message
        conds = [sc]
    for c in conds:
        c["lastProbeTime"] = None
    status["conditions"] = conds
    return {"kind": "Pod", "apiVersion": "v1", "metadata": m, "spec": spec, "status": status}


def member_events(job: JobSpec, t: TaskSpec, p: PodSpec, pod: Obj) -> list[Obj]:
    name = pod["metadata"]["name"]
    u = pod["metadata"]["uid"]
    created = job.created + k.sec(t.created + p.created)
    out = []
    if p.default_events and p.node:
        out.append(k.event("Pod", "rlark-system", name, u, "Scheduled",
                           f"Successfully assigned rlark-system/{name} to {p.node}", created,
                           component="default-scheduler"))
        main = pod["status"]["containerStatuses"][0]
        if (main["imageID"] and "waiting" not in (p.main or {})) or main["restartCount"]:
            out.append(k.event("Pod", "rlark-system", name, u, "Pulled",
                               f'Container image "{t.image}" already present on machine', created + k.sec(20),
                               host=p.node))
            out.append(k.event("Pod", "rlark-system", name, u, "Created", "Created container main",
                               created + k.sec(20), host=p.node))
            out.append(k.event("Pod", "rlark-system", name, u, "Started", "Started container main",
                               created + k.sec(21), host=p.node))
    for e in p.events:
        out.append(k.event("Pod", "rlark-system", name, u, e.reason, e.message, created + k.sec(e.first),
                           last=created + k.sec(e.last if e.last is not None else e.first), count=e.count,
                           etype=e.etype, component=e.component,
                           host=p.node if e.component == "kubelet" else None))
    return out


def build_sts(job: JobSpec, t: TaskSpec, agent: str, task_obj: Obj, head_host: str) -> Obj:
    reps = t.sts_replicas if t.sts_replicas is not None else t.replicas
    running_n = sum(1 for p in t.pods if p.phase == "Running")
    ready_n = sum(1 for p in t.pods if p.phase == "Running" and (p.main is None or "running" in p.main))
    m = k.meta(f"{job.name}-{t.name}", job.created + k.sec(t.created + 5), "rlark-system",
               annotations={"rlark.io/management-task-name": f"{job.name}-{t.name}",
                            "rlark.io/management-task-namespace": f"rlark-{agent}",
                            "rlark.io/management-task-uid": task_obj["metadata"]["uid"]})
    m["uid"] = k.uid("sts", job.name, t.name)
    m["generation"] = 2 if t.sts_replicas is not None else 1
    return {"kind": "StatefulSet", "apiVersion": "apps/v1", "metadata": m,
            "spec": {"replicas": reps, "selector": {"matchLabels": {"app": f"{job.name}-{t.name}"}},
                     "serviceName": f"{job.name}-{t.name}-ray-head" if t.head else "",
                     "template": {"metadata": {"labels": {"app": f"{job.name}-{t.name}"}},
                                  "spec": _pod_spec(job, t, head_host)},
                     "podManagementPolicy": "Parallel", "updateStrategy": {"type": "RollingUpdate"}},
            "status": {"observedGeneration": m["generation"], "replicas": len(t.pods), "readyReplicas": ready_n,
                       "currentReplicas": running_n, "updatedReplicas": len(t.pods),
                       "availableReplicas": ready_n}}


def write_job_bundle(job: JobSpec, out: Path) -> None:
    cp = out / "control-plane"
    head = _head(job)
    head_host = f"{job.name}-{head.name}-0.rlark-domain" if job.domain else f"{job.name}-{head.name}-ray-head"
    job_obj = build_job(job)
    k.write_json(cp / "jobs.rlinf.io.json", k.k8s_list("Job", "rlinf.io/v1alpha1", [job_obj]))
    per_ns: dict[str, list[Obj]] = {}
    task_objs: dict[str, Obj] = {}
    for t in job.tasks:
        o = build_task(job, t, job_obj)
        task_objs[t.name] = o
        per_ns.setdefault(_task_ns(job, t), []).append(o)
    for ns, items in per_ns.items():
        k.write_json(cp / ns / "tasks.rlinf.io.json", k.k8s_list("Task", "rlinf.io/v1alpha1", items))
    clusters = ["control-plane"]
    for agent, a in job.agents.items():
        ns = f"rlark-{agent}"
        tasks_here = [t for t in job.tasks if (t.agent or job.agent) == agent]
        if ns not in per_ns:
            k.write_json(cp / ns / "tasks.rlinf.io.json", k.k8s_list("Task", "rlinf.io/v1alpha1", []))
        mirrors = [m for t in tasks_here for m in build_mirrors(job, t, agent)]
        k.write_json(cp / ns / "pods.rlinf.io.json", k.k8s_list("Pod", "rlinf.io/v1alpha1", mirrors))
        k.write_json(cp / ns / "nodes.rlinf.io.json",
                     k.k8s_list("Node", "rlinf.io/v1alpha1", [k.rlark_node(n, agent) for n in a.nodes]))
        k.write_json(cp / ns / "leases.json", k.k8s_list("Lease", "coordination.k8s.io/v1",
                                                          [k.lease(agent, job.captured - k.sec(a.lease_age))]))
        if not a.member:
            continue
        clusters.append(agent)
        mdir = out / agent
        k.write_json(mdir / "nodes.json", k.k8s_list("Node", "v1", [k.member_node(n, job.captured)
                                                                    for n in a.nodes if n.in_member]))
        node_ips = {n.name: n.ip for n in a.nodes}
        pods, events, sts = [], list(a.extra_events), []
        for t in tasks_here:
            if t.sts:
                sts.append(build_sts(job, t, agent, task_objs[t.name], head_host))
            for p in t.pods:
                pod = build_member_pod(job, t, p, agent, node_ips, head_host)
                pods.append(pod)
                events += member_events(job, t, p, pod)
                _write_logs(job, t, p, pod, mdir / "rlark-system")
        k.write_json(mdir / "rlark-system" / "pods.json", k.k8s_list("Pod", "v1", pods))
        if a.events_collected:
            k.write_json(mdir / "rlark-system" / "events.json", k.k8s_list("Event", "v1", events))
        k.write_json(mdir / "rlark-system" / "statefulsets.json", k.k8s_list("StatefulSet", "apps/v1", sts))
        k.write_json(mdir / "rlark-system" / "persistentvolumeclaims.json",
                     k.k8s_list("PersistentVolumeClaim", "v1", a.pvcs))
    snap = (f"capturedAt: '{k.ts(job.captured)}'\ncontrolPlane: control-plane\nclusters:\n"
            + "".join(f"- {c}\n" for c in clusters))
    (out / "snapshot.yaml").write_text(snap, encoding="utf-8")


def _write_logs(job: JobSpec, t: TaskSpec, p: PodSpec, pod: Obj, nsdir: Path) -> None:
    if p.log is None and p.prev_log is None:
        return
    name = pod["metadata"]["name"]
    started = job.created + k.sec(t.created + p.created + 4)
    sections: dict[str, str] = {}
    if p.log is not None:
        sections["main"] = p.log
    sections["tensorboard"] = L.tensorboard_log(started, name)
    sections["rlark-network-sidecar"] = p.sidecar if p.sidecar is not None else L.sidecar_log(
        started, f"100.96.{p.ordinal}.{5 + len(t.name) % 7}")
    d = nsdir / name
    d.mkdir(parents=True, exist_ok=True)
    (d / "logs.txt").write_text(k.log_sections("rlark-system", name, sections), encoding="utf-8")
    if p.prev_log is not None:
        (d / "previous-logs.txt").write_text(k.log_sections("rlark-system", name, {"main": p.prev_log}),
                                             encoding="utf-8")


def gpu_nodes(prefix: str, n: int, *, pool: str = "a800-train", used: int = 0, start_ip: int = 11,
              product: str = "NVIDIA-A800-SXM4-80GB", **kw: Any) -> list[k.NodeSpec]:
    return [k.NodeSpec(name=f"{prefix}-{i + 1:02d}", ip=f"10.0.1.{start_ip + i}", used_device=used,
                       labels={"node.kubernetes.io/instance-type": "gpu-server", "rlinf.io/pool": pool,
                               "nvidia.com/gpu.product": product, "nvidia.com/gpu.count": "8"}, **kw)
            for i in range(n)]


def since(job: JobSpec, dt: timedelta) -> datetime:
    return job.created + dt
