"""Core Kubernetes objects, limited to the fields the diagnosis reads."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from bot.models.base import Condition, KubeObject, Loose


class StateWaiting(Loose):
    reason: str = ""
    message: str = ""


class StateRunning(Loose):
    started_at: datetime | None = Field(default=None, alias="startedAt")


class StateTerminated(Loose):
    exit_code: int = Field(default=0, alias="exitCode")
    signal: int | None = None
    reason: str = ""
    message: str = ""
    started_at: datetime | None = Field(default=None, alias="startedAt")
    finished_at: datetime | None = Field(default=None, alias="finishedAt")


class ContainerState(Loose):
    waiting: StateWaiting | None = None
    running: StateRunning | None = None
    terminated: StateTerminated | None = None


class ContainerStatus(Loose):
    name: str = ""
    image: str = ""
    image_id: str = Field(default="", alias="imageID")
    state: ContainerState = Field(default_factory=ContainerState)
    last_state: ContainerState = Field(default_factory=ContainerState, alias="lastState")
    ready: bool = False
    restart_count: int = Field(default=0, alias="restartCount")
    started: bool | None = None


class ContainerSpec(Loose):
    name: str = ""
    image: str = ""
    command: list[str] = Field(default_factory=list)
    args: list[str] = Field(default_factory=list)
    env: list[dict[str, Any]] = Field(default_factory=list)


class PodSpec(Loose):
    node_name: str = Field(default="", alias="nodeName")
    node_selector: dict[str, str] = Field(default_factory=dict, alias="nodeSelector")
    containers: list[ContainerSpec] = Field(default_factory=list)
    init_containers: list[ContainerSpec] = Field(default_factory=list, alias="initContainers")
    volumes: list[dict[str, Any]] = Field(default_factory=list)


class PodStatus(Loose):
    phase: str = ""
    reason: str = ""
    message: str = ""
    conditions: list[Condition] = Field(default_factory=list)
    container_statuses: list[ContainerStatus] = Field(default_factory=list, alias="containerStatuses")
    init_container_statuses: list[ContainerStatus] = Field(default_factory=list, alias="initContainerStatuses")
    host_ip: str = Field(default="", alias="hostIP")
    pod_ip: str = Field(default="", alias="podIP")
    start_time: datetime | None = Field(default=None, alias="startTime")


class Pod(KubeObject):
    spec: PodSpec = Field(default_factory=PodSpec)
    status: PodStatus = Field(default_factory=PodStatus)

    def all_statuses(self) -> list[tuple[ContainerStatus, bool]]:
        """(status, is_init) for init containers first, then app containers."""
        return [(s, True) for s in self.status.init_container_statuses] + [
            (s, False) for s in self.status.container_statuses
        ]

    def container_status(self, name: str) -> ContainerStatus | None:
        return next((s for s, _ in self.all_statuses() if s.name == name), None)

    def condition(self, ctype: str) -> Condition | None:
        return next((c for c in self.status.conditions if c.type == ctype), None)

    def image_of(self, container: str) -> str:
        for c in self.spec.containers + self.spec.init_containers:
            if c.name == container:
                return c.image
        return ""


class InvolvedObject(Loose):
    kind: str = ""
    name: str = ""
    namespace: str = ""
    uid: str = ""


class EventSource(Loose):
    component: str = ""
    host: str = ""


class Event(KubeObject):
    involved_object: InvolvedObject = Field(default_factory=InvolvedObject, alias="involvedObject")
    reason: str = ""
    message: str = ""
    type: str = ""
    count: int | None = None
    first_timestamp: datetime | None = Field(default=None, alias="firstTimestamp")
    last_timestamp: datetime | None = Field(default=None, alias="lastTimestamp")
    event_time: datetime | None = Field(default=None, alias="eventTime")
    source: EventSource = Field(default_factory=EventSource)

    @property
    def when(self) -> datetime | None:
        return self.first_timestamp or self.event_time or self.last_timestamp or self.metadata.creation_timestamp

    def ref(self, container: str | None = None) -> str:
        io = self.involved_object
        return f"{self.cluster}/{io.namespace or self.namespace}/{io.name}"


class Taint(Loose):
    key: str = ""
    value: str = ""
    effect: str = ""


class NodeSpec(Loose):
    unschedulable: bool = False
    taints: list[Taint] = Field(default_factory=list)


class NodeInfo(Loose):
    architecture: str = ""


class NodeStatus(Loose):
    conditions: list[Condition] = Field(default_factory=list)
    node_info: NodeInfo = Field(default_factory=NodeInfo, alias="nodeInfo")
    allocatable: dict[str, str] = Field(default_factory=dict)
    capacity: dict[str, str] = Field(default_factory=dict)


class Node(KubeObject):
    spec: NodeSpec = Field(default_factory=NodeSpec)
    status: NodeStatus = Field(default_factory=NodeStatus)

    @property
    def ready(self) -> bool | None:
        cond = next((c for c in self.status.conditions if c.type == "Ready"), None)
        return None if cond is None else cond.status == "True"


class PVCSpec(Loose):
    storage_class_name: str = Field(default="", alias="storageClassName")


class PVCStatus(Loose):
    phase: str = ""


class PersistentVolumeClaim(KubeObject):
    spec: PVCSpec = Field(default_factory=PVCSpec)
    status: PVCStatus = Field(default_factory=PVCStatus)


class StatefulSetSpec(Loose):
    replicas: int | None = None


class StatefulSetStatus(Loose):
    replicas: int = 0
    ready_replicas: int = Field(default=0, alias="readyReplicas")


class StatefulSet(KubeObject):
    spec: StatefulSetSpec = Field(default_factory=StatefulSetSpec)
    status: StatefulSetStatus = Field(default_factory=StatefulSetStatus)


class LeaseSpec(Loose):
    holder_identity: str = Field(default="", alias="holderIdentity")
    renew_time: datetime | None = Field(default=None, alias="renewTime")


class Lease(KubeObject):
    spec: LeaseSpec = Field(default_factory=LeaseSpec)

    @property
    def is_heartbeat(self) -> bool:
        """An RLark agent's heartbeat: the Lease `heartbeat` in a `rlark-<agent>` namespace."""
        from bot.models.rlark import HEARTBEAT_LEASE, agent_of

        return self.name == HEARTBEAT_LEASE and agent_of(self.namespace) is not None

    def heartbeat_age(self, now: datetime) -> float | None:
        """Seconds since the agent last renewed it; None when this is no heartbeat or was never renewed."""
        if not self.is_heartbeat or self.spec.renew_time is None:
            return None
        return (now - self.spec.renew_time).total_seconds()

    def disconnected(self, now: datetime, timeout_seconds: float) -> bool:
        """The one rule for "agent disconnected": a heartbeat not renewed for longer than the timeout."""
        age = self.heartbeat_age(now)
        return age is not None and age > timeout_seconds
