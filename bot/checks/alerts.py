"""An alert a scheduled check raises; `key` is stable across runs so a thread is posted once and updated."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.models import KubeObject


@dataclass(frozen=True)
class Alert:
    check: str
    case: str
    object: str
    severity: str
    since: datetime | None
    summary: str

    @property
    def key(self) -> str:
        return f"{self.check}:{self.object}"


def object_ref(obj: KubeObject, kind: str) -> str:
    return f"{obj.cluster}/{obj.namespace}/{kind}/{obj.name}"
