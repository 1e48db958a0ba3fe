"""One diagnosis worker process: builds the runtime once (settings, redactor, runbook, evidence source), then
takes tasks from its pipe one at a time until told to exit or the pipe closes.

Protocol (tuples over a duplex `multiprocessing` connection):
  parent -> worker  ("investigate", target, lang) | ("diagnose", target) | ("locate", target) | ("glance", target)
                    | ("tick", now) (the scheduled checks once) | ("command", CommandTask) | ("exit",)
  worker -> parent  ("ready", pid) once started, or ("failed", reason)
                    ("located", location) for "investigate", answered by the parent with "go" or "stop"
                    ("progress", state) and ("kube", verb, resource, status) while it works
                    ("done", Answer | Diagnosis | Location | Ticked | CommandResult | str) | ("stopped",)
                    | ("user_error", class name, message) | ("error", exception class name): the task's end
The worker runs at a lower priority (`os.nice`) than the process answering Slack, ignores SIGINT and SIGTERM
(the parent drains and then ends it), and gives freed memory back to the system after each task.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import dataclasses
import gc
import logging
import os
import signal
import threading
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from bot.cache import FileCache, default_cache_dir
from bot.diagnose import Diagnosis
from bot.errors import NotFound, SourceError, UsageError, UserError
from bot.models import Target
from bot.obs.logs import configure_logging
from bot.redact import Redactor
from bot.service import Service, Ticked
from bot.settings import Settings
from bot.sources import EvidenceSource, Location, open_source
from bot.workers.api import Answer, render_answer
from bot.workers.command_tasks import CommandResult, run_command
from bot.workers.progress import SlackProgress

GC_THRESHOLDS = (50_000, 20, 1000)
ERRORS: dict[str, type[UserError]] = {c.__name__: c for c in (UserError, UsageError, NotFound, SourceError)}


@dataclass(frozen=True)
class WorkerSpec:
    """What a worker builds its runtime from; pickled to it once, at start."""

    settings: Settings
    snapshot: str | None = None
    kubeconfig: str | None = None
    context: str | None = None
    nice: int = 10


class _Stopped(Exception):
    """The parent said "stop" after the location (refused, or a cooldown link): nothing more to do."""


class _Worker:
    def __init__(self, conn: Connection, spec: WorkerSpec) -> None:
        self.conn = conn
        self._lock = threading.Lock()  # collection may report progress from several threads
        self.settings = spec.settings
        self.redactor = Redactor(spec.settings.redaction_with_own_secrets(), cache=FileCache(default_cache_dir()))
        configure_logging(redactor=self.redactor)
        self.service = Service(settings=spec.settings, redactor=self.redactor, cache=FileCache(default_cache_dir()))
        _ = self.service.runbook  # parsed now, not on the first task
        self.source: EvidenceSource = open_source(snapshot=spec.snapshot, kubeconfig=spec.kubeconfig,
                                                  context=spec.context, settings=spec.settings,
                                                  observe=self._observe)

    def send(self, message: tuple[Any, ...]) -> None:
        with self._lock:
            self.conn.send(message)

    def _observe(self, verb: str, resource: str, status: str) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.send(("kube", verb, resource, str(status)))

    def _progress(self, state: dict[str, int | str]) -> None:
        self.send(("progress", state))

    def investigate(self, target: Target, lang: str) -> Answer:
        where = self.source.locate(target)
        self.send(("located", dataclasses.replace(where, gathered=None)))
        if self.conn.recv() != "go":
            raise _Stopped
        diag = self.service.diagnose(target, source=self.source, progress=SlackProgress(self._progress),
                                     gathered=where.gathered)
        return render_answer(diag, lang=lang, redactor=self.redactor, links=self.service.settings.doc_urls)

    def diagnose(self, target: Target) -> Diagnosis:
        return self.service.diagnose(target, source=self.source)

    def handle(self, task: tuple[Any, ...]) -> None:
        try:
            result: Answer | Diagnosis | Location | Ticked | CommandResult | str
            if task[0] == "command":
                result = run_command(task[1], service=self.service, source=self.source)
            elif task[0] == "investigate":
                result = self.investigate(task[1], task[2])
            elif task[0] == "tick":
                result = self.service.tick(source=self.source, now=task[1])
            elif task[0] == "glance":
                result = self.source.glance(task[1])
            elif task[0] == "locate":
                result = dataclasses.replace(self.source.locate(task[1]), gathered=None)
            else:
                result = self.diagnose(task[1])
            self.send(("done", result))
        except _Stopped:
            self.send(("stopped",))
        except UserError as exc:
            self.send(("user_error", type(exc).__name__, str(exc)))
        except Exception as exc:  # a defect: logged here (redacted), the asker hears one line
            logging.getLogger("rlark_bot.worker").exception("diagnosis failed in the worker")
            self.send(("error", type(exc).__name__))


def rss_mib(pid: int | None) -> float:
    """`VmRSS` of a process in MiB (0 when it is gone or not on Linux)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


def result_of(event: tuple[Any, ...]) -> Answer | Diagnosis | Location | Ticked | CommandResult | str | None:
    """The parent's reading of a task's last message: the result, None for "stopped", or the error raised."""
    kind = event[0]
    if kind == "done":
        value = event[1]
        assert isinstance(value, (Answer, Diagnosis, Location, Ticked, CommandResult, str))
        return value
    if kind == "stopped":
        return None
    if kind == "user_error":
        raise ERRORS.get(str(event[1]), UserError)(str(event[2]))
    raise RuntimeError(f"the diagnosis failed in the worker: {event[1] if len(event) > 1 else kind}")


def _give_back_memory() -> None:
    """The evidence of a large job is garbage now: collect it and hand the freed heap back to the system."""
    gc.collect()
    libc = ctypes.util.find_library("c")
    if libc:
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(libc).malloc_trim(0)


def worker_main(conn: Connection, spec: WorkerSpec) -> None:
    """The worker process's entry point (a `multiprocessing` target)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(spec.nice)
    try:
        worker = _Worker(conn, spec)
    except Exception as exc:  # a runbook or source that cannot be built: one line for the parent's log
        with contextlib.suppress(OSError):
            conn.send(("failed", f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"))
        return
    _give_back_memory()  # what building the runtime used and dropped (the prefilter's compilation)
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    conn.send(("ready", os.getpid()))
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if not isinstance(task, tuple) or task[0] not in ("investigate", "diagnose", "locate", "glance", "tick",
                                                                    "command"):
            return
        try:
            worker.handle(task)
        except (OSError, EOFError):
            return
        _give_back_memory()
