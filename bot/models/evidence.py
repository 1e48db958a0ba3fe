"""Everything read about one target, from a bundle or a live cluster alike."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from enum import StrEnum
from typing import TypedDict, cast

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from bot.models.ci import EphemeralRunner, NamespaceOffloading, NodeClaim, NodePool
from bot.models.k8s import Event, Lease, Node, PersistentVolumeClaim, Pod, StatefulSet
from bot.models.rlark import Job, PodMirror, RNode, Task

JOB_NAME = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")  # always used with fullmatch: "x\n" is invalid
K8S_NAME = re.compile(r"[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?")
NAMESPACE_NAME = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
ECHO_MAX = 200


def echo(text: str, limit: int = ECHO_MAX) -> str:
    """What the user typed, quoted for a one-line message: control characters escaped, at most `limit` chars."""
    shown = repr(text[:limit])
    return shown + ("..." if len(text) > limit else "")


class Missing(BaseModel):
    """What a complete read would have held and this one does not: one kind's list (in a cluster, and a namespace
    for namespaced kinds) or a whole cluster (`kind` empty). `where` is how it is shown: the bundle path the list
    would have, plus why when it is more than absence (both sources name it the same way)."""

    model_config = ConfigDict(frozen=True)

    cluster: str
    namespace: str = ""
    kind: str = ""  # file stem: "pods", "events", "jobs.rlinf.io"; "" when the whole cluster was not read
    where: str

    def covers(self, kind: str, *, cluster: str | None = None, namespace: str | None = None) -> bool:
        if cluster is not None and self.cluster != cluster:
            return False
        if not self.kind:
            return True
        return self.kind == kind and (namespace is None or self.namespace in ("", namespace))

    def __str__(self) -> str:
        return self.where


class TargetKind(StrEnum):
    JOB = "Job"
    POD = "Pod"
    RUNNER = "EphemeralRunner"


class Target(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: TargetKind
    name: str
    namespace: str = ""
    cluster: str = ""

    @classmethod
    def parse(cls, text: str, namespace: str = "") -> Target:
        """`name`, `job/name`, `pod/name` or `runner/name`; raises ValueError with a one-line reason."""
        prefix, sep, name = text.partition("/")
        if not sep:
            prefix, name = "job", text
        kinds = {"job": TargetKind.JOB, "pod": TargetKind.POD, "runner": TargetKind.RUNNER}
        kind = kinds.get(prefix.lower())
        if kind is None:
            raise ValueError(f"unknown target kind {echo(prefix, 40)}: use job/<name>, pod/<name> or runner/<name>")
        if kind is TargetKind.JOB and not JOB_NAME.fullmatch(name):
            raise ValueError(
                f"invalid job name {echo(name)}: 1-63 lowercase letters, digits or hyphens, "
                "not starting or ending with a hyphen"
            )
        if kind is not TargetKind.JOB and not K8S_NAME.fullmatch(name):
            raise ValueError(f"invalid {prefix.lower()} name {echo(name)}: not a Kubernetes object name")
        if namespace and not NAMESPACE_NAME.fullmatch(namespace):
            raise ValueError(f"invalid namespace {echo(namespace)}: not a Kubernetes namespace name")
        return cls(kind=kind, name=name, namespace=namespace)

    def __str__(self) -> str:
        short = {TargetKind.JOB: "job", TargetKind.POD: "pod", TargetKind.RUNNER: "runner"}[self.kind]
        return f"{short}/{self.name}"


class LogSource(BaseModel):
    model_config = ConfigDict(frozen=True)

    cluster: str
    namespace: str
    pod: str
    container: str
    previous: bool = False

    def ref(self) -> str:
        suffix = " (previous)" if self.previous else ""
        return f"{self.cluster}/{self.namespace}/{self.pod}:{self.container}{suffix}"


class _Private(TypedDict):
    """A log excerpt's private attributes, as pydantic keeps them (`__pydantic_private__`)."""

    _load: Callable[[], tuple[str, bytes | None]] | None
    _load_head: Callable[[int], str] | None
    _size: int
    _ahead: tuple[object, object] | None


