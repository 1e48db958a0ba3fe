"""The App Home with many firing alerts, through signed `app_home_opened` events: every user's view is accepted
by the stand-in (at most 100 blocks), shows the most severe alerts first and counts the rest, and several users
opening their tab at once read each channel's alerts from the store once."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from bot.alerts.notifier import Notifier
from bot.checks.alerts import Alert
from bot.conversations.alert_delivery import SlackAlertSink
from bot.models.refs import ObjectRef
from bot.runbook import Runbook
from bot.settings import ChannelBinding
from bot.store.memory import MemoryStore

from .apphost import AppHost, bundle_of
from .payloads import event_callback, home_opened
from .standin import SlackStandIn
from .test_app_entry import send_event

CHANNELS = {"C0TEAMA": ChannelBinding(domains="*", namespaces=["team-a"], clusters="*", alerts=True),
            "C0TEAMB": ChannelBinding(domains="*", namespaces=["team-b"], clusters="*", alerts=True)}
USERS = ["U0ANNA", "U0BORIS", "U0CHEN"]


class CountingAlerts:
    def __init__(self, inner: Any) -> None:
        self.inner, self.reads = inner, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def firing_for(self, channel: str) -> Any:
        self.reads += 1
        return self.inner.firing_for(channel)


def test_many_alerts_many_users_one_read_per_channel(slack: SlackStandIn, runbook: Runbook) -> None:
    for user in USERS:
        slack.set_member(user, list(CHANNELS))
    with AppHost(slack=slack, bundle=bundle_of("ray-workers-never-join"), store=MemoryStore(), runbook=runbook,
                 channels=CHANNELS) as host:
        counting = CountingAlerts(host.deps.alerts)
        host.deps.alerts = counting
        fired = [Alert(check="long-pending", case="pod.schedule.insufficient-resources",
                       object=ObjectRef.parse(f"gpu-a/team-{'ab'[i % 2]}/Pod/trainer-{i:03d}"),
                       severity="critical" if i in (37, 58) else "info", since=None, summary=f"Pending {i} min")
                 for i in range(60)]
        Notifier(store=host.deps.store, sink=SlackAlertSink(host.deps.sink, host.redactor),
                 settings=host.settings).tick(fired, now=datetime.now(UTC))
        for i, user in enumerate(USERS):
            assert send_event(host, event_callback(home_opened(user=user))["event"],
                              event_id=f"Ev0MANY{i}").status == 200
        host.idle(submitted=len(USERS))
        views = [slack.wait_for(lambda u=u: slack.views("views.publish", user=u) or None)[0]["view"] for u in USERS]
    assert counting.reads == len(CHANNELS), "each channel's alerts read once for the three users"
    for view in views:
        assert len(view["blocks"]) <= 100
        text = json.dumps(view)
        first = text.index("trainer-")
        assert text[first:first + 11] in ("trainer-037", "trainer-058"), "the critical ones first"
        assert "40 more not shown" in text
