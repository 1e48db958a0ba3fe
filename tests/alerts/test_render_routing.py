"""Routing (CONTRACT §6), grouping into causes, and the alert messages in both languages."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from alerts.helpers import at, pending, pool
from bot.alerts.grouping import observe
from bot.alerts.machine import step
from bot.alerts.messages import reply, root
from bot.alerts.model import Action, Policy, Record
from bot.alerts.routing import binding_hears, route
from bot.checks.alerts import Alert
from bot.models.refs import ObjectGroup, ObjectRef
from bot.runbook import Runbook
from bot.settings import ChannelBinding

CI = ChannelBinding(clusters=["ci"], namespaces=["arc"], alerts=True)
RL = ChannelBinding(clusters=["gpu-a"], domains=["robotics"], alerts=True)


@pytest.mark.parametrize(("binding", "ref", "domain", "hears"), [
    (CI, "ci/arc/Pod/p", "", True),
    (CI, "ci/other/Pod/p", "", False),
    (CI, "gpu/arc/Pod/p", "", False),
    (CI, "ci//NodePool/a3", "", True),  # cluster-scoped: clusters alone
    (CI.model_copy(update={"alerts": False}), "ci/arc/Pod/p", "", False),
    (RL, "control-plane//Job/ppo", "robotics", False),  # the Job lives on the control plane, not gpu-a
    (RL, "control-plane/rlark-gpu-a/Task/ppo-actor", "robotics", True),  # routed to gpu-a's agent
    (RL, "control-plane/rlark-gpu-a/Task/ppo-actor", "vision", False),
    (RL, "control-plane/rlark-gpu-a/Task/ppo-actor", "", False),  # no domain matches only "*"
    (ChannelBinding(clusters="*", domains="*", alerts=True), "control-plane//Job/ppo", "", True),
])
def test_binding_hears(binding: ChannelBinding, ref: str, domain: str, hears: bool) -> None:
    assert binding_hears(binding, ObjectRef.parse(ref), domain=domain) is hears


def test_route_falls_back_then_logs_only() -> None:
    channels = {"C2": CI, "C1": CI, "C3": RL}
    p, elsewhere = ObjectRef.parse("ci/arc/Pod/p"), ObjectRef.parse("x/y/Pod/p")
    assert route(refs=[p], domain="", channels=channels, fallback="CF") == ["C1", "C2"]
    assert route(refs=[elsewhere], domain="", channels=channels, fallback="CF") == ["CF"]
    assert route(refs=[elsewhere], domain="", channels=channels, fallback=None) == []
    # a cause covering many objects is heard where any of its objects is
    group = ObjectGroup.parse("x//NodePool/a")
    assert route(refs=[group, p], domain="", channels={"C1": CI}, fallback=None) == ["C1"]


def test_grouping_folds_one_cause_and_keeps_the_rest() -> None:
    group = "ci//NodePool/a3"
    alerts = [pending(f"p{i}", cause="pod.schedule.insufficient-resources", group=group) for i in range(5)]
    alerts += [pending("q", cause="pod.storage.pvc-unbound", group=group), pending("lone"), pool("a3")]
    obs = observe(alerts)
    assert set(obs) == {f"long-pending:{group}", "long-pending:ci/arc/Pod/lone", "nodepool-unhealthy:ci//NodePool/a3"}
    folded = obs[f"long-pending:{group}"]
    assert folded.object == ObjectGroup.parse(group) and len(folded.objects) == 6
    assert folded.cause == "pod.schedule.insufficient-resources"
    assert "pod.schedule.insufficient-resources (5); pod.storage.pvc-unbound (1)" in folded.summary


def _view(objects: int = 1, case: str = "infra.karpenter.nodepool-unhealthy", cause: str = "") -> Record:
    a3 = ObjectRef("ci", "", "NodePool", "a3")
    refs = tuple(ObjectRef("ci", "arc", "Pod", f"p{i:02}") for i in range(objects)) if objects > 1 else (a3,)
    alert = Alert(check="k", case=case, object=ObjectGroup.owned_by(a3) if objects > 1 else a3, objects=refs,
                  severity="error", summary="NodeRegistrationHealthy=False",
                  since=datetime(2026, 11, 20, 8, tzinfo=UTC), cause=cause)
    return Record.first(alert, now=at(0))


def test_root_quotes_the_runbook_in_the_channel_language(runbook: Runbook) -> None:
    case = runbook.get("infra.karpenter.nodepool-unhealthy")
    assert case is not None
    en = root(_view(), case=case, lang="en")
    text = str(en.blocks)
    assert case.next_steps[0].en in text and case.avoid[0].en in text and "2026-11-20 08:00 UTC" in text
    zh = root(_view(), case=case, lang="zh")
    assert case.title.zh in zh.text and case.next_steps[0].zh in str(zh.blocks)
    assert en.metadata == {"event_type": "rlark_alert", "event_payload": {
        "key": "k:ci//NodePool/a3", "case": "infra.karpenter.nodepool-unhealthy", "object": "ci//NodePool/a3",
        "objects": ["ci//NodePool/a3"], "state": "firing"}}


def test_root_of_a_cause_names_it_and_lists_a_few_objects(runbook: Runbook) -> None:
    cause = runbook.get("pod.schedule.insufficient-resources")
    msg = root(_view(objects=25, case="infra.pending.long", cause="pod.schedule.insufficient-resources"),
               case=runbook.get("infra.pending.long"), cause=cause, lang="en")
    text = str(msg.blocks)
    assert cause is not None and cause.title.en in msg.text and cause.next_steps[0].en in text
    assert "ci/arc/Pod/p09" in text and "ci/arc/Pod/p10" not in text and "and 15 more" in text
    assert len(msg.metadata["event_payload"]["objects"]) == 25


def test_unreadable_cluster_has_its_own_words_and_replies_say_what_happened() -> None:
    msg = root(_view(case="infra.check.cluster-unreadable"), case=None, lang="zh", degraded=True)
    assert "巡检无法读取某个集群" in msg.text and "状态存储不可用" in msg.text
    rec, _ = step(None, observe([pool("a3")])["nodepool-unhealthy:ci//NodePool/a3"], now=at(0), policy=Policy())
    assert rec is not None
    resolved = Action(kind="resolve", seq=2, view=rec.evolve(state="resolved"))
    assert reply(resolved, lang="en").metadata["event_payload"]["state"] == "resolved"
    assert reply(resolved, lang="en").text.startswith("Resolved")
    changed = Action(kind="reply", seq=3, view=rec, changes=("severity warning -> error",), reason="change")
    assert "severity warning -> error" in str(reply(changed, lang="zh").blocks)
    resolved_root = root(rec.evolve(state="resolved"), case=None, lang="en")
    assert not any(b["type"] == "actions" for b in resolved_root.blocks), "no Mute button once resolved"


def test_keys_of_grouped_alerts_do_not_depend_on_how_many_pods() -> None:
    one = observe([pending("p1", group="ci//NodePool/a3")])
    many = observe([pending(f"p{i}", group="ci//NodePool/a3") for i in range(50)])
    assert set(one) == set(many) == {"long-pending:ci//NodePool/a3"}


def test_a_grouped_root_names_its_cause_once(runbook: Runbook) -> None:
    from checks.build import NOW, event, pod, task

    from bot.checks.pending import long_pending
    from bot.settings import Thresholds

    pods = [pod(f"ppo-actor-{i}", phase="Pending", age=3600, labels={"app": "ppo-actor"}) for i in range(4)]
    events = [event(f"ppo-actor-{i}", "FailedScheduling", "0/8 nodes are available: 8 Insufficient nvidia.com/gpu.")
              for i in range(4)]
    alerts = long_pending(pods, now=NOW, thresholds=Thresholds(), events=events, tasks=[task("ppo", "actor")])
    [obs] = observe(alerts).values()
    view = Record.first(obs, now=NOW)
    cause = runbook.get("pod.schedule.insufficient-resources")
    assert cause is not None
    for lang in ("en", "zh"):
        msg = root(view, case=runbook.get("infra.pending.long"), cause=cause, lang=lang)
        text = msg.text + str(msg.blocks)
        assert cause.title.pick(lang) in msg.text
        assert "cause pod.schedule.insufficient-resources" not in text