class LogExcerpt(BaseModel):
    """A bounded piece of one container's log; `truncated` when the reader or collector cut some of it off.

    Its text is held in memory (`LogExcerpt(source=..., text=...)`), or read again from where it came from each
    time it is asked for (`LogExcerpt.lazy`: a bundle's log file), so a thousand logs need not be held at once."""

    source: LogSource
    stored: str = Field(default="", alias="text", repr=False)
    truncated: bool = False
    _load: Callable[[], tuple[str, bytes | None]] | None = PrivateAttr(default=None)
    _load_head: Callable[[int], str] | None = PrivateAttr(default=None)
    _size: int = PrivateAttr(default=-1)
    _ahead: tuple[object, object] | None = PrivateAttr(default=None)

    @classmethod
    def lazy(cls, *, source: LogSource, load: Callable[[], tuple[str, bytes | None]], size: int,
             truncated: bool = False, load_head: Callable[[int], str] | None = None) -> LogExcerpt:
        """`load` reads the text again: the text, and its UTF-8 bytes when it has them at hand (the file's own
        bytes, when they were valid UTF-8), else None. `size`: about how many bytes it reads. `load_head(n)`:
        the text's first n characters, read without the rest (else `head` reads it all)."""
        blank = _BLANK.get(cls)
        if blank is None:  # typed arguments: nothing to check
            blank = _BLANK[cls] = cls.model_construct(source=source, truncated=truncated)
        # The state `model_construct` gives, made from the blank's by hand: a bundle has thousands of logs, and
        # copying the blank (or setting private attributes one by one through the model) costs several times more.
        excerpt = cls.__new__(cls)
        put = object.__setattr__
        put(excerpt, "__dict__", {**blank.__dict__, "source": source, "truncated": truncated})
        put(excerpt, "__pydantic_fields_set__", set(blank.__pydantic_fields_set__))
        put(excerpt, "__pydantic_extra__", blank.__pydantic_extra__)
        put(excerpt, "__pydantic_private__", {**(blank.__pydantic_private__ or {}), "_load": load,
                                              "_load_head": load_head, "_size": size})
        return excerpt

    @property
    def _state(self) -> _Private:
        """The private attributes, read from their own dict: the model's attribute lookup tries descriptors first
        and costs several times more, and a bundle's thousands of logs are asked again and again."""
        return cast(_Private, self.__pydantic_private__)

    @property
    def size(self) -> int:
        """About how many bytes the text takes (for sharing out work, not for bounds)."""
        state = self._state
        return len(self.stored) if state["_load"] is None else state["_size"]

    @property
    def text(self) -> str:
        load = self._state["_load"]
        return self.stored if load is None else load()[0]

    def head(self, chars: int) -> str:
        """`text[:chars]`, read from the beginning of the text only when the source can."""
        load_head = self._state["_load_head"]
        if load_head is not None:
            return load_head(chars)
        return self.text[:chars]

    def read(self) -> tuple[str, bytes | None]:
        """The text, and its UTF-8 encoding when the source gave it for free (None: encode the text if needed)."""
        load = self._state["_load"]
        return (self.stored, None) if load is None else load()

    @property
    def held(self) -> bool:
        """Whether the text is in memory (reading it costs nothing)."""
        return self._state["_load"] is None

    def visited_ahead(self, token: object, result: object) -> None:
        """Keep what a visit of this text found before it was asked for (while the bundle was read), with the
        `token` that names the visitor; `ahead(token)` gives it back to the same visitor only."""
        self._state["_ahead"] = (token, result)

    def ahead(self, token: object) -> object | None:
        """What a visit by the visitor `token` names found ahead of time, or None."""
        kept = self._state["_ahead"]
        return kept[1] if kept is not None and kept[0] == token else None


_BLANK: dict[type[LogExcerpt], LogExcerpt] = {}  # per class: what `LogExcerpt.lazy` copies


class Evidence(BaseModel):
    captured_at: datetime | None = None
    control_plane: str | None = None
    clusters: list[str] = Field(default_factory=list)

    jobs: list[Job] = Field(default_factory=list)
    tasks: list[Task] = Field(default_factory=list)
    pod_mirrors: list[PodMirror] = Field(default_factory=list)
    rlark_nodes: list[RNode] = Field(default_factory=list)
    leases: list[Lease] = Field(default_factory=list)

    pods: list[Pod] = Field(default_factory=list)
    events: list[Event] = Field(default_factory=list)
    nodes: list[Node] = Field(default_factory=list)
    pvcs: list[PersistentVolumeClaim] = Field(default_factory=list)
    statefulsets: list[StatefulSet] = Field(default_factory=list)

    ephemeral_runners: list[EphemeralRunner] = Field(default_factory=list)
    nodepools: list[NodePool] = Field(default_factory=list)
    nodeclaims: list[NodeClaim] = Field(default_factory=list)
    offloadings: list[NamespaceOffloading] = Field(default_factory=list)

    logs: list[LogExcerpt] = Field(default_factory=list)

    not_collected: list[Missing] = Field(default_factory=list, description="lists or clusters not present")
    problems: list[str] = Field(default_factory=list, description="reads that failed: 403, timeout, offline")

    def lacks(self, kind: str, *, cluster: str | None = None, namespace: str | None = None) -> bool:
        """Whether the list of `kind` (a file stem) was not collected there; None matches any cluster or namespace.
        A cluster not read at all lacks every kind."""
        return any(m.covers(kind, cluster=cluster, namespace=namespace) for m in self.not_collected)

    @property
    def incomplete(self) -> bool:
        return bool(self.problems)
