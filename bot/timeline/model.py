"""What a timeline holds: rows of pod instances over time, phases as spans, moments as marks.

Built from the evidence by `bot.timeline.build` (pure), drawn by `bot.timeline.text` and `bot.timeline.svg`.
Every label here is raw evidence text (names, reasons, stage ids): the renderers pass each one through the
redactor before it is drawn or printed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum


class Phase(StrEnum):
    """What a pod instance was doing: the phases a person reads off `kubectl describe`, plus the two the
    picture needs (waiting to restart, and an earlier instance of which only its existence is known)."""

    PENDING = "Pending"  # created, not scheduled yet
    CREATING = "creating"  # scheduled: init containers, image pulls, container creation
    RUNNING = "Running"
    WAITING = "waiting"  # the workload container is waiting to be restarted (CrashLoopBackOff and the like)
    TERMINATED = "Terminated"
    SEEN = "seen"  # an earlier instance known from its mirror or its events: it existed, its phase is unknown


class MarkKind(StrEnum):
    RESTART = "restart"
    STAGE = "stage"  # a Ray wrapper marker whose log line carries a time
    ERROR = "error"  # the first error line of a pod, where it carries a time
    EVENT = "event"  # an eviction, a kill, a deletion: how an instance ended
    PHASE = "phase"  # a Job or Task phase change (the top rows)


@dataclass(frozen=True)
class Span:
    phase: Phase
    start: datetime
    end: datetime  # the end of the picture for a phase still going on
    note: str = ""  # a reason: Unschedulable, ImagePullBackOff, OOMKilled, exit 1


@dataclass(frozen=True)
class Mark:
    kind: MarkKind
    at: datetime
    label: str
    first: bool = False  # the earliest error of the whole timeline


@dataclass
class Segment:
    """One pod instance (one UID) on its row."""

    uid: str
    node: str = ""
    spans: list[Span] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    current: bool = True
    restarts: int = 0
    stages: list[str] = field(default_factory=list)  # wrapper stages its current log shows, timed or not, in order
    earlier_stages: list[str] = field(default_factory=list)  # those of its previous container (a restart)

    @property
    def start(self) -> datetime | None:
        return self.spans[0].start if self.spans else None

    @property
    def phase(self) -> Phase | None:
        """The phase it was last seen in."""
        return self.spans[-1].phase if self.spans else None


@dataclass
class Row:
    """One pod name (a worker keeps its row across replacements), or one Task without any pod."""

    name: str
    role: str  # "head", the Task's role or name, "pod"
    task: str = ""
    segments: list[Segment] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # replacement evidence, why a Task has no pod
    replaced: bool = False

    @property
    def is_head(self) -> bool:
        return self.role == "head"

    @property
    def phase(self) -> str:
        last = self.segments[-1].phase if self.segments else None
        return last.value if last is not None else "no pod"

    @property
    def restarts(self) -> int:
        return sum(s.restarts for s in self.segments)

    @property
    def eventful(self) -> bool:
        """Worth a row of its own when rows are folded: replaced, restarted, failed, erred or not running."""
        return (self.replaced or len(self.segments) != 1 or self.restarts > 0 or self.phase != Phase.RUNNING
                or any(m.kind is MarkKind.ERROR for s in self.segments for m in s.marks))


@dataclass(frozen=True)
class TopRow:
    """The Job, or one of its Tasks: phase changes as marks, the current phase as a span from the first."""

    name: str
    kind: str  # "Job" or "Task"
    phase: str
    marks: tuple[Mark, ...]
    detail: str = ""  # a Task's cluster and message


@dataclass(frozen=True)
class Folded:
    """Rows past the limit, one per role and phase: how many, and the median of their phase boundaries."""

    role: str
    phase: str
    count: int
    spans: tuple[Span, ...]
    restarts: int


@dataclass
class Timeline:
    target: str  # "job/NAME", "pod/NAME"
    start: datetime
    end: datetime
    top: list[TopRow] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    first_error: Mark | None = None
    first_error_pod: str = ""
    first_error_from: str = "log scan"  # or "diagnosis": where the first error mark came from

    @property
    def first_error_title(self) -> str:
        """How the picture and the text name it: a log scan finds error-looking lines, not causes."""
        return "First error" if self.first_error_from == "diagnosis" else "First error-looking line"

    @property
    def pods(self) -> int:
        return sum(1 for r in self.rows if r.segments)

    @property
    def replaced(self) -> int:
        return sum(1 for r in self.rows if r.replaced)

    @property
    def restarted(self) -> int:
        return sum(1 for r in self.rows if r.restarts)
