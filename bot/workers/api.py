"""What the conversations ask of the engine: locate a target, and (once the conversation let it go ahead)
collect, diagnose and render it. Two implementations behind one protocol: `bot.workers.local.LocalEngine` runs
it in the calling thread (tests, tools); `bot.workers.pool.WorkerEngine` runs it in worker processes, so the
interpreter answering Slack never waits on it; the scheduled checks' reads (`tick`) run there too.

The flow decides between locating and diagnosing (`gate`): whether the channel may see the target, the
cooldown, the root message. Nothing is collected past the location until `gate` said yes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from bot.diagnose import Diagnosis
from bot.models import Target
from bot.redact import Redactor
from bot.render.report import build_report
from bot.render.slack_evidence import redaction_counts
from bot.render.slack_message import SlackMessage
from bot.render.slack_reply import diagnosis_reply
from bot.render.slack_roots import root_verdict
from bot.service import Ticked
from bot.sources import Location
from bot.workers.command_tasks import CommandResult, CommandTask

Gate = Callable[[Location], bool]  # the target's location -> go ahead (True) or stop here (False)
OnProgress = Callable[[dict[str, int | str]], None]


class WorkerLost(Exception):
    """The process diagnosing this ask ended before it answered (killed, out of memory) or none could start."""


@dataclass(frozen=True)
class Answer:
    """A diagnosis and its rendered Slack forms: the thread reply, the root's verdict, the redaction counts.
    The messages are rendered from the redactor's output; the sink seals them once more before they go out."""

    diag: Diagnosis
    reply: SlackMessage
    verdict: SlackMessage
    counts: dict[str, int] = field(default_factory=dict)
    worker_rss_mib: float = 0.0  # the worker's resident memory after this task (0 when run in-process)


def render_answer(diag: Diagnosis, *, lang: str, redactor: Redactor,
                  links: Mapping[str, str] | None = None) -> Answer:
    report = build_report(diag, lang)
    counts = redaction_counts(report, redactor)
    reply = diagnosis_reply(report, redactor=redactor, lang=lang, counts=counts, links=links)
    verdict = root_verdict(report, thread_hint=True, redactor=redactor, lang=lang)
    return Answer(diag=diag, reply=reply, verdict=verdict, counts=dict(counts))


class Engine(Protocol):
    def investigate(self, target: Target, *, lang: str, gate: Gate, on_progress: OnProgress) -> Answer | None:
        """Locate `target` (NotFound says where it looked), ask `gate`, then diagnose and render it; None when
        `gate` stopped it. Raises `UserError`s as the service does, `WorkerLost` when the work was lost."""
        ...

    def command(self, task: CommandTask) -> CommandResult:
        """Preflight, nodes, compare or timeline (`bot.workers.command_tasks`); raises `UserError`s as the CLI does."""
        ...

    def locate(self, target: Target) -> Location:
        """Where `target` lives (NotFound says where it looked), for the buttons' scope check."""
        ...

    def diagnose(self, target: Target) -> Diagnosis:
        """The diagnosis alone (the buttons' fallback when a thread's diagnosis is no longer kept)."""
        ...

    def glance(self, target: Target) -> str:
        """A cheap fingerprint of the target's objects (`EvidenceSource.glance`), for a watch's tick."""
        ...

    def tick(self, now: datetime) -> Ticked:
        """The scheduled checks once (`Service.tick`), where diagnoses run: a big read never holds up Slack."""
        ...

    def problem(self) -> str | None:
        """None when diagnoses can run now; else the reason in one line (for `/readyz`)."""
        ...

    def close(self) -> None: ...
