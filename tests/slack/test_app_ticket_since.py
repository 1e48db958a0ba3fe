"""`/rlark ticket` of a Job with a predecessor (an earlier Job of the same name prefix) fills "the only change
since the last run" from `compare`, as `rlark-bot diagnose --format ticket` does; not where the channel may not
see the predecessor, and not for the first run."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main
from bot.runbook import Runbook
from bot.settings import ChannelBinding
from bot.store.memory import MemoryStore
from tests.compare.pairs import A, B, build

from .apphost import CHANNEL, EVERYWHERE, AppHost
from .model import Message
from .standin import SlackStandIn

IMG2 = "registry.rlinf.example/rlinf/rlinf:embodied-rlinf0.3-torch2.6-ray2.40"
LABEL = "Change since the last run: "
ROBOTICS = "C0ROBOTICS"
CHANNELS = {CHANNEL: EVERYWHERE, ROBOTICS: ChannelBinding(domains=["robotics"], clusters="*", namespaces="*")}


def cli_line(capsys: pytest.CaptureFixture[str], bundle: Path, job: str) -> str | None:
    """The oracle: the line the CLI's ticket holds (None when it holds none)."""
    assert main(["diagnose", f"job/{job}", "--snapshot", str(bundle), "--format", "ticket"]) == 0
    out = capsys.readouterr().out
    return next((x for x in out.splitlines() if x.startswith(LABEL)), None)


def ticket_text(host: AppHost, slack: SlackStandIn, job: str, *, channel: str = CHANNEL) -> str:
    host.command(f"ticket job/{job}", channel=channel)
    found: list[Message] = slack.wait_for(
        lambda: [m for m in slack.messages(channel) + [r for root in slack.messages(channel)
                                                        for r in slack.thread(channel, root.ts)]
                 if m.event_type == "rlark_ticket"] or None, timeout=30)
    host.idle()
    return found[0].text + json.dumps(found[0].blocks, ensure_ascii=False)


@pytest.fixture
def image_pair(slack: SlackStandIn, runbook: Runbook, tmp_path: Path) -> Iterator[tuple[AppHost, Path]]:
    bundle = build(tmp_path / "pair", b={"head": {"image": IMG2}, "worker": {"image": IMG2}})
    with AppHost(slack=slack, bundle=bundle, store=MemoryStore(), runbook=runbook, channels=CHANNELS) as running:
        yield running, bundle


def test_the_ticket_names_the_only_change_since_the_predecessor(image_pair: tuple[AppHost, Path],
                                                                slack: SlackStandIn,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    host, bundle = image_pair
    expected = cli_line(capsys, bundle, B)
    assert expected is not None and expected.startswith(f"{LABEL}job/{A} → job/{B}: 1 change (image: ")
    text = ticket_text(host, slack, B)
    assert expected.removeprefix(LABEL) in text and LABEL.strip() in text


def test_the_first_run_has_no_such_line(image_pair: tuple[AppHost, Path], slack: SlackStandIn,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    host, bundle = image_pair
    assert cli_line(capsys, bundle, A) is None
    assert LABEL.strip() not in ticket_text(host, slack, A)


def test_a_predecessor_the_channel_may_not_see_is_not_named(slack: SlackStandIn, runbook: Runbook,
                                                            tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    bundle = build(tmp_path / "pair", domain=("other-lab", "robotics"))
    assert cli_line(capsys, bundle, B) is not None  # the CLI sees everything in the bundle
    with AppHost(slack=slack, bundle=bundle, store=MemoryStore(), runbook=runbook, channels=CHANNELS) as host:
        everywhere = ticket_text(host, slack, B)
        robotics = ticket_text(host, slack, B, channel=ROBOTICS)
    assert LABEL.strip() in everywhere and f"job/{A}" in everywhere
    assert LABEL.strip() not in robotics and f"job/{A}" not in robotics
