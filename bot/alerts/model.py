"""The alert lifecycle's data: what a tick observed, what is remembered per key, and what to post.

Records are plain JSON documents in the store (`to_doc`/`from_doc`), times are POSIX seconds, so any replica
can pick up where another left off.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from bot.settings import ChecksSettings

State = Literal["firing", "resolved"]
SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2, "critical": 3}


def cluster_of(ref: str) -> str:
    """The cluster part of an object reference `<cluster>/<namespace>/<Kind>/<name>`."""
    return ref.split("/", 1)[0]


@dataclass(frozen=True)
class Observation:
    """One alert (or one cause covering many objects) as seen in one tick."""

    key: str
    check: str
    case: str
    object: str
    objects: tuple[str, ...]
    severity: str
    summary: str
    since: float | None = None
    cause: str = ""
    domain: str = ""

    @property
    def clusters(self) -> frozenset[str]:
        return frozenset({cluster_of(self.object), *(cluster_of(o) for o in self.objects)})


@dataclass(frozen=True)
class Policy:
    """The lifecycle's timing (CONTRACT §6; `RLARK_BOT_CHECKS__*`)."""

    clear_after_ticks: int = 2
    update_every_seconds: float = 600
    hold_down_seconds: float = 300

    @classmethod
    def from_settings(cls, checks: ChecksSettings) -> Policy:
        return cls(clear_after_ticks=checks.clear_after_ticks, update_every_seconds=checks.update_every_seconds,
                   hold_down_seconds=checks.hold_down_seconds)


@dataclass(frozen=True)
class Posted:
    """What the thread last told its readers: a change is measured against this, not against the last tick."""

    severity: str
    fingerprint: str
    objects: tuple[str, ...]


@dataclass(frozen=True)
class Record:
    key: str
    check: str
    case: str
    object: str
    objects: tuple[str, ...]
    severity: str
    summary: str
    fingerprint: str
    clusters: tuple[str, ...]
    state: State
    first_seen: float
    last_seen: float
    since: float | None = None
    cause: str = ""
    domain: str = ""
    missing: int = 0
    posted: Posted | None = None  # None: no root message yet (muted since first sighting)
    last_change_at: float | None = None
    resolved_at: float | None = None
    back_since: float | None = None  # seen again within the hold-down after resolving; re-opens once it persists
    muted: bool = False  # as of the last tick (a mute ending while firing adds a reply)
    seq: int = 0  # deliveries made for this key so far: the next one's id is `<key>#<generation>.<seq + 1>`
    roots: dict[str, str] = field(default_factory=dict)  # channel -> root message ts (written back on delivery)

    def to_doc(self) -> dict[str, Any]:
        doc = asdict(self)
        doc["objects"] = list(self.objects)
        doc["clusters"] = list(self.clusters)
        if self.posted is not None:
            doc["posted"] = {"severity": self.posted.severity, "fingerprint": self.posted.fingerprint,
                             "objects": list(self.posted.objects)}
        return doc

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> Record:
        data = dict(doc)
        posted = data.get("posted")
        data["posted"] = None if posted is None else Posted(severity=posted["severity"],
                                                            fingerprint=posted["fingerprint"],
                                                            objects=tuple(posted["objects"]))
        data["objects"] = tuple(data.get("objects", ()))
        data["clusters"] = tuple(data.get("clusters", ()))
        data["roots"] = dict(data.get("roots", {}))
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})

    def evolve(self, **changes: Any) -> Record:
        return replace(self, **changes)


@dataclass(frozen=True)
class View:
    """What a message about the alert shows, frozen at the moment the action was decided."""

    key: str
    case: str
    object: str
    objects: tuple[str, ...]
    severity: str
    summary: str
    since: float | None
    state: State
    cause: str = ""

    @classmethod
    def of(cls, record: Record) -> View:
        return cls(key=record.key, case=record.case, object=record.object, objects=record.objects,
                   severity=record.severity, summary=record.summary, since=record.since, state=record.state,
                   cause=record.cause)


ActionKind = Literal["post_root", "reply", "resolve", "reopen"]


@dataclass(frozen=True)
class Action:
    """One delivery: `post_root` (new thread), `reply` (a change, or a mute that ended while firing), `resolve`
    (reply + root updated to resolved), `reopen` (reply in the same thread + root updated to firing)."""

    kind: ActionKind
    seq: int
    view: View
    changes: tuple[str, ...] = ()
    reason: str = ""  # for replies: "change" or "unmuted"
    generation: int = 0  # the record's first sighting: a key dropped and seen again gets fresh delivery ids

    @property
    def id(self) -> str:
        return f"{self.view.key}#{self.generation}.{self.seq}"

    def to_doc(self) -> dict[str, Any]:
        doc = asdict(self)
        doc["view"]["objects"] = list(self.view.objects)
        doc["changes"] = list(self.changes)
        return doc

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> Action:
        v = dict(doc["view"])
        v["objects"] = tuple(v.get("objects", ()))
        return cls(kind=doc["kind"], seq=int(doc["seq"]), view=View(**v), changes=tuple(doc.get("changes", ())),
                   reason=str(doc.get("reason", "")), generation=int(doc.get("generation", 0)))
