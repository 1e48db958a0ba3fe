"""Strict schema of a runbook case. Unknown keys are errors; regexes are compiled when the file loads.

A case says *when* it applies as a list of triggers (any one suffices). A trigger combines conditions on one
pod (container state, pod state, an event about the pod or its node, a log line); all conditions in one
trigger must hold for the same pod. What a regex cannot express is a named signal implemented in Python.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal, get_args

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer, model_validator

Stage = Literal[
    "submitted",
    "task-created",
    "pod-created",
    "scheduled",
    "containers-started",
    "rank-assigned",
    "prepare-script",
    "ray-cli-checked",
    "ray-cluster-forming",
    "ray-cluster-ready",
    "run-script",
    "training-signal",
]
STAGES: tuple[str, ...] = get_args(Stage)  # in order: the walk from submission to a training signal
CASE_ID = r"^(pod|rlark|ci|infra)\.[a-z0-9-]+(\.[a-z0-9-]+)*$"


def _compile(value: object) -> re.Pattern[str]:
    if isinstance(value, re.Pattern):
        return value
    if not isinstance(value, str) or not value:
        raise ValueError("a regular expression (non-empty string) is required")
    try:
        return re.compile(value)
    except re.error as exc:
        raise ValueError(f"invalid regular expression {value!r}: {exc}") from exc


Regex = Annotated[re.Pattern[str], BeforeValidator(_compile), PlainSerializer(lambda p: p.pattern)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Bilingual(Strict):
    zh: str = Field(min_length=1)
    en: str = Field(min_length=1)

    def pick(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


class SourceRef(Strict):
    """A seed page's section, or `platform`: a failure every user of a platform meets that the seeds do not
    describe, its section naming the platform and the part of its documentation ("Ray: out-of-memory prevention")."""

    page: Literal["rlark-jobs", "rlark-first-run", "ci-runner", "platform"]
    section: str = Field(min_length=1, description="section heading of the source page")


class ContainerCond(Strict):
    """Conditions on one container status. The current state is tested first, then `lastState`."""

    name: Regex | None = None
    init: bool | None = None
    state: Literal["waiting", "running", "terminated"] | None = None
    reason: Regex | None = None
    message: Regex | None = None
    exit_codes: list[int] | None = None
    nonzero_exit: bool | None = None
    min_restarts: int | None = None


class PodCond(Strict):
    phase: Regex | None = None
    reason: Regex | None = None
    message: Regex | None = None


class EventCond(Strict):
    """An event about the pod (or, with `kind: Node`, about the node the pod is on)."""

    reason: Regex
    message: Regex | None = None
    type: Literal["Normal", "Warning"] | None = None
    kind: Literal["Pod", "Node", "PersistentVolumeClaim", "StatefulSet"] = "Pod"


class LogCond(Strict):
    """A log line of a container of the pod; `unless` rejects a matching line (e.g. /dev/shm for disk-full)."""

    pattern: Regex
    container: Regex | None = None
    unless: Regex | None = None


class Trigger(Strict):
    container: ContainerCond | None = None
    pod: PodCond | None = None
    event: EventCond | None = None
    log: LogCond | None = None
    signal: str | None = Field(default=None, pattern=r"^[a-z0-9-]+\.[a-z0-9-]+$")
    waits: bool = Field(default=False, description="what this trigger shows is a wait (a claim waiting for its pod to "
                        "be scheduled), not a failure: a concrete failure of the same pod at the same or an earlier "
                        "stage explains it, and it explains nothing")

    @model_validator(mode="after")
    def _one_kind(self) -> Trigger:
        parts = [p for p in (self.container, self.pod, self.event, self.log) if p is not None]
        if self.signal is not None and parts:
            raise ValueError("a signal trigger stands alone: put pod conditions in another trigger")
        if self.signal is None and not parts:
            raise ValueError("a trigger needs at least one of container, pod, event, log, signal")
        return self


class Case(Strict):
    id: str = Field(pattern=CASE_ID)
    title: Bilingual
    symptom: Bilingual
    severity: Literal["critical", "error", "warning", "info"]
    category: Literal["cause", "risk", "alert"] = "cause"
    fails_at: Stage = Field(description="the stage this failure keeps the job from completing")
    generic: bool = Field(default=False, description="a catch-all; a specific case on the same pod ranks first")
    safety: bool = Field(default=False, description="people or equipment at risk: always ranked first")
    sources: list[SourceRef] = Field(min_length=1)
    when: list[Trigger] = Field(min_length=1)
    supersedes: list[str] = Field(default_factory=list, description="case ids this one explains on the same pod")
    next_steps: list[Bilingual] = Field(min_length=1)
    avoid: list[Bilingual] = Field(min_length=1)
    escalate_to: Literal["user", "admin", "ci-infra", "operator"]


class RunbookFile(Strict):
    cases: list[Case] = Field(min_length=1)


class Runbook(BaseModel):
    model_config = ConfigDict(frozen=True)

    cases: dict[str, Case]

    def __len__(self) -> int:
        return len(self.cases)

    def get(self, case_id: str) -> Case | None:
        return self.cases.get(case_id)
