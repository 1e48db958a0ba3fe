"""Typed references with one string form each, and the closed vocabularies carried through the bot.

`ObjectRef` is how alert keys, evidence sources and joins name an object: `<cluster>/<namespace>/<Kind>/<name>`
(namespace empty for cluster-scoped objects; the cluster of a single-cluster bundle is `default`). `ObjectGroup`
names the objects one cause covers (the pods of a Task, of a NodePool, or asking for one node selector) in the
same form. Alert keys (`alert_key`, `parse_alert_key`) become store keys and Slack metadata, so the forms are
fixed here and parsed back here only.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Literal

from bot.models.base import KubeObject

Severity = Literal["critical", "error", "warning", "info"]
SEVERITY_RANK: dict[Severity, int] = {"info": 0, "warning": 1, "error": 2, "critical": 3}  # higher is worse
Lang = Literal["zh", "en"]
Stage = Literal["submitted", "task-created", "pod-created", "scheduled", "containers-started", "rank-assigned",
                "prepare-script", "ray-cli-checked", "ray-cluster-forming", "ray-cluster-ready", "run-script",
                "training-signal"]

_PART = r"[^/\s]*"  # what the constructor accepts: no '/' and no blanks
_REF = re.compile(rf"({_PART})/({_PART})/([A-Za-z][A-Za-z0-9]*)/([^/\s]+)")
_SELECTOR = re.compile(r"[^,=\s]+=[^,=\s]*(?:,[^,=\s]+=[^,=\s]*)*")  # label keys may hold '/', values not
SELECTOR_KIND = "NodeSelector"
_BAD_PART = re.compile(r"[/\s]")


@dataclass(frozen=True, order=True)
class ObjectRef:
    cluster: str
    namespace: str
    kind: str
    name: str

    def __post_init__(self) -> None:
        for part in (self.cluster, self.namespace, self.kind, self.name):
            if _BAD_PART.search(part):
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
        return _parse_ref(text)

    @property
    def cluster_scoped(self) -> bool:
        return not self.namespace


@dataclass(frozen=True, order=True)
class ObjectGroup:
    """The objects one cause covers, named by what they share: the object that owns or serves them (their Task,
    the NodePool their node selector asks for) or, when no object does, their node selector in one namespace.

    `str()` is `<cluster>/<namespace>/<Kind>/<name>` for an owner, `<cluster>/<namespace>/NodeSelector/k=v,...`
    (keys sorted) for a selector; `parse` reads both back."""

    cluster: str
    namespace: str
    kind: str  # the owner's kind, or SELECTOR_KIND
    name: str  # the owner's name, or the selector `k=v,...`

    def __post_init__(self) -> None:
        if self.kind == SELECTOR_KIND:
            ObjectRef(self.cluster, self.namespace, self.kind, "-")  # the same rules for cluster and namespace
            if not _SELECTOR.fullmatch(self.name):
                raise ValueError(f"not a node selector k=v,...: {self.name[:80]!r}")
        else:
            ObjectRef(self.cluster, self.namespace, self.kind, self.name)

    def __str__(self) -> str:
        return f"{self.cluster}/{self.namespace}/{self.kind}/{self.name}"

    @classmethod
    def owned_by(cls, ref: ObjectRef) -> ObjectGroup:
        return cls(ref.cluster, ref.namespace, ref.kind, ref.name)

    @classmethod
    def selecting(cls, cluster: str, namespace: str, selector: Mapping[str, str]) -> ObjectGroup:
        return cls(cluster, namespace, SELECTOR_KIND, ",".join(f"{k}={v}" for k, v in sorted(selector.items())))

    @classmethod
    def parse(cls, text: str) -> ObjectGroup:
        parts = text.split("/", 3)
        if len(parts) == 4 and parts[2] == SELECTOR_KIND:
            return cls(*parts)
        return cls.owned_by(ObjectRef.parse(text))

    @property
    def owner(self) -> ObjectRef | None:
        return None if self.kind == SELECTOR_KIND else ObjectRef(self.cluster, self.namespace, self.kind, self.name)

    @property
    def cluster_scoped(self) -> bool:
        return not self.namespace


@functools.lru_cache(maxsize=1 << 16)  # a tick reads every stored alert's objects again: the same few thousand
def _parse_ref(text: str) -> ObjectRef:
    m = _REF.fullmatch(text)
    if m is None:
        raise ValueError(f"not an object reference <cluster>/<namespace>/<Kind>/<name>: {text[:120]!r}")
    return ObjectRef(*m.groups())


AlertObject = ObjectRef | ObjectGroup
"""What an alert is about: one object, or the group of objects one cause covers."""


def parse_object(text: str, *, listed: Collection[str] | None = None) -> AlertObject:
    """An alert's object read back from its string form: the group when `listed` (the objects the alert lists, in
    their string form) does not include it, else the object itself."""
    if listed is not None and text not in listed:
        return ObjectGroup.parse(text)
    return ObjectRef.parse(text)


def alert_key(check: str, ref: AlertObject | str) -> str:
    """`<check>:<object>`, the stable dedupe key of CONTRACT §6 (`<object>` may also name a group of objects)."""
    return f"{check}:{ref}"


def parse_alert_key(key: str) -> tuple[str, str]:
    """`alert_key`'s inverse: (check, object). ValueError for text with no check before the first `:`."""
    check, sep, ref = key.partition(":")
    if not sep or not check:
        raise ValueError(f"not an alert key <check>:<object>: {key[:120]!r}")
    return check, ref
