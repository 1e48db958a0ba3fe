"""What a comparison of two runs says: spec changes, each run's outcome, the verdict and the warnings.

Plain, typed data. Values that came from the evidence (images, env values, scripts) are kept as read, except env
values and scripts, which are redacted when they are read (the key next to a value decides whether it is secret,
and a diff of scripts must be a diff of redacted text); every renderer redacts what it shows once more.
"""

from __future__ import annotations

from dataclasses import dataclass, field

CATEGORIES: tuple[str, ...] = ("image", "selector", "resources", "replicas", "scripts", "mounts", "env", "domain",
                               "kind")


@dataclass(frozen=True)
class RunRef:
    """One side of the comparison: a Job read from the evidence, or a Job YAML file (a planned run)."""

    name: str
    planned: bool = False
    file: str = ""
    cluster: str = ""

    @property
    def label(self) -> str:
        if self.planned:
            return f"{self.file} (planned{', ' + self.name if self.name else ''})"
        return f"job/{self.name}"

    def fields(self) -> dict[str, object]:
        """§3's target object, plus whether the run is only planned (a YAML file)."""
        out: dict[str, object] = {"kind": "Job", "name": self.name, "namespace": "", "cluster": self.cluster}
        if self.planned:
            out["planned"] = True
            out["file"] = self.file
        return out


@dataclass(frozen=True)
class SpecChange:
    """One field that differs. `task` is "" for Job-level fields (domain); `diff` holds a unified diff for scripts."""

    task: str
    category: str
    field: str
    a: str | None
    b: str | None
    diff: str = ""


@dataclass(frozen=True)
class Placement:
    """Where a run went: per task the cluster it was routed to ("" when unrouted) and the Nodes its pods ran on."""

    tasks: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)

    @property
    def clusters(self) -> tuple[str, ...]:
        return tuple(sorted({c for c, _ in self.tasks.values() if c}))

    @property
    def nodes(self) -> tuple[str, ...]:
        return tuple(sorted({n for _, ns in self.tasks.values() for n in ns}))


@dataclass(frozen=True)
class ErrorLines:
    """The first error lines of one run: where they were read and the lines."""

    source: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Outcome:
    """How one run went, from the diagnosis engine: phase, stage reached, first error, cases, placement, times."""

    phase: str
    last_stage: str
    first_error: ErrorLines | None
    case: str
    cases: tuple[str, ...]
    placement: Placement
    durations: dict[str, float | None]
    stage_errors: dict[int, ErrorLines] = field(default_factory=dict)  # blocked stage index -> first error there
    stopped: bool = False
    duration_sources: dict[str, str | None] = field(default_factory=dict)  # stage -> a key of durations.SOURCES

    @property
    def finished(self) -> bool:
        return self.phase in ("Succeeded", "Failed", "Stopped") or self.stopped


@dataclass(frozen=True)
class SameStage:
    """At the furthest stage both runs reached, the first error lines of each (None: no error there)."""

    stage: str
    a: ErrorLines | None
    b: ErrorLines | None


@dataclass(frozen=True)
class Comparison:
    a: RunRef
    b: RunRef
    changes: tuple[SpecChange, ...]
    outcome_a: Outcome
    outcome_b: Outcome | None  # None for a planned run
    same_stage: SameStage | None
    verdict: str
    warnings: tuple[str, ...]
    now: str

    @property
    def categories(self) -> tuple[str, ...]:
        seen = {c.category for c in self.changes}
        return tuple(c for c in CATEGORIES if c in seen)

    @property
    def only_a(self) -> tuple[str, ...]:
        b = set(self.outcome_b.cases) if self.outcome_b else set()
        return tuple(c for c in self.outcome_a.cases if self.outcome_b and c not in b)

    @property
    def only_b(self) -> tuple[str, ...]:
        if self.outcome_b is None:
            return ()
        a = set(self.outcome_a.cases)
        return tuple(c for c in self.outcome_b.cases if c not in a)
