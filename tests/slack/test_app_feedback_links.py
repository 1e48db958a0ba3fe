"""👍/👎 on a diagnosis reply, the runbook sources as links, and pasted RLark job links previewed
(`link_shared` -> `chat.unfurl`), over signed HTTP against the Slack stand-in."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest

from bot.redact import seal
from bot.runbook import Runbook
from bot.settings import ChannelBinding
from bot.store.feedback import as_csv, as_json, votes
from bot.store.memory import MemoryStore

from .apphost import CHANNEL, EVERYWHERE, SECRET, AppHost, bundle_of
from .model import Message
from .signing import block_action_payload, event_payload, link_shared_event, signed_headers
from .signing import post as raw_post
from .standin import SlackStandIn

JOB = "ppo-franka-0412"
UI = "https://rlark.example.com"
DOCS = {"rlark-jobs": "https://docs.example.com/runbooks/rlark-jobs", "ci-runner": "https://docs.example.com/ci"}


@pytest.fixture
def host(slack: SlackStandIn, runbook: Runbook) -> Iterator[AppHost]:
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                 settings={"ui_url": UI, "doc_urls": DOCS}) as running:
        yield running


def _diagnosed(host: AppHost) -> tuple[Message, Message]:
    host.command(f"diagnose {JOB}")
    [root] = host.wait_answered(timeout=30)
    return root, host.reply_of(root)


def _vote_body(reply: Message, root: Message, *, vote: str, user: str) -> bytes:
    [button] = [b for b in reply.buttons() if b["action_id"] == "rlark_feedback" and b["value"].startswith(vote)]
    payload = block_action_payload(action_id="rlark_feedback", value=button["value"], message_ts=reply.ts,
                                   thread_ts=root.ts, channel_id=CHANNEL, user_id=user)
    return urlencode({"payload": json.dumps(payload)}).encode()


def _metric(host: AppHost, vote: str) -> float:
    body = host.deps.metrics.render()[0].decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in body.splitlines()
               if line.startswith("rlark_bot_feedback_total{") and f'vote="{vote}"' in line)


def test_one_vote_per_user_per_reply_a_changed_vote_replaces_it(host: AppHost, slack: SlackStandIn) -> None:
    root, reply = _diagnosed(host)
    case = (reply.metadata or {})["event_payload"]["case"]
    up = _vote_body(reply, root, vote="up", user="U0ANNA")
    host.send(up)
    host.send(up)  # the same delivery again
    host.send(_vote_body(reply, root, vote="up", user="U0ANNA"))  # a double click
    host.send(up, headers={"X-Slack-Retry-Num": "1"})
    host.idle(submitted=3)
    [kept] = votes(host.deps.store)
    assert (kept.user, kept.vote, kept.case, kept.ts, kept.thread) == ("U0ANNA", "up", case, reply.ts, root.ts)
    assert _metric(host, "up") == 1
    assert len(slack.ephemerals(user="U0ANNA")) == 1 and "recorded" in slack.ephemerals(user="U0ANNA")[0].text

    host.send(_vote_body(reply, root, vote="down", user="U0ANNA"))  # changed: replaces the vote
    host.send(_vote_body(reply, root, vote="down", user="U0BORIS"))
    host.idle(submitted=5)
    kept_votes = {(v.user, v.vote) for v in votes(host.deps.store)}
    assert kept_votes == {("U0ANNA", "down"), ("U0BORIS", "down")}
    assert _metric(host, "down") == 2
    exported = json.loads(as_json(votes(host.deps.store)))
    assert exported["by_case"] == {case: {"up": 0, "down": 2}}
    lines = as_csv(votes(host.deps.store)).splitlines()
    assert lines[0] == "at,case,vote,channel,thread,ts,user" and len(lines) == 3
    assert not [m for m in slack.thread(CHANNEL, root.ts) if m.ts != reply.ts], "votes post nothing in the thread"


def test_a_vote_for_a_case_the_bot_does_not_know_is_refused(host: AppHost, slack: SlackStandIn) -> None:
    root, reply = _diagnosed(host)
    payload = block_action_payload(action_id="rlark_feedback", value="up|made.up-case", message_ts=reply.ts,
                                   thread_ts=root.ts, channel_id=CHANNEL,
                                   response_url=slack.new_response_url(channel=CHANNEL, user="U0ASKER"))
    host.send(urlencode({"payload": json.dumps(payload)}).encode())
    host.idle(submitted=2)
    assert not votes(host.deps.store) and _metric(host, "up") == 0


def test_each_findings_source_links_to_its_section(host: AppHost) -> None:
    _, reply = _diagnosed(host)
    text = json.dumps(reply.blocks, ensure_ascii=False)
    links = [part.split("|", 1)[0] for part in text.split("<")[1:] if part.startswith("https://docs.example.com")]
    assert links, text[:400]
    assert all("#" in link for link in links), links


def _pasted(host: AppHost, slack: SlackStandIn, text: str, urls: list[str], *, channel: str = CHANNEL,
            event_id: str | None = None, retry: int | None = None) -> tuple[Message, dict[str, Any]]:
    message = slack.user_posts(channel, user="U0ANNA", text=text)
    payload = event_payload(link_shared_event(channel=channel, user="U0ANNA", message_ts=message.ts, urls=urls),
                            event_id=event_id)
    assert host.event(payload, retry_num=retry).status == 200
    return message, payload


def test_a_pasted_job_link_unfurls_with_phase_and_stage(host: AppHost, slack: SlackStandIn) -> None:
    url = f"{UI}/jobs/{JOB}"
    message, payload = _pasted(host, slack, f"look at <{url}>", [url])
    slack.wait_for(lambda: slack.message(CHANNEL, message.ts).unfurls, timeout=30)
    host.event(payload)  # the same event delivered again
    host.event(payload, retry_num=1)
    host.idle(submitted=1)
    preview = json.dumps(slack.message(CHANNEL, message.ts).unfurls[url])
    assert JOB in preview and "Phase" in preview and "Last stage reached" in preview
    assert len(slack.calls("chat.unfurl")) == 1, "a repeated or retried event unfurls once"
    blocks = slack.message(CHANNEL, message.ts).unfurls[url]["blocks"]
    assert seal(blocks, host.redactor).value == blocks, "already redacted"
    assert slack.token not in preview and "standin-signing-secret" not in preview


def test_no_unfurl_outside_scope_for_other_links_or_with_a_query(slack: SlackStandIn, runbook: Runbook) -> None:
    narrow = ChannelBinding(domains=["other-lab"], namespaces="*", clusters="*")
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                 channels={CHANNEL: EVERYWHERE, "C0NARROW": narrow}, settings={"ui_url": UI}) as host:
        url = f"{UI}/jobs/{JOB}"
        for channel in ("C0NARROW", "C0UNBOUND"):
            _pasted(host, slack, f"<{url}>", [url], channel=channel)
        _pasted(host, slack, "a job that is not there", [f"{UI}/jobs/no-such-job"])
        _pasted(host, slack, "elsewhere", [f"https://other.example.com/jobs/{JOB}", f"{UI}/jobs/{JOB}?token=x"])
        host.idle(submitted=3)
        assert not slack.calls("chat.unfurl")
        assert not slack.ephemerals(), "nobody is told anything"


def test_nothing_secret_reaches_an_unfurl(slack: SlackStandIn, runbook: Runbook) -> None:
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                 settings={"ui_url": UI}, extra_patterns=["franka-0412"]) as host:
        url = f"{UI}/jobs/{JOB}"
        message, _ = _pasted(host, slack, f"<{url}>", [url])
        slack.wait_for(lambda: slack.message(CHANNEL, message.ts).unfurls, timeout=30)
        preview = json.dumps(slack.message(CHANNEL, message.ts).unfurls)
        assert "franka-0412" not in preview.replace(url, ""), "a value the redactor masks never leaves in a preview"


def test_the_events_request_url_answers_slacks_challenge_and_checks_signatures(host: AppHost) -> None:
    """Saving the manifest's event_subscriptions.request_url: Slack posts a signed challenge first."""
    body = json.dumps({"token": "t", "challenge": "c0ffee", "type": "url_verification"}).encode()
    status, _, answer = raw_post(host.url, body, signed_headers(body, SECRET, content_type="application/json"))
    assert status == 200 and b"c0ffee" in answer
    status, _, _ = raw_post(host.url, body, signed_headers(body, "wrong-secret", content_type="application/json"))
    assert status == 401
