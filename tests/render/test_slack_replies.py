"""Root messages, the admin ticket message and the ephemeral one-liners, in both languages."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.checks.alerts import Alert
from bot.models.refs import ObjectRef
from bot.redact import Redactor, seal
from bot.render import blocklimits as lim
from bot.render import render_diagnosis
from bot.render.ephemeral import KINDS, ephemeral
from bot.render.model import TargetView
from bot.render.slack_actions import parse_target_value, target_label, target_value
from bot.render.slack_labels import keys, label
from bot.render.slack_roots import root_failed, root_progress, root_verdict, ticket_message
from render.conftest import Scenario
from render.support import message_strings, with_first
from render.test_blocks_scenarios import check_limits

AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY"
LANGS = ("zh", "en")


def _sent(msg: Any) -> str:
    return "\n".join(message_strings(msg))


@pytest.mark.parametrize("lang", LANGS)
def test_progress_names_the_target_and_counts(lang: str, redactor: Redactor) -> None:
    msg = root_progress(target_label="job/ppo-franka-0412", step=f"reading logs \x1b[2K token={AWS_SECRET}",
                        clusters=2, pods=14, logs=3, requests=27, redactor=redactor, lang=lang)
    check_limits(msg)
    sent = _sent(msg)
    words = "*正在诊断*" if lang == "zh" else "*Diagnosing*"
    assert msg.blocks[0]["text"]["text"] == f":mag: {words} `job/ppo-franka-0412`"
    assert all(str(n) in msg.blocks[1]["elements"][0]["text"] for n in (2, 14, 3, 27))
    assert AWS_SECRET[:12] not in sent and "\x1b" not in sent
    assert msg.text.startswith("正在诊断 job/ppo-franka-0412" if lang == "zh" else "Diagnosing job/ppo-franka-0412")
    assert msg.metadata is None and not msg.files


@pytest.mark.parametrize("name", ["rlark-ray-prepare-failed", "healthy-single-node", "rlark-agent-disconnected"])
@pytest.mark.parametrize("lang", LANGS)
def test_verdict_root(name: str, lang: str, scenario: Callable[[str], Scenario], redactor: Redactor) -> None:
    sc = scenario(name)
    report = sc.report(lang)
    msg = root_verdict(report, thread_hint=True, redactor=redactor, lang=lang)
    check_limits(msg)
    first = msg.blocks[0]["text"]["text"]
    if sc.diag.findings:
        assert msg.text.startswith(f"{sc.diag.target}: {sc.diag.findings[0].id} — ")
        assert f"`{sc.diag.findings[0].id}`" in first
    else:
        assert label("no_case", lang) in first
    assert first.split("\n")[0] == ("`job/x` *的诊断结果*" if lang == "zh" else "*Diagnosis of* `job/x`").replace(
        "job/x", str(sc.diag.target))
    assert label("root.thread", lang) in _sent(msg)
    assert ("incomplete" in _sent(msg).lower() or "不完整" in _sent(msg)) == sc.diag.incomplete
    quiet = root_verdict(report, thread_hint=False, redactor=redactor, lang=lang)
    assert label("root.thread", lang) not in _sent(quiet)


@pytest.mark.parametrize("lang", LANGS)
def test_failed_root_gives_the_reason_redacted(lang: str, redactor: Redactor) -> None:
    msg = root_failed(target_label="pod/runner-x", reason=f"403 Forbidden <!here> password={AWS_SECRET}\nmore",
                      redactor=redactor, lang=lang)
    check_limits(msg)
    sent = _sent(msg)
    assert "`pod/runner-x`" in sent and "403 Forbidden &lt;!here&gt;" in sent
    assert AWS_SECRET[:12] not in sent and "<!here>" not in sent
    assert msg.text.startswith(label("root.failed", lang, target="pod/runner-x"))


@pytest.mark.parametrize("lang", LANGS)
def test_short_ticket_is_a_code_block_with_metadata(lang: str, scenario: Callable[[str], Scenario],
                                                    redactor: Redactor) -> None:
    sc = scenario("rlark-ray-prepare-failed")
    text = render_diagnosis(sc.diag, "ticket", lang=lang, redactor=redactor)
    target = sc.report(lang).target
    link = "https://example.slack.com/archives/C0123/p1700000000000100?thread_ts=1700000000.000100&cid=C0123"
    msg = ticket_message(text, target=target, permalink=link, redactor=redactor, lang=lang)
    check_limits(msg)
    assert msg.metadata == {"event_type": "rlark_ticket", "event_payload": {"target": target.fields()}}
    body = "\n".join(b["text"]["text"] for b in msg.blocks)
    if len(text) < 2500:
        assert not msg.files and body.count("```") == 2
    assert f"<{link.replace('&', '&amp;')}|{label('ticket.back', lang)}>" in body
    no_link = ticket_message(text, target=target, permalink=None, redactor=redactor, lang=lang)
    assert label("ticket.back", lang) not in _sent(no_link)


def test_long_ticket_goes_to_a_file_with_a_preview(redactor: Redactor) -> None:
    lines = [f"Task actor-{i}: role actor, cluster gpu-a, phase Running, replicas 1 & more <x>" for i in range(400)]
    text = "\n".join([*lines, f"AWS_SECRET_ACCESS_KEY={AWS_SECRET}"])
    target = TargetView(kind="Job", name="big-job", namespace="", cluster="control-plane")
    msg = ticket_message(text, target=target, permalink="javascript:alert(1)", redactor=redactor, lang="en")
    check_limits(msg)
    (file,) = msg.files
    assert file.name == "rlark-ticket-job-big-job.txt"
    assert file.content.count("Task actor-") == 400 and "<x>" in file.content
    preview = msg.blocks[1]["text"]["text"]
    assert preview.count("```") == 2 and file.name in preview
    shown = preview.count("Task actor-")
    assert f"… {400 + 1 - shown} more line(s)" in preview
    sent = _sent(msg)
    assert AWS_SECRET[:12] not in sent and "<javascript:" not in sent


def test_target_values_parse_back() -> None:
    cases = [(("Job", "ppo-0412", "rlark"), "job/ppo-0412", ("job/ppo-0412", "")),
             (("Pod", "p-1", "ns"), "pod/ns/p-1", ("pod/p-1", "ns")),
             (("Pod", "p-1", ""), "pod/p-1", ("pod/p-1", "")),
             (("EphemeralRunner", "r-1", "arc"), "runner/arc/r-1", ("runner/r-1", "arc"))]
    for (kind, name, namespace), value, parsed in cases:
        target = TargetView(kind=kind, name=name, namespace=namespace, cluster="gpu-a")
        assert target_value(target) == value
        assert parse_target_value(value) == parsed
    assert target_label(TargetView(kind="EphemeralRunner", name="r-1", namespace="", cluster="")) == "runner/r-1"
    for bad in ("", "job/", "job/a/b", "deploy/x", "pod//x", "pod/a/b/c", "x" * 400):
        with pytest.raises(ValueError) as err:
            parse_target_value(bad)
        assert "\n" not in str(err.value)


def _alert(i: int, **kw: Any) -> Alert:
    base = {"check": "long-pending", "case": "pod.schedule.insufficient",
            "object": ObjectRef("gpu-a", "ns", "Pod", f"p-{i}"), "severity": "warning",
            "since": datetime(2026, 11, 20, 8, 0, tzinfo=UTC),
            "summary": f"Pending for 2h <!channel> password={AWS_SECRET}"}
    return Alert(**(base | kw))


FIELDS: dict[str, dict[str, Any]] = {
    "usage": {"command": "/rl", "reason": "unknown verb 'diagnos'"},
    "help": {"command": "/rl"},
    "refusal": {},
    "not_found": {"target": "job/x", "where": "looked in clusters a, b; namespaces c"},
    "starting": {},
    "restarting": {},
    "duplicate": {"target": "job/x", "permalink": "https://example.slack.com/archives/C1/p1"},
    "busy": {},
    "error": {},
    "muted": {"key": "long-pending:gpu-a/ns/Pod/p-1", "duration": "2h", "until": "2026-11-20T10:00:00Z"},
    "unmuted": {"key": "long-pending:gpu-a/ns/Pod/p-1"},
    "not_allowed": {},
    "alerts": {"alerts": [_alert(1), _alert(2, severity="error")], "muted": {"long-pending:gpu-a/ns/Pod/p-2": "soon"}},
    "feedback": {"vote": "down"},
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_ephemeral_kind_in_both_languages(kind: str, redactor: Redactor) -> None:
    msgs = {lang: ephemeral(kind, lang=lang, redactor=redactor, **FIELDS[kind]) for lang in LANGS}
    for msg in msgs.values():
        check_limits(msg)
        sent = _sent(msg)
        assert AWS_SECRET[:12] not in sent and "<!channel>" not in sent
        assert seal(msg.blocks, redactor, verbatim=msg.verbatim).value == msg.blocks
    assert msgs["zh"].text != msgs["en"].text
    if kind in ("usage", "help"):
        assert "/rl diagnose" in msgs["en"].text or "`/rl` diagnose" in msgs["en"].text
    if kind == "duplicate":
        assert "<https://example.slack.com/archives/C1/p1>" in msgs["en"].text


def test_refusal_cannot_tell_the_cases_apart(redactor: Redactor) -> None:
    """Unbound channel, out of scope, missing in a scoped channel: one text, and no field can change it."""
    one = ephemeral("refusal", lang="en", redactor=redactor)
    assert one == ephemeral("refusal", lang="en", redactor=redactor)
    with pytest.raises(ValueError):
        ephemeral("refusal", lang="en", redactor=redactor, target="job/secret-project")


def test_alert_keys_go_out_unchanged(redactor: Redactor) -> None:
    alerts = [_alert(i) for i in range(30)]
    msg = ephemeral("alerts", lang="en", redactor=redactor, alerts=alerts, muted={})
    check_limits(msg)
    assert msg.verbatim == tuple(a.key for a in alerts[:20])
    plain = [e["text"] for b in msg.blocks if b["type"] == "context" for e in b["elements"]
             if e["type"] == "plain_text"]
    assert plain == list(msg.verbatim)
    assert "10 more alert(s)" in _sent(msg)
    assert ephemeral("alerts", lang="zh", redactor=redactor, alerts=[]).text == "当前没有告警。"


def test_bad_ephemeral_arguments_are_one_line(redactor: Redactor) -> None:
    for call in (lambda: ephemeral("nope", lang="en", redactor=redactor),
                 lambda: ephemeral("duplicate", lang="en", redactor=redactor, target="job/x"),
                 lambda: ephemeral("busy", lang="fr", redactor=redactor)):
        with pytest.raises(ValueError) as err:
            call()
        assert "\n" not in str(err.value)


def test_duplicate_without_a_link_still_says_where(redactor: Redactor) -> None:
    msg = ephemeral("duplicate", lang="en", redactor=redactor, target="job/x", permalink="-")
    assert msg.text == "`job/x` was just diagnosed in this channel (or still is); see its thread."


def test_every_label_has_both_languages() -> None:
    fields = {"n": 1, "file": "f", "target": "t", "now": "n", "step": "s", "clusters": 1, "pods": 1, "logs": 1,
              "requests": 1, "usage": "u", "reason": "r", "c": "/rlark", "where": "w", "link": "l", "key": "k",
              "duration": "2h", "until": "u", "since": "s", "user": "<@U1>", "at": "a", "case": "c", "hours": 24,
              "new": "n", "old": "o", "phase": "p", "stage": "s", "stop": "unwatch"}
    for key in keys():
        zh, en = label(key, "zh", **fields), label(key, "en", **fields)
        assert zh and en and (zh != en or key.startswith("sev."))


def test_verdict_of_a_cut_report_keeps_limits(scenario: Callable[[str], Scenario], redactor: Redactor) -> None:
    report = with_first(scenario("rlark-ray-prepare-failed").report("en"), title="T" * 5000)
    msg = root_verdict(report, thread_hint=True, redactor=redactor, lang="en")
    check_limits(msg)
    assert lim.slack_len(msg.text) <= lim.FALLBACK_TEXT and "rlark.ray.prepare-failed" in msg.text
