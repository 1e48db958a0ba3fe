"""The installed `rlark-bot serve`, run as the image's entrypoint runs it, against the Slack stand-ins.

Each test starts one real process (embedded store in a temporary directory, one bundled example as the evidence
source) and talks to it only as Slack, the kubelet and Prometheus do: signed HTTP requests or Socket Mode envelopes,
`/healthz`, `/readyz`, `/metrics`, SIGTERM. What the process says is read from its stderr.
"""

from __future__ import annotations

import http.client
import json
import signal
import time
import uuid
from pathlib import Path
from typing import Any

from prometheus_client.parser import text_string_to_metric_families
from slack.model import Message
from slack.signing import signed_headers, slash_command_body, slash_command_payload
from slack.socket_standin import SocketModeStandIn
from slack.standin import SlackStandIn

from .conftest import CHANNEL, EXAMPLE, Launch, Planted, assert_clean_stderr, target_of
from .process import ServedBot, wait_until

GRACE_SECONDS = 25.0  # serve's default --grace, which the Deployment's terminationGracePeriodSeconds outlasts
READY_TIMEOUT = 20.0
ANSWER_TIMEOUT = 20.0
RLARK_FAMILIES = frozenset({
    "rlark_bot_commands", "rlark_bot_diagnosis_seconds", "rlark_bot_kube_requests", "rlark_bot_slack_calls",
    "rlark_bot_alerts", "rlark_bot_alerts_firing", "rlark_bot_redactions", "rlark_bot_store_errors",
    "rlark_bot_scheduler_lag_seconds", "rlark_bot_inflight_diagnoses",
})


def command(slack: SlackStandIn, text: str, *, user: str = "U0ASKER") -> tuple[bytes, str]:
    """A slash command's form body as Slack posts it (its own trigger id), and its response URL."""
    hook = slack.new_response_url(channel=CHANNEL, user=user)
    body = slash_command_body(text=text, channel_id=CHANNEL, user_id=user, response_url=hook,
                              trigger_id=f"{uuid.uuid4().int % 10**12}.standin")
    return body, hook


def diagnoses(slack: SlackStandIn) -> list[tuple[Message, Message]]:
    """(root, reply) for every thread in the channel that holds a diagnosis reply."""
    return [(root, reply) for root in slack.messages(CHANNEL) for reply in slack.thread(CHANNEL, root.ts)
            if reply.event_type == "rlark_diagnosis"]


def audit_lines(bot: ServedBot, outcome: str) -> list[dict[str, Any]]:
    return [r for r in bot.records() if r.get("message") == "command" and r.get("outcome") == outcome]


def scrape(bot: ServedBot) -> dict[str, Any]:
    status, body = bot.get("/metrics")
    assert status == 200
    return {family.name: family for family in text_string_to_metric_families(body)}


def value(families: dict[str, Any], family: str, sample: str, **labels: str) -> float:
    """The sum of `sample`'s values over the series whose labels include `labels`."""
    return sum(s.value for s in families[family].samples
               if s.name == sample and all(s.labels.get(k) == v for k, v in labels.items()))


def assert_answered(slack: SlackStandIn, target: str) -> Message:
    """Exactly one thread in the channel, its root edited to the verdict, its reply the diagnosis of `target`."""
    ((root, reply),) = diagnoses(slack)
    assert root.edits > 0 and reply.thread_ts == root.ts
    assert reply.metadata is not None
    assert reply.metadata["event_payload"]["target"]["name"] == target.split("/")[-1]
    return reply


def niced_workers(bot: ServedBot) -> list[int]:
    """The pids of the four diagnosis worker processes, once started: not serve's own, each niced to 10."""
    def workers() -> list[int] | None:
        pids = [int(r["pid"]) for r in bot.records() if r.get("message") == "diagnosis worker started"]
        return pids if len(pids) >= 4 else None

    started = wait_until(workers, timeout=90, what="four diagnosis workers started")
    assert bot.proc.pid not in started and len(set(started)) == 4
    # Field 19 of /proc/<pid>/stat is the nice value: the workers yield the CPU to the process answering Slack.
    assert {int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16]) for pid in started} == {10}
    return started


