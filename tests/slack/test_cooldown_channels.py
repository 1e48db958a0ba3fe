"""The 60 s cooldown is per (channel, target): the same Job asked for in two channels within the minute gets a
thread in each; asked again in the first, it gets a link to that channel's thread, not the other's."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.runbook import Runbook
from bot.store.memory import MemoryStore

from .apphost import CHANNEL, EVERYWHERE, AppHost, bundle_of
from .standin import SlackStandIn

OTHER = "C0OTHER"
JOB = "ppo-franka-0412"


@pytest.fixture
def host(slack: SlackStandIn, runbook: Runbook) -> Iterator[AppHost]:
    slack.add_channel(OTHER, name="another-team")
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                 channels={CHANNEL: EVERYWHERE, OTHER: EVERYWHERE}) as running:
        yield running


def test_one_job_in_two_channels_within_the_minute_gets_a_thread_in_each(host: AppHost,
                                                                          slack: SlackStandIn) -> None:
    assert host.command(f"diagnose {JOB}").status == 200
    [first] = host.wait_answered(CHANNEL, timeout=40)
    assert host.command(f"diagnose job/{JOB}", channel=OTHER).status == 200
    [second] = host.wait_answered(OTHER, timeout=40)
    host.idle(submitted=2, timeout=40)
    assert host.command(f"diagnose {JOB}").status == 200
    host.idle(submitted=3, timeout=40)
    assert len(slack.messages(CHANNEL)) == 1 and len(slack.messages(OTHER)) == 1
    link = slack.responses()[-1]["text"]
    assert first.ts.replace(".", "") in link and second.ts.replace(".", "") not in link, link
