"""The alert lifecycle's data: what a tick observed, what is remembered per key, and what to post.

Records are plain JSON documents in the store (`to_doc`/`from_doc`, by pydantic from the dataclasses' own
fields), times are POSIX seconds (`Seconds`, the one type of every `now` on the alert side), so any replica can
pick up where another left off.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import TypeAdapter

from bot.models.refs import Severity
from bot.settings import ChecksSettings

State = Literal["firing", "resolved"]
Seconds = float  # POSIX seconds


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
    severity: Severity
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

    severity: Severity
    fingerprint: str
    objects: tuple[str, ...]


@dataclass(frozen=True)
class Record:
    key: str
    check: str
    case: str
    object: str
    objects: tuple[str, ...]
    severity: Severity
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
    acked_by: str = ""  # the Slack user who said "I'm on it" ("" when nobody has)
    ack_seq: int = 0  # clicks on "I'm on it" that changed it: a click made on an older root changes nothing

    def to_doc(self) -> dict[str, Any]:
        return _dump(_RECORD, self)

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> Record:
        """Fields this version does not know are ignored; missing ones take their defaults."""
        return _RECORD.validate_python(doc)

    def evolve(self, **changes: Any) -> Record:
        return replace(self, **changes)


@dataclass(frozen=True)
class View:
    """What a message about the alert shows, frozen at the moment the action was decided."""

    key: str
    case: str
    object: str
    objects: tuple[str, ...]
    severity: Severity
    summary: str
    since: float | None
    state: State
    cause: str = ""
    acked_by: str = ""
    ack_seq: int = 0

    @classmethod
    def of(cls, record: Record) -> View:
        return cls(key=record.key, case=record.case, object=record.object, objects=record.objects,
                   severity=record.severity, summary=record.summary, since=record.since, state=record.state,
                   cause=record.cause, acked_by=record.acked_by, ack_seq=record.ack_seq)


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
        return _dump(_ACTION, self)

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> Action:
        return _ACTION.validate_python(doc)


def _dump(adapter: TypeAdapter[Any], value: object) -> dict[str, Any]:
    doc = adapter.dump_python(value, mode="json")
    assert isinstance(doc, dict)
    return doc


_RECORD: TypeAdapter[Record] = TypeAdapter(Record)
_ACTION: TypeAdapter[Action] = TypeAdapter(Action)