def test_http_mode_probes_readiness_metrics_signatures_and_niced_workers(launch: Launch, slack: SlackStandIn,
                                                                         planted: Planted) -> None:
    slack.fail("auth.test", error="invalid_auth", times=None)  # a wrong bot token, as Slack answers it
    bot = launch(overlay="ha", env={"RLARK_BOT_READINESS_INTERVAL_SECONDS": "0.2"})
    bot.wait_listening()
    assert bot.get("/healthz") == (200, "ok\n")

    # Not ready while Slack refuses the token, with the reason; commands meanwhile are told to come back.
    reason = wait_until(lambda: (got := bot.get("/readyz"))[0] == 503 and "invalid_auth" in got[1] and got[1],
                        timeout=READY_TIMEOUT, what="/readyz 503 naming the refused Slack auth")
    assert "Slack auth" in reason
    early, early_hook = command(slack, f"diagnose {target_of(EXAMPLE)}", user="U0EARLY")
    assert bot.post("/slack/events", early, signed_headers(early, planted.signing_secret))[0] == 200
    assert bot.get("/healthz")[0] == 200

    slack.clear_faults()
    assert bot.wait_status("/readyz", 200, timeout=READY_TIMEOUT) == "ready\n"

    # Bad, stale or missing signatures: 401 and nothing runs.
    bad_hooks = [early_hook]
    for headers in (signed_headers(b"", planted.signing_secret),  # signed for another body
                    signed_headers(b"", "not-the-signing-secret"),
                    signed_headers(b"", planted.signing_secret, timestamp=int(time.time()) - 600),
                    {"Content-Type": "application/x-www-form-urlencoded"}):
        # The forger's text carries the credentials: whatever logs a refused request must not show them.
        bad, bad_hook = command(slack, f"diagnose {target_of(EXAMPLE)} {planted.bot_token} {planted.signing_secret}",
                                user="U0MALLORY")
        bad_hooks.append(bad_hook)
        status, _, _ = bot.post("/slack/events", bad, headers)
        assert status == 401, headers

    # The same target then asked for properly: one thread, for the asker who signed.
    body, hook = command(slack, f"diagnose {target_of(EXAMPLE)}")
    status, _, _ = bot.post("/slack/events", body, signed_headers(body, planted.signing_secret))
    assert status == 200
    wait_until(lambda: audit_lines(bot, "answered"), timeout=ANSWER_TIMEOUT, what="the diagnosis answered")
    assert_answered(slack, target_of(EXAMPLE))
    assert all(not slack.responses(h) for h in [*bad_hooks, hook])  # the answer is in the channel, not private
    assert not slack.ephemerals() and not slack.messages("C0ADMIN")
    assert [r["user"] for r in audit_lines(bot, "answered")] == ["U0ASKER"]

    families = scrape(bot)
    assert set(families) >= RLARK_FAMILIES, sorted(RLARK_FAMILIES - set(families))
    assert "process_resident_memory_bytes" in families
    assert value(families, "rlark_bot_slack_calls", "rlark_bot_slack_calls_total",
                 method="auth.test", status="invalid_auth") >= 1
    assert value(families, "rlark_bot_slack_calls", "rlark_bot_slack_calls_total",
                 method="auth.test", status="ok") >= 1
    assert value(families, "rlark_bot_commands", "rlark_bot_commands_total",
                 command="diagnose", outcome="answered") == 1
    assert value(families, "rlark_bot_diagnosis_seconds", "rlark_bot_diagnosis_seconds_count") == 1
    assert value(families, "rlark_bot_inflight_diagnoses", "rlark_bot_inflight_diagnoses") == 0

    # The diagnoses run in niced worker processes that end with serve.
    started = niced_workers(bot)
    assert bot.terminate(timeout=GRACE_SECONDS) == 0
    wait_until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in started), timeout=10,
               what="the worker processes gone with serve")
    assert_clean_stderr(bot, planted)


