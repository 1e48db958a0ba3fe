"""A pod started with a setting missing or wrong stops at once with one line that names the setting: no traceback,
no credential echoed, a non-zero exit the kubelet shows as the container's last state. The processes run side by
side, so the cases cost about one start-up."""

from __future__ import annotations

import pytest

from .conftest import Launch, Planted
from .process import ServedBot

START_TIMEOUT = 30


def test_bad_settings_stop_the_pod_with_one_line_naming_them(launch: Launch, planted: Planted) -> None:
    cases: list[tuple[str, ServedBot]] = [
        ("SLACK_APP_TOKEN", launch(overlay="single")),  # Socket Mode without its app-level token
        ("REDIS_URL", launch(overlay="ha", env={"REDIS_URL": f"http://default:{planted.signing_secret}@redis:6379"})),
    ]
    for named, bot in cases:
        try:
            code = bot.proc.wait(timeout=START_TIMEOUT)
        except Exception:
            pytest.fail(f"serve kept running without a usable {named}:\n{bot.tail()}")
        bot.kill()  # joins the stderr reader
        lines = bot.lines()
        assert code != 0 and len(lines) == 1, (named, code, lines)
        (line,) = lines
        assert line.startswith("rlark-bot: ") and named in line and "Traceback" not in line, line
        assert not any(value in line for value in planted.values())
