"""Every scenario's diagnosis as a Slack reply: Slack's limits, §5's metadata and fallback text, no escapes or
control characters, no planted secret anywhere, both languages."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache

import pytest

from bot.redact import Redactor, seal
from bot.render import blocklimits as lim
from bot.render import render_diagnosis
from bot.render.model import Report
from bot.render.slack_actions import ACTION_IDS, ACTIONS_BLOCK, parse_target_value
from bot.render.slack_evidence import evidence_file
from bot.render.slack_message import SlackMessage, block_chars
from bot.render.slack_reply import diagnosis_reply, slack_payload
from bot.render.slack_text import clean_line
from render.conftest import Scenario
from render.support import CREDENTIAL_CASE, NAMES, SCENARIOS, message_strings

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_SECRET_MIN = 8


def check_limits(msg: SlackMessage) -> None:
    """Slack's hard limits and the bot's own budget, on any message."""
    assert 1 <= len(msg.blocks) <= lim.MAX_BLOCKS
    assert block_chars(msg.blocks) < lim.MESSAGE_CHARS
    assert lim.slack_len(msg.text) <= lim.FALLBACK_TEXT
    for block in msg.blocks:
        kind = block["type"]
        if kind == "section":
            assert block["text"]["type"] == "mrkdwn"
            assert 0 < lim.slack_len(block["text"]["text"]) <= lim.SECTION_TEXT
        elif kind == "header":
            assert block["text"]["type"] == "plain_text"
            assert 0 < lim.slack_len(block["text"]["text"]) <= lim.HEADER_TEXT
        elif kind == "context":
            assert 1 <= len(block["elements"]) <= lim.CONTEXT_ELEMENTS
            assert all(lim.slack_len(e["text"]) <= lim.CONTEXT_TEXT for e in block["elements"])
        elif kind == "actions":
            for b in block["elements"]:
                assert lim.slack_len(b["text"]["text"]) <= lim.BUTTON_TEXT
                assert len(b["value"]) <= lim.ACTION_VALUE
        else:
            assert kind == "divider", kind


@cache
def _planted(name: str) -> frozenset[str]:
    """The credential values the redactor finds in a scenario's raw bundle files."""
    red = Redactor()
    found: set[str] = set()
    for path in (SCENARIOS / name / "bundle").rglob("*"):
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            found.update(text[d.start:d.end] for d in red.scan(text) if d.end - d.start >= _SECRET_MIN)
    return frozenset(found)


