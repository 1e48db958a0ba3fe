"""Slack and the store failing under the app: rate limits and 5xx on the root post, Slack gone mid-diagnosis,
Slack's own retries of a request, ten diagnoses at once on a real Redis, and Redis dying while the bot runs."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from redis_server import redis_process
from slack_sdk.http_retry.handler import RetryHandler
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState

from bench.slack.bundle64 import build as build_wide
from bot.models import Target
from bot.runbook import Runbook
from bot.settings import ChannelBinding
from bot.store.factory import open_store
from bot.store.memory import MemoryStore

from .apphost import CHANNEL, EVERYWHERE, AppHost, Reply, bundle_of
from .standin import SlackStandIn

EXAMPLE = "ray-workers-never-join"
JOB = "ppo-franka-0412"
MANY = 10
ACK_BOUND = 2.0  # seconds, with ten requests in flight on a shared machine; Slack allows 3


@pytest.fixture
def host(slack: SlackStandIn, runbook: Runbook) -> Iterator[AppHost]:
    with AppHost(slack=slack, bundle=bundle_of(EXAMPLE), store=MemoryStore(), runbook=runbook) as running:
        yield running


def diagnosis_replies(slack: SlackStandIn, channel: str = CHANNEL) -> list[Any]:
    return [m for root in slack.messages(channel) for m in slack.thread(channel, root.ts)
            if m.event_type == "rlark_diagnosis"]


def test_rate_limit_then_server_error_then_success_is_one_thread(host: AppHost, slack: SlackStandIn) -> None:
    slack.fail("chat.postMessage", status=429, retry_after=1)
    slack.fail("chat.postMessage", status=500)
    assert host.command(f"diagnose {JOB}").status == 200
    host.wait_answered(timeout=30)
    host.idle(submitted=1)
    statuses = [c.status for c in slack.calls("chat.postMessage")]
    assert statuses == [429, 500, 200, 200], "the root is retried after Retry-After and the 500, then the reply"
    posts = slack.calls("chat.postMessage")
    assert posts[1].at - posts[0].at >= 0.9, "Slack's Retry-After was honoured"
    assert len(slack.messages(CHANNEL)) == 1 and len(diagnosis_replies(slack)) == 1
    assert not slack.responses(), "nobody was told of an error"


class SeesConnectionErrors(RetryHandler):
    """Retries nothing itself; notes that a call failed to connect (so the test knows Slack was really missed)."""

    def __init__(self) -> None:
        super().__init__(max_retry_count=1000)
        self.seen = threading.Event()

    def _can_retry(self, *, state: RetryState, request: HttpRequest, response: HttpResponse | None = None,
                   error: Exception | None = None) -> bool:
        if error is not None:
            self.seen.set()
        return False


def test_slack_down_during_a_diagnosis_then_up_answers_once(host: AppHost, slack: SlackStandIn,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    gate = threading.Event()
    service = host.deps.service
    original = service.diagnose

    def held(*args: Any, **kwargs: Any) -> Any:
        gate.wait(20)
        return original(*args, **kwargs)

    monkeypatch.setattr(service, "diagnose", held)
    observer = SeesConnectionErrors()
    host.deps.sink.client.retry_handlers.insert(0, observer)
    host.deps.sink.poster.client.retry_handlers.insert(0, observer)  # posts go through the one-shot client
    assert host.command(f"diagnose {JOB}").status == 200
    [root] = slack.wait_for(lambda: slack.messages(CHANNEL), timeout=10)
    slack.down()
    gate.set()  # the diagnosis ends while Slack is unreachable
    assert observer.seen.wait(20), "the bot never tried Slack while it was down"
    slack.up()
    [answered] = host.wait_answered(timeout=30)
    host.idle(submitted=1)
    assert answered.ts == root.ts
    assert len(slack.messages(CHANNEL)) == 1 and len(diagnosis_replies(slack)) == 1
    with urllib.request.urlopen(host.url.replace("/slack/events", "/healthz"), timeout=5) as probe:
        assert probe.status == 200, "the process is still serving"
    assert host.command("diagnose job/ppo-franka-0412 --lang zh", channel="C0AFTER").status == 200


def test_a_defect_mid_diagnosis_marks_the_root_failed_and_apologises(host: AppHost, slack: SlackStandIn,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a defect")

    monkeypatch.setattr(host.deps.service, "diagnose", broken)
    assert host.command(f"diagnose {JOB}").status == 200
    host.idle(submitted=1)
    [root] = slack.messages(CHANNEL)
    assert "diagnosis failed" in root.text and "\n" not in root.text.strip()
    told = slack.responses(host.last_response_url)
    assert len(told) == 1 and "went wrong" in str(told[0]["text"])


def test_a_request_slack_retries_is_200_and_makes_no_second_thread(host: AppHost, slack: SlackStandIn) -> None:
    body = host.command_body(f"diagnose {JOB}")
    first = host.send(body)
    retries = [host.send(body, headers={"X-Slack-Retry-Num": str(n), "X-Slack-Retry-Reason": "http_timeout"})
               for n in (1, 2)]
    late = host.send(host.command_body(f"diagnose {JOB}"), headers={"X-Slack-Retry-Num": "1"})
    assert [r.status for r in (first, *retries, late)] == [200] * 4
    assert all(r.body == b"" for r in (*retries, late))
    host.wait_answered()
    host.idle(submitted=1)
    assert host.pool.submitted == 1, "retries never reach the handlers"
    assert len(slack.messages(CHANNEL)) == 1 and len(diagnosis_replies(slack)) == 1
    assert not slack.responses()


def test_ten_diagnoses_at_once_are_acked_in_time_and_all_answered(slack: SlackStandIn, runbook: Runbook,
                                                                  redis_url: str, store_prefix: str,
                                                                  tmp_path: Path) -> None:
    channels = {f"C0MANY{i:02d}": EVERYWHERE for i in range(MANY)}
    store = open_store(url=redis_url, data_dir=tmp_path, prefix=store_prefix)
    with AppHost(slack=slack, bundle=bundle_of(EXAMPLE), store=store, runbook=runbook, channels=channels) as host:
        bodies = [host.command_body(f"diagnose {JOB}", channel=c) for c in channels]
        start = threading.Barrier(MANY)

        def ask(body: bytes) -> Reply:
            start.wait(5)
            return host.send(body)

        with ThreadPoolExecutor(MANY) as clients:
            replies = list(clients.map(ask, bodies))
        assert [r.status for r in replies] == [200] * MANY
        slowest = max(r.seconds for r in replies)
        assert slowest < ACK_BOUND, f"slowest ack {slowest:.2f}s"
        for channel in channels:
            host.wait_answered(channel, timeout=30)
        host.idle(submitted=MANY)
        assert all(len(slack.messages(c)) == 1 and len(diagnosis_replies(slack, c)) == 1 for c in channels)
        assert not slack.responses(), "nobody was told to wait or that something went wrong"


def test_redis_dying_under_the_bot_leaves_commands_answered(slack: SlackStandIn, runbook: Runbook,
                                                            tmp_path: Path) -> None:
    with redis_process(tmp_path, tcp=True) as redis:
        store = open_store(url=redis.url, data_dir=tmp_path, prefix="rlark-bot-test:", socket_timeout=0.3)
        channels = {CHANNEL: EVERYWHERE, "C0SCOPED": ChannelBinding(domains=["other-lab"], clusters="*")}
        with AppHost(slack=slack, bundle=bundle_of(EXAMPLE), store=store, runbook=runbook,
                     channels=channels) as host:
            redis.kill()
            host.process.check_ready()  # what the readiness watch does every few seconds
            assert not host.deps.readiness.ready and "store" in host.deps.readiness.reason()
            with pytest.raises(urllib.error.HTTPError) as probe:
                urllib.request.urlopen(host.url.replace("/slack/events", "/readyz"), timeout=5)
            assert probe.value.code == 503
            probe.value.close()
            assert host.command(f"diagnose {JOB}").status == 200, "a started bot keeps answering"
            [root] = host.wait_answered(timeout=30)
            assert host.command("frobnicate").json()["text"].startswith("unknown command")
            assert host.command(f"diagnose {JOB}", channel="C0SCOPED").status == 200
            host.idle(submitted=2)
            [refusal] = slack.responses()
            assert "cannot diagnose" in refusal["text"]
            answer = host.reply_of(root)
            assert answer.metadata is not None and answer.metadata["event_payload"]["case"] != "none"


def test_the_diagnosis_pool_runs_wide_jobs_at_once_without_tripping_over_itself(
        slack: SlackStandIn, runbook: Runbook, tmp_path: Path) -> None:
    """The bot's four diagnosis workers share one Service (one log matcher): 65 pods' logs scanned on all of them
    at once must all come out right (a shared Hyperscan scratch used to fail some with ScratchInUseError)."""
    bundle, target = build_wide(tmp_path)
    with AppHost(slack=slack, bundle=bundle, store=MemoryStore(), runbook=runbook) as host:
        deps = host.deps
        wanted = Target.parse(target, "")
        gathered = deps.source.for_target(wanted)

        def diagnose(_: int) -> str:
            return deps.service.diagnose(wanted, source=deps.source, gathered=gathered).findings[0].case.id

        cases = list(host.pool.map(diagnose, range(16)))
    assert cases == ["rlark.ray.worker-exit-nonzero"] * 16
