"""The notifier over the in-memory store and a recording sink: store first, then Slack, in order, once."""

from __future__ import annotations

import json
from typing import Any

from alerts.fakes import RecordingSink
from alerts.helpers import T0, at, pending, pool, settings
from bot.alerts import storage
from bot.alerts.mutes import list_firing, mute, unmute
from bot.alerts.notifier import Notifier
from bot.settings import ChannelBinding
from bot.store.memory import MemoryStore


class Clock:
    def __init__(self) -> None:
        self.t = T0

    def __call__(self) -> float:
        return self.t


def make(store: MemoryStore | None = None, **kw: object) -> tuple[Notifier, RecordingSink, MemoryStore]:
    store = store or MemoryStore(now=Clock())
    sink = RecordingSink()
    return Notifier(store=store, sink=sink, settings=settings(**kw)), sink, store  # type: ignore[arg-type]


def test_fire_persist_resolve_reopen_in_one_thread() -> None:
    n, sink, _ = make()
    n.tick([pool("a3")], now=at(T0))
    [root] = sink.roots()
    assert root.channel == "C-ALERTS" and root.metadata == {
        "event_type": "rlark_alert",
        "event_payload": {"key": "nodepool-unhealthy:ci//NodePool/a3", "case": "infra.karpenter.nodepool-unhealthy",
                          "object": "ci//NodePool/a3", "objects": ["ci//NodePool/a3"], "state": "firing"}}
    [mute_button] = [e for e in root.blocks[-1]["elements"] if e["action_id"] == "rlark_mute"]
    shown = [e["action_id"] for e in root.blocks[-1]["elements"]]
    assert shown == ["rlark_ack", "rlark_mute"], "no Diagnose: a NodePool is no Job, pod or runner"
    assert (mute_button["action_id"], mute_button["value"]) == ("rlark_mute", "nodepool-unhealthy:ci//NodePool/a3")
    n.tick([pool("a3")], now=at(T0 + 60))
    n.tick([], now=at(T0 + 120))
    assert len(sink.sent) == 1
    n.tick([], now=at(T0 + 180))
    [resolved] = sink.replies(root.ts)
    assert "Resolved" in resolved.text
    [update] = sink.updates(root.ts)
    assert update.state == "resolved" and not any(b["type"] == "actions" for b in update.blocks)
    n.tick([pool("a3")], now=at(T0 + 1000))
    assert len(sink.roots()) == 1
    assert [r.state for r in sink.replies(root.ts)] == ["resolved", "firing"]
    assert sink.updates(root.ts)[-1].state == "firing"


def test_change_is_a_reply_and_age_is_not_a_change() -> None:
    n, sink, _ = make()
    n.tick([pending("p", minutes=20)], now=at(T0))
    n.tick([pending("p", minutes=21)], now=at(T0 + 60))
    assert len(sink.sent) == 1
    n.tick([pending("p", minutes=33, why="unbound PersistentVolumeClaims")], now=at(T0 + 700))
    [root] = sink.roots()
    [change] = sink.replies(root.ts)
    assert "unbound PersistentVolumeClaims" in change.blocks[0]["text"]["text"]


def test_many_pods_of_one_cause_are_one_root_listing_them() -> None:
    n, sink, _ = make()
    group = "ci//NodePool/npu-a3"
    alerts = [pending(f"r{i:03}", cause="pod.schedule.insufficient-resources", group=group) for i in range(200)]
    n.tick([*alerts, pending("alone")], now=at(T0))
    roots = sink.roots()
    assert len(roots) == 2
    grouped = next(r for r in roots if r.metadata["event_payload"]["key"] == f"long-pending:{group}")
    payload = grouped.metadata["event_payload"]
    assert payload["object"] == group and len(payload["objects"]) == 200
    assert "200 Pods" in grouped.blocks[0]["text"]["text"]
    n.tick(alerts[:150], now=at(T0 + 700))  # 50 pods scheduled, "alone" gone once
    [change] = sink.replies(grouped.ts)
    assert "50 cleared" in change.blocks[0]["text"]["text"]