def test_sigterm_lets_the_diagnosis_in_flight_answer_then_exits_0(launch: Launch, slack: SlackStandIn,
                                                                  planted: Planted) -> None:
    bot = launch(overlay="ha")
    bot.wait_listening()
    bot.wait_status("/readyz", 200, timeout=READY_TIMEOUT)
    # The root message is held until SIGTERM has been sent and seen: the diagnosis is mid-way meanwhile.
    root_post = slack.delay("chat.postMessage", ANSWER_TIMEOUT, times=1)
    body, _ = command(slack, f"diagnose {target_of(EXAMPLE)}")
    assert bot.post("/slack/events", body, signed_headers(body, planted.signing_secret))[0] == 200
    slack.wait_for(lambda: slack.calls("chat.postMessage"), timeout=10)
    # An idle keep-alive connection, as an Ingress keeps to its upstreams: it must not hold the process up.
    idle = http.client.HTTPConnection("127.0.0.1", bot.port, timeout=5)
    idle.request("GET", "/healthz")
    assert idle.getresponse().read() == b"ok\n"

    bot.proc.send_signal(signal.SIGTERM)
    stopped_at = time.monotonic()
    reason = bot.wait_status("/readyz", 503, timeout=5)
    assert "draining" in reason
    assert bot.get("/healthz")[0] == 200
    late, _ = command(slack, "diagnose job/another-job", user="U0LATE")
    status, _, answer = bot.post("/slack/events", late, signed_headers(late, planted.signing_secret))
    assert status == 200 and json.loads(answer)["response_type"] == "ephemeral"
    slack.release(root_post)

    try:
        code = bot.proc.wait(timeout=GRACE_SECONDS)
    finally:
        idle.close()
    assert code == 0 and time.monotonic() - stopped_at < GRACE_SECONDS
    assert_answered(slack, target_of(EXAMPLE))
    assert len(slack.messages(CHANNEL)) == 1  # nothing started for the late command
    records = assert_clean_stderr(bot, planted)
    messages = [r["message"] for r in records]
    answered = next(i for i, r in enumerate(records) if r["message"] == "command" and r["outcome"] == "answered")
    assert messages.index("draining") < answered < messages.index("stopped")
    assert records[messages.index("stopped")]["drained"] is True


def test_socket_mode_connects_acks_and_answers_in_a_thread(socket_mode: SocketModeStandIn, launch: Launch,
                                                          slack: SlackStandIn, planted: Planted) -> None:
    bot = launch(overlay="single", socket_mode=True, cold=True)  # a pod's first start: it compiles its patterns
    socket_mode.wait_for_connection(timeout=READY_TIMEOUT)
    bot.wait_status("/readyz", 200, timeout=READY_TIMEOUT)
    assert bot.get("/healthz")[0] == 200
    assert slack.calls("apps.connections.open")[0].token == planted.app_token

    hook = slack.new_response_url(channel=CHANNEL, user="U0ASKER")
    envelope = socket_mode.send_slash_command(slash_command_payload(
        text=f"diagnose {target_of(EXAMPLE)}", channel_id=CHANNEL, response_url=hook, trigger_id="7.socket"))
    ack = socket_mode.wait_for_ack(envelope, timeout=3)
    assert ack.payload in (None, {})
    slack.wait_for(lambda: diagnoses(slack), timeout=ANSWER_TIMEOUT)
    wait_until(lambda: audit_lines(bot, "answered"), timeout=ANSWER_TIMEOUT, what="the diagnosis answered")
    assert_answered(slack, target_of(EXAMPLE))
    # In Socket Mode the port serves the probes only: Slack's requests come over the socket.
    body, _ = command(slack, "help")
    assert bot.post("/slack/events", body, signed_headers(body, planted.signing_secret))[0] == 404

    assert bot.terminate(timeout=GRACE_SECONDS) == 0
    socket_mode.wait_for(lambda: socket_mode.connections == 0, timeout=5, what="the bot's connection closed")
    assert_clean_stderr(bot, planted)
