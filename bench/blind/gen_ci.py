
"""Single-cluster CI bundles: GitHub ARC EphemeralRunners, runner and workflow pods, events, nodes, logs."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import gen_k8s as k
from gen_k8s import NodeSpec

Obj = dict[str, Any]
RUNNER_IMG = "swr.cn-southwest-2.myhuaweicloud.com/ascend-ci/actions-runner:2.330.0"
NS = "arc-runners"


@dataclass
class Ctr:
    name: str
    image: str
    state: Obj | None = None          # default running at pod start
    last: Obj | None = None
    restarts: int = 0
    resources: Obj | None = None
    command: list[str] | None = None
    env: list[Obj] = field(default_factory=list)
    pulled: bool = True
    mounts: list[Obj] = field(default_factory=list)


@dataclass
class Ev:
    reason: str
    message: str
    first: float                      # seconds after pod creation
    last: float | None = None
    count: int = 1
    etype: str = "Warning"
    component: str = "kubelet"


@dataclass
class CIPod:
    name: str
    node: str | None
    created: datetime
    containers: list[Ctr]
    phase: str = "Running"
    init: list[Ctr] = field(default_factory=list)
    logs: dict[str, str] = field(default_factory=dict)
    prev_logs: dict[str, str] = field(default_factory=dict)
    events: list[Ev] = field(default_factory=list)
    node_selector: dict[str, str] = field(default_factory=dict)
    runner: str | None = None         # owning EphemeralRunner
    workflow_of: str | None = None    # runner pod that created this workflow pod
    reason: str | None = None
    message: str | None = None
    sched_message: str | None = None
    volumes: list[Obj] = field(default_factory=list)
    scheduler: str = "default-scheduler"
    default_events: bool = True
    namespace: str = NS
    deletion: datetime | None = None
    ip: str = "172.16.146.21"
    annotations: dict[str, str] = field(default_factory=dict)


@dataclass
class Runner:
    name: str
    created: datetime
    phase: str = "Running"
    reason: str | None = None
    message: str | None = None
    failures: dict[str, bool] | None = None
    job: str | None = "unit-test (a2-1)"
    repo: str = "vllm-project/vllm-ascend"
    run_id: int = 19384488771
    request_id: int = 9794686
    scale_set: str = "linux-aarch64-a2-1"
    selector: dict[str, str] = field(default_factory=lambda: {"ascend-ci/npu-type": "a2"})
    image: str = RUNNER_IMG


@dataclass
class CIBundle:
    captured: datetime
    nodes: list[NodeSpec]
    pods: list[CIPod]
    runners: list[Runner] = field(default_factory=list)
    extra_events: list[Obj] = field(default_factory=list)
    extra_files: dict[str, Obj] = field(default_factory=dict)   # relative path -> List object
    cluster: str = "ci-cluster"


def runner_obj(r: Runner) -> Obj:
    labels = {"actions.github.com/organization": "ascend-ci-org", "actions.github.com/scale-set-name": r.scale_set,
              "actions.github.com/scale-set-namespace": NS, "app.kubernetes.io/component": "runner",
              "app.kubernetes.io/part-of": "gha-runner-scale-set", "app.kubernetes.io/version": "0.13.1"}
    m = k.meta(r.name, r.created, NS, labels=labels,
               annotations={"actions.github.com/patch-id": "0", "actions.github.com/runner-group-name": "Default",
                            "actions.github.com/runner-scale-set-name": r.scale_set})
    m["finalizers"] = ["ephemeralrunner.actions.github.com/finalizer",
                       "ephemeralrunner.actions.github.com/runner-registration-finalizer"]
    m["ownerReferences"] = [{"apiVersion": "actions.github.com/v1alpha1", "kind": "EphemeralRunnerSet",
                             "name": r.name.rsplit("-runner-", 1)[0], "uid": k.uid("ers", r.scale_set),
                             "controller": True, "blockOwnerDeletion": True}]
    st: Obj = {"phase": r.phase, "ready": r.phase == "Running"}
    if r.reason:
        st["reason"] = r.reason
    if r.message:
        st["message"] = r.message
    if r.failures:
        st["failures"] = r.failures
    if r.job:
        st.update({"runnerId": 283000 + sum(map(ord, r.name)) % 997, "runnerName": r.name,
                   "jobRequestId": r.request_id, "jobRepositoryName": r.repo, "workflowRunId": r.run_id,
                   "jobDisplayName": r.job,
                   "jobWorkflowRef": f"{r.repo}/.github/workflows/ci.yaml@refs/heads/main",
                   "jobId": k.uid("job", r.name)})
    return {"apiVersion": "actions.github.com/v1alpha1", "kind": "EphemeralRunner", "metadata": m,
            "spec": {"githubConfigUrl": "https://github.com/ascend-ci-org",
                     "githubConfigSecret": f"{r.scale_set}-gha-rs-github-secret", "runnerScaleSetId": 59,
                     "metadata": {"labels": {"app.kubernetes.io/component": "runner"}},
                     "spec": {"containers": [{"name": "runner", "image": r.image, "command": ["/home/runner/run.sh"]}],
                              "restartPolicy": "Never", "nodeSelector": dict(r.selector)}},
            "status": st}


def _ctr_spec(c: Ctr) -> Obj:
    o: Obj = {"name": c.name, "image": c.image, "imagePullPolicy": "IfNotPresent",
              "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}
    if c.command:
        o["command"] = c.command
    if c.env:
        o["env"] = c.env
    if c.resources:
        o["resources"] = c.resources
    if c.mounts:
        o["volumeMounts"] = c.mounts
    return o


def pod_obj(p: CIPod, node_ips: dict[str, str]) -> Obj:
    labels: Obj = {}
    owners: list[Obj] = []
    if p.runner:
        labels = {"actions-ephemeral-runner": "True", "actions.github.com/organization": "ascend-ci-org",
                  "actions.github.com/scale-set-name": p.runner.rsplit("-runner-", 1)[0].rsplit("-", 1)[0],
                  "actions.github.com/scale-set-namespace": NS, "app.kubernetes.io/component": "runner",
                  "app.kubernetes.io/part-of": "gha-runner-scale-set", "app.kubernetes.io/version": "0.13.1"}
        owners = [{"apiVersion": "actions.github.com/v1alpha1", "kind": "EphemeralRunner", "name": p.runner,
                   "uid": k.uid(NS, p.runner, "er"), "controller": True, "blockOwnerDeletion": True}]
    if p.workflow_of:
        labels = {"runner-pod": p.workflow_of}
        owners = [{"apiVersion": "v1", "kind": "Pod", "name": p.workflow_of, "uid": k.uid("pod", NS, p.workflow_of),
                   "controller": False}]
    m = k.meta(p.name, p.created, p.namespace, labels=labels, annotations=p.annotations)
    m["uid"] = k.uid("pod", p.namespace, p.name)
    if owners:
        m["ownerReferences"] = owners
    if p.deletion:
        m["deletionTimestamp"] = k.ts(p.deletion)
        m["deletionGracePeriodSeconds"] = 30
    spec: Obj = {"containers": [_ctr_spec(c) for c in p.containers], "restartPolicy": "Never",
                 "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst", "schedulerName": p.scheduler,
                 "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute",
                                  "tolerationSeconds": 300},
                                 {"key": "node.kubernetes.io/unreachable", "operator": "Exists",
                                  "effect": "NoExecute", "tolerationSeconds": 300}]}
    if p.init:
        spec["initContainers"] = [_ctr_spec(c) for c in p.init]
    if p.node_selector:
        spec["nodeSelector"] = dict(p.node_selector)
    if p.node:
        spec["nodeName"] = p.node
    if p.volumes:
        spec["volumes"] = p.volumes
    start = p.created + k.sec(1)
    st: Obj = {"phase": p.phase, "qosClass": "Burstable"}
    if p.reason:
        st["reason"] = p.reason
    if p.message:
        st["message"] = p.message
    if p.node:
        st.update({"hostIP": node_ips.get(p.node, ""), "hostIPs": [{"ip": node_ips.get(p.node, "")}],
                   "podIP": p.ip, "podIPs": [{"ip": p.ip}], "startTime": k.ts(start)})
        if p.init:
            st["initContainerStatuses"] = [k.cstatus(c.name, c.image, c.state or k.terminated(
                "Completed", 0, start + k.sec(2), start + k.sec(4)), last=c.last, restarts=c.restarts,
                pulled=c.pulled) for c in p.init]
        st["containerStatuses"] = [k.cstatus(c.name, c.image, c.state or k.running(start + k.sec(16)), last=c.last,
                                             restarts=c.restarts, pulled=c.pulled) for c in p.containers]
        ready = all("running" in (c.state or {"running": {}}) for c in p.containers)
        rs = "True" if ready else "False"
        extra = {} if ready else {"reason": "ContainersNotReady",
                                  "message": "containers with unready status: [{}]".format(" ".join(
                                      c.name for c in p.containers if "running" not in (c.state or {"running": {}})))}
        st["conditions"] = [
            {"type": "PodReadyToStartContainers", "status": "True", "lastTransitionTime": k.ts(start)},
            {"type": "Initialized", "status": "True", "lastTransitionTime": k.ts(start)},
            {"type": "Ready", "status": rs, "lastTransitionTime": k.ts(start + k.sec(17)), **extra},
            {"type": "ContainersReady", "status": rs, "lastTransitionTime": k.ts(start + k.sec(17)), **extra},
            {"type": "PodScheduled", "status": "True", "lastTransitionTime": k.ts(p.created)},
        ]
    elif p.phase == "Pending" and p.scheduler == "default-scheduler":
        sc: Obj = {"type": "PodScheduled", "status": "False", "lastTransitionTime": k.ts(p.created),
                   "reason": "Unschedulable"}
        if p.sched_message:
            sc["message"] = p.sched_message
        st["conditions"] = [sc]
    for c in st.get("conditions", []):
        c["lastProbeTime"] = None
    return {"kind": "Pod", "apiVersion": "v1", "metadata": m, "spec": spec, "status": st}


def pod_events(p: CIPod, obj: Obj) -> list[Obj]:
    u = obj["metadata"]["uid"]
    out = []
    if p.default_events and p.node:
        out.append(k.event("Pod", p.namespace, p.name, u, "Scheduled",
                           f"Successfully assigned {p.namespace}/{p.name} to {p.node}", p.created,
                           component=p.scheduler))
        for c in p.containers:
            if c.pulled and (c.state is None or "waiting" not in c.state):
                out.append(k.event("Pod", p.namespace, p.name, u, "Pulled",
                                   f'Container image "{c.image}" already present on machine', p.created + k.sec(15),
                                   host=p.node))
                out.append(k.event("Pod", p.namespace, p.name, u, "Created", f"Created container {c.name}",
                                   p.created + k.sec(15), host=p.node))
                out.append(k.event("Pod", p.namespace, p.name, u, "Started", f"Started container {c.name}",
                                   p.created + k.sec(16), host=p.node))
    for e in p.events:
        out.append(k.event("Pod", p.namespace, p.name, u, e.reason, e.message, p.created + k.sec(e.first),
                           last=p.created + k.sec(e.last if e.last is not None else e.first), count=e.count,
                           etype=e.etype, component=e.component,
                           host=p.node if e.component == "kubelet" else None))
    return out


def write_ci_bundle(b: CIBundle, out: Path) -> None:
    d = out / b.cluster
    k.write_json(d / "nodes.json", k.k8s_list("Node", "v1", [k.member_node(n, b.captured) for n in b.nodes]))
    node_ips = {n.name: n.ip for n in b.nodes}
    by_ns: dict[str, list[Obj]] = {}
    events: dict[str, list[Obj]] = {NS: list(b.extra_events)}
    for p in b.pods:
        o = pod_obj(p, node_ips)
        by_ns.setdefault(p.namespace, []).append(o)
        events.setdefault(p.namespace, []).extend(pod_events(p, o))
        if p.logs:
            text = k.log_sections(p.namespace, p.name, p.logs)
            (d / p.namespace / p.name).mkdir(parents=True, exist_ok=True)
            (d / p.namespace / p.name / "logs.txt").write_text(text, encoding="utf-8")
        if p.prev_logs:
            text = k.log_sections(p.namespace, p.name, p.prev_logs)
            (d / p.namespace / p.name).mkdir(parents=True, exist_ok=True)
            (d / p.namespace / p.name / "previous-logs.txt").write_text(text, encoding="utf-8")
    by_ns.setdefault(NS, [])
    for ns, items in by_ns.items():
        k.write_json(d / ns / "pods.json", k.k8s_list("Pod", "v1", items))
        k.write_json(d / ns / "events.json", k.k8s_list("Event", "v1", events.get(ns, [])))
    runners = []
    for r in b.runners:
        o = runner_obj(r)
        o["metadata"]["uid"] = k.uid(NS, r.name, "er")
        runners.append(o)
    k.write_json(d / NS / "ephemeralrunners.actions.github.com.json",
                 k.k8s_list("EphemeralRunner", "actions.github.com/v1alpha1", runners))
    for rel, obj in b.extra_files.items():
        k.write_json(d / rel, obj)
    (out / "snapshot.yaml").write_text(f"capturedAt: '{k.ts(b.captured)}'\nclusters:\n- {b.cluster}\n",
                                       encoding="utf-8")


# ---------------------------------------------------------------- nodes and logs

def npu_node(name: str, ip: str, npu_type: str = "a2", n: int = 8, **kw: Any) -> NodeSpec:
    return NodeSpec(name, arch="arm64", ip=ip, device=("huawei.com/ascend-1980" if npu_type == "a3" else
                                                       "huawei.com/Ascend910", n),
                    cpu="192", memory="1584313416Ki", kernel="5.10.0-216.0.0.115.oe2203sp4.aarch64",
                    os_image="openEuler 22.03 (LTS-SP4)",
                    labels={"ascend-ci/npu-type": npu_type, "node.kubernetes.io/instance-type": f"{npu_type}-server"},
                    **kw)


def cpu_node(name: str, ip: str, **kw: Any) -> NodeSpec:
    return NodeSpec(name, arch="amd64", ip=ip, device=None, cpu="48", memory="197576152Ki",
                    labels={"ascend-ci/cpu": "x86", "node.kubernetes.io/instance-type": "c7.12xlarge"}, **kw)


def gh(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}1Z"


def runner_log(*, start: datetime, job: str, steps: list[tuple[str, list[str]]], result: str | None,
               version: str = "2.330.0", step_s: float = 30.0) -> str:
    """The runner's console with the job's step log (ACTIONS_RUNNER_PRINT_LOG_TO_STDOUT style)."""
    z = "%Y-%m-%d %H:%M:%SZ"
    lines = ["", "√ Connected to GitHub", "", f"Current runner version: '{version}'",
             f"{(start + k.sec(4)).strftime(z)}: Listening for Jobs",
             f"{(start + k.sec(7)).strftime(z)}: Running job: {job}"]
    t = start + k.sec(9)
    for name, body in steps:
        lines.append(f"{gh(t)} ##[group]Run {name}")
        lines.append(f"{gh(t)} ##[endgroup]")
        for b in body:
            t += timedelta(seconds=step_s / max(len(body), 1))
            lines.append(f"{gh(t)} {b}")
        t += k.sec(3)
    if result:
        lines.append(f"{(t + k.sec(5)).strftime(z)}: Job {job} completed with result: {result}")
        lines += ["√ Removed .credentials", "√ Removed .runner"]
    return "\n".join(lines)


CHECKOUT = ["Syncing repository: vllm-project/vllm-ascend", "Getting Git version info",
            "Temporarily overriding HOME='/__w/_temp/8c1f0f3e' before making global git config changes",
            "Adding repository directory to the temporary git global config as a safe directory",
            "[command]/usr/bin/git init /__w/vllm-ascend/vllm-ascend",
            "Fetching the repository", "Determining the checkout info",
            "[command]/usr/bin/git checkout --progress --force -B main refs/remotes/origin/main",
            "Switched to a new branch 'main'"]
NPU_SMI = ["+------------------------------------------------------------------------------------------------+",
           "| npu-smi 24.1.rc3                 Version: 24.1.rc3                                             |",
           "+---------------------------+---------------+----------------------------------------------------+",
           "| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|",
           "| 0     910B3               | OK            | 92.1        38                0    / 0             |",
           "| 1     910B3               | OK            | 90.4        37                0    / 0             |"]