def _secret_pieces(value: str) -> list[str]:
    """The value and its long pieces (a cut must not leave a head or a tail of it either)."""
    value = value.strip()
    n = max(_SECRET_MIN, len(value) // 2)
    return [value] + [value[i:i + n] for i in range(0, max(1, len(value) - n + 1), max(1, n // 2))]


@pytest.mark.parametrize("name", NAMES)
def test_reply_for_every_scenario(name: str, scenario: Callable[[str], Scenario], redactor: Redactor) -> None:
    sc = scenario(name)
    got = [f.id for f in sc.diag.findings]
    for lang in ("zh", "en"):
        msg = diagnosis_reply(sc.report(lang), redactor=redactor, lang=lang)
        check_limits(msg)
        # fallback text: the first finding's case id and title, or "no known case"
        if got:
            assert msg.text.startswith(got[0] + " — "), msg.text
        else:
            assert msg.text.startswith("没有匹配到已知案例" if lang == "zh" else "No known case matched"), msg.text
        # nothing a terminal or Slack would interpret as a control sequence
        for s in message_strings(msg):
            assert "\x1b" not in s and not _CONTROL.search(s), repr(s[:200])
        # buttons: the three action ids, each value parses back to the target
        (buttons,) = [b["elements"] for b in msg.blocks if b.get("block_id") == ACTIONS_BLOCK]
        votes = [b["elements"] for b in msg.blocks if b["type"] == "actions" and b.get("block_id") != ACTIONS_BLOCK]
        assert [[(e["action_id"], e["value"].split("|")[0]) for e in v] for v in votes] == [
            [("rlark_feedback", "up")], [("rlark_feedback", "down")]], "👍 and 👎 after the buttons"
        assert [b["action_id"] for b in buttons] == list(ACTION_IDS)
        target, namespace = parse_target_value(buttons[0]["value"])
        assert target == str(sc.diag.target)
        assert namespace in ("", sc.diag.target_namespace)
        # the first finding's title heads the reply in the asked language
        if got:
            assert sc.report(lang).findings[0].title.split()[0] in msg.blocks[0]["text"]["text"]
        # already redacted: the app's final seal changes nothing
        assert seal(msg.blocks, redactor).value == msg.blocks
        status = msg.blocks[[b.get("block_id") for b in msg.blocks].index(ACTIONS_BLOCK) - 1]
        labels = " ".join(b["text"]["text"] for b in buttons) + status["elements"][0]["text"]
        assert bool(_CJK.search(labels)) == (lang == "zh"), labels


@pytest.mark.parametrize("name", NAMES)
def test_metadata_follows_the_contract(name: str, scenario: Callable[[str], Scenario], redactor: Redactor) -> None:
    sc = scenario(name)
    msg = diagnosis_reply(sc.report("en"), redactor=redactor, lang="en")
    assert msg.metadata is not None
    assert msg.metadata["event_type"] == "rlark_diagnosis"
    payload = msg.metadata["event_payload"]
    findings = sc.diag.findings
    if not findings:
        want_case, want_sev = "none", "none"
    else:
        main = next((f for f in findings if f.id != CREDENTIAL_CASE), findings[0])
        want_case, want_sev = main.id, main.severity
    assert (payload["case"], payload["severity"]) == (want_case, want_sev)
    assert payload["cases"] == [f.id for f in findings]
    assert payload["last_stage"] == sc.diag.last_stage
    assert payload["incomplete"] is sc.diag.incomplete
    assert set(payload["target"]) == {"kind", "name", "namespace", "cluster"}
    assert payload["target"]["name"] == sc.diag.target.name
    as_json = json.loads(render_diagnosis(sc.diag, "json", lang="en", redactor=redactor))
    assert payload["redactions"] == as_json["redactions"]
    assert payload["target"] == as_json["target"]
    assert slack_payload(sc.report("en"), redactor=redactor, lang="en") == {
        "text": msg.text, "blocks": msg.blocks, "metadata": msg.metadata}


# The scenarios that plant credentials in logs or the spec (found by scanning the raw bundle files).
CREDENTIAL_SCENARIOS = [n for n in NAMES if n.startswith("rlark-risk-credentials")] + ["rlark-run-robot-serial-timeout"]


@pytest.mark.parametrize("name", CREDENTIAL_SCENARIOS)
def test_planted_secrets_never_reach_slack(name: str, scenario: Callable[[str], Scenario],
                                           redactor: Redactor) -> None:
    sc = scenario(name)
    planted = _planted(name)
    assert planted, "the scenario plants no credential the redactor can find"
    for lang in ("zh", "en"):
        report = sc.report(lang)
        msg = diagnosis_reply(report, redactor=redactor, lang=lang)
        sent = "\n".join([*message_strings(msg), evidence_file(report, redactor=redactor).content])
        for value in planted:
            for piece in _secret_pieces(value):
                assert piece not in sent, f"{name}: part of a planted {len(value)}-character credential was sent"
        # what the renderer returns is already redacted: sealing it again changes nothing
        assert seal(msg.blocks, redactor).value == msg.blocks
        assert seal(msg.metadata, redactor).value == msg.metadata


def _finding_ids(report: Report) -> list[str]:
    return [f.case for f in report.findings]


@pytest.mark.parametrize("name", ["rlark-risk-credentials-with-failure", "rlark-risk-credentials-exposed"])
def test_credentials_case_rule(name: str, scenario: Callable[[str], Scenario], redactor: Redactor) -> None:
    """With a failure, the metadata names the failure; alone, the credentials case itself."""
    report = scenario(name).report("en")
    ids = _finding_ids(report)
    assert CREDENTIAL_CASE in ids
    meta = diagnosis_reply(report, redactor=redactor, lang="en").metadata
    assert meta is not None
    others = [i for i in ids if i != CREDENTIAL_CASE]
    assert meta["event_payload"]["case"] == (others[0] if others else CREDENTIAL_CASE)


@pytest.mark.parametrize("name", NAMES)
def test_evidence_file_holds_every_excerpt_with_its_source(name: str, scenario: Callable[[str], Scenario],
                                                           redactor: Redactor) -> None:
    report = scenario(name).report("en")
    f = evidence_file(report, redactor=redactor)
    assert f.name.startswith("rlark-evidence-") and f.name.endswith(".txt")
    assert report.target_label in f.title
    for finding in report.findings:
        assert f"{finding.case} — " in f.content
        for item in finding.evidence:
            assert clean_line(item.text, redactor) in " ".join(f.content.split())
            assert item.source in f.content
    assert not _CONTROL.search(f.content.replace("\n", ""))
    assert evidence_file(report, redactor=redactor) == f

