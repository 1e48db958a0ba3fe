"""Typed evidence: the Kubernetes, RLark and CI-runner objects the bot reads, tolerant of unknown fields."""

from bot.models.base import KubeObject, ObjectMeta, parse_time
from bot.models.ci import EphemeralRunner, NamespaceOffloading, NodeClaim, NodePool
from bot.models.evidence import Evidence, LogExcerpt, LogSource, Missing, Target, TargetKind
from bot.models.k8s import (
    ContainerState,
    ContainerStatus,
    Event,
    Lease,
    Node,
    PersistentVolumeClaim,
    Pod,
    StatefulSet,
)
from bot.models.rlark import Job, PodMirror, RNode, Task, TaskSpec

__all__ = [
    "ContainerState",
    "ContainerStatus",
    "EphemeralRunner",
    "Event",
    "Evidence",
    "Job",
    "KubeObject",
    "Lease",
    "LogExcerpt",
    "LogSource",
    "Missing",
    "NamespaceOffloading",
    "Node",
    "NodeClaim",
    "NodePool",
    "ObjectMeta",
    "PersistentVolumeClaim",
    "Pod",
    "PodMirror",
    "RNode",
    "StatefulSet",
    "Target",
    "TargetKind",
    "Task",
    "TaskSpec",
    "parse_time",
]
