"""Socket Mode through the Socket Mode stand-in, and `/rlark alerts|mute|unmute` with the admin user group read
from Slack (`usergroups.users.list`)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from alerts.helpers import at

from bot.alerts import mutes
from bot.alerts.notifier import Notifier
from bot.checks.alerts import Alert
from bot.conversations.alert_delivery import SlackAlertSink
from bot.models.refs import ObjectRef
from bot.runbook import Runbook
from bot.settings import ChannelBinding
from bot.store.memory import MemoryStore

from .apphost import CHANNEL, AppHost, bundle_of
from .signing import slash_command_payload
from .socket_standin import SocketModeStandIn
from .standin import SlackStandIn

JOB = "ppo-franka-0412"
ADMINS = "S0ADMINS"
ADMIN = "U0ADMIN"
KEY = "long-pending:gpu-a/rlark-system/Pod/ppo-franka-0412-rollout-0"
ALERTING = {CHANNEL: ChannelBinding(domains="*", namespaces="*", clusters="*", alerts=True)}


def test_a_slash_command_over_socket_mode_is_acked_and_answered_in_a_thread(
        slack: SlackStandIn, socket_mode: SocketModeStandIn, runbook: Runbook) -> None:
    host = AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                   socket_mode=True)
    with host:
        socket_mode.wait_for_connection(timeout=10)
        payload = slash_command_payload(text=f"diagnose {JOB}", channel_id=CHANNEL, trigger_id="9.9.socket",
                                        response_url=slack.new_response_url(channel=CHANNEL, user="U0ASKER"))
        sent = time.monotonic()
        envelope = socket_mode.send_slash_command(payload)
        ack = socket_mode.wait_for_ack(envelope, timeout=5)
        assert ack.at - sent < 3.0, "acked within Slack's 3 s"
        assert not ack.payload, "the ack carries no ephemeral: the answer comes in the channel"
        [root] = host.wait_answered(timeout=30)
        [reply] = slack.thread(CHANNEL, root.ts)
        assert reply.metadata is not None and reply.metadata["event_payload"]["target"]["name"] == JOB
        assert slack.calls("apps.connections.open")[0].token == slack.app_token
        help_envelope = socket_mode.send_slash_command({**payload, "text": "help", "trigger_id": "9.9.help"})
        help_ack = socket_mode.wait_for_ack(help_envelope, timeout=5)
        assert help_ack.payload is not None and "diagnose TARGET" in help_ack.payload["text"]


@pytest.fixture
def host(slack: SlackStandIn, runbook: Runbook) -> Iterator[AppHost]:
    slack.set_usergroup(ADMINS, [ADMIN, "U0OTHERADMIN"])
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                 channels=ALERTING, admin_usergroup=ADMINS) as running:
        yield running


def _firing(host: AppHost, slack: SlackStandIn) -> None:
    notifier = Notifier(store=host.deps.store, sink=SlackAlertSink(host.deps.sink, host.redactor),
                        settings=host.settings)
    alert = Alert(check="long-pending", case="pod.schedule.insufficient-resources",
                  object=ObjectRef.parse("gpu-a/rlark-system/Pod/ppo-franka-0412-rollout-0"),
                  severity="warning", since=None,
                  summary="Pending for 20 minutes: 0/4 nodes are available: 4 Insufficient nvidia.com/gpu")
    notifier.tick([alert], now=at(time.time()))
    slack.wait_for(lambda: slack.messages(CHANNEL), timeout=10)


def test_a_key_that_names_no_alert_is_refused_not_muted(host: AppHost) -> None:
    reply = host.command("mute long-pending:x/y/Pod/z 2h", user=ADMIN).json()
    assert "no alert has the key long-pending:x/y/Pod/z" in reply["text"]
    assert mutes.muted(host.deps.store, "long-pending:x/y/Pod/z") is None


def test_only_the_admin_group_may_mute_and_unmute(host: AppHost, slack: SlackStandIn) -> None:
    _firing(host, slack)
    posted = len(slack.messages(CHANNEL))
    refused = host.command(f"mute {KEY} 2h", user="U0SOMEONE").json()
    assert "Only members of the admin user group" in refused["text"]
    assert [c.params["usergroup"] for c in slack.calls("usergroups.users.list")] == [ADMINS]
    assert mutes.muted(host.deps.store, KEY) is None

    muted = host.command(f"mute {KEY} 2h", user=ADMIN).json()
    assert muted["response_type"] == "ephemeral"
    assert f"Muted the alert `{KEY}` for 2h" in muted["text"]
    entry = mutes.muted(host.deps.store, KEY)
    assert entry is not None and entry.by == ADMIN
    assert 7100 < entry.until.timestamp() - time.time() <= 7200

    assert "Only members" in host.command(f"unmute {KEY}", user="U0SOMEONE").json()["text"]
    assert mutes.muted(host.deps.store, KEY) is not None
    unmuted = host.command(f"unmute {KEY}", user="U0OTHERADMIN").json()
    assert f"Unmuted the alert `{KEY}`" in unmuted["text"]
    assert mutes.muted(host.deps.store, KEY) is None
    assert len(slack.calls("usergroups.users.list")) == 1, "the group's members are cached, not asked each time"
    assert len(slack.messages(CHANNEL)) == posted, "mute and unmute post nothing in the channel"
    assert "is not muted" in host.command(f"unmute {KEY}", user=ADMIN).json()["text"]


def test_alerts_lists_what_fires_with_its_key_and_mute(host: AppHost, slack: SlackStandIn) -> None:
    assert "No alerts are firing" in host.command("alerts").json()["text"]
    notifier = Notifier(store=host.deps.store, sink=SlackAlertSink(host.deps.sink, host.redactor),
                        settings=host.settings)
    alert = Alert(check="long-pending", case="pod.schedule.insufficient-resources",
                  object=ObjectRef.parse("gpu-a/rlark-system/Pod/ppo-franka-0412-rollout-0"),
                  severity="warning", since=None,
                  summary="Pending for 20 minutes: 0/4 nodes are available: 4 Insufficient nvidia.com/gpu")
    assert alert.key == KEY
    notifier.tick([alert], now=at(time.time()))
    slack.wait_for(lambda: slack.messages(CHANNEL), timeout=10)
    listed = host.command("alerts", user="U0ANYONE").json()
    assert listed["response_type"] == "ephemeral"
    assert "Alerts firing: 1" in listed["text"]
    assert KEY in str(listed["blocks"]), "the key is shown as it can be typed into mute"
    host.command(f"mute {KEY} 30m", user=ADMIN)
    assert "muted until" in str(host.command("alerts").json()["blocks"])


def test_no_admin_group_or_an_unreadable_one_lets_nobody_mute(slack: SlackStandIn, runbook: Runbook) -> None:
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                 channels=ALERTING) as host:
        assert "Only members" in host.command(f"mute {KEY} 1h", user=ADMIN).json()["text"]
        assert not slack.calls("usergroups.users.list")
    slack.fail("usergroups.users.list", error="no_such_subteam")
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                 channels=ALERTING, admin_usergroup="S0GONE") as host:
        reply = host.command(f"mute {KEY} 1h", user=ADMIN)
        assert reply.status == 200 and "Only members" in reply.json()["text"]
        assert mutes.muted(host.deps.store, KEY) is None


def test_the_mute_button_on_an_alert_thread_needs_the_admin_group(host: AppHost, slack: SlackStandIn) -> None:
    notifier = Notifier(store=host.deps.store, sink=SlackAlertSink(host.deps.sink, host.redactor),
                        settings=host.settings)
    notifier.tick([Alert(check="long-pending", case="pod.schedule.insufficient-resources",
                         object=ObjectRef.parse("gpu-a/rlark-system/Pod/ppo-franka-0412-rollout-0"),
                         severity="warning", since=None,
                         summary="Pending for 20 minutes")], now=at(time.time()))
    [root] = slack.wait_for(lambda: slack.messages(CHANNEL), timeout=10)
    [button] = [b for b in root.buttons() if b["action_id"] == "rlark_mute"]
    assert button["value"] == KEY
    assert host.click(button, root=root, user="U0SOMEONE").status == 200
    [refused] = slack.wait_for(lambda: slack.ephemerals(user="U0SOMEONE"), timeout=10)
    assert "Only members of the admin user group" in refused.text
    assert mutes.muted(host.deps.store, KEY) is None
    assert host.click(button, root=root, user=ADMIN).status == 200
    [done] = slack.wait_for(lambda: slack.ephemerals(user=ADMIN), timeout=10)
    assert f"Muted the alert `{KEY}`" in done.text
    entry = mutes.muted(host.deps.store, KEY)
    assert entry is not None and entry.by == ADMIN
