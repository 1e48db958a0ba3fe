"""Diagnoses in worker processes (`bot.workers.pool`): answered like in-process ones, a killed worker is one line
in the thread and is replaced, a worker past its memory cap is replaced between tasks, refusals collect nothing."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.models import Target
from bot.render.slack_labels import label
from bot.runbook import Runbook
from bot.settings import ChannelBinding, Settings
from bot.sources import Location
from bot.store.memory import MemoryStore
from bot.workers.child import WorkerSpec
from bot.workers.pool import WorkerEngine, wait_started

from .apphost import CHANNEL, EVERYWHERE, AppHost, bundle_of
from .standin import SlackStandIn

JOB = "ppo-franka-0412"
EXAMPLE = "ray-workers-never-join"
BOUND = {CHANNEL: EVERYWHERE, "C0AGAIN": EVERYWHERE}
START = 60.0  # a worker compiles the redaction prefilter with the bot's own secrets: seconds on a busy machine
# The workers here run at the test's own priority: niced (serve's default, checked in tests/ops), a worker next to
# the other test workers waits whole seconds for the CPU at every step.
NICE = 0

# One xdist worker runs the tests that start diagnosis worker processes (`--dist loadgroup`): their forkserver, and
# the bot modules it preloads, start once in a run rather than once in every test worker.
pytestmark = pytest.mark.xdist_group("worker-processes")


def one_worker(**options: float) -> Callable[[Settings, Path], WorkerEngine]:
    def make(settings: Settings, bundle: Path) -> WorkerEngine:
        engine = WorkerEngine(WorkerSpec(settings=settings, snapshot=str(bundle), nice=NICE), workers=1, **options)
        assert wait_started(engine, count=1, timeout=START), engine.problem()
        return engine

    return make


@pytest.fixture
def host(slack: SlackStandIn, runbook: Runbook) -> Iterator[AppHost]:
    channels = {**BOUND, "C0OTHERLAB": ChannelBinding(domains=["other-lab"], clusters="*", namespaces="*")}
    with AppHost(slack=slack, bundle=bundle_of(EXAMPLE), store=MemoryStore(), runbook=runbook, channels=channels,
                 engine=one_worker(), workers=2) as running:
        yield running


def engine_of(host: AppHost) -> WorkerEngine:
    engine = host.deps.engine
    assert isinstance(engine, WorkerEngine)
    return engine


def test_a_diagnosis_in_a_worker_answers_in_the_thread_as_in_process(host: AppHost, slack: SlackStandIn) -> None:
    assert host.command(f"diagnose {JOB}").status == 200
    [root] = host.wait_answered(timeout=30)
    reply = host.reply_of(root)
    assert reply.metadata is not None and reply.metadata["event_payload"]["case"] == "rlark.ray.head-unreachable"
    assert engine_of(host).pids() != [os.getpid()]
    host.idle(submitted=1)
    diag = host.deps.recent.get(CHANNEL, root.ts)
    assert diag is not None and diag.findings[0].case.id == "rlark.ray.head-unreachable", "kept for the buttons"


def test_a_refused_ask_never_gets_past_the_location(host: AppHost, slack: SlackStandIn) -> None:
    seen: list[Location] = []
    engine = engine_of(host)
    result = engine.investigate(Target.parse(JOB, ""), lang="en", gate=lambda where: bool(seen.append(where)),
                                on_progress=lambda state: None)
    assert result is None and len(seen) == 1 and seen[0].gathered is None
    assert "control-plane" in seen[0].clusters
    assert host.command(f"diagnose {JOB}", channel="C0OTHERLAB").status == 200
    host.idle(submitted=1)
    assert [p["text"] for p in slack.responses()] and "cannot diagnose" in slack.responses()[0]["text"]
    assert not slack.messages("C0OTHERLAB")


def test_a_killed_worker_is_one_line_in_the_thread_and_is_replaced(host: AppHost, slack: SlackStandIn) -> None:
    engine = engine_of(host)
    [pid] = engine.pids()
    # The root is held until the worker, waiting to go on, has been killed (SIGKILL: it runs no further).
    root_post = slack.delay("chat.postMessage", 30.0, times=1)
    assert host.command(f"diagnose {JOB}").status == 200
    slack.wait_for(lambda: slack.calls("chat.postMessage"), timeout=10)
    os.kill(pid, signal.SIGKILL)
    slack.release(root_post)
    host.idle(submitted=1, timeout=30)
    [root] = slack.messages(CHANNEL)
    assert label("reply.lost", "en") in root.text and "\n" not in root.text.strip()
    assert not [m for m in slack.thread(CHANNEL, root.ts) if m.event_type == "rlark_diagnosis"]
    assert wait_started(engine, count=1, timeout=START) and engine.pids() != [pid], "a new worker took its place"
    assert host.command(f"diagnose {JOB}", channel="C0AGAIN").status == 200
    host.wait_answered("C0AGAIN", timeout=30)


def test_a_worker_past_its_memory_cap_is_replaced_between_tasks(slack: SlackStandIn, runbook: Runbook) -> None:
    with AppHost(slack=slack, bundle=bundle_of(EXAMPLE), store=MemoryStore(), runbook=runbook, channels=BOUND,
                 engine=one_worker(max_rss_mib=1.0)) as host:
        engine = engine_of(host)
        [first] = engine.pids()
        assert host.command(f"diagnose {JOB}").status == 200
        host.wait_answered(timeout=30)
        host.idle(submitted=1)
        assert wait_started(engine, count=1, timeout=START)
        [second] = engine.pids()
        assert second != first
        assert host.command(f"diagnose {JOB}", channel="C0AGAIN").status == 200
        host.wait_answered("C0AGAIN", timeout=30)


def test_a_gate_that_fails_stops_the_task_and_keeps_the_worker(host: AppHost) -> None:
    """Slack down for the root post: the ask fails, the worker is told to stop and serves the next ask."""
    engine = engine_of(host)
    [pid] = engine.pids()

    def down(where: Location) -> bool:
        raise ConnectionError("Slack unreachable")

    with pytest.raises(ConnectionError):
        engine.investigate(Target.parse(JOB, ""), lang="en", gate=down, on_progress=lambda state: None)
    assert engine.pids() == [pid]
    diag = engine.diagnose(Target.parse(JOB, ""))
    assert diag.findings[0].case.id == "rlark.ray.head-unreachable" and engine.pids() == [pid]
