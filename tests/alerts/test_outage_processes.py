"""Three replica processes on one real Redis, which is killed (SIGKILL) for 10 s while alerts fire, one clears and
one appears: whatever was posted during the outage is marked as a possible repeat, and after Redis is back
(restarted from its AOF) no replica posts another root, nor resolves again what was resolved, and what clears
afterwards is resolved exactly once."""

from __future__ import annotations

import json
import multiprocessing
import time
from pathlib import Path

from redis_server import RedisProcess
from slack.model import Message
from slack.standin import SlackStandIn

from alerts.replica_process import run_replica

CTX = multiprocessing.get_context("spawn")
CHANNEL = "C0ALERTS"
OUTAGE = 10.0
RESOLVED = ("Resolved: not seen", "已恢复")
MAYBE = ("may be repeated", "可能重复")


def _resolutions(slack: SlackStandIn) -> dict[str, list[Message]]:
    """Each root's text, with the "resolved" replies in its thread."""
    return {root.ts: [m for m in slack.thread(CHANNEL, root.ts) if m.is_reply and any(w in m.text for w in RESOLVED)]
            for root in slack.messages(CHANNEL)}


def _wait(condition: object, *, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def _root_of(slack: SlackStandIn, name: str) -> Message:
    [root] = [m for m in slack.messages(CHANNEL) if (m.metadata or {}).get("event_payload", {}).get("object", "")
              .endswith(f"/NodePool/{name}")]
    return root


def test_redis_killed_for_ten_seconds_under_three_replicas(tmp_path: Path, store_prefix: str) -> None:
    control = tmp_path / "control" / "alerts.json"
    control.parent.mkdir()
    control.write_text(json.dumps(["a1", "a2"]), encoding="utf-8")
    redis = RedisProcess(tmp_path / "redis", tcp=True)
    redis.start()
    with SlackStandIn() as slack:
        slack.add_channel(CHANNEL, name="platform-alerts")
        replicas = [CTX.Process(target=run_replica, args=(redis.url, store_prefix, slack.base_url, slack.token,
                                                          CHANNEL, str(control))) for _ in range(3)]
        for replica in replicas:
            replica.start()
        try:
            _wait(lambda: len(slack.messages(CHANNEL)) >= 2, timeout=90, what="the two alerts' roots")
            time.sleep(2)  # every replica ticked with the store up
            assert len(slack.messages(CHANNEL)) == 2
            redis.kill()
            down_at = time.monotonic()
            time.sleep(1)
            control.write_text(json.dumps(["a1", "a3"]), encoding="utf-8")  # a2 clears, a3 appears meanwhile
            time.sleep(max(0.0, OUTAGE - (time.monotonic() - down_at)))
            during = _resolutions(slack)
            roots_during = len(slack.messages(CHANNEL))
            redis.start()
            time.sleep(4)  # the replicas write their copies back and tick on
            control.write_text(json.dumps(["a3"]), encoding="utf-8")  # a1 clears with the store up
            _wait(lambda: _resolutions(slack)[_root_of(slack, "a1").ts], timeout=30, what="a1 resolved")
            time.sleep(4)  # any second resolution or root would come within these ticks
        finally:
            (control.parent / "stop").write_text("", encoding="utf-8")
            for replica in replicas:
                replica.join(timeout=30)
                if replica.is_alive():
                    replica.kill()
                    replica.join(timeout=10)
            redis.close()
        after = _resolutions(slack)
        roots = slack.messages(CHANNEL)
        assert len(roots) == roots_during, "no root after the store came back"
        new = [m for m in roots if "/NodePool/a3" in json.dumps(m.metadata)]
        assert 1 <= len(new) <= 3 and all(any(w in m.text for w in MAYBE) for m in new), \
            "a root posted during the outage says it may be repeated (at most one per replica)"
        a1, a2 = _root_of(slack, "a1").ts, _root_of(slack, "a2").ts
        assert after[a2] == during[a2], "nothing resolved a2 again after the store came back"
        assert all(any(w in m.text for w in MAYBE) for m in during[a2]), "posts during the outage say so"
        assert len(after[a2]) >= 1
        assert len(after[a1]) == 1, [m.text[:80] for m in after[a1]]
        assert not any(w in after[a1][0].text for w in MAYBE), "with the store up, exactly once"
