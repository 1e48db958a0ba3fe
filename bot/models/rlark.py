"""RLark control-plane objects (API group rlinf.io/v1alpha1), field names as the public RLark API defines them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from bot.models.base import Condition, KubeObject, Loose

JOB_LABEL = "rlinf.io/job"
RAY_ROLE = "rlark.io/ray-role"
RAY_TOTAL_NODES = "rlark.io/ray-total-nodes"
RAY_HEAD_TASK = "rlark.io/ray-head-task-name"
TASK_NAME_LABEL = "rlark.io/task-name"
LOCAL_POD_NAME = "rlark.io/local-pod-name"
LOCAL_POD_NAMESPACE = "rlark.io/local-pod-namespace"
CLUSTER_ID_LABEL = "rlark.io/cluster-id"
AGENT_NAMESPACE_PREFIX = "rlark-"  # a member cluster's agent `<id>` lives in control-plane namespace rlark-<id>
MEMBER_NAMESPACE = "rlark-system"  # where an agent runs a Task's StatefulSet in its member cluster
HEARTBEAT_LEASE = "heartbeat"  # the agent renews this Lease in its rlark-<id> namespace


def agent_of(namespace: str) -> str | None:
    """The agent id of a control-plane namespace `rlark-<id>`, else None (`default`, `rlark-` alone)."""
    if namespace.startswith(AGENT_NAMESPACE_PREFIX) and len(namespace) > len(AGENT_NAMESPACE_PREFIX):
        return namespace[len(AGENT_NAMESPACE_PREFIX):]
    return None


class Workload(Loose):
    kind: str = ""
    replicas: int | None = None
    template: dict[str, Any] = Field(default_factory=dict)
    pvc_storage_map: dict[str, str] = Field(default_factory=dict, alias="pvcStorageMap")


class KubernetesTaskSpec(Loose):
    workload: Workload | None = None


class TaskSpec(Loose):
    name: str = ""
    head: bool = False
    role: str = ""
    domain: str = ""
    node_selector: dict[str, str] | None = Field(default=None, alias="nodeSelector")
    prepare_script: str = Field(default="", alias="prepareScript")
    run_script: str = Field(default="", alias="runScript")
    kubernetes: KubernetesTaskSpec | None = None

    @property
    def replicas(self) -> int | None:
        wl = self.kubernetes.workload if self.kubernetes else None
        return wl.replicas if wl else None


class JobTaskStatus(Loose):
    name: str = ""
    phase: str = ""
    message: str = ""


class JobSpec(Loose):
    domain: str = ""
    stopped: bool = False
    tasks: list[TaskSpec] = Field(default_factory=list)


class JobStatus(Loose):
    phase: str = ""
    tasks: list[JobTaskStatus] = Field(default_factory=list)
    conditions: list[Condition] = Field(default_factory=list)
    start_time: datetime | None = Field(default=None, alias="startTime")
    end_time: datetime | None = Field(default=None, alias="endTime")


class Job(KubeObject):
    spec: JobSpec = Field(default_factory=JobSpec)
    status: JobStatus = Field(default_factory=JobStatus)

    @property
    def stopped_at(self) -> datetime | None:
        """When the Job was stopped: its end time, else the transition of a Stopped condition."""
        if self.status.end_time is not None:
            return self.status.end_time
        cond = next((c for c in self.status.conditions if c.type == "Stopped" and c.status == "True"), None)
        return cond.last_transition_time if cond is not None else None

    def ref(self, container: str | None = None) -> str:
        return f"{self.cluster}//{self.name}"


class NodeEvent(Loose):
    type: str = ""
    reason: str = ""
    message: str = ""
    last_time: datetime | None = Field(default=None, alias="lastTime")
    count: int | None = None
    object_kind: str = Field(default="", alias="objectKind")
    object_name: str = Field(default="", alias="objectName")


class TaskStatus(Loose):
    phase: str = ""
    message: str = ""
    observed_nodes: list[str] = Field(default_factory=list, alias="observedNodes")
    pull_progress: list[dict[str, Any]] = Field(default_factory=list, alias="pullProgress")
    events: list[NodeEvent] = Field(default_factory=list)
    start_time: datetime | None = Field(default=None, alias="startTime")


class Task(KubeObject):
    spec: TaskSpec = Field(default_factory=TaskSpec)
    status: TaskStatus = Field(default_factory=TaskStatus)

    @property
    def job_name(self) -> str:
        return self.metadata.labels.get(JOB_LABEL, "")

    @property
    def agent_id(self) -> str | None:
        """The member cluster this Task was routed to, None when it sits unrouted in `default`."""
        ns = self.namespace
        return ns[len(AGENT_NAMESPACE_PREFIX):] if ns.startswith(AGENT_NAMESPACE_PREFIX) else None

    @property
    def is_head(self) -> bool:
        role = self.metadata.annotations.get(RAY_ROLE)
        return role == "head" if role else self.spec.head


class PodMirrorStatus(Loose):
    phase: str = ""
    message: str = ""
    node: str = ""
    ip: str = ""


class PodMirror(KubeObject):
    spec: dict[str, Any] = Field(default_factory=dict)
    status: PodMirrorStatus = Field(default_factory=PodMirrorStatus)

    @property
    def task_name(self) -> str:
        return self.metadata.labels.get(TASK_NAME_LABEL, "") or str(self.spec.get("taskName", ""))

    @property
    def local_name(self) -> str:
        return self.metadata.labels.get(LOCAL_POD_NAME, "") or str(self.spec.get("podName", ""))


class RNodeSpec(Loose):
    unschedulable: bool = False


class RNodeStatus(Loose):
    phase: str = ""
    reason: str = ""
    disk_pressure: bool | None = Field(default=None, alias="diskPressure")
    capacity: dict[str, str] = Field(default_factory=dict)
    allocatable: dict[str, str] = Field(default_factory=dict)
    used: dict[str, str] = Field(default_factory=dict)
    events: list[NodeEvent] = Field(default_factory=list)


class RNode(KubeObject):
    """An RLark Node object on the control plane (mirrors a member-cluster node)."""

    spec: RNodeSpec = Field(default_factory=RNodeSpec)
    status: RNodeStatus = Field(default_factory=RNodeStatus)

    @property
    def cluster_id(self) -> str:
        return self.metadata.labels.get(CLUSTER_ID_LABEL, "") or self.namespace

    def of_agent(self, agent: str) -> bool:
        """Whether this node belongs to member cluster `agent` (its cluster id `rlark-<agent>`, or `agent` itself)."""
        return bool(agent) and (self.cluster_id == agent or agent_of(self.cluster_id) == agent)