def test_routing_to_bound_channels_else_the_alerts_channel_else_logged() -> None:
    channels = {"C-CI": ChannelBinding(clusters=["ci"], namespaces=["arc"], alerts=True, lang="zh"),
                "C-QUIET": ChannelBinding(clusters="*", namespaces="*", alerts=False)}
    n, sink, _ = make(channels=channels, fallback="C-ALL")
    n.tick([pending("p"), pending("q", ns="other"), pool("a3")], now=at(T0))
    where = {r.metadata["event_payload"]["object"]: r.channel for r in sink.roots()}
    assert where == {"ci/arc/Pod/p": "C-CI", "ci/other/Pod/q": "C-ALL", "ci//NodePool/a3": "C-CI"}
    zh = next(r for r in sink.roots() if r.channel == "C-CI")
    assert "告警" in zh.text
    n2, sink2, _ = make(channels=channels, fallback=None)
    report = n2.tick([pending("q", ns="other")], now=at(T0))
    assert sink2.sent == [] and report.actions == 1


def test_slack_down_queues_in_order_and_nothing_is_lost_or_doubled() -> None:
    n, sink, store = make()
    sink.down = True
    n.tick([pool("a3")], now=at(T0))
    n.tick([], now=at(T0 + 60))
    report = n.tick([], now=at(T0 + 120))
    assert sink.sent == [] and report.undelivered == 2
    sink.down = False
    n.tick([], now=at(T0 + 180))
    [root] = sink.roots()
    assert [s.method for s in sink.sent] == ["post", "post", "update"]
    assert sink.replies(root.ts)[0].state == "resolved"
    assert store.peek(storage.OUTBOX, 10) == []
    record = store.get_doc(storage.RECORD + "nodepool-unhealthy:ci//NodePool/a3")
    assert record is not None and record.doc["record"]["roots"] == {"C-ALERTS": root.ts}
    assert record.doc["queued"] == []


def test_a_delivery_cut_half_way_repeats_only_what_did_not_happen() -> None:
    n, sink, _ = make()
    n.tick([pool("a3")], now=at(T0))
    n.tick([], now=at(T0 + 60))
    sink.fail_after = 1  # the resolved reply goes out, the root update fails
    n.tick([], now=at(T0 + 120))
    sink.fail_after = None
    n.tick([], now=at(T0 + 180))
    root = sink.roots()[0]
    assert len(sink.replies(root.ts)) == 1 and len(sink.updates(root.ts)) == 1


def test_two_replicas_on_one_store_post_once() -> None:
    store = MemoryStore(now=Clock())
    a, sink_a, _ = make(store)
    b, sink_b, _ = make(store)
    for i, t in enumerate((T0, T0 + 60, T0 + 120, T0 + 180)):
        alerts = [pool("a3")] if i < 2 else []
        a.tick(alerts, now=at(t))
        b.tick(alerts, now=at(t))
    sent = sink_a.sent + sink_b.sent
    assert [s.method for s in sent] == ["post", "post", "update"]


def test_lost_outbox_push_is_requeued() -> None:
    n, sink, store = make()
    sink.down = True
    n.tick([pool("a3")], now=at(T0))
    [item] = store.peek(storage.OUTBOX, 5)
    store.ack(storage.OUTBOX, item)  # as if the replica died between the record write and the push
    sink.down = False
    n.tick([pool("a3")], now=at(T0 + 60))
    assert len(sink.roots()) == 1 and json.loads(item)["id"].endswith(".1")


def test_store_down_alerts_still_go_out_marked_and_reconnect_replays_nothing() -> None:
    n, sink, store = make()
    n.tick([pool("a3")], now=at(T0))
    store.set_unavailable("connection refused")
    report = n.tick([pool("a3"), pool("b1")], now=at(T0 + 60))
    assert report.degraded
    [b1] = [r for r in sink.roots() if "b1" in r.metadata["event_payload"]["object"]]
    assert "may be repeated: state store unavailable" in b1.text
    n.tick([pool("a3"), pool("b1")], now=at(T0 + 120))
    store.set_unavailable(None)
    before = len(sink.sent)
    n.tick([pool("a3"), pool("b1")], now=at(T0 + 180))
    assert len(sink.sent) == before, "reconnecting must not replay what went out meanwhile"
    n.tick([pool("a3")], now=at(T0 + 240))
    n.tick([pool("a3")], now=at(T0 + 300))
    assert sink.replies(b1.ts)[0].state == "resolved"


