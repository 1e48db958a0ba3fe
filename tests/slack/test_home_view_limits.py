"""The App Home view stays within Slack's 100 blocks whatever fires: the top alerts (most severe first), as many
as fit with their buttons, and one line counting the rest by severity; the stand-in refuses a view over 100 blocks
as Slack does, and still refuses a message over 50."""

from __future__ import annotations

import json

import pytest

from bot.checks.alerts import Alert
from bot.models.refs import ObjectRef
from bot.redact import Redactor
from bot.render.slack_home import HomeAlert, HomeItem, home_view
from bot.settings import RedactionSettings

from .limits import ApiError, check_blocks

SEVERITIES = ("critical", "warning", "info")


def _alerts(n: int) -> list[HomeAlert]:
    out = []
    for i in range(n):
        alert = Alert(check="long-pending", case="pod.schedule.insufficient-resources",
                      object=ObjectRef.parse(f"gpu-a/ns/Pod/p-{i:03d}"), severity=SEVERITIES[min(2, i // 10)],
                      since=None, summary=f"Pending for {i} minutes")
        out.append(HomeAlert("C0DIAG", alert, root=f"1700000000.{i:06d}", ack=f"ack-{i}", diagnose=f"pod/p-{i:03d}",
                             acked_by="U0ANNA" if i % 2 else ""))
    return out


def _view(alerts: list[HomeAlert]) -> dict[str, object]:
    items = [HomeItem(f"job/j-{i}", "rlark.ray.head-unreachable", "C0DIAG") for i in range(30)]
    return home_view(problem=None, alerts=alerts, recent=items, watches=items, command="/rlark",
                     at="2026-12-04 08:00 UTC", redactor=Redactor(RedactionSettings()), lang="en")


@pytest.mark.parametrize("firing", [0, 1, 19, 20, 21, 500])
def test_the_home_view_fits_slacks_limit_whatever_fires(firing: int) -> None:
    view = _view(_alerts(firing))
    blocks = view["blocks"]
    assert isinstance(blocks, list)
    check_blocks(blocks, limit=100)
    assert "updated" in json.dumps(blocks[-1]).lower(), "the view ends with when it was built, never cut off"
    keys = [b for b in blocks if b["type"] == "context" and "long-pending:" in json.dumps(b)]
    assert len(keys) == min(firing, 20), "the top alerts, up to 20"
    more = [json.dumps(b) for b in blocks if "more not shown" in json.dumps(b)]
    assert more == ([] if firing <= 20 else [more[0]])
    if more:
        assert f"{firing - 20} more not shown" in more[0]


def test_the_top_alerts_are_the_most_severe_and_the_rest_are_counted() -> None:
    alerts = _alerts(500)
    view = _view(alerts)
    text = json.dumps(view)
    assert "p-000" in text and "p-019" in text and "p-020" not in text, "critical and warning first"
    assert "480 more not shown. INFO 480" in text, "the rest counted by severity"


def test_the_stand_in_refuses_a_view_over_100_blocks_and_a_message_over_50() -> None:
    section = {"type": "section", "text": {"type": "mrkdwn", "text": "x"}}
    check_blocks([section] * 100, limit=100)
    with pytest.raises(ApiError):
        check_blocks([section] * 101, limit=100)
    with pytest.raises(ApiError):
        check_blocks([section] * 51)
