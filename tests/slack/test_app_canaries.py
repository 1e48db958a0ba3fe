"""No secret reaches Slack: every scenario bundle with planted credentials, and a bundle with one secret of every
family plus a configured extra pattern and the bot's own tokens, diagnosed through the Slack app with every button
pressed. Every request the stand-in received (text, blocks, metadata, uploaded files, ephemerals, response URL
bodies; not the Authorization header, which must carry the token) is searched for each value and its encoded forms.
"""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, quote_plus, unquote_plus

import pytest

from bench.redact.corpus import FAMILIES, planted
from bot.runbook import Runbook
from bot.store.memory import MemoryStore
from tests.scenariogen.rlark import JOB, Scenario, fill_healthy_logs, pod_event, standard_job

from .apphost import CHANNEL, SECRET, AppHost, bundle_of
from .model import Call
from .standin import SlackStandIn

ADMIN = "C0ADMIN"
# What the credential scenarios plant (tests/scenariogen/rlark.py), found by grepping their bundles.
SCENARIO_SECRETS = {
    "rlark-risk-credentials-exposed": ["AKIA4QZ7RLNKX2P9TB3E", "3rZpV+q9Lk2mN8xWc0TfYb7uHj4sDe1GaQoR6tUi"],
    "rlark-risk-credentials-with-failure": ["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"],
    "rlark-risk-credentials-in-spec": ["4f7c2a9e1b3d5f6a8c0e2b4d6f8a1c3e5b7d9f02"],
    "rlark-run-robot-serial-timeout": ["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"],
}
EXTRA_PATTERN = r"LAB-LICENSE-[0-9]{6}-[A-Z]{6}"
EXTRA_VALUE = "LAB-LICENSE-804213-QWERTZ"
PIECE = 16


def forms(value: str) -> Iterator[str]:
    yield value
    yield quote(value, safe="")
    yield quote_plus(value)
    yield json.dumps(value)[1:-1]
    yield base64.b64encode(value.encode()).decode().rstrip("=")
    yield base64.urlsafe_b64encode(value.encode()).decode().rstrip("=")


def sent_text(call: Call) -> str:
    """Everything a call carried to Slack but the credentials it authenticates with."""
    params = {k: v for k, v in call.params.items() if k != "token"}
    raw = call.body.decode("utf-8", errors="replace")
    return "\n".join([json.dumps(params, ensure_ascii=False), raw, unquote_plus(raw)])


def assert_nothing_leaks(slack: SlackStandIn, secrets: list[str]) -> int:
    calls = slack.calls()
    pieces = {v[i: i + PIECE] for v in secrets if len(v) >= 2 * PIECE for i in range(len(v) - PIECE + 1)}
    for call in calls:
        text = sent_text(call)
        leaks = [f for v in secrets for f in forms(v) if f in text]
        assert not leaks, f"{call.method} sent {leaks[0][:12]}…"
        halves = [p for p in pieces if p in text]
        assert not halves, f"{call.method} sent part of a secret: {halves[0][:8]}…"
    return len(calls)


def exercise(host: AppHost, slack: SlackStandIn, target: str) -> None:
    """Diagnose, then every button, a duplicate ask, `/rlark ticket`, and a miss that quotes the asker's text."""
    assert host.command(f"diagnose {target}").status == 200
    [root] = host.wait_answered(timeout=30)
    answer = host.reply_of(root)
    for button in answer.buttons():
        assert host.click(button, root=root, message_ts=answer.ts).status == 200
    host.command(f"diagnose {target}", user="U0SECOND")  # the cooldown's ephemeral link
    host.command(f"ticket {target}")
    host.command(f"diagnose {target}-missing")
    host.idle(submitted=7, timeout=30)
    replies = [m.event_type for m in slack.thread(CHANNEL, root.ts)]
    assert replies.count("rlark_diagnosis") == 2 and replies.count("rlark_ticket") == 2, replies
    assert slack.files(channel=CHANNEL), "the evidence file was uploaded (and so scanned)"
    assert len(slack.messages(ADMIN)) == 2 and len(slack.responses()) >= 2


