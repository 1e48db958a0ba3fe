"""What a diagnosis says: ranked findings, how far the job got, the first error, facts for a ticket."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from bot.models import Target
from bot.models.refs import Severity
from bot.runbook.schema import Case
from bot.scope.hits import EvidenceItem, Hit

if TYPE_CHECKING:
    from bot.diagnose.relations import Relation

SEVERITY_ORDER = {"critical": 0, "error": 1, "warning": 2, "info": 3}


@dataclass
class Finding:
    case: Case
    evidence: list[EvidenceItem]
    pods: list[str]
    stage: int
    when: datetime | None = None
    demoted: bool = False
    explains: bool = False
    earlier_instance: bool = False
    hits: list[Hit] = field(default_factory=list)  # one per pod, stages refined: what "explained by" compares
    explained_by: list[str] = field(default_factory=list)  # matched cases that explain this one (relations.py)
    because: list[tuple[str, Relation]] = field(default_factory=list)  # each of them, with the relation
    why: list[str] = field(default_factory=list)  # for the first finding: why it ranks first (rank.py)
    history: bool = False  # only an earlier instance shows it, and the current one shows worse (rank.py)
    starting: bool = False  # every hit is a wait whose window is still open: still starting (young.py)
    opened: datetime | None = None  # when the earliest of those windows opened
    window: float | None = None  # the longest of those windows, in seconds
    outlived: bool = False  # only log lines before the target's success show it: the run went past it (outcome.py)

    @property
    def id(self) -> str:
        return self.case.id

    @property
    def severity(self) -> Severity:
        """The case's severity; a wait whose window is still open is a note (info), not yet a failure; a failure
        the run went past before it succeeded is a warning."""
        if self.starting:
            return "info"
        if self.outlived and self.case.severity in ("critical", "error"):
            return "warning"
        return self.case.severity


@dataclass(frozen=True)
class FirstError:
    source: str
    line: int | None
    text: str
    context: tuple[str, ...] = ()


@dataclass(frozen=True)
class PodFact:
    name: str
    cluster: str
    task: str
    role: str
    phase: str
    node: str
    ip: str
    image: str
    message: str
    restarts: int


@dataclass(frozen=True)
class TaskFact:
    name: str
    role: str
    cluster: str
    phase: str
    message: str
    replicas: int | None
    node_selector: str


@dataclass
class Facts:
    """What an admin ticket asks for, gathered from the evidence (redacted later, at render time)."""

    job_phase: str = ""
    started: datetime | None = None
    ended: datetime | None = None
    stopped: bool = False
    tasks: list[TaskFact] = field(default_factory=list)
    pods: list[PodFact] = field(default_factory=list)
    clusters: list[str] = field(default_factory=list)
    nodes: list[str] = field(default_factory=list)
    images: list[str] = field(default_factory=list)
    storage_classes: list[str] = field(default_factory=list)


@dataclass
class Diagnosis:
    target: Target
    found: bool
    where: str
    now: datetime
    findings: list[Finding] = field(default_factory=list)
    last_stage: str = "submitted"
    first_error: FirstError | None = None
    facts: Facts = field(default_factory=Facts)
    problems: list[str] = field(default_factory=list)
    not_collected: list[str] = field(default_factory=list)
    target_namespace: str = ""
    target_cluster: str = ""
    gaps: list[str] = field(default_factory=list)  # what the target needed and the evidence lacks, decisively
    starting: bool = False  # nothing failed and the target is still within the windows of starting (young.py)

    @property
    def why_first(self) -> list[str]:
        """Why the first finding is the answer: the rule that put it before the next one, what it explains."""
        return list(self.findings[0].why) if self.findings else []

    @property
    def incomplete(self) -> bool:
        return bool(self.problems or self.gaps)

    @property
    def healthy(self) -> bool:
        """No failure found, and nothing missing that could hide one."""
        return not self.gaps and not any(f.severity in ("critical", "error") for f in self.findings)
