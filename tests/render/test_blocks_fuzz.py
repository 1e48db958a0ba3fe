"""Any report, however hostile its strings, renders within Slack's limits with no control characters, no raw
markup in mrkdwn and no planted secret, in both languages."""

from __future__ import annotations

import re
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.redact import Redactor
from bot.render.model import EvidenceView, FindingView
from bot.render.slack_reply import diagnosis_reply
from render.conftest import Scenario
from render.support import message_strings
from render.test_blocks_scenarios import check_limits

SECRET = "ghp_" + "Zq8" * 12
BITS = ["a", "中文", "🙂", " ", "\n", "\t", "`", "```", "<", ">", "&", "<!channel>", "*", "_", "~", "\x1b[31m",
        "\x1b]0;t\x07", "\x07", "\x00", "\r", "\x9b", "[REDACTED:x]", f"token={SECRET}", "x" * 300, "line\n" * 40]
TEXT = st.lists(st.sampled_from(BITS), max_size=8).map("".join)


def _texts(n: int) -> st.SearchStrategy[tuple[str, ...]]:
    return st.lists(TEXT, max_size=n).map(tuple)


EVIDENCE = st.builds(EvidenceView, source=TEXT, text=TEXT, context=_texts(6))
FINDING = st.builds(
    FindingView,
    case=st.sampled_from(["rlark.ray.prepare-failed", "rlark.risk.credentials-exposed", "pod.run.oom-killed"]),
    title=TEXT, symptom=TEXT, severity=st.sampled_from(["critical", "error", "warning", "info"]),
    evidence=st.lists(EVIDENCE, max_size=6).map(tuple), next_steps=_texts(8), avoid=_texts(8),
    escalate_to=st.sampled_from(["user", "admin", "ci-infra", "operator"]), sources=_texts(3),
    stage=st.just("scheduled"))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(findings=st.lists(FINDING, max_size=12), problems=st.lists(TEXT, max_size=12),
       not_collected=st.lists(TEXT, max_size=12), lang=st.sampled_from(["zh", "en"]))
def test_hostile_reports_render_safely(findings: list[FindingView], problems: list[str],
                                       not_collected: list[str], lang: str,
                                       scenario: Callable[[str], Scenario], redactor: Redactor) -> None:
    report = scenario("rlark-ray-prepare-failed").report(lang).model_copy(update={
        "findings": tuple(findings), "problems": tuple(problems), "not_collected": tuple(not_collected),
        "incomplete": bool(problems)})
    msg = diagnosis_reply(report, redactor=redactor, lang=lang)
    check_limits(msg)
    for s in message_strings(msg):
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", s)
        assert SECRET[4:16] not in s
    mrkdwn = [b["text"]["text"] for b in msg.blocks if b["type"] == "section"]
    mrkdwn += [e["text"] for b in msg.blocks if b["type"] == "context" for e in b["elements"]]
    for text in [msg.text, *mrkdwn]:
        assert "<" not in text and ">" not in text, text[:200]  # the reply has no links: every bracket is escaped
    evidence = [t for t in mrkdwn if t.startswith(("*Evidence*", "*证据*"))]
    assert all(t.count("```") == 2 for t in evidence)
    assert msg.metadata is not None and msg.metadata["event_payload"]["cases"] == [f.case for f in findings]