@pytest.mark.parametrize("scenario", sorted(SCENARIO_SECRETS))
def test_credential_scenarios_leak_nothing_to_slack(scenario: str, slack: SlackStandIn, runbook: Runbook) -> None:
    raw = "".join(p.read_text(encoding="utf-8") for p in bundle_of(scenario).rglob("*") if p.is_file())
    secrets = SCENARIO_SECRETS[scenario]
    assert all(s in raw for s in secrets), "the scenario still plants these values"
    slack.add_channel(ADMIN, name="platform-admin")
    with AppHost(slack=slack, bundle=bundle_of(scenario), store=MemoryStore(), runbook=runbook,
                 admin_channel=ADMIN) as host:
        exercise(host, slack, "job/ppo-franka-0412" if "robot" not in scenario else "job/dagger-so101-1120")
        answer = host.reply_of(host.answered()[0])
    assert answer.metadata is not None and "rlark.risk.credentials-exposed" in answer.metadata["event_payload"]["cases"]
    assert answer.metadata["event_payload"]["redactions"] > 0
    assert assert_nothing_leaks(slack, secrets) >= 15


@pytest.fixture(scope="module")
def every_family(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], list[str]]:
    """A Job whose Head logs, env and events hold one secret of every family and a lab licence key; the bundle,
    the lines planted and the values that must not show."""
    rng = random.Random(20261201)
    found: dict[str, tuple[list[str], list[str]]] = {}
    while len(found) < len(FAMILIES):
        family, lines, values = planted(rng)
        found.setdefault(family, (lines, values))
    lines = [line for family in sorted(found) for line in found[family][0]]
    values = sorted({v for _, vs in found.values() for v in vs} - {found["base64-env"][1][0]})
    sc = Scenario("slack-canaries", root=tmp_path_factory.mktemp("slack-canaries"))
    sc.cluster("gpu-a")
    env = [{"name": "WANDB_API_KEY", "value": found["wandb"][1][0]},
           {"name": "LAB_LICENSE", "value": EXTRA_VALUE}]
    job = standard_job(sc, workers=1, head_kw={"env": env})
    fill_healthy_logs(job, steps=3)
    head = job.head.pods[0] if job.head is not None else None
    assert head is not None
    head.logs["main"] += "\n".join(lines) + (f"\nERROR: fatal: licence {EXTRA_VALUE} rejected, could not read from "
                                             f"remote: {found['github'][0][0]}\n")
    head.events.append(pod_event(head, "Failed", f"Error: exec: {found['slack'][0][0]}", 3.0))
    return sc.write(), lines, values


def test_every_family_extra_patterns_and_own_tokens_leak_nothing(
        every_family: tuple[Path, list[str], list[str]], slack: SlackStandIn, runbook: Runbook,
        tmp_path: Path) -> None:
    bundle, _, values = every_family
    own = [slack.token, SECRET]
    planted_copy = tmp_path / "bundle"
    _copy_with_own_tokens(bundle, planted_copy, own)
    slack.add_channel(ADMIN, name="platform-admin")
    with AppHost(slack=slack, bundle=planted_copy, store=MemoryStore(), runbook=runbook, admin_channel=ADMIN,
                 extra_patterns=[EXTRA_PATTERN]) as host:
        exercise(host, slack, f"job/{JOB}")
    assert assert_nothing_leaks(slack, [*values, EXTRA_VALUE, *own]) >= 15


def test_the_scan_sees_a_value_the_redactor_was_not_told_about(
        every_family: tuple[Path, list[str], list[str]], slack: SlackStandIn, runbook: Runbook) -> None:
    """The control: without the extra pattern the licence key is ordinary text, and the scan finds it sent."""
    bundle, _, _ = every_family
    slack.add_channel(ADMIN, name="platform-admin")
    with AppHost(slack=slack, bundle=bundle, store=MemoryStore(), runbook=runbook, admin_channel=ADMIN) as host:
        exercise(host, slack, f"job/{JOB}")
    with pytest.raises(AssertionError, match="sent"):
        assert_nothing_leaks(slack, [EXTRA_VALUE])


def _copy_with_own_tokens(src: Path, dest: Path, own: list[str]) -> None:
    """The bundle again, with the bot's own Slack token and signing secret printed into the Head's log."""
    import shutil

    shutil.copytree(src, dest)
    logs = sorted(p for p in dest.rglob("logs.txt") if "actor" in str(p))
    assert logs, "the Head's log is in the bundle"
    with logs[0].open("a", encoding="utf-8") as out:
        out.write(f"export SLACK_BOT_TOKEN={own[0]}\nsigning secret is {own[1]}\n")
