"""CI-runner platform custom resources: GitHub ARC, Karpenter and Liqo."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from bot.models.base import Condition, KubeObject, Loose


class EphemeralRunnerStatus(Loose):
    phase: str = ""
    reason: str = ""
    message: str = ""
    failures: dict[str, Any] = Field(default_factory=dict)
    job_request_id: int | None = Field(default=None, alias="jobRequestId")
    job_repository_name: str = Field(default="", alias="jobRepositoryName")
    workflow_run_id: int | None = Field(default=None, alias="workflowRunId")
    runner_name: str = Field(default="", alias="runnerName")


class EphemeralRunner(KubeObject):
    status: EphemeralRunnerStatus = Field(default_factory=EphemeralRunnerStatus)


class ConditionedStatus(Loose):
    conditions: list[Condition] = Field(default_factory=list)

    def condition(self, ctype: str) -> Condition | None:
        return next((c for c in self.conditions if c.type == ctype), None)


class NodePool(KubeObject):
    spec: dict[str, Any] = Field(default_factory=dict)
    status: ConditionedStatus = Field(default_factory=ConditionedStatus)

    def template_labels(self) -> dict[str, str]:
        labels = ((self.spec.get("template") or {}).get("metadata") or {}).get("labels") or {}
        return {str(k): str(v) for k, v in labels.items()}

    def serves(self, node_selector: dict[str, str]) -> bool:
        """Whether a pod with this selector could get a node from this pool."""
        named = node_selector.get("karpenter.sh/nodepool")
        if named is not None:
            return named == self.name
        labels = self.template_labels()
        return all(labels.get(k) == v for k, v in node_selector.items() if not k.startswith("kubernetes.io/"))

    def ref(self, container: str | None = None) -> str:
        return f"{self.cluster}//{self.name}"


class NodeClaim(KubeObject):
    status: ConditionedStatus = Field(default_factory=ConditionedStatus)

    def ref(self, container: str | None = None) -> str:
        return f"{self.cluster}//{self.name}"


class OffloadingStatus(Loose):
    offloading_phase: str = Field(default="", alias="offloadingPhase")
    remote_namespaces_conditions: dict[str, Any] = Field(default_factory=dict, alias="remoteNamespacesConditions")


class NamespaceOffloading(KubeObject):
    status: OffloadingStatus = Field(default_factory=OffloadingStatus)
