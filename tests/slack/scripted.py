"""An engine over a real bundle whose Job the test moves on: `diagnose` returns the bundle's diagnosis with the
stage, phase and findings the test set (the bundle itself cannot change between two ticks)."""

from __future__ import annotations

import dataclasses
import threading
from datetime import datetime
from pathlib import Path

from bot.diagnose import Diagnosis
from bot.models import Target
from bot.redact import Redactor
from bot.runbook import Runbook
from bot.service import Service, Ticked
from bot.settings import Settings
from bot.sources import BundleSource, Location
from bot.workers.api import Answer, Gate, OnProgress
from bot.workers.local import LocalEngine


class ScriptedEngine:
    """`LocalEngine` whose `diagnose` answers what `move(...)` set; counts the reads per target."""

    def __init__(self, inner: LocalEngine, *, cache: bool = True) -> None:
        """`cache`: read the bundle once per target and reuse it (tests); False reads it on every look (benchmarks)."""
        self.inner = inner
        self.cache = cache
        self.stage: str | None = None
        self.phase: str | None = None
        self.keep_findings = True
        self.gone = False
        self.reads: dict[str, int] = {}
        self.glances: dict[str, int] = {}
        self._lock = threading.Lock()
        self._base: dict[str, Diagnosis] = {}

    @classmethod
    def over(cls, settings: Settings, bundle: Path, *, runbook: Runbook) -> ScriptedEngine:
        redactor = Redactor(settings.redaction_with_own_secrets())
        service = Service(settings=settings, redactor=redactor, runbook=runbook)
        return cls(LocalEngine(service=service, source=BundleSource(bundle), redactor=redactor))

    def move(self, *, stage: str | None = None, phase: str | None = None, findings: bool | None = None) -> None:
        with self._lock:
            self.stage = stage if stage is not None else self.stage
            self.phase = phase if phase is not None else self.phase
            self.keep_findings = findings if findings is not None else self.keep_findings

    def investigate(self, target: Target, *, lang: str, gate: Gate, on_progress: OnProgress) -> Answer | None:
        return self.inner.investigate(target, lang=lang, gate=gate, on_progress=on_progress)

    def locate(self, target: Target) -> Location:
        return self.inner.locate(target)

    def diagnose(self, target: Target) -> Diagnosis:
        with self._lock:
            self.reads[str(target)] = self.reads.get(str(target), 0) + 1
            base = self._base.get(str(target))
        if base is None:
            base = self.inner.diagnose(target)
            if self.cache:
                with self._lock:
                    self._base[str(target)] = base
        with self._lock:
            facts = dataclasses.replace(base.facts, job_phase=self.phase or base.facts.job_phase)
            return dataclasses.replace(base, last_stage=self.stage or base.last_stage, facts=facts,
                                       findings=list(base.findings) if self.keep_findings else [])

    def glance(self, target: Target) -> str:
        """What a glance at the scripted Job sees: its phase; the stage and findings too (the scripted world has
        no logs apart from its objects), so a move is seen on the next tick."""
        with self._lock:
            self.glances[str(target)] = self.glances.get(str(target), 0) + 1
            return f"{self.inner.glance(target)}|{self.stage}|{self.phase}|{self.keep_findings}"

    def tick(self, now: datetime) -> Ticked:
        return self.inner.tick(now)

    def problem(self) -> str | None:
        return None

    def close(self) -> None:
        return None
