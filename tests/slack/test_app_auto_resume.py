"""The automatic diagnosis of an alert's first sighting happens exactly once even when the replica running it is
killed (SIGKILL, for real) before, or after, its answer reached Slack: another replica on the same Redis takes
it up at once (the holder of its lock is known dead), finds what was already posted in the alert's thread by its
keys, and posts only what is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.conversations.from_alert import AUTO, resume_auto_diagnoses
from bot.runbook import Runbook
from bot.settings import ChannelBinding
from bot.store.factory import open_store

from .apphost import CHANNEL, AppHost
from .model import Message
from .standin import SlackStandIn
from .test_app_watch import BUNDLE
from .test_app_watch_kill import Replica

POD = "gpu-a/rlark-system/Pod/ppo-franka-0412-rollout-0"
ALERTING = {CHANNEL: ChannelBinding(domains="*", namespaces="*", clusters="*", alerts=True)}
AUTO_ON = {"alerts": {"auto_diagnose": True}}
pytestmark = pytest.mark.xdist_group("watch-kill")


def _thread(slack: SlackStandIn) -> tuple[Message, list[Message]]:
    [root] = [m for m in slack.messages(CHANNEL) if m.event_type == "rlark_alert"]
    return root, slack.thread(CHANNEL, root.ts)


@pytest.mark.parametrize("when", ["before", "after"])
def test_an_automatic_diagnosis_whose_replica_died_is_taken_up_once(
        when: str, slack: SlackStandIn, runbook: Runbook, redis_url: str, store_prefix: str) -> None:
    doomed = Replica(slack, redis_url, store_prefix, hang=when, hang_on="rlark_diagnosis", channels=ALERTING,
                     settings=AUTO_ON)
    try:
        doomed.expect("ready")
        doomed.commands.put(("fire", POD))
        doomed.expect("fired")
        doomed.expect("hanging")
        doomed.kill()
    finally:
        doomed.end()
    root, thread = _thread(slack)
    assert [m.event_type for m in thread].count("rlark_diagnosis") == (1 if when == "after" else 0)
    store = open_store(url=redis_url, data_dir=Path("."), prefix=store_prefix)
    with AppHost(slack=slack, bundle=BUNDLE, store=store, runbook=runbook, channels=ALERTING,
                 settings=AUTO_ON) as again:
        [(_, record)] = store.scan_docs(AUTO)
        assert record.doc["state"] == "pending", "the dead replica's diagnosis is still owed"
        assert resume_auto_diagnoses(again.deps) == 1, "its holder is known dead (same machine): taken up at once"
        assert resume_auto_diagnoses(again.deps) == 0, "held by this replica while it runs"
        again.idle(submitted=1)
        assert resume_auto_diagnoses(again.deps) == 0, "done: never taken up twice"
        [(_, record)] = store.scan_docs(AUTO)
        assert record.doc["state"] == "done"
    root, thread = _thread(slack)
    assert [m.event_type for m in thread].count("rlark_diagnosis") == 1, "one diagnosis, whenever the kill came"
    assert len(thread) == 2, "its progress reply (found again by its key, then edited) and the diagnosis"
    assert slack.message(CHANNEL, root.ts).edits == 0, "the alert's root keeps its buttons"
