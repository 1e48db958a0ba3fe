"""Typed references with one string form each, and the closed vocabularies carried through the bot.

`ObjectRef` is how alert keys, evidence sources and joins name an object: `<cluster>/<namespace>/<Kind>/<name>`
(namespace empty for cluster-scoped objects; the cluster of a single-cluster bundle is `default`). Alert keys
become store keys and Slack metadata, so the form is fixed here and parsed back here only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from bot.models.base import KubeObject

Severity = Literal["critical", "error", "warning", "info"]
SEVERITY_RANK: dict[str, int] = {"info": 0, "warning": 1, "error": 2, "critical": 3}  # higher is worse
Lang = Literal["zh", "en"]
Stage = Literal["submitted", "task-created", "pod-created", "scheduled", "containers-started", "rank-assigned",
                "prepare-script", "ray-cli-checked", "ray-cluster-forming", "ray-cluster-ready", "run-script",
                "training-signal"]

_PART = r"[A-Za-z0-9._-]*"
_REF = re.compile(rf"({_PART})/({_PART})/([A-Za-z][A-Za-z0-9]*)/([A-Za-z0-9._-]+)")


@dataclass(frozen=True, order=True)
class ObjectRef:
    cluster: str
    namespace: str
    kind: str
    name: str

    def __post_init__(self) -> None:
        for part in (self.cluster, self.namespace, self.kind, self.name):
            if "/" in part or any(ch.isspace() for ch in part):
                raise ValueError(f"an object reference part cannot hold '/' or blanks: {part[:80]!r}")
        if not self.kind or not self.name:
            raise ValueError("an object reference needs a kind and a name")

    def __str__(self) -> str:
        return f"{self.cluster}/{self.namespace}/{self.kind}/{self.name}"

    @classmethod
    def of(cls, obj: KubeObject, kind: str, *, cluster_scoped: bool = False) -> ObjectRef:
        return cls(obj.cluster or "default", "" if cluster_scoped else obj.namespace, kind, obj.name)

    @classmethod
    def parse(cls, text: str) -> ObjectRef:
        m = _REF.fullmatch(text)
        if m is None:
            raise ValueError(f"not an object reference <cluster>/<namespace>/<Kind>/<name>: {text[:120]!r}")
        return cls(*m.groups())

    @property
    def cluster_scoped(self) -> bool:
        return not self.namespace


def alert_key(check: str, ref: ObjectRef | str) -> str:
    """`<check>:<object>`, the stable dedupe key of CONTRACT §6 (`<object>` may also name a group of objects)."""
    return f"{check}:{ref}"


def parse_alert_key(key: str) -> tuple[str, str]:
    """`alert_key`'s inverse: (check, object). ValueError for text with no check before the first `:`."""
    check, sep, ref = key.partition(":")
    if not sep or not check:
        raise ValueError(f"not an alert key <check>:<object>: {key[:120]!r}")
    return check, ref
