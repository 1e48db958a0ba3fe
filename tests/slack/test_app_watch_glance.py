"""Watch ticks read live clusters (the Kubernetes API stand-in) cheaply: a glance at the Job each tick, a full look
only on the Job's turn once in `RLARK_BOT_WATCH__FULL_LOOK_TICKS` or when the glance saw something move. A stage
that only the logs show is said at the Job's turn; a phase change is said on the very next tick."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cluster.standin import ClusterData, StandIn
from cluster.world import build_world

from bot.cluster import resources as R
from bot.conversations.watching import WatchTicker, look_turn
from bot.models import Target
from bot.models.times import from_seconds
from bot.redact import Redactor
from bot.runbook import Runbook
from bot.service import Service
from bot.settings import Settings
from bot.sources import LiveSource
from bot.store.memory import MemoryStore
from bot.workers.local import LocalEngine

from .apphost import CHANNEL, AppHost, bundle_of
from .model import Message, unkeyed
from .standin import SlackStandIn

JOB = "ppo-live"
EVERY = 3
HEAD_LOG = ("rlark-system", f"{JOB}-head-0", "main", False)


@pytest.fixture
def world() -> dict[str, ClusterData]:
    clusters = build_world(job=JOB, workers={"gpu-a": 2})
    head = clusters["gpu-a"].logs[HEAD_LOG]
    clusters["gpu-a"].logs[HEAD_LOG] = head[:head.index("Ray cluster is ready")]  # still forming the Ray cluster
    return clusters


@pytest.fixture
def api(world: dict[str, ClusterData]) -> Iterator[StandIn]:
    with StandIn(world) as standin:
        yield standin


@pytest.fixture
def host(slack: SlackStandIn, runbook: Runbook, api: StandIn, tmp_path: Path) -> Iterator[AppHost]:
    kubeconfig = api.write_kubeconfig(tmp_path / "kubeconfig", {"kcp": "kcp", "gpu-a": "gpu-a"}, current="kcp")

    def live(settings: Settings, bundle: Path) -> LocalEngine:
        redactor = Redactor(settings.redaction_with_own_secrets())
        return LocalEngine(service=Service(settings=settings, redactor=redactor, runbook=runbook),
                           source=LiveSource(kubeconfig=str(kubeconfig), context=None, settings=settings),
                           redactor=redactor)

    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                 engine=live, settings={"control_plane_context": "kcp",
                                        "watch": {"full_look_ticks": EVERY}}) as h:
        yield h


def _stages(slack: SlackStandIn, root: Message) -> list[tuple[str, str]]:
    out = []
    for m in slack.thread(CHANNEL, root.ts):
        if m.metadata and m.event_type == "rlark_watch":
            payload = unkeyed(m.metadata)["event_payload"]
            out.append((str(payload["stage"]), str(payload["state"])))
    return out


def test_nothing_moved_means_glances_and_one_full_look_per_turn(host: AppHost, slack: SlackStandIn, api: StandIn,
                                                                world: dict[str, ClusterData]) -> None:
    host.command(f"watch job/{JOB}")
    host.idle(submitted=1)
    [root] = slack.wait_for(lambda: slack.messages(CHANNEL))
    assert "ray-cluster-forming" in root.text
    ticker, interval = WatchTicker(host.deps), host.settings.watch_interval_seconds
    turn = look_turn(Target.parse(f"job/{JOB}"), EVERY)
    slot0 = int(time.time() // interval) + 1
    while slot0 % EVERY == turn:  # start on a tick that is not the Job's turn
        slot0 += 1
    at = [from_seconds((slot0 + i) * interval + 1.0) for i in range(3 * EVERY)]

    api.reset_log()
    reports = [ticker.run(at[i]) for i in range(EVERY)]
    assert [r.glances for r in reports] == [1] * EVERY
    assert sum(r.looks for r in reports) == 1, "one full look in EVERY ticks: on the Job's turn"
    assert all(r.method == "GET" for r in api.requests)
    assert _stages(slack, root) == [], "nothing moved: nothing said"

    head = world["gpu-a"].logs[HEAD_LOG]
    world["gpu-a"].logs[HEAD_LOG] = head + "Ray cluster is ready. Printing cluster information:\n" \
                                           "Executing run script...\n"
    said_at = None
    for i in range(EVERY, 2 * EVERY):
        report = ticker.run(at[i])
        if report.replies:
            said_at = i
            assert report.looks == 1
        else:
            assert report.looks == 0, "the logs moved, the objects did not: no full look before the turn"
    assert said_at is not None and (slot0 + said_at) % EVERY == turn, "the stage is said at the Job's turn"
    assert _stages(slack, root) == [("run-script", "watching")]

    job = next(o for o in world["kcp"].objects[R.JOBS] if o["metadata"]["name"] == JOB)
    job["status"]["phase"] = "Succeeded"
    nxt = next(i for i in range(2 * EVERY, 3 * EVERY) if (slot0 + i) % EVERY != turn)
    report = ticker.run(at[nxt])
    assert report.looks == 1 and report.replies == 1, "the Job's phase moved: a full look out of turn"
    assert _stages(slack, root)[-1] == ("run-script", "ended")
