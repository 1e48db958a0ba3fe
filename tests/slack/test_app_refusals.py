"""Who gets nothing but an ephemeral: unbound channels, targets out of scope or missing (one refusal, worded the same),
"not found" where everything is allowed, "starting up" before ready, usage lines; and requests that are not
Slack's (bad or stale signature, unsigned): 401 with no Web API call at all."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from bot.conversations.diagnosis import Ask, run_diagnosis
from bot.models import Target
from bot.runbook import Runbook
from bot.settings import ChannelBinding
from bot.store.memory import MemoryStore

from .apphost import CHANNEL, EVERYWHERE, SECRET, USER, AppHost, bundle_of
from .signing import signed_headers
from .standin import SlackStandIn

JOB = "ppo-franka-0412"  # spec.domain franka-lab, control plane + gpu-a, pods in rlark-system
POD = "ppo-franka-0412-actor-0"
CHANNELS = {
    CHANNEL: EVERYWHERE,
    "C0OTHERLAB": ChannelBinding(domains=["other-lab"], clusters="*", namespaces="*"),
    "C0GPUZ": ChannelBinding(domains="*", clusters=["gpu-z"], namespaces="*"),
    "C0CIONLY": ChannelBinding(namespaces=["arc-runners"], clusters="*"),
    "C0FRANKA": ChannelBinding(domains=["franka-lab"], clusters="*"),
}
REFUSED = [
    ("C0UNBOUND", f"diagnose {JOB}"),  # a channel no binding names
    ("C0OTHERLAB", f"diagnose {JOB}"),  # the Job's domain is not the channel's
    ("C0GPUZ", f"diagnose job/{JOB}"),  # nor its clusters
    ("C0CIONLY", f"diagnose pod/{POD} -n rlark-system"),  # a pod outside the channel's namespaces
    ("C0CIONLY", f"diagnose pod/{POD}"),
    ("C0FRANKA", "diagnose job/no-such-job"),  # missing, in a scoped channel
    ("C0FRANKA", f"ticket job/{JOB}-x"),
    ("C0UNBOUND", "ticket no-such-job"),
]


@pytest.fixture
def host(slack: SlackStandIn, runbook: Runbook) -> Iterator[AppHost]:
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                 channels=CHANNELS) as running:
        yield running


def channel_posts(slack: SlackStandIn) -> int:
    return len(slack.calls("chat.postMessage")) + len(slack.calls("chat.update")) + len(slack.files())


def test_refusals_read_the_same_and_post_nothing(host: AppHost, slack: SlackStandIn) -> None:
    for channel, text in REFUSED:
        assert host.command(text, channel=channel).status == 200
    host.idle(submitted=len(REFUSED))
    answers = slack.responses()
    assert len(answers) == len(REFUSED), "each asker is told, once"
    texts = {a["text"] for a in answers}
    assert len(texts) == 1, texts
    assert "cannot diagnose" in texts.pop()
    assert all(a["response_type"] == "ephemeral" for a in answers)
    assert channel_posts(slack) == 0
    assert not any(JOB in str(a) for a in answers), "a refusal says nothing about the target"


def test_missing_target_in_an_everywhere_channel_is_not_found_saying_where(host: AppHost,
                                                                           slack: SlackStandIn) -> None:
    host.command("diagnose job/no-such-job")
    host.idle(submitted=1)
    [answer] = slack.responses()
    assert "was not found" in answer["text"] and "no-such-job" in answer["text"]
    assert "looked for Job" in answer["text"] and "control-plane" in answer["text"], "it says where it looked"
    assert "examples/" not in answer["text"], "in the bot's words, not a server's file path"
    assert channel_posts(slack) == 0


@pytest.mark.parametrize("text", ["diagnose", "diagnose a b", "frobnicate job/x", "diagnose x --lang fr",
                                  "diagnose x --bogus 1", "mute nokey 2h", "mute a:b/c forever", "alerts now",
                                  "diagnose \x07bell", "x" * 1001, "unmute"])
@pytest.mark.parametrize("channel", [CHANNEL, "C0UNBOUND"])
def test_malformed_text_gets_a_usage_line_in_any_channel(host: AppHost, slack: SlackStandIn, text: str,
                                                         channel: str) -> None:
    reply = host.command(text, channel=channel)
    assert reply.status == 200
    answer = reply.json()
    assert answer["response_type"] == "ephemeral"
    assert "Usage: /rlark diagnose TARGET" in answer["text"]
    assert len(answer["text"].splitlines()) == 1
    assert host.pool.submitted == 0 and channel_posts(slack) == 0


def test_help_and_empty_text_answer_in_the_ack(host: AppHost) -> None:
    for text in ("help", "", "   "):
        answer = host.command(text).json()
        assert answer["response_type"] == "ephemeral" and "diagnose TARGET" in answer["text"]
        assert "`/rlark` help" in answer["text"]
    assert host.pool.submitted == 0


def test_before_ready_every_command_hears_starting_up(slack: SlackStandIn, runbook: Runbook) -> None:
    host = AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook)
    with host.start(ready=False):
        assert not host.deps.readiness.ready
        for text in (f"diagnose {JOB}", "alerts", "frobnicate"):
            answer = host.command(text).json()
            assert answer["response_type"] == "ephemeral"
            assert "starting up" in answer["text"]
        assert host.pool.submitted == 0
        assert {c.method for c in slack.calls()} <= {"auth.test"}, "nothing posted, no ephemeral by any route"
        host.process.check_ready()
        host.command(f"diagnose {JOB}")
        host.wait_answered()


def test_unsigned_forged_and_stale_requests_get_401_and_nothing_runs(host: AppHost, slack: SlackStandIn) -> None:
    calls_before = len(slack.calls())
    text = f"diagnose {JOB}"
    now = int(time.time())
    rejected = [
        host.send(host.command_body(text), sign=False),
        host.send(host.command_body(text), secret="not-the-signing-secret"),
        host.send(host.command_body(text), timestamp=now - 6 * 60),  # older than 5 minutes
        host.send(host.command_body(text), timestamp=now + 6 * 60),
        host.send(host.command_body(text), headers={"X-Slack-Signature": "v0=" + "0" * 64}),
        host.send(host.command_body(text), headers={"X-Slack-Request-Timestamp": "soon"}),
    ]
    body = host.command_body(text)
    tampered = body.replace(b"ppo-franka-0412", b"ppo-franka-0413")
    signed = host.send(body)  # the genuine one, signed over the original bytes...
    assert signed.status == 200
    forged = host.send(tampered, headers=signed_headers(body, SECRET))  # ...reused on other bytes
    rejected.append(forged)
    assert [r.status for r in rejected] == [401] * len(rejected)
    [root] = host.wait_answered()
    host.idle(submitted=1)
    assert host.pool.submitted == 1, "only the genuine request did anything"
    after = slack.calls()[calls_before:]
    assert all(c.method != "response_url" for c in after), "no rejected request was answered by any route"
    assert len(slack.messages(CHANNEL)) == 1 and root.ts


def test_a_refused_asker_is_told_even_without_a_response_url(host: AppHost, slack: SlackStandIn) -> None:
    """Buttons and Socket Mode may come without a response URL: the refusal goes by chat.postEphemeral."""
    outcome = run_diagnosis(host.deps, Ask(channel="C0OTHERLAB", user=USER, target=Target.parse(JOB, ""),
                                           lang="en"))
    assert outcome == "refused"
    [told] = slack.ephemerals()
    assert told.user == USER and told.via == "chat.postEphemeral" and "cannot diagnose" in told.text
    assert channel_posts(slack) == 0


@pytest.mark.parametrize("action_id", ["rlark_ticket", "rlark_evidence", "rlark_rerun"])
def test_buttons_on_an_old_thread_obey_the_channels_binding_now(slack: SlackStandIn, runbook: Runbook,
                                                                action_id: str) -> None:
    """A thread from before the channel's binding was narrowed: its buttons refuse like the command does."""
    bundle = bundle_of("ray-workers-never-join")
    with AppHost(slack=slack, bundle=bundle, store=MemoryStore(), runbook=runbook) as before:
        before.command(f"diagnose {JOB}")
        [root] = before.wait_answered()
        before.idle(submitted=1)
        answer = before.reply_of(root)
    narrowed = {CHANNEL: ChannelBinding(domains=["other-lab"], clusters="*", namespaces="*")}
    files, posts = len(slack.files()), len(slack.calls("chat.postMessage"))
    with AppHost(slack=slack, bundle=bundle, store=MemoryStore(), runbook=runbook, channels=narrowed) as host:
        button = next(b for b in answer.buttons() if b["action_id"] == action_id)
        assert host.click(button, root=root, message_ts=answer.ts).status == 200
        host.idle(submitted=1)
    assert len(slack.files()) == files and len(slack.calls("chat.postMessage")) == posts, "nothing more was posted"
    told = [e for e in slack.ephemerals() if e.user == USER] + [p for p in slack.responses() if p.get("text")]
    assert told and all("cannot diagnose" in (t.text if hasattr(t, "text") else t["text"]) for t in told)
