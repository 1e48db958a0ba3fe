"""Scheduled checks run where diagnoses run: a tick in a worker process gives what the service gives in-process."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from slack.apphost import bundle_of

from bot.redact import Redactor
from bot.scheduler.wiring import collect_tick, ticked_by
from bot.service import Service
from bot.settings import Settings
from bot.sources import open_source
from bot.workers.child import WorkerSpec
from bot.workers.local import LocalEngine
from bot.workers.pool import WorkerEngine, wait_started

NOW = datetime(2026, 12, 1, tzinfo=UTC)

# One xdist worker runs the tests that start diagnosis worker processes (`--dist loadgroup`): their forkserver, and
# the bot modules it preloads, start once in a run rather than once in every test worker.
pytestmark = pytest.mark.xdist_group("worker-processes")


def test_a_tick_in_a_worker_equals_the_tick_in_process() -> None:
    bundle = bundle_of("ci-runner-image-pull")
    settings = Settings()
    source = open_source(snapshot=str(bundle), kubeconfig=None, context=None, settings=settings)
    local = LocalEngine(service=Service(settings=settings, redactor=Redactor()), source=source, redactor=Redactor())
    in_process = local.tick(NOW)
    assert [a.check for a in in_process.alerts] == ["long-pending"] and in_process.unreadable == ()
    # the scheduler's own collect over the same source agrees with the service's tick
    alerts, unreadable = collect_tick(source, settings.thresholds)(NOW)
    assert (tuple(alerts), tuple(unreadable)) == (in_process.alerts, in_process.unreadable)

    # At the test's own priority (serve's niced workers are checked in tests/ops): niced, the worker would wait for
    # the CPU behind the other test workers.
    engine = WorkerEngine(WorkerSpec(settings=settings, snapshot=str(bundle), nice=0), workers=1)
    try:
        assert wait_started(engine, count=1, timeout=60.0), engine.problem()
        worker_pids = engine.pids()
        assert ticked_by(engine.tick)(NOW) == (list(in_process.alerts), list(in_process.unreadable))
        assert engine.pids() == worker_pids  # the worker stays for the next task
    finally:
        engine.close()
