"""The report every format renders from: a Diagnosis resolved to one language, frozen and typed.

Text, markdown and the ticket (jinja2 templates, attribute access), the contract JSON of CONTRACT §3 and the Slack
Block Kit messages all read this one shape, so they cannot disagree about what a field holds. The model is
validated when it is built (`bot.render.report.build_report`): a severity, stage, language, target kind or
escalation outside its vocabulary is a programming error caught there, not a wrong word in a reply. Nothing here
is redacted yet; every renderer redacts what it shows.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

from bot.diagnose.result import PodFact, TaskFact
from bot.models.refs import Lang, Severity, Stage

TargetKindName = Literal["Job", "Pod", "EphemeralRunner"]
Escalation = Literal["user", "admin", "ci-infra", "operator"]


class _View(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TargetView(_View):
    """§3's target object: what was diagnosed and where it was found (namespace and cluster may be empty)."""

    kind: TargetKindName
    name: str
    namespace: str
    cluster: str

    def fields(self) -> dict[str, str]:
        """§3's target object, in the contract's key order (also the target of the Slack metadata)."""
        return {"kind": self.kind, "name": self.name, "namespace": self.namespace, "cluster": self.cluster}


class EvidenceView(_View):
    """One evidence excerpt: where it was read, the line, and the log lines around it."""

    source: str
    text: str
    context: tuple[str, ...] = ()


class FindingView(_View):
    """A matched runbook case, in the report's language."""

    case: str
    title: str
    symptom: str
    severity: Severity
    evidence: tuple[EvidenceView, ...]
    next_steps: tuple[str, ...]
    avoid: tuple[str, ...]
    escalate_to: Escalation
    sources: tuple[str, ...]  # "<page> § <section>" of the runbook pages the case cites
    stage: Stage  # the stage this failure keeps the job from completing


class FirstErrorView(_View):
    """The first error seen (not the last line), with the lines around it."""

    source: str
    line: int | None
    text: str
    context: tuple[str, ...] = ()


class FactsView(_View):
    """What an admin ticket asks for: job phase and times, Tasks, Worker/Pods, clusters, nodes, images, storage."""

    job_phase: str
    started: datetime | None
    ended: datetime | None
    stopped: bool
    tasks: tuple[TaskFact, ...]
    pods: tuple[PodFact, ...]
    clusters: tuple[str, ...]
    nodes: tuple[str, ...]
    images: tuple[str, ...]
    storage_classes: tuple[str, ...]


class Report(_View):
    """A diagnosis as every format shows it. `findings` keep §3's order: the first is the answer.

    `withheld` counts, by kind, the credentials the evidence points at without quoting them: they add to the
    redaction count every format reports, though no mask for them appears in the text.
    """

    lang: Lang
    target: TargetView
    target_label: str  # how people write the target: job/<name>, pod/<name>, runner/<name>
    found: bool
    where: str  # where the target was looked for (said when it was not found)
    now: str  # RFC3339, the time the diagnosis is as of
    findings: tuple[FindingView, ...]
    healthy: bool
    last_stage: Stage
    last_stage_label: str
    incomplete: bool
    problems: tuple[str, ...]  # what could not be read; any makes the report incomplete
    not_collected: tuple[str, ...]
    first_error: FirstErrorView | None
    facts: FactsView
    withheld: Counter[str]
    since_last_run: str = ""  # the admin ticket's "only change since the last run" (bot.compare), when known
    why_first: tuple[str, ...] = ()  # why the first finding is the answer (the ranking's rule and relations)
    starting: bool = False  # nothing failed and the target is still within the windows of starting
