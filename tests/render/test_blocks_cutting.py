"""What the diagnosis reply does when a report does not fit: each cut stays within Slack's limits, happens
after redaction, says what was left out, and the attached evidence file holds all of it."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from bot.bundle import read_bundle
from bot.diagnose import diagnose
from bot.models import Target
from bot.redact import Redactor
from bot.render import blocklimits as lim
from bot.render.model import EvidenceView, FirstErrorView, Report
from bot.render.report import build_report
from bot.render.slack_message import SlackMessage, block_chars
from bot.render.slack_reply import diagnosis_reply
from bot.runbook import Runbook
from render.conftest import Scenario
from render.support import SCENARIOS, finding, message_strings, with_first
from render.test_blocks_scenarios import check_limits

BASE = "rlark-ray-prepare-failed"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY"


@pytest.fixture
def base(scenario: Callable[[str], Scenario]) -> Callable[[str], Report]:
    return lambda lang: scenario(BASE).report(lang)


def _sections(msg: SlackMessage) -> list[str]:
    return [b["text"]["text"] for b in msg.blocks if b["type"] == "section"]


def _evidence_section(msg: SlackMessage) -> str:
    (text,) = [t for t in _sections(msg) if t.startswith(("*Evidence*", "*证据*"))]
    return text


def _mrkdwn(value: Any) -> list[str]:
    """The text of every mrkdwn text object (where Slack would parse links and mentions)."""
    if isinstance(value, dict):
        own = [value["text"]] if value.get("type") == "mrkdwn" else []
        return own + [s for v in value.values() for s in _mrkdwn(v)]
    if isinstance(value, list):
        return [s for v in value for s in _mrkdwn(v)]
    return []


def _more(text: str, what: str) -> int:
    m = re.search(rf"… (\d+) more {what}\(s\), see the file (\S+)_", text)
    assert m, text[-300:]
    return int(m.group(1))


def test_many_findings_are_folded_and_the_rest_named(base: Callable[[str], Report],
                                                    redactor: Redactor) -> None:
    report = base("en")
    report = report.model_copy(update={"findings": report.findings + tuple(finding(i) for i in range(40))})
    msg = diagnosis_reply(report, redactor=redactor, lang="en")
    check_limits(msg)
    (others,) = [t for t in _sections(msg) if t.startswith("*Other findings*")]
    shown = others.count("\n• ")
    assert shown <= lim.OTHERS_LINES
    assert shown + _more(others, "finding") == len(report.findings) - 1
    (file,) = msg.files
    assert file.name in others
    assert all(f.case in file.content for f in report.findings)
    assert msg.metadata is not None
    assert msg.metadata["event_payload"]["cases"] == [f.case for f in report.findings]


def test_huge_evidence_goes_to_the_file(base: Callable[[str], Report], redactor: Redactor) -> None:
    lines = [f"step {i}: loading shard {i} of 5000 & checking <checksum>" for i in range(5000)]
    report = with_first(base("en"), evidence=(EvidenceView(source="gpu-a/ns/pod-0:main",
                                                           text="first error, line 1: boom", context=tuple(lines)),))
    msg = diagnosis_reply(report, redactor=redactor, lang="en")
    check_limits(msg)
    evidence = _evidence_section(msg)
    assert lim.slack_len(evidence) <= lim.SECTION_TEXT
    shown = evidence.count("loading shard")
    assert shown > 10
    assert shown + _more(evidence, "line") == len(lines)
    assert evidence.count("```") == 2 and "&amp;" in evidence and "&lt;checksum&gt;" in evidence
    (file,) = msg.files
    assert file.content.count("loading shard") == len(lines)
    assert "<checksum>" in file.content  # files are plain text, not mrkdwn


def test_one_enormous_line_is_cut_and_said(base: Callable[[str], Report], redactor: Redactor) -> None:
    report = with_first(base("zh"), evidence=(EvidenceView(source="gpu-a/ns/pod-0:main", text="x" * 20000),))
    msg = diagnosis_reply(report, redactor=redactor, lang="zh")
    check_limits(msg)
    evidence = _evidence_section(msg)
    assert "…" in evidence and "另有" in evidence and msg.files
    assert msg.files[0].content.count("x" * 20000) == 1


@pytest.mark.parametrize("shift", range(0, 60, 7))
def test_a_cut_never_leaves_part_of_a_secret(shift: int, base: Callable[[str], Report],
                                             redactor: Redactor) -> None:
    """Lines of filler, then secrets exactly where the cut falls: whatever the offset, no head or tail of the
    secret is shown and no mask is cut in half."""
    filler = ["." * (40 + shift)] * 40
    secret_lines = [f"AWS_SECRET_ACCESS_KEY={AWS_SECRET}" for _ in range(200)]
    evidence = EvidenceView(source="s", text="t", context=tuple(filler + secret_lines))
    report = with_first(base("en"), evidence=(evidence,),
                        title=f"{'T' * (120 + shift)} password={AWS_SECRET}")
    msg = diagnosis_reply(report, redactor=redactor, lang="en")
    check_limits(msg)
    for s in message_strings(msg):
        for i in range(0, len(AWS_SECRET) - 7):
            assert AWS_SECRET[i:i + 8] not in s
        assert s.count("[REDACTED:") == len(re.findall(r"\[REDACTED:[a-z0-9_.-]+\]", s)), s[-200:]


def test_markup_in_evidence_is_escaped_and_fences_hold(base: Callable[[str], Report],
                                                      redactor: Redactor) -> None:
    report = with_first(base("en"), evidence=(EvidenceView(source="c/ns/p:main", text="see ```rm -rf``` <!channel> a&b",
                                                           context=("`inline`", "<https://evil.example|click>")),),
                        title="<@U123> & <!here>")
    msg = diagnosis_reply(report, redactor=redactor, lang="en")
    evidence = _evidence_section(msg)
    assert evidence.count("```") == 2
    assert "<!channel>" not in evidence and "&lt;!channel&gt;" in evidence and "a&amp;b" in evidence
    assert "<https://evil" not in evidence
    assert all("<!here>" not in s and "<@U123>" not in s for s in [msg.text, *_mrkdwn(msg.blocks)])
    assert msg.blocks[0]["text"]["text"].endswith("<@U123> & <!here>")  # plain text: Slack shows it as typed
    assert msg.text.startswith("rlark.ray.prepare-failed — &lt;@U123&gt; &amp; &lt;!here&gt;")


def test_terminal_escapes_and_control_characters_are_dropped(base: Callable[[str], Report],
                                                            redactor: Redactor) -> None:
    report = with_first(base("en"), evidence=(EvidenceView(
        source="c/ns/p:main", text="\x1b[31mERROR\x1b[0m disk \x07full\x00",
        context=("\x1b]0;title\x07progress\r100%", "\x9b2Jwiped\x08")),), next_steps=("\x1b[1mfree\x1b[0m space",))
    msg = diagnosis_reply(report, redactor=redactor, lang="en")
    sent = "\n".join(message_strings(msg))
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", sent)
    evidence = _evidence_section(msg)
    assert "ERROR disk full" in evidence and "progress\n" in evidence and "wiped" in evidence
    assert "1. free space" in "\n".join(_sections(msg))


def test_long_lists_are_cut_and_said(base: Callable[[str], Report], redactor: Redactor) -> None:
    report = with_first(base("en"), next_steps=tuple(f"step number {i} " + "y" * 80 for i in range(60)),
                        avoid=tuple(f"do not {i} " + "z" * 80 for i in range(60)))
    report = report.model_copy(update={
        "problems": tuple(f"gpu-a/ns/pods: 403 Forbidden for list number {i}" for i in range(300)),
        "not_collected": tuple(f"ns-{i}/events.json" for i in range(300)), "incomplete": True})
    msg = diagnosis_reply(report, redactor=redactor, lang="en")
    check_limits(msg)
    texts = _sections(msg)
    (steps,) = [t for t in texts if t.startswith("*Next steps*")]
    (avoid,) = [t for t in texts if t.startswith("*Do not*")]
    (unread,) = [t for t in texts if "could not read" in t]
    assert steps.count("step number") + int(re.search(r"… (\d+) more", steps).group(1)) == 60  # type: ignore[union-attr]
    assert avoid.count(":no_entry_sign:") + int(re.search(r"… (\d+) more", avoid).group(1)) == 60  # type: ignore[union-attr]
    assert unread.count("403 Forbidden") + int(re.search(r"… (\d+) more", unread).group(1)) == 300  # type: ignore[union-attr]
    shown_names = unread.split("*Not collected*: ")[1].count("/events.json")
    assert shown_names + int(re.search(r"\*: .*… (\d+) more", unread).group(1)) == 300  # type: ignore[union-attr]
    (file,) = msg.files
    assert file.content.count("403 Forbidden") == 300 and file.content.count("step number") == 60


def test_no_case_with_a_huge_first_error(scenario: Callable[[str], Scenario], redactor: Redactor) -> None:
    report = scenario("healthy-single-node").report("en")
    assert not report.findings
    report = report.model_copy(update={"first_error": FirstErrorView(
        source="c/ns/p:main", line=7, text="Error: " + "e" * 300,
        context=tuple(f"{i:6d}  context line" for i in range(2000)))})
    msg = diagnosis_reply(report, redactor=redactor, lang="en")
    check_limits(msg)
    assert msg.blocks[0]["text"]["text"].endswith("No known case matched")
    (first,) = [t for t in _sections(msg) if t.startswith("*First error*")]
    assert "line 7" in first and first.count("context line") + _more(first, "line") == 2001 - 1
    assert msg.files and msg.files[0].content.count("context line") == 2000


def test_everything_at_once_stays_within_the_budget(base: Callable[[str], Report],
                                                   redactor: Redactor) -> None:
    big = "错误信息🙂" * 100  # 500 characters, 600 as Slack counts
    report = with_first(base("zh"), title=big, symptom=big,
                        evidence=(EvidenceView(source=big, text=big, context=(big,) * 50),) * 30,
                        next_steps=(big,) * 30, avoid=(big,) * 30, sources=(big,) * 30)
    report = report.model_copy(update={"findings": report.findings + tuple(finding(i, title=big) for i in range(200)),
                                       "problems": (big,) * 100, "not_collected": (big,) * 100, "incomplete": True})
    msg = diagnosis_reply(report, redactor=redactor, lang="zh")
    check_limits(msg)
    assert block_chars(msg.blocks) < lim.MESSAGE_CHARS
    assert msg.blocks[-1]["type"] == "actions"


def test_the_budgets_add_up() -> None:
    parts = (lim.HEADER_TEXT + lim.SUMMARY_SECTION + lim.EVIDENCE_SECTION + lim.STEPS_SECTION + lim.AVOID_SECTION
             + lim.OTHERS_SECTION + lim.INCOMPLETE_SECTION + 5 * lim.CONTEXT_PIECE + 3 * lim.BUTTON_TEXT)
    assert parts < lim.MESSAGE_CHARS
    assert lim.FIRST_ERROR_SECTION <= lim.EVIDENCE_SECTION  # shown instead of evidence, never beside it


def test_a_target_that_was_not_found_says_where_it_looked(runbook: Runbook, redactor: Redactor) -> None:
    evidence = read_bundle(SCENARIOS / BASE / "bundle")
    assert evidence.captured_at is not None
    diag = diagnose(evidence, runbook, now=evidence.captured_at, target=Target.parse("job/no-such-job"),
                    redactor=redactor)
    assert not diag.found
    for lang in ("zh", "en"):
        msg = diagnosis_reply(build_report(diag, lang), redactor=redactor, lang=lang)
        check_limits(msg)
        assert msg.blocks[0]["text"]["text"].endswith("没有找到目标" if lang == "zh" else "Target not found")
        assert "no-such-job" in msg.blocks[1]["text"]["text"] and "looked for" in msg.blocks[1]["text"]["text"]
        assert msg.metadata is not None and msg.metadata["event_payload"]["case"] == "none"
