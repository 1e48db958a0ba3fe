"""Common shape of every Kubernetes object: metadata plus the cluster it was read from."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Loose(BaseModel):
    """Objects from the API server: unknown fields are kept, never an error."""

    model_config = ConfigDict(extra="allow", populate_by_name=True, frozen=False)


class OwnerReference(Loose):
    kind: str = ""
    name: str = ""
    uid: str = ""


class ObjectMeta(Loose):
    name: str = ""
    namespace: str = ""
    uid: str = ""
    labels: dict[str, str] = Field(default_factory=dict)
    annotations: dict[str, str] = Field(default_factory=dict)
    creation_timestamp: datetime | None = Field(default=None, alias="creationTimestamp")
    deletion_timestamp: datetime | None = Field(default=None, alias="deletionTimestamp")
    owner_references: list[OwnerReference] = Field(default_factory=list, alias="ownerReferences")


class KubeObject(Loose):
    """Any listed object. `cluster` is where it was read from; it is not part of the API object."""

    kind: str = ""
    api_version: str = Field(default="", alias="apiVersion")
    metadata: ObjectMeta = Field(default_factory=ObjectMeta)
    cluster: str = ""

    @property
    def name(self) -> str:
        return self.metadata.name

    @property
    def namespace(self) -> str:
        return self.metadata.namespace

    def ref(self, container: str | None = None) -> str:
        """Evidence source string: `<cluster>/<namespace>/<object>[:container]`."""
        base = f"{self.cluster}/{self.namespace}/{self.name}"
        return f"{base}:{container}" if container else base


class Condition(Loose):
    type: str = ""
    status: str = ""
    reason: str = ""
    message: str = ""
    last_transition_time: datetime | None = Field(default=None, alias="lastTransitionTime")


def parse_time(value: Any) -> datetime | None:
    """RFC3339 text or datetime to an aware datetime; None when absent or unreadable."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    try:
        parsed = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
