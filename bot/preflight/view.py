"""A tolerant view of a Job's tree: the YAML may hold any type anywhere, and no accessor raises on it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.preflight.document import JobDocument, join
from bot.preflight.quantity import parse_quantity

GPU_KEYS_EXACT = ("nvidia.com/gpu",)


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def is_gpu_key(key: str) -> bool:
    """GPU and device resources (CONTRACT §8): nvidia.com/gpu, any */gpu, rlinf.io/device*, huawei.com/Ascend*."""
    return (key in GPU_KEYS_EXACT or key.endswith("/gpu") or key.startswith("rlinf.io/device")
            or key.startswith("huawei.com/Ascend"))


@dataclass(frozen=True)
class Container:
    index: int
    path: str
    data: dict[str, Any]
    init: bool = False

    @property
    def name(self) -> str:
        return text(self.data.get("name"))


@dataclass(frozen=True)
class TaskView:
    index: int
    data: dict[str, Any]

    @property
    def path(self) -> str:
        return f"spec.tasks[{self.index}]"

    @property
    def name(self) -> str:
        return text(self.data.get("name"))

    @property
    def label(self) -> str:
        """How findings name the task: its name, else its position."""
        return self.name or f"#{self.index}"

    @property
    def head(self) -> bool:
        return self.data.get("head") is True

    @property
    def workload(self) -> dict[str, Any]:
        return as_dict(as_dict(self.data.get("kubernetes")).get("workload"))

    @property
    def workload_path(self) -> str:
        return f"{self.path}.kubernetes.workload"

    @property
    def replicas(self) -> int | None:
        """The workload's replicas when it is an integer; None when absent (counts as 1) or not a number."""
        value = self.workload.get("replicas")
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    @property
    def effective_replicas(self) -> int:
        return 1 if self.replicas is None else self.replicas

    @property
    def template(self) -> dict[str, Any]:
        return as_dict(self.workload.get("template"))

    @property
    def pod_spec(self) -> dict[str, Any]:
        return as_dict(self.template.get("spec"))

    @property
    def pod_path(self) -> str:
        return f"{self.workload_path}.template.spec"

    def containers(self, *, init: bool = False) -> list[Container]:
        key = "initContainers" if init else "containers"
        return [Container(i, join(f"{self.pod_path}.{key}", i), c, init)
                for i, c in enumerate(as_list(self.pod_spec.get(key))) if isinstance(c, dict)]

    def main(self) -> Container | None:
        return next((c for c in self.containers() if c.name == "main"), None)

    @property
    def selector(self) -> dict[str, str]:
        """The nodeSelector's pairs with string values (others are the schema rule's to report)."""
        return {str(k): str(v) for k, v in as_dict(self.data.get("nodeSelector")).items()
                if isinstance(v, str | int | float) and not isinstance(v, bool)}

    def volumes(self) -> list[tuple[str, dict[str, Any]]]:
        return [(join(f"{self.pod_path}.volumes", i), v)
                for i, v in enumerate(as_list(self.pod_spec.get("volumes"))) if isinstance(v, dict)]

    def gpu_request(self) -> dict[str, float]:
        """Per pod: GPU/device requests (limits when no request) summed over the containers."""
        total: dict[str, float] = {}
        for c in self.containers():
            res = as_dict(c.data.get("resources"))
            merged = {**as_dict(res.get("limits")), **as_dict(res.get("requests"))}
            for key, value in merged.items():
                amount = parse_quantity(value)
                if is_gpu_key(str(key)) and amount is not None:
                    total[str(key)] = total.get(str(key), 0.0) + amount
        return total

    def requests(self, key: str) -> float:
        """CPU or memory requested per pod (requests, else limits), summed over the containers."""
        total = 0.0
        for c in self.containers():
            res = as_dict(c.data.get("resources"))
            value = as_dict(res.get("requests")).get(key, as_dict(res.get("limits")).get(key))
            total += parse_quantity(value) or 0.0
        return total


def tasks(doc: JobDocument) -> list[TaskView]:
    return [TaskView(i, t) for i, t in enumerate(as_list(as_dict(doc.data.get("spec")).get("tasks")))
            if isinstance(t, dict)]
