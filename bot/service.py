"""The use cases the CLI, the Slack handlers and the scheduler call: diagnose, check, snapshot.

One `Service` is built in a composition root (the CLI's `main`, `serve`) from settings, the redactor and the
runbook, and handed to every caller; none of them re-implements the pipeline or the error mapping. Errors are
`bot.errors.UserError`s with a one-line message.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path

from bot.bundle import BundleError
from bot.bundle.writer import WriteReport, write_bundle
from bot.checks import run_checks
from bot.checks.alerts import Alert
from bot.checks.run import tick_checks
from bot.cluster.progress import Progress
from bot.diagnose import Diagnosis, diagnose
from bot.diagnose.engine import matcher_of, prepare
from bot.diagnose.survey import VisitAhead
from bot.errors import NotFound, SourceError, UsageError, UserError
from bot.models import Evidence, Target
from bot.redact import Redactor, SafeText, dump_json, seal
from bot.redact.prefilter import DatabaseCache
from bot.render import render_checks, render_diagnosis
from bot.runbook import Runbook, RunbookError, load_runbook
from bot.settings import Settings
from bot.signals.names import SIGNALS
from bot.sources import EvidenceSource, Gathered, where_in


@dataclass(frozen=True)
class Checked:
    alerts: list[Alert]
    evidence: Evidence
    now: datetime


@dataclass(frozen=True)
class Ticked:
    """One scheduled tick's result: every alert, and the clusters that could not be read (their alerts are not
    counted as gone)."""

    alerts: tuple[Alert, ...]
    unreadable: tuple[str, ...]


@dataclass(frozen=True)
class Snapshotted:
    report: WriteReport
    problems: list[str]


@lru_cache(maxsize=1)
def shipped_runbook() -> Runbook:
    """The runbook the bot ships, parsed once per process (it is read-only data)."""
    return load_runbook(known_signals=SIGNALS)


def resolve_now(explicit: datetime | None, evidence: Evidence) -> datetime:
    """An explicit time, else the bundle's capture time, else the clock."""
    return explicit or evidence.captured_at or datetime.now(UTC)


class Service:
    def __init__(self, *, settings: Settings, redactor: Redactor, runbook: Runbook | None = None,
                 cache: DatabaseCache | None = None, processes: int = 1) -> None:
        """`cache`: where compiled pattern databases may be kept between runs (the runbook's log patterns).
        `processes`: how many processes a diagnosis of large logs may use (the CLI: its CPUs; a bot's diagnosis
        workers: one each, they already run side by side)."""
        self.settings = settings
        self.redactor = redactor
        self.processes = processes
        self._runbook = runbook
        self._cache = cache
        self._prepared = False

    @property
    def runbook(self) -> Runbook:
        if self._runbook is None:
            try:
                self._runbook = shipped_runbook()
            except RunbookError as exc:
                raise UserError(f"runbook: {exc}") from exc
        if not self._prepared:
            prepare(self._runbook, cache=self._cache)
            self._prepared = True
        return self._runbook

    def visit_ahead(self, target: Target) -> VisitAhead | None:
        """The visits a diagnosis of `target` will make of its logs, for a bundle source to make while it reads
        them (with helpers: `processes` > 1); None when nothing would share them."""
        if self.processes < 2:
            return None
        return VisitAhead(matcher_of(self.runbook), self.redactor.scan, target)

    def diagnose(self, target: Target, *, source: EvidenceSource, now: datetime | None = None,
                 progress: Progress | None = None, gathered: Gathered | None = None) -> Diagnosis:
        """Collect what `target` needs and diagnose it. Raises NotFound (says where it looked) or SourceError.
        `gathered`: evidence already read for this target (by `source.locate`), used instead of reading again."""
        runbook = self.runbook
        evidence = (gathered or source.for_target(target, progress=progress)).evidence
        diag = diagnose(evidence, runbook, now=resolve_now(now, evidence), target=target, redactor=self.redactor,
                        thresholds=self.settings.thresholds, processes=self.processes)
        if not diag.found:
            raise NotFound(f"{target} not found: {diag.where}")
        return diag

    def render(self, diag: Diagnosis, *, fmt: str, lang: str, since_last_run: str = "") -> SafeText:
        return render_diagnosis(diag, fmt, lang=lang, redactor=self.redactor, since_last_run=since_last_run)

    def check(self, *, source: EvidenceSource, now: datetime | None = None,
              progress: Progress | None = None) -> Checked:
        evidence = source.for_checks(progress=progress).evidence
        at = resolve_now(now, evidence)
        return Checked(run_checks(evidence, now=at, thresholds=self.settings.thresholds), evidence, at)

    def tick(self, *, source: EvidenceSource, now: datetime) -> Ticked:
        """The scheduled checks once, over what `source` reads now (a bundle's "now" is its capture time, as for
        `rlark-bot check`). A source error propagates: the scheduler counts nothing as gone for that tick."""
        alerts, unreadable = tick_checks(source.for_checks().evidence, now=now, thresholds=self.settings.thresholds)
        return Ticked(tuple(alerts), tuple(unreadable))

    def slack_payload(self, diag: Diagnosis, *, lang: str) -> SafeText:
        """The `chat.postMessage` arguments of the diagnosis reply, as JSON, sealed like everything the bot posts."""
        from bot.render.report import build_report
        from bot.render.slack_reply import slack_payload

        payload = slack_payload(build_report(diag, lang), redactor=self.redactor, lang=lang)
        return dump_json(seal(payload, self.redactor), indent=2)

    def render_checks(self, checked: Checked, *, fmt: str) -> SafeText:
        return render_checks(checked.alerts, fmt, redactor=self.redactor)

    def snapshot(self, target: Target, *, source: EvidenceSource, out: Path,
                 progress: Progress | None = None) -> Snapshotted:
        """Write a redacted bundle of what `target` needs under `out` (which must not exist or be empty)."""
        if out.exists():
            if not out.is_dir():
                raise UsageError(f"--output {out}: is a file; a bundle is a directory (a new or an empty one)")
            if any(out.iterdir()):
                raise UsageError(f"--output {out}: already exists and is not empty")
        else:
            above = next((p for p in out.parents if p.exists()), None)  # the missing directories are made
            if above is not None and not above.is_dir():
                raise UsageError(f"--output {out}: {above} is a file, not a directory")
        gathered = source.for_target(target, progress=progress)
        if not _present(gathered.evidence, target):
            raise NotFound(f"{target} not found: {where_in(gathered.evidence, target)}")
        try:
            report = write_bundle(gathered.evidence, out, redactor=self.redactor, listed=gathered.listed)
        except (BundleError, OSError) as exc:
            raise SourceError(f"cannot write {out}: {exc}") from exc
        return Snapshotted(report, list(gathered.evidence.problems))


def _present(evidence: Evidence, target: Target) -> bool:
    names = {
        "Job": [j.name for j in evidence.jobs],
        "Pod": [p.name for p in evidence.pods if not target.namespace or p.namespace == target.namespace],
        "EphemeralRunner": [r.name for r in evidence.ephemeral_runners
                            if not target.namespace or r.namespace == target.namespace],
    }[target.kind.value]
    return target.name in names
