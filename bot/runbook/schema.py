"""Strict schema of a runbook case. Unknown keys are errors; regexes are compiled when the file loads.

A case says *when* it applies as a list of triggers (any one suffices). A trigger combines conditions on one
pod (container state, pod state, an event about the pod or its node, a log line); all conditions in one
trigger must hold for the same pod. What a regex cannot express is a named signal implemented in Python.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal, get_args

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer, model_validator

from bot.runbook.locale import localise

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


def _compile_localised(value: object) -> re.Pattern[str]:
    return _compile(localise(value) if isinstance(value, str) else value)


# A log pattern: the English messages it quotes also match their zh_CN translations (locale.py).
LogRegex = Annotated[re.Pattern[str], BeforeValidator(_compile_localised), PlainSerializer(lambda p: p.pattern)]

_DURATION = re.compile(r"^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$")
MAX_WINDOW = 24 * 3600


def _duration(value: object) -> float:
    """"90s", "5m", "15m", "1h30m" -> seconds. A bare number is refused: a window always names its unit."""
    if isinstance(value, float) and not isinstance(value, bool):
        return value  # already parsed (a model built from another one)
    m = _DURATION.match(value) if isinstance(value, str) and value else None
    if m is None or not any(m.groups()):
        raise ValueError(f"a duration such as 90s, 15m or 1h30m is required, not {value!r}")
    h, mi, se = (int(g or 0) for g in m.groups())
    seconds = float(h * 3600 + mi * 60 + se)
    if not 0 < seconds <= MAX_WINDOW:
        raise ValueError(f"a window is longer than 0s and at most 24h, not {value!r}")
    return seconds


def _duration_text(seconds: float) -> str:
    s = int(seconds)
    return "".join(f"{n}{u}" for n, u in ((s // 3600, "h"), (s % 3600 // 60, "m"), (s % 60, "s")) if n) or "0s"


Duration = Annotated[float, BeforeValidator(_duration), PlainSerializer(_duration_text)]


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

    pattern: LogRegex
    container: Regex | None = None
    unless: LogRegex | None = None


class Trigger(Strict):
    container: ContainerCond | None = None
    pod: PodCond | None = None
    event: EventCond | None = None
    log: LogCond | None = None
    signal: str | None = Field(default=None, pattern=r"^[a-z0-9-]+\.[a-z0-9-]+$")
    waits: bool = Field(default=False, description="what this trigger shows is a wait (a claim waiting for its pod to "
                        "be scheduled), not a failure: a concrete failure of the same pod at the same or an earlier "
                        "stage explains it, and it explains nothing")
    window: Duration | None = Field(default=None, description="how long the step this trigger shows may take while "
                                    "a job starts (90s, 15m, 1h): a hit whose wait began less than this before now is "
                                    "still starting, reported as a note, not a failure (bot/diagnose/young.py)")

    @model_validator(mode="after")
    def _one_kind(self) -> Trigger:
        parts = [p for p in (self.container, self.pod, self.event, self.log) if p is not None]
        if self.signal is not None and parts:
            raise ValueError("a signal trigger stands alone: put pod conditions in another trigger")
        if self.signal is None and not parts:
            raise ValueError("a trigger needs at least one of container, pod, event, log, signal")
        if self.window is not None and self.signal is None and self.event is None:
            raise ValueError("a window needs a signal or an event: a signal says when the wait it reports began, "
                             "an event was first seen when it began")
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
    overrides_success: bool = Field(default=False, description="the case says a run the platform reports as "
                                    "succeeded did fail (a worker's non-zero exit behind a container's 0): a "
                                    "success does not make it a warning (bot/diagnose/outcome.py)")
    sources: list[SourceRef] = Field(min_length=1)
    when: list[Trigger] = Field(min_length=1)
    supersedes: list[str] = Field(default_factory=list, description="case ids this one explains on the same pod")
    next_steps: list[Bilingual] = Field(min_length=1)
    avoid: list[Bilingual] = Field(min_length=1)
    escalate_to: Literal["user", "admin", "ci-infra", "operator"]

    @model_validator(mode="after")
    def _window_demotes(self) -> Case:
        if self.severity == "info" and any(t.window is not None for t in self.when):
            raise ValueError("a window demotes a failure to a note while it is open: this case is a note already")
        return self


class RunbookFile(Strict):
    cases: list[Case] = Field(min_length=1)


class Runbook(BaseModel):
    model_config = ConfigDict(frozen=True)

    cases: dict[str, Case]

    def __len__(self) -> int:
        return len(self.cases)

    def get(self, case_id: str) -> Case | None:
        return self.cases.get(case_id)
