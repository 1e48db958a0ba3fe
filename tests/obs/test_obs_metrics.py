"""Metrics: every series the bot promises, in a registry of its own, parseable as Prometheus text."""

from __future__ import annotations

import pytest
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample

from bot.obs import Metrics

EXPECTED = {
    "rlark_bot_commands": ("counter", {"command", "outcome"}),
    "rlark_bot_diagnosis_seconds": ("histogram", set()),
    "rlark_bot_kube_requests": ("counter", {"verb", "resource", "status"}),
    "rlark_bot_slack_calls": ("counter", {"method", "status"}),
    "rlark_bot_alerts": ("counter", {"state"}),
    "rlark_bot_alerts_firing": ("gauge", set()),
    "rlark_bot_redactions": ("counter", {"kind"}),
    "rlark_bot_store_errors": ("counter", {"op"}),
    "rlark_bot_scheduler_lag_seconds": ("histogram", set()),
    "rlark_bot_inflight_diagnoses": ("gauge", set()),
}


def samples(metrics: Metrics) -> list[Sample]:
    body, _ = metrics.render()
    return [s for f in text_string_to_metric_families(body.decode("utf-8")) for s in f.samples]


def value(metrics: Metrics, name: str, **labels: str) -> float:
    found = [s.value for s in samples(metrics) if s.name == name and s.labels == labels]
    assert len(found) == 1, (name, labels, found)
    return found[0]


def exercise(m: Metrics) -> None:
    m.count_command(command="diagnose", outcome="ok")
    m.count_command(command="diagnose", outcome="ok")
    m.count_command(command="ticket", outcome="refused")
    m.observe_diagnosis(1.2)
    m.observe_diagnosis(45.0)
    m.count_kube_request(verb="list", resource="pods", status=200)
    m.count_kube_request(verb="get", resource="pods/log", status="timeout")
    m.count_slack_call(method="chat.postMessage", status="ok")
    m.count_slack_call(method="chat.update", status="ratelimited")
    m.alert_transition("firing")
    m.alert_transition("resolved")
    m.set_alerts_firing(3)
    m.count_redactions({"github-token": 2, "password": 1, "aws-secret-key": 0})
    m.count_store_error("set")
    m.observe_scheduler_lag(0.3)


def test_every_promised_metric_is_exported_with_its_type_and_labels() -> None:
    m = Metrics(process=False)
    exercise(m)
    body, content_type = m.render()
    assert content_type.startswith("text/plain") and "version=" in content_type
    families = {f.name: f for f in text_string_to_metric_families(body.decode("utf-8"))}
    for name, (kind, labels) in EXPECTED.items():
        assert families[name].type == kind, name
        seen = {k for s in families[name].samples for k in s.labels if k not in ("le",)}
        assert seen == labels, name


def test_recorded_values_read_back() -> None:
    m = Metrics(process=False)
    exercise(m)
    assert value(m, "rlark_bot_commands_total", command="diagnose", outcome="ok") == 2
    assert value(m, "rlark_bot_commands_total", command="ticket", outcome="refused") == 1
    assert value(m, "rlark_bot_diagnosis_seconds_count") == 2
    assert value(m, "rlark_bot_diagnosis_seconds_sum") == pytest.approx(46.2)
    assert value(m, "rlark_bot_diagnosis_seconds_bucket", le="2.0") == 1
    assert value(m, "rlark_bot_kube_requests_total", verb="get", resource="pods/log", status="timeout") == 1
    assert value(m, "rlark_bot_kube_requests_total", verb="list", resource="pods", status="200") == 1
    assert value(m, "rlark_bot_slack_calls_total", method="chat.update", status="ratelimited") == 1
    assert value(m, "rlark_bot_alerts_total", state="resolved") == 1
    assert value(m, "rlark_bot_alerts_firing") == 3
    assert value(m, "rlark_bot_redactions_total", kind="github-token") == 2
    assert not [s for s in samples(m) if s.labels.get("kind") == "aws-secret-key"]  # zero counts add no series
    assert value(m, "rlark_bot_store_errors_total", op="set") == 1
    assert value(m, "rlark_bot_scheduler_lag_seconds_bucket", le="0.5") == 1


def test_two_objects_do_not_share_a_registry() -> None:
    a, b = Metrics(), Metrics()  # the global registry would refuse the second set of names
    a.count_command(command="help", outcome="ok")
    assert value(a, "rlark_bot_commands_total", command="help", outcome="ok") == 1
    assert not [s for s in samples(b) if s.name == "rlark_bot_commands_total"]
    assert any(s.name == "process_resident_memory_bytes" for s in samples(a))


def test_label_values_stay_bounded_whatever_was_typed() -> None:
    m = Metrics(process=False)
    m.count_command(command="rm -rf /", outcome="usage")
    m.count_command(command="diagnose\n", outcome="x" * 500)
    commands = {s.labels["command"] for s in samples(m) if s.name == "rlark_bot_commands_total"}
    outcomes = {s.labels["outcome"] for s in samples(m) if s.name == "rlark_bot_commands_total"}
    assert commands == {"other"}
    assert max(len(o) for o in outcomes) == 64


def test_inflight_gauge_counts_while_running_and_drops_on_error() -> None:
    m = Metrics(process=False)
    with m.diagnosing(), m.diagnosing():
        assert value(m, "rlark_bot_inflight_diagnoses") == 2
    with pytest.raises(RuntimeError), m.diagnosing():
        raise RuntimeError("cluster unreachable")
    assert value(m, "rlark_bot_inflight_diagnoses") == 0


def test_negative_inputs_are_clamped() -> None:
    m = Metrics(process=False)
    m.set_alerts_firing(-1)
    m.observe_diagnosis(-0.5)  # a clock that stepped back must not corrupt the histogram sum
    assert value(m, "rlark_bot_alerts_firing") == 0
    assert value(m, "rlark_bot_diagnosis_seconds_sum") == 0
