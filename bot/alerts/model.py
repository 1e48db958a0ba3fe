"""The alert lifecycle's data: what is remembered per alert key (`Record`) and what to post (`Action`).

A tick's alerts (`bot.checks.alerts.Alert`, folded by cause in `grouping`) are stepped into records; an `Action`
carries the record as it was when the delivery was decided, which is what its message shows. Records and
actions are plain JSON documents in the store (`to_doc`/`from_doc`, by pydantic from the dataclasses' own
fields: object references in their string form, times as POSIX seconds), so any replica can pick up where
another left off; documents written before actions carried the whole record still load.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import PlainSerializer, PlainValidator, TypeAdapter

from bot.alerts.fingerprint import fingerprint
from bot.checks.alerts import Alert
from bot.models.refs import AlertObject, ObjectGroup, ObjectRef, Severity, parse_alert_key, parse_object
from bot.models.times import from_seconds
from bot.settings import ChecksSettings

State = Literal["firing", "resolved"]
Seconds = float  # POSIX seconds: how the store keeps a point in time


def seconds(at: datetime) -> Seconds:
    return at.timestamp()


def _ref_in(value: object) -> ObjectRef:
    return value if isinstance(value, ObjectRef) else ObjectRef.parse(str(value))


def _object_in(value: object) -> AlertObject:
    return value if isinstance(value, ObjectRef | ObjectGroup) else parse_object(str(value))


Ref = Annotated[ObjectRef, PlainValidator(_ref_in), PlainSerializer(str, return_type=str)]
Object = Annotated[AlertObject, PlainValidator(_object_in), PlainSerializer(str, return_type=str)]


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
    objects: tuple[Ref, ...]


@dataclass(frozen=True)
class Record:
    """One alert thread as the store keeps it (and, inside an `Action`, as its message shows it)."""

    key: str
    check: str
    case: str
    object: Object
    objects: tuple[Ref, ...]
    severity: Severity
    summary: str
    fingerprint: str
    clusters: tuple[str, ...]
    state: State
    first_seen: Seconds
    last_seen: Seconds
    since: Seconds | None = None
    cause: str = ""
    domain: str = ""
    missing: int = 0
    posted: Posted | None = None  # None: no root message yet (muted since first sighting)
    last_change_at: Seconds | None = None
    resolved_at: Seconds | None = None
    back_since: Seconds | None = None  # seen again within the hold-down after resolving; re-opens once it persists
    muted: bool = False  # as of the last tick (a mute ending while firing adds a reply)
    seq: int = 0  # deliveries made for this key so far: the next one's id is `<key>#<generation>.<seq + 1>`
    roots: dict[str, str] = field(default_factory=dict)  # channel -> root message ts (written back on delivery)
    acked_by: str = ""  # the Slack user who said "I'm on it" ("" when nobody has)
    ack_seq: int = 0  # clicks on "I'm on it" that changed it: a click made on an older root changes nothing

    @classmethod
    def first(cls, alert: Alert, *, now: datetime) -> Record:
        """The record of an alert first seen at `now`."""
        return cls(key=alert.key, check=alert.check, case=alert.case, object=alert.object, objects=alert.objects,
                   severity=alert.severity, summary=alert.summary, fingerprint=fingerprint(alert.summary),
                   clusters=tuple(sorted(alert.clusters)), state="firing", first_seen=seconds(now),
                   last_seen=seconds(now), since=seconds(alert.since) if alert.since is not None else None,
                   cause=alert.cause, domain=alert.domain)

    @property
    def since_at(self) -> datetime | None:
        return from_seconds(self.since) if self.since is not None else None

    def to_doc(self) -> dict[str, Any]:
        return _dump(_RECORD, self)

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> Record:
        """Fields this version does not know are ignored; missing ones take their defaults. The object is read
        back as a group when the objects listed do not include it (an alert folded by cause)."""
        listed = {str(o) for o in doc.get("objects", ())}
        return _RECORD.validate_python({**doc, "object": parse_object(str(doc["object"]), listed=listed)})

    def evolve(self, **changes: Any) -> Record:
        return replace(self, **changes)


ActionKind = Literal["post_root", "reply", "resolve", "reopen"]


@dataclass(frozen=True)
class Action:
    """One delivery: `post_root` (new thread), `reply` (a change, or a mute that ended while firing), `resolve`
    (reply + root updated to resolved), `reopen` (reply in the same thread + root updated to firing)."""

    kind: ActionKind
    seq: int
    view: Record  # the record when the delivery was decided: what its messages show
    changes: tuple[str, ...] = ()
    reason: str = ""  # for replies: "change" or "unmuted"
    generation: int = 0  # the record's first sighting: a key dropped and seen again gets fresh delivery ids

    @property
    def id(self) -> str:
        """`<key>#<generation>.<seq>`: what the outbox, the markers and the dead queue know a delivery by."""
        return f"{self.view.key}#{self.generation}.{self.seq}"

    @staticmethod
    def seq_of(delivery_id: str) -> int:
        """The `seq` of the delivery `id` names."""
        return int(delivery_id.rsplit(".", 1)[1])

    def to_doc(self) -> dict[str, Any]:
        return _dump(_ACTION, self)

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> Action:
        return _ACTION.validate_python({**doc, "view": Record.from_doc(_whole(doc["view"]))})


def _whole(view: dict[str, Any]) -> dict[str, Any]:
    """A record document from an action's `view`. Those written before actions carried the whole record hold
    only what the message shows; the rest is derived from that (an action's record is read for its message
    only, never for its times)."""
    if "check" in view:
        return view
    listed = [str(o) for o in view.get("objects", ())]
    shown = [parse_object(str(view["object"]), listed=set(listed)), *map(ObjectRef.parse, listed)]
    return {"check": parse_alert_key(str(view["key"]))[0], "fingerprint": fingerprint(str(view.get("summary", ""))),
            "clusters": sorted({o.cluster for o in shown}), "first_seen": 0.0, "last_seen": 0.0, **view}


def _dump(adapter: TypeAdapter[Any], value: object) -> dict[str, Any]:
    doc = adapter.dump_python(value, mode="json")
    assert isinstance(doc, dict)
    return doc


_RECORD: TypeAdapter[Record] = TypeAdapter(Record)
_ACTION: TypeAdapter[Action] = TypeAdapter(Action)
