"""The thread reply shows the report's first error when the first finding's evidence does not already show it:
the earliest failing line is often not the one a case quotes (a sidecar that never got a pod IP, under workers
that wait for the Head)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.redact import Redactor
from bot.render.slack_labels import label
from bot.render.slack_reply import diagnosis_reply
from render.conftest import Scenario
from render.support import message_strings


def _heads(scenario: Scenario, lang: str) -> tuple[str, list[str]]:
    report = scenario.report(lang)
    assert report.first_error is not None and report.findings
    return report.first_error.text.strip()[:60], [e.text for e in report.findings[0].evidence]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_first_error_the_evidence_does_not_show_gets_its_own_section(
        lang: str, scenario: Callable[[str], Scenario], redactor: Redactor) -> None:
    sc = scenario("rlark-ray-head-unreachable-domain")
    head, evidence = _heads(sc, lang)
    assert not any(head in e for e in evidence)  # the case quotes the workers' waits, not the sidecar
    sent = "\n".join(message_strings(diagnosis_reply(sc.report(lang), redactor=redactor, lang=lang)))
    assert f"*{label('first_error', lang)}*" in sent and head in sent


def test_a_first_error_the_evidence_already_shows_is_not_repeated(
        scenario: Callable[[str], Scenario], redactor: Redactor) -> None:
    sc = scenario("cause-conda-env-then-cli-missing")
    report = sc.report("en")
    head, evidence = _heads(sc, "en")
    assert any(head in e for e in evidence), "the prepare-script case quotes the first error itself"
    sent = "\n".join(message_strings(diagnosis_reply(report, redactor=redactor, lang="en")))
    assert f"*{label('first_error', 'en')}*" not in sent
