"""Whatever is typed after `/rlark`, through bolt's `App.dispatch`: an ephemeral answer or a diagnosis, never an
exception, and never a channel post for malformed text."""

from __future__ import annotations

import logging
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.conversations.parsing import parse_command
from bot.errors import UsageError
from bot.runbook import Runbook
from bot.store.memory import MemoryStore

from .apphost import CHANNEL, AppHost, bundle_of
from .standin import SlackStandIn

EXISTING = ["ppo-franka-0412", "job/ppo-franka-0412", "pod/ppo-franka-0412-actor-0"]
WORDS = st.sampled_from(["diagnose", "ticket", "alerts", "mute", "unmute", "help", "DIAGNOSE", "--namespace", "-n",
                         "--lang", "--lang=zh", "--lang=en", "--lang=fr", "rlark-system", "job/", "pod/", "runner/",
                         "2h", "0s", "99999d", "long-pending:gpu-a/ns/Pod/x", "*", "`x`", "<@U1>", "&amp;", "--",
                         "任务", "ジョブ", "\u200b", "-", "=", "job/x/y", "pod/.", "runner/-a"])
TARGETS = st.one_of(st.sampled_from(EXISTING), st.from_regex(r"(job/|pod/|runner/)?[a-z0-9][a-z0-9.-]{0,20}",
                                                             fullmatch=True))
TEXTS = st.one_of(
    st.text(max_size=60),
    st.lists(st.one_of(WORDS, TARGETS, st.text(min_size=1, max_size=8)), max_size=6).map(" ".join),
    st.tuples(st.sampled_from(["diagnose", "ticket"]), TARGETS).map(" ".join),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=990, max_size=1010),
)


def _verb(text: str) -> str | None:
    """The verb the text parses to; None when it is malformed."""
    try:
        return parse_command(text).verb
    except UsageError:
        return None


def handed_on(host: AppHost, slack: SlackStandIn, url: str, *, submitted: int, timeout: float) -> bool:
    """Whichever comes first: the pool got its `submitted`-th piece of work, or `url` got an answer (a busy bot,
    a link to the thread under way). Neither wait is waited out while the other has already happened."""
    deadline = time.monotonic() + timeout
    while True:
        if slack.responses(url) or host.pool.wait_submitted(submitted, timeout=0.01):
            return True
        if time.monotonic() > deadline:
            return False


def test_any_command_text_gets_an_answer_and_never_an_exception(slack: SlackStandIn, runbook: Runbook,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR)
    asked: list[str] = []  # response URLs of the diagnoses and tickets
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(),
                 runbook=runbook) as host:

        @settings(max_examples=150, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
        @given(text=TEXTS, channel=st.sampled_from([CHANNEL, "C0UNBOUND"]))
        def one(text: str, channel: str) -> None:
            submitted_before = host.pool.submitted
            response = host.dispatch(text, channel=channel)
            assert response.status == 200, (text, response.body)
            verb = _verb(text)
            if verb is None:
                body = response.body
                assert '"response_type": "ephemeral"' in body and "Usage:" in body, (text, body)
                assert host.pool.submitted == submitted_before, "malformed text starts no work"
            elif verb in ("diagnose", "ticket"):
                assert response.body == "", (text, response.body)
                url = host.last_response_url
                asked.append(url)
                # handed to the pool (or told the bot is busy) before the next example, so counts stay exact
                assert handed_on(host, slack, url, submitted=submitted_before + 1, timeout=10), (text, url)
            else:
                assert '"response_type": "ephemeral"' in response.body, (text, response.body)

        one()
        assert asked, "the strategy reached the diagnosis flow"
        host.idle(submitted=host.pool.submitted, timeout=60)
        unanswered = [url for url in asked if not slack.responses(url)]
        roots = slack.messages(CHANNEL)
        tickets = [m for r in roots for m in slack.thread(CHANNEL, r.ts) if m.event_type == "rlark_ticket"]
        # An ask with no ephemeral answer opened a thread or put a ticket into one.
        assert len(unanswered) <= len(roots) + len(tickets), (len(unanswered), len(roots), len(tickets))
        for root in roots:
            first = root.history[0].text if root.history else root.text
            assert "ppo-franka-0412" in first, first
        apologies = [p["text"] for p in slack.responses() if "went wrong" in str(p.get("text"))]
        assert not apologies, apologies[:1]
        assert not slack.messages("C0UNBOUND")
    errors = [r for r in caplog.records if r.name.startswith("rlark_bot") and r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors[:3]]

