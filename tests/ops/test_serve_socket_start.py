"""Socket Mode start-up against a Slack that cannot be reached or refuses: the process serves `/healthz` (and a
failing `/readyz`) while it retries with backoff, connects once Slack is back; a wrong app token stops it with
one line naming `invalid_auth`, a non-zero exit and no traceback."""

from __future__ import annotations

from slack.socket_standin import SocketModeStandIn
from slack.standin import SlackStandIn

from .conftest import Launch, Planted, assert_clean_stderr
from .test_serve_process import READY_TIMEOUT


def test_slack_down_at_start_is_retried_and_recovers(socket_mode: SocketModeStandIn, launch: Launch,
                                                    slack: SlackStandIn, planted: Planted) -> None:
    slack.fail("apps.connections.open", status=503, times=None)
    bot = launch(overlay="single", socket_mode=True)
    bot.wait_listening(timeout=30)
    assert bot.get("/healthz")[0] == 200
    reason = bot.wait_status("/readyz", 503, timeout=10)
    slack.wait_for(lambda: len(slack.calls("apps.connections.open")) >= 2, timeout=30)
    assert "Socket Mode" in reason, reason
    slack.clear_faults()
    socket_mode.wait_for_connection(timeout=40)
    bot.wait_status("/readyz", 200, timeout=READY_TIMEOUT)
    assert bot.terminate(timeout=30) == 0
    assert not [line for line in bot.lines() if "Traceback" in line], bot.tail()
    assert_clean_stderr(bot, planted)


def test_slack_unreachable_at_start_is_retried(socket_mode: SocketModeStandIn, launch: Launch,
                                              slack: SlackStandIn, planted: Planted) -> None:
    slack.fail("apps.connections.open", drop=True, times=None)
    bot = launch(overlay="single", socket_mode=True)
    bot.wait_listening(timeout=30)
    assert bot.wait_status("/readyz", 503, timeout=10)
    slack.clear_faults()
    socket_mode.wait_for_connection(timeout=40)
    assert bot.terminate(timeout=30) == 0


def test_a_wrong_app_token_stops_with_one_line(socket_mode: SocketModeStandIn, launch: Launch,
                                              slack: SlackStandIn, planted: Planted) -> None:
    bot = launch(overlay="single", socket_mode=True, env={"SLACK_APP_TOKEN": "xapp-1-wrong-token"})
    try:
        code = bot.proc.wait(timeout=60)
    except Exception:
        raise AssertionError(f"still running with a wrong app token:\n{bot.tail()}") from None
    assert code != 0
    said = [line for line in bot.lines() if "invalid_auth" in line]
    assert said == ["rlark-bot: Slack refused the app token (SLACK_APP_TOKEN): invalid_auth"], bot.tail()
    assert not [line for line in bot.lines() if "Traceback" in line], bot.tail()
