"""The engine in worker processes: a small pool of `bot.workers.child` processes, each owned by one diagnosis at
a time, so collection, diagnosis, rendering and redaction never hold the interpreter that answers Slack.

The calling thread (a thread of the bounded diagnosis pool) checks a worker out, talks to it over its pipe
(location -> the flow's gate -> progress -> answer) and checks it back in. A worker that dies mid-task fails
that one task (`WorkerLost`) and is replaced; a worker is also replaced, between tasks, after `max_tasks`
tasks or once its resident memory grew past its start-up size by more than `max_growth_mib` (what the
evidence of a thousand-pod job leaves behind), so memory returns to where it started. Processes come from
a forkserver that has the engine imported already.

`concurrent.futures.ProcessPoolExecutor` is not used: on Python 3.11 its `max_tasks_per_child` deadlocks once
tasks queue up (CPython gh-115634), one killed worker breaks the whole executor, and its tasks cannot talk to
the caller mid-way (the gate between locating and collecting).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from bot.diagnose import Diagnosis
from bot.models import Target
from bot.service import Ticked
from bot.sources import Location
from bot.workers.api import Answer, Gate, OnProgress, WorkerLost
from bot.workers.child import WorkerSpec, result_of, rss_mib, worker_main
from bot.workers.command_tasks import CommandResult, CommandTask

OnKube = Callable[[str, str, str], None]


@dataclass(eq=False)
class _Proc:
    process: BaseProcess
    conn: Connection
    tasks: int = 0
    base_rss: float = 0.0  # its size once started: the runtime, before any evidence


class WorkerEngine:
    def __init__(self, spec: WorkerSpec, *, workers: int = 4, max_tasks: int = 200, max_rss_mib: float = 400.0,
                 max_growth_mib: float = 32.0, start_timeout: float = 60.0, wait_timeout: float = 600.0,
                 on_kube: OnKube | None = None, log: logging.Logger | None = None) -> None:
        """A worker is replaced between tasks after `max_tasks`, past `max_rss_mib`, or once it grew more than
        `max_growth_mib` past its size at start (what a thousand-pod job leaves behind, freed or not)."""
        self._spec, self._size = spec, workers
        self._max_tasks, self._max_rss, self._max_growth = max_tasks, max_rss_mib, max_growth_mib
        self._start_timeout, self._wait_timeout = start_timeout, wait_timeout
        self._on_kube = on_kube
        self._log = log or logging.getLogger("rlark_bot.workers")
        self._ctx = multiprocessing.get_context("forkserver")
        self._ctx.set_forkserver_preload(["bot.workers.child"])
        self._idle: queue.Queue[_Proc] = queue.Queue()
        self._lock = threading.Lock()
        self._live: set[_Proc] = set()
        self._closed = threading.Event()
        self._failure: str | None = None
        self._wanted, self._starting = 0, False
        self.on_change: Callable[[str | None], None] | None = None  # readiness hears problem() when it changes
        for _ in range(workers):
            self._start_soon()

    # ---- the Engine protocol

    def investigate(self, target: Target, *, lang: str, gate: Gate, on_progress: OnProgress) -> Answer | None:
        result = self._run(("investigate", target, lang), gate=gate, on_progress=on_progress)
        assert result is None or isinstance(result, Answer)
        return result

    def command(self, task: CommandTask) -> CommandResult:
        result = self._run(("command", task), gate=_never, on_progress=_ignore)
        assert isinstance(result, CommandResult)
        return result

    def locate(self, target: Target) -> Location:
        result = self._run(("locate", target), gate=_never, on_progress=_ignore)
        assert isinstance(result, Location)
        return result

    def diagnose(self, target: Target) -> Diagnosis:
        result = self._run(("diagnose", target), gate=_never, on_progress=_ignore)
        assert isinstance(result, Diagnosis)
        return result

    def glance(self, target: Target) -> str:
        result = self._run(("glance", target), gate=_never, on_progress=_ignore)
        assert isinstance(result, str)
        return result

    def tick(self, now: datetime) -> Ticked:
        result = self._run(("tick", now), gate=_never, on_progress=_ignore)
        assert isinstance(result, Ticked)
        return result

    def close(self) -> None:
        """No more tasks; idle workers exit now, busy ones are killed at once (call after the drain: they had
        their grace). A busy worker's pipe is left to the thread reading it, which hears the end (EOF) and tells
        its asker; closing it under that thread made it read a closed descriptor (EBADF)."""
        self._closed.set()
        idle: set[_Proc] = set()
        with contextlib.suppress(queue.Empty):
            while True:
                idle.add(self._idle.get_nowait())
        with self._lock:
            procs = list(self._live)
            self._live.clear()
        for proc in procs:
            if proc in idle:  # an idle worker exits in milliseconds; one that does not is killed within 1 s
                self._retire(proc, gently=True, patience=1.0)
            else:
                self._retire(proc, gently=False, close=False)

    def problem(self) -> str | None:
        """None once a worker is up; else why none is (for `/readyz`)."""
        with self._lock:
            if self._live:
                return None
        return f"diagnosis workers: {self._failure or 'starting'}"

    def _changed(self) -> None:
        if self.on_change is not None:
            with contextlib.suppress(Exception):
                self.on_change(self.problem())

    # ---- what the bench and the metrics read

    def pids(self) -> list[int]:
        with self._lock:
            return [p.process.pid for p in self._live if p.process.pid is not None]

    # ---- one task

    def _run(self, task: tuple[Any, ...], *, gate: Gate,
             on_progress: OnProgress) -> Answer | Diagnosis | Location | Ticked | CommandResult | str | None:
        proc = self._checkout()
        finished = False
        try:
            _send(proc, task)
            while True:
                event = _recv(proc)
                kind = event[0]
                if kind == "located":
                    try:
                        go = gate(event[1])
                    except Exception:  # Slack down for the root post, say: the worker stops and stays
                        _send(proc, "stop")
                        finished = _recv(proc)[0] == "stopped"
                        raise
                    _send(proc, "go" if go else "stop")
                elif kind == "progress":
                    with contextlib.suppress(Exception):  # an edit is cosmetic
                        on_progress(event[1])
                elif kind == "kube" and self._on_kube is not None:
                    with contextlib.suppress(Exception):  # a metric
                        self._on_kube(event[1], event[2], event[3])
                elif kind != "kube":
                    finished = True
                    return result_of(event)
        finally:
            self._checkin(proc, finished=finished)

    def _checkout(self) -> _Proc:
        if self._closed.is_set():
            raise WorkerLost("shutting down: no diagnosis worker")
        try:
            return self._idle.get(timeout=self._wait_timeout)
        except queue.Empty:
            raise WorkerLost(f"no diagnosis worker free within {self._wait_timeout:.0f} s") from None

    def _checkin(self, proc: _Proc, *, finished: bool) -> None:
        proc.tasks += 1
        if self._closed.is_set():
            self._forget(proc)
            self._retire(proc, gently=finished)
            return
        if not finished or not proc.process.is_alive():
            self._forget(proc)
            self._retire(proc, gently=False)  # it may be mid-task: never hand it to another ask
            self._start_soon()
            return
        rss = rss_mib(proc.process.pid)
        if proc.tasks >= self._max_tasks or rss > self._max_rss or rss - proc.base_rss > self._max_growth:
            self._log.info("diagnosis worker recycled", extra={"tasks": proc.tasks, "rss_mib": round(rss)})
            self._forget(proc)
            self._retire(proc, gently=True)
            self._start_soon()
            return
        self._idle.put(proc)

    # ---- starting and ending processes

    def _start_soon(self) -> None:
        """One more worker wanted. Workers start one after another: each builds its runtime (the runbook, the
        redactor: its own-secret patterns are compiled afresh, never cached), CPU that would otherwise all land
        at once."""
        with self._lock:
            self._wanted += 1
            if self._starting:
                return
            self._starting = True
        threading.Thread(target=self._starter, name="worker-start", daemon=True).start()

    def _starter(self) -> None:
        while True:
            with self._lock:
                if self._wanted == 0 or self._closed.is_set():
                    self._starting = False
                    return
            self._start_until_up()
            with self._lock:
                self._wanted -= 1

    def _start_until_up(self) -> None:
        delay = 1.0
        while not self._closed.is_set():
            try:
                proc = self._spawn()
            except Exception as exc:  # WorkerLost, or a defect: logged, tried again later
                self._log.warning("diagnosis worker did not start", extra={"reason": str(exc)})
                self._failure = f"not starting ({exc})"
                self._changed()
                self._closed.wait(delay)
                delay = min(delay * 2, 30.0)
                continue
            with self._lock:
                if not self._closed.is_set():
                    self._live.add(proc)
                    self._idle.put(proc)
                    self._failure = None
            self._log.info("diagnosis worker started", extra={"pid": proc.process.pid})
            if not self._closed.is_set():
                self._changed()
                return
            self._retire(proc, gently=True)
            return

    def _spawn(self) -> _Proc:
        ours, theirs = self._ctx.Pipe(duplex=True)
        process = self._ctx.Process(target=worker_main, args=(theirs, self._spec), name="rlark-bot-diagnose",
                                    daemon=True)
        try:
            process.start()
        except OSError as exc:
            raise WorkerLost(f"cannot start a process: {exc.strerror or exc}") from exc
        finally:
            theirs.close()
        proc = _Proc(process, ours)
        try:
            hello = ours.recv() if ours.poll(self._start_timeout) else ("failed", "no answer in time")
        except (EOFError, OSError):
            hello = ("failed", f"exited with {process.exitcode}")
        if hello[0] != "ready":
            self._retire(proc, gently=False)
            raise WorkerLost(str(hello[1]))
        proc.base_rss = rss_mib(process.pid)
        return proc

    def _forget(self, proc: _Proc) -> None:
        with self._lock:
            self._live.discard(proc)

    def _retire(self, proc: _Proc, *, gently: bool, close: bool = True, patience: float = 5.0) -> None:
        """End the worker in the background; `close`: its pipe too (False while another thread reads it)."""
        def end() -> None:
            if gently:
                with contextlib.suppress(OSError, ValueError):
                    proc.conn.send(("exit",))
                proc.process.join(patience)
            if proc.process.is_alive():
                proc.process.kill()
                proc.process.join(5.0)
            if close:
                proc.conn.close()

        threading.Thread(target=end, name="worker-end", daemon=True).start()


def _send(proc: _Proc, message: object) -> None:
    try:
        proc.conn.send(message)
    except (EOFError, OSError) as exc:
        raise WorkerLost(f"the diagnosis worker ended mid-way (exit code {proc.process.exitcode})") from exc


def _recv(proc: _Proc) -> tuple[Any, ...]:
    try:
        event = proc.conn.recv()
    except (EOFError, OSError) as exc:
        proc.process.join(1.0)
        raise WorkerLost(f"the diagnosis worker ended mid-way (exit code {proc.process.exitcode})") from exc
    assert isinstance(event, tuple)
    return event


def _never(where: Location) -> bool:
    return False


def _ignore(state: dict[str, int | str]) -> None:
    return None


def wait_started(engine: WorkerEngine, *, count: int, timeout: float) -> bool:
    """True once `count` workers are up (tests and the bench use it; serving does not wait)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if len(engine.pids()) >= count:
            return True
        time.sleep(0.05)
    return False
