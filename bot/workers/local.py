"""The engine in the calling thread (tests, tools): the `Engine` protocol without worker processes."""

from __future__ import annotations

from datetime import datetime

from bot.diagnose import Diagnosis
from bot.models import Target
from bot.redact import Redactor
from bot.service import Service, Ticked
from bot.sources import EvidenceSource, Location
from bot.workers.api import Answer, Gate, OnProgress, render_answer
from bot.workers.command_tasks import CommandResult, CommandTask, run_command
from bot.workers.progress import SlackProgress


class LocalEngine:
    """The engine in the calling thread, over the service and source the composition root built."""

    def __init__(self, *, service: Service, source: EvidenceSource, redactor: Redactor) -> None:
        self.service, self.source, self.redactor = service, source, redactor

    def investigate(self, target: Target, *, lang: str, gate: Gate, on_progress: OnProgress) -> Answer | None:
        where = self.source.locate(target)
        if not gate(where):
            return None
        diag = self.service.diagnose(target, source=self.source, progress=SlackProgress(on_progress),
                                     gathered=where.gathered)
        return render_answer(diag, lang=lang, redactor=self.redactor, links=self.service.settings.doc_urls)

    def command(self, task: CommandTask) -> CommandResult:
        return run_command(task, service=self.service, source=self.source)

    def locate(self, target: Target) -> Location:
        return self.source.locate(target)

    def diagnose(self, target: Target) -> Diagnosis:
        return self.service.diagnose(target, source=self.source)

    def glance(self, target: Target) -> str:
        return self.source.glance(target)

    def tick(self, now: datetime) -> Ticked:
        return self.service.tick(source=self.source, now=now)

    def problem(self) -> str | None:
        return None

    def close(self) -> None:
        return None
