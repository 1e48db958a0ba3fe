"""What every request goes through, once, as bolt middleware: the audit line and the commands counter for each
command and button (ended when the listener returns, or when work handed to the pool ends), retries dropped."""

from __future__ import annotations

import logging

import pytest

from bot.runbook import Runbook
from bot.store.memory import MemoryStore

from .apphost import AppHost, bundle_of
from .standin import SlackStandIn

JOB = "ppo-franka-0412"


def _audit_lines(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str, str]]:
    return [(str(getattr(r, "command", "")), str(getattr(r, "target", "")), str(getattr(r, "outcome", "")))
            for r in caplog.records if r.name == "rlark_bot.slack" and r.getMessage() == "command"]


def _counted(host: AppHost, command: str, outcome: str) -> float:
    value = host.deps.metrics.registry.get_sample_value("rlark_bot_commands_total",
                                                         {"command": command, "outcome": outcome})
    return value or 0.0


def test_every_command_ends_in_one_audit_line_and_one_count(slack: SlackStandIn, runbook: Runbook,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    host = AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook)
    with host, caplog.at_level(logging.INFO, logger="rlark_bot.slack"):
        host.command("help")
        host.command("frobnicate")
        host.command(f"diagnose {JOB}")
        host.wait_answered()
        host.idle(submitted=1)
    assert _audit_lines(caplog) == [("help", "", "ok"), ("unknown", "", "usage"),
                                    ("diagnose", f"job/{JOB}", "answered")]
    assert [_counted(host, c, o) for c, o in (("help", "ok"), ("other", "usage"), ("diagnose", "answered"))] \
        == [1.0, 1.0, 1.0]


def test_a_retried_request_runs_nothing_and_is_not_audited(slack: SlackStandIn, runbook: Runbook,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    host = AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook)
    with host, caplog.at_level(logging.INFO, logger="rlark_bot.slack"):
        reply = host.send(host.command_body("help"), headers={"X-Slack-Retry-Num": "1",
                                                              "X-Slack-Retry-Reason": "http_timeout"})
    assert reply.status == 200 and reply.body == b""
    assert _audit_lines(caplog) == []
