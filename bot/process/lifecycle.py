"""The long-running bot: start (readiness checks, server, Socket Mode, scheduler), and a graceful stop.

SIGTERM or SIGINT: `/readyz` turns 503 and new commands are told to try again, the scheduler stops, in-flight
diagnoses get `grace` seconds to finish and answer, locks are released, the process exits 0.
"""

from __future__ import annotations

import gc
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from types import FrameType

from bot.conversations.deps import Deps
from bot.conversations.ports import SlackDown
from bot.errors import SourceError
from bot.slack.http import HttpServer
from bot.slack.socket import SocketMode, SocketRefused
from bot.store.base import StoreUnavailable


@dataclass
class BotProcess:
    deps: Deps
    server: HttpServer
    socket: SocketMode | None = None
    grace_seconds: float = 25.0
    on_stop: list[Callable[[], None]] = field(default_factory=list)
    finished: bool = True  # every diagnosis thread ended by the end of the stop
    refused: SocketRefused | None = None  # Slack refused the app token: the process ends with this
    _stopping: threading.Event = field(default_factory=threading.Event)
    _stopped: threading.Event = field(default_factory=threading.Event)

    def check_ready(self) -> None:
        """One pass over what `/readyz` depends on; each part marked usable or with its reason."""
        deps = self.deps
        try:
            auth = deps.sink.auth_test()
            deps.identity.update({k: str(auth[k]) for k in ("team_id", "user_id", "bot_id") if auth.get(k)})
            deps.readiness.mark("slack", None if auth.get("ok", True) else "Slack auth failed")
        except SlackDown as exc:
            deps.readiness.mark("slack", f"Slack auth: {exc}")
        try:
            deps.store.ping()
            deps.readiness.mark("store", None)
        except StoreUnavailable as exc:
            deps.readiness.mark("store", f"store: {exc}")
        deps.readiness.mark("source", source_problem(deps))
        deps.readiness.mark("workers", deps.engine.problem())

    def watch_readiness(self, *, every: float = 5.0) -> None:
        def loop() -> None:
            while not self._stopping.is_set():
                self.check_ready()
                self._stopping.wait(every if not self.deps.readiness.ready else every * 6)

        threading.Thread(target=loop, name="readiness", daemon=True).start()

    def install_signals(self) -> None:
        def handler(signum: int, frame: FrameType | None) -> None:
            threading.Thread(target=self.stop, name="drain", daemon=True).start()

        signal.signal(signal.SIGTERM, handler)
        signal.signal(signal.SIGINT, handler)

    def run(self) -> int:
        settle_memory()
        self.watch_readiness(every=self.deps.settings.readiness_interval_seconds)
        if self.socket is not None:
            self.deps.readiness.mark("socket", "Socket Mode not connected yet")
            threading.Thread(target=self._connect_socket, args=(self.socket,), name="socket-connect",
                             daemon=True).start()
        self.deps.log.info("serving", extra={"port": self.server.port,
                                             "mode": "socket" if self.socket is not None else "http"})
        self.server.serve_forever()
        self._stopped.wait(self.grace_seconds + WORKER_STOP_SECONDS + 5)
        if self.refused is not None:
            raise SourceError(str(self.refused))
        if not self.finished:
            # A diagnosis thread is stuck past its stop (in a call to Slack, say): the interpreter would wait
            # for it at exit, past the kubelet's kill. Everything else is closed; end now.
            self.deps.log.warning("exiting with a diagnosis thread still busy")
            logging.shutdown()
            os._exit(0)
        return 0

    def _connect_socket(self, socket: SocketMode) -> None:
        """Open Socket Mode in the background, retrying while Slack is unreachable (the probes are served
        meanwhile, `/readyz` failing); a refused app token stops the process with that one line."""
        try:
            socket.connect_until(stopping=self._stopping,
                                 on_state=lambda problem: self.deps.readiness.mark("socket", problem))
        except SocketRefused as exc:
            self.refused = exc
            self.stop()

    def stop(self) -> None:
        if self._stopping.is_set():
            return
        self._stopping.set()
        deps = self.deps
        deps.readiness.draining = True
        deps.log.info("draining", extra={"grace_seconds": self.grace_seconds})
        # The scheduler stops alongside the drain: a tick in flight waits for a worker like a diagnosis does.
        stoppers = [threading.Thread(target=_quietly, args=(fn,), name="stop", daemon=True) for fn in self.on_stop]
        for thread in stoppers:
            thread.start()
        drained = drain(deps.pool, self.grace_seconds)
        # After the grace: idle workers exit, busy ones are killed, and the diagnoses they held tell their
        # askers they stopped, within WORKER_STOP_SECONDS (`stop_seconds` fits terminationGracePeriodSeconds).
        _quietly(deps.engine.close)
        until = time.monotonic() + WORKER_STOP_SECONDS
        self.finished = drained or drain(deps.pool, WORKER_STOP_SECONDS)
        for thread in stoppers:
            thread.join(max(0.0, until - time.monotonic()))
        deps.log.info("stopped", extra={"drained": drained, "finished": self.finished})
        if self.socket is not None:
            _quietly(self.socket.close)
        _quietly(deps.store.close)
        self.server.close()
        self._stopped.set()


WORKER_STOP_SECONDS = 3.0  # after the grace: busy workers are ended and their askers told, within this
CLOSE_SECONDS = 2.0  # Socket Mode, the store and the server closed, the last log lines written


def stop_seconds(grace: float) -> float:
    """The longest a stop takes from SIGTERM to exit: the deployment's terminationGracePeriodSeconds covers it."""
    return grace + WORKER_STOP_SECONDS + CLOSE_SECONDS


SWITCH_INTERVAL_SECONDS = 0.001
GC_THRESHOLDS = (50_000, 20, 1000)


def settle_memory() -> None:
    """Before serving: what start-up built (runbook, compiled patterns, modules) is frozen out of the collector,
    and young collections are made rarer. A diagnosis allocates millions of short-lived objects; with the default
    thresholds the full collections it triggered walked the whole heap for 100-200 ms at a time, stalling the
    acknowledgements of other commands (the Slack benchmark's ack p99)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    # Diagnoses are CPU-bound Python on worker threads; a shorter interpreter switch interval lets the thread
    # answering Slack's request take the lock sooner (default 5 ms) at a negligible cost in throughput.
    sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)


def drain(pool: ThreadPoolExecutor, grace: float) -> bool:
    """Take no new work; wait up to `grace` seconds for the work already taken."""
    done = threading.Event()

    def wait() -> None:
        pool.shutdown(wait=True, cancel_futures=False)
        done.set()

    threading.Thread(target=wait, daemon=True).start()
    return done.wait(grace)


def source_problem(deps: Deps) -> str | None:
    problem = deps.source.check()
    return None if problem is None else f"evidence source: {problem}"


def _quietly(fn: Callable[[], None]) -> None:
    try:
        fn()
    except Exception:  # stopping must go on whatever one part says
        time.sleep(0)