def test_mute_unmute_and_list_firing() -> None:
    clock = Clock()
    store = MemoryStore(now=clock)
    n, sink, _ = make(store)
    key = "nodepool-unhealthy:ci//NodePool/a3"
    n.tick([pool("a3")], now=at(T0))
    from datetime import UTC, datetime, timedelta
    now = datetime.fromtimestamp(T0, UTC)
    mute(store, key=key, until=now + timedelta(hours=2), by="U1", now=now)
    assert store.ttl(storage.MUTE + key) == 7200
    [(firing, muted)] = list_firing(store)
    assert firing.key == key and muted is not None and muted.until == at(T0 + 7200)
    assert list_firing(store, ChannelBinding(clusters=["other"], namespaces="*")) == []
    n.tick([pool("a3", condition="Ready=False")], now=at(T0 + 700))
    assert len(sink.sent) == 1  # muted: the change is not posted
    assert unmute(store, key) and not unmute(store, key)
    n.tick([pool("a3", condition="Ready=False")], now=at(T0 + 760))
    [reply] = sink.replies(sink.roots()[0].ts)
    assert "Mute ended" in reply.text


def test_a_record_resolved_long_ago_is_dropped_and_a_new_sighting_starts_a_new_thread() -> None:
    n, sink, store = make()
    n.tick([pool("a3")], now=at(T0))
    n.tick([], now=at(T0 + 60))
    n.tick([], now=at(T0 + 120))
    week = storage.RESOLVED_KEPT_SECONDS
    n.tick([], now=at(T0 + 120 + week - 60))
    assert store.get_doc(storage.RECORD + "nodepool-unhealthy:ci//NodePool/a3") is not None
    n.tick([], now=at(T0 + 180 + week))
    assert store.get_doc(storage.RECORD + "nodepool-unhealthy:ci//NodePool/a3") is None
    n.tick([pool("a3")], now=at(T0 + 240 + week))
    assert len(sink.roots()) == 2


class RefusingSink(RecordingSink):
    """Slack refusing one channel for good, or one message every time."""

    def __init__(self, *, bad_channel: str = "", refuse_text: str = "") -> None:
        super().__init__()
        self.bad_channel, self.refuse_text = bad_channel, refuse_text

    def post(self, **kw: Any) -> str:
        from bot.alerts.ports import DeliveryFailed

        if kw["channel"] == self.bad_channel:
            raise DeliveryFailed("Slack refused: channel_not_found", permanent=True)
        if self.refuse_text and self.refuse_text in kw["text"]:
            raise DeliveryFailed("Slack refused: invalid_blocks")
        return super().post(**kw)


def test_a_channel_refusing_for_good_does_not_block_the_others() -> None:
    channels = {"C-GONE": ChannelBinding(clusters="*", namespaces="*", alerts=True),
                "C-CI": ChannelBinding(clusters="*", namespaces="*", alerts=True)}
    sink = RefusingSink(bad_channel="C-GONE")
    n = Notifier(store=MemoryStore(now=Clock()), sink=sink, settings=settings(channels=channels))
    n.tick([pool("a3")], now=at(T0))
    n.tick([], now=at(T0 + 60))
    n.tick([], now=at(T0 + 120))
    [root] = sink.roots("C-CI")
    assert [s.state for s in sink.replies(root.ts)] == ["resolved"]
    assert n.store.peek(storage.OUTBOX, 5) == []


def test_a_message_refused_every_time_is_set_aside_after_max_attempts() -> None:
    sink = RefusingSink(refuse_text="b1")
    store = MemoryStore(now=Clock())
    n = Notifier(store=store, sink=sink, settings=settings())
    n.tick([pool("b1")], now=at(T0))
    n.tick([pool("b1"), pool("a3")], now=at(T0 + 60))
    assert sink.sent == [], "the refused head holds the queue while it may still be an outage"
    for i in range(2, storage.MAX_ATTEMPTS + 1):
        n.tick([pool("b1"), pool("a3")], now=at(T0 + 60 * i))
    assert [r.metadata["event_payload"]["key"] for r in sink.roots()] == ["nodepool-unhealthy:ci//NodePool/a3"]
    assert len(store.peek(storage.DEAD, 5)) == 1
