"""The Web API stand-in driven by the real slack_sdk WebClient over HTTP: messages, threads, files, faults."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_handlers import (
    ConnectionErrorRetryHandler,
    RateLimitErrorRetryHandler,
    ServerErrorRetryHandler,
)
from slack_sdk.http_retry.builtin_interval_calculators import FixedValueRetryIntervalCalculator
from slack_sdk.http_retry.interval_calculator import RetryIntervalCalculator
from slack_sdk.webhook import WebhookClient

from .conftest import CHANNEL
from .signing import post
from .standin import SlackStandIn

SECTION = {"type": "section", "text": {"type": "mrkdwn", "text": "*job/ppo-big*: diagnosing"}}
META = {"event_type": "rlark_diagnosis", "event_payload": {"case": "rlark.run.nccl", "severity": "error"}}
QUICK = FixedValueRetryIntervalCalculator(0.01)


def test_posts_threads_and_updates_are_kept_with_their_history(slack: SlackStandIn, web: WebClient) -> None:
    root = web.chat_postMessage(channel=CHANNEL, text="diagnosing job/ppo-big", blocks=[SECTION])
    reply = web.chat_postMessage(channel=CHANNEL, text="rlark.run.nccl", thread_ts=root["ts"], metadata=META)
    nested = web.chat_postMessage(channel=CHANNEL, text="again", thread_ts=reply["ts"])
    web.chat_update(channel=CHANNEL, ts=root["ts"], text="collecting pods")
    web.chat_update(channel=CHANNEL, ts=root["ts"], text="done", blocks=[])

    assert root["channel"] == CHANNEL and root["message"]["blocks"] == [SECTION]
    assert float(root["ts"]) < float(reply["ts"]) < float(nested["ts"])
    [shown] = slack.messages(CHANNEL)
    assert (shown.text, shown.blocks, shown.edits) == ("done", None, 2)
    assert [v.text for v in shown.history] == ["diagnosing job/ppo-big", "collecting pods"]
    assert shown.history[1].blocks == [SECTION]  # an update without blocks keeps them, as Slack does
    thread = slack.thread(CHANNEL, root["ts"])
    assert [m.text for m in thread] == ["rlark.run.nccl", "again"]  # a reply to a reply joins the root's thread
    assert thread[0].metadata == META and thread[1].thread_ts == root["ts"]

    post = slack.calls("chat.postMessage")[1]
    assert post.params["metadata"] == META and post.token == slack.token
    assert post.headers["content-type"].startswith("application/json")
    assert post.headers["authorization"] == f"Bearer {slack.token}"
    assert [c.method for c in slack.calls()] == ["chat.postMessage"] * 3 + ["chat.update"] * 2


def test_form_encoded_json_params_are_decoded(slack: SlackStandIn, web: WebClient) -> None:
    web.api_call("chat.postMessage", params={"channel": CHANNEL, "text": "t", "blocks": json.dumps([SECTION]),
                                             "metadata": json.dumps(META)})
    [call] = slack.calls("chat.postMessage")
    assert call.headers["content-type"] == "application/x-www-form-urlencoded"
    assert call.params["blocks"] == [SECTION] and call.params["metadata"] == META
    assert slack.messages(CHANNEL)[0].metadata == META


def test_tokens_are_checked(slack: SlackStandIn) -> None:
    def error(token: str, method: str) -> str:
        with pytest.raises(SlackApiError) as e:
            WebClient(base_url=slack.base_url, token=token).api_call(method)
        return str(e.value.response["error"])

    assert error("xoxb-wrong", "auth.test") == "invalid_auth"
    assert error(slack.app_token, "chat.postMessage") == "not_allowed_token_type"
    assert error(slack.token, "apps.connections.open") == "not_allowed_token_type"
    assert error(slack.token, "chat.nonsense") == "unknown_method"
    assert WebClient(base_url=slack.base_url, token=slack.token).auth_test()["user_id"].startswith("U")
    assert [c.error for c in slack.calls()] == ["invalid_auth", "not_allowed_token_type", "not_allowed_token_type",
                                                "unknown_method", None]


def test_ephemeral_permalink_usergroup_and_channel_info(slack: SlackStandIn, web: WebClient) -> None:
    slack.set_usergroup("S0ADMINS", ["U1", "U2"])
    root = web.chat_postMessage(channel=CHANNEL, text="root")
    reply = web.chat_postMessage(channel=CHANNEL, text="reply", thread_ts=root["ts"])
    web.chat_postEphemeral(channel=CHANNEL, user="U1", text="only for you")

    assert [(e.user, e.text) for e in slack.ephemerals(channel=CHANNEL)] == [("U1", "only for you")]
    link = web.chat_getPermalink(channel=CHANNEL, message_ts=reply["ts"])["permalink"]
    assert link.endswith(f"/archives/{CHANNEL}/p{reply['ts'].replace('.', '')}?thread_ts={root['ts']}&cid={CHANNEL}")
    assert web.usergroups_users_list(usergroup="S0ADMINS")["users"] == ["U1", "U2"]
    assert web.conversations_info(channel=CHANNEL)["channel"]["name"] == "diag"
    refusals = [("usergroups.users.list", {"usergroup": "S0NOPE"}, "no_such_subteam"),
                ("conversations.info", {"channel": "C0UNKNOWN"}, "channel_not_found"),
                ("chat.getPermalink", {"channel": CHANNEL, "message_ts": "1.2"}, "message_not_found")]
    for method, params, error in refusals:
        with pytest.raises(SlackApiError) as e:
            web.api_call(method, params=params)
        assert e.value.response["error"] == error


def test_files_upload_v2_end_to_end(slack: SlackStandIn, web: WebClient) -> None:
    root = web.chat_postMessage(channel=CHANNEL, text="root")
    evidence = "line one\n" * 500
    done = web.files_upload_v2(channel=CHANNEL, thread_ts=root["ts"], filename="evidence.txt", content=evidence,
                               title="Evidence", initial_comment="all evidence")

    assert [c.method for c in slack.calls()][1:] == ["files.getUploadURLExternal", "upload",
                                                     "files.completeUploadExternal"]
    [file] = slack.files(channel=CHANNEL)
    assert (file.name, file.title, file.text(), file.thread_ts) == ("evidence.txt", "Evidence", evidence, root["ts"])
    assert done["file"]["id"] == file.id and done["file"]["size"] == len(evidence.encode())
    [share] = slack.thread(CHANNEL, root["ts"])
    assert share.text == "all evidence" and share.files == [file]


def test_slack_limits_are_enforced(slack: SlackStandIn, web: WebClient) -> None:
    long_section = {"type": "section", "text": {"type": "mrkdwn", "text": "x" * 3001}}
    cases: list[tuple[dict[str, Any], str]] = [({"blocks": [long_section], "text": "t"}, "invalid_blocks"),
             ({"blocks": [SECTION] * 51, "text": "t"}, "invalid_blocks"),
             ({"text": "t", "metadata": {"event_type": "no spaces allowed", "event_payload": {}}},
              "invalid_metadata_format"),
             ({"text": "t", "thread_ts": "1.000001"}, "thread_not_found"),
             ({"text": ""}, "no_text")]
    for extra, error in cases:
        with pytest.raises(SlackApiError) as e:
            web.api_call("chat.postMessage", json={"channel": CHANNEL, **extra})
        assert e.value.response["error"] == error
    assert "json-pointer:/blocks/0/text/text" in slack.calls()[0].response["errors"][0]  # type: ignore[index]
    with pytest.raises(SlackApiError, match="message_not_found"):
        web.chat_update(channel=CHANNEL, ts="1.000001", text="x")
    assert slack.messages(CHANNEL) == []


def test_429_with_retry_after_is_honoured_and_posts_once(slack: SlackStandIn) -> None:
    slack.fail("chat.postMessage", status=429, retry_after=1)
    client = WebClient(base_url=slack.base_url, token=slack.token,
                       retry_handlers=[RateLimitErrorRetryHandler(max_retry_count=1)])
    client.chat_postMessage(channel=CHANNEL, text="once")

    first, second = slack.calls("chat.postMessage")
    assert (first.status, first.error, second.status) == (429, "ratelimited", 200)
    assert second.at - first.at >= 1.0  # slack_sdk waited for Retry-After
    assert [m.text for m in slack.messages(CHANNEL)] == ["once"]


def test_500_is_retried_by_the_server_error_handler(slack: SlackStandIn, web: WebClient) -> None:
    slack.fail("chat.postMessage", status=500)
    with pytest.raises(SlackApiError):
        web.chat_postMessage(channel=CHANNEL, text="no retry handler")
    slack.fail("chat.postMessage", status=500)
    client = WebClient(base_url=slack.base_url, token=slack.token,
                       retry_handlers=[ServerErrorRetryHandler(max_retry_count=1, interval_calculator=QUICK)])
    client.chat_postMessage(channel=CHANNEL, text="after a retry")
    assert [c.status for c in slack.calls("chat.postMessage")] == [500, 500, 200]
    assert [m.text for m in slack.messages(CHANNEL)] == ["after a retry"]


def test_ok_false_errors_and_dropped_connections(slack: SlackStandIn, web: WebClient) -> None:
    slack.fail("chat.update", error="ratelimited", times=None)
    root = web.chat_postMessage(channel=CHANNEL, text="root")
    for _ in range(2):
        with pytest.raises(SlackApiError, match="ratelimited"):
            web.chat_update(channel=CHANNEL, ts=root["ts"], text="never")
    assert slack.messages(CHANNEL)[0].edits == 0

    slack.fail("chat.postMessage", drop=True)
    client = WebClient(base_url=slack.base_url, token=slack.token,
                       retry_handlers=[ConnectionErrorRetryHandler(max_retry_count=1, interval_calculator=QUICK)])
    client.chat_postMessage(channel=CHANNEL, text="after a dropped connection")
    assert [c.status for c in slack.calls("chat.postMessage")] == [200, -1, 200]
    assert len(slack.messages(CHANNEL)) == 2


class BackUpWhileWaiting(RetryIntervalCalculator):
    """Brings the stand-in back up while slack_sdk waits to retry: deterministic, no timer."""

    def __init__(self, standin: SlackStandIn) -> None:
        self.standin = standin
        self.waits = 0

    def calculate_sleep_duration(self, current_attempt: int) -> float:
        self.waits += 1
        self.standin.up()
        return 0.0


def test_down_refuses_connections_and_up_listens_on_the_same_port(slack: SlackStandIn) -> None:
    url = slack.base_url
    slack.down()
    with pytest.raises(urllib.error.URLError, match="refused"):
        urllib.request.urlopen(url + "auth.test", data=b"", timeout=2)
    calculator = BackUpWhileWaiting(slack)
    client = WebClient(base_url=url, token=slack.token,
                       retry_handlers=[ConnectionErrorRetryHandler(max_retry_count=1, interval_calculator=calculator)])
    client.chat_postMessage(channel=CHANNEL, text="after the outage")
    assert calculator.waits == 1 and slack.base_url == url
    assert [c.status for c in slack.calls()] == [200]  # the refused attempt never reached the stand-in
    assert [m.text for m in slack.messages(CHANNEL)] == ["after the outage"]


def test_delay_holds_the_answer(slack: SlackStandIn, web: WebClient) -> None:
    slack.delay("auth.test", 0.2, times=1)
    web.auth_test()
    web.auth_test()
    [delayed, prompt] = slack.calls("auth.test")
    assert delayed.ok and prompt.at - delayed.at >= 0.2


def test_a_released_delay_answers_the_held_call_at_once(slack: SlackStandIn, web: WebClient) -> None:
    held = slack.delay("auth.test", 30.0, times=2)
    answers: list[bool] = []
    caller = threading.Thread(target=lambda: answers.append(bool(web.auth_test()["ok"])))
    caller.start()
    slack.wait_for(lambda: slack.calls("auth.test"))
    caller.join(timeout=0.05)
    assert caller.is_alive() and not answers, "the call is held"
    released = time.monotonic()
    slack.release(held)
    caller.join(timeout=5)
    assert answers == [True] and time.monotonic() - released < 5
    assert web.auth_test()["ok"] and time.monotonic() - released < 5, "its second turn is not held either"
    assert [c.ok for c in slack.calls("auth.test")] == [True, True]


def test_response_urls_record_and_apply_posts(slack: SlackStandIn, web: WebClient) -> None:
    root = web.chat_postMessage(channel=CHANNEL, text="verdict", blocks=[SECTION])
    command_url = slack.new_response_url(channel=CHANNEL, user="U1")
    button_url = slack.new_response_url(channel=CHANNEL, user="U2", message_ts=root["ts"])

    assert WebhookClient(command_url).send(text="usage: /rlark diagnose TARGET").status_code == 200
    assert WebhookClient(command_url).send(text="posted for all", response_type="in_channel").status_code == 200
    assert WebhookClient(button_url).send(text="verdict, refreshed", replace_original=True).status_code == 200

    assert [(e.user, e.text, e.via) for e in slack.ephemerals()] == [("U1", "usage: /rlark diagnose TARGET",
                                                                      "response_url")]
    assert [m.text for m in slack.messages(CHANNEL)] == ["verdict, refreshed", "posted for all"]
    assert slack.messages(CHANNEL)[0].blocks is None  # a replacement is a whole message, unlike chat.update
    assert [p["text"] for p in slack.responses(command_url)] == ["usage: /rlark diagnose TARGET", "posted for all"]
    assert WebhookClient(command_url.rsplit("/", 1)[0] + "/R999999").send(text="x").status_code == 404
    assert [c.method for c in slack.calls()][1:] == ["response_url"] * 4


def test_wait_for_wakes_on_change_and_times_out_with_the_calls_seen(slack: SlackStandIn, web: WebClient) -> None:
    poster = threading.Thread(target=lambda: web.chat_postMessage(channel=CHANNEL, text="from another thread"))
    poster.start()
    [message] = slack.wait_for(lambda: slack.messages(CHANNEL), timeout=5)
    poster.join()
    assert message.text == "from another thread"
    with pytest.raises(AssertionError, match=r"within 0.05s; last calls: chat.postMessage:200"):
        slack.wait_for(lambda: slack.messages("C0OTHER"), timeout=0.05)


def test_reset_forgets_the_conversation_but_keeps_the_setup(slack: SlackStandIn, web: WebClient) -> None:
    slack.set_usergroup("S0ADMINS", ["U1"])
    web.chat_postMessage(channel=CHANNEL, text="root")
    slack.fail("auth.test", status=500, times=None)
    slack.reset()
    assert slack.calls() == [] and slack.messages(CHANNEL) == []
    assert web.auth_test()["ok"] and web.usergroups_users_list(usergroup="S0ADMINS")["users"] == ["U1"]


def test_ts_comes_from_the_clock_and_always_increases() -> None:
    with SlackStandIn(clock=lambda: 1_700_000_000.0) as slack:
        client = WebClient(base_url=slack.base_url, token=slack.token)
        stamps = [client.chat_postMessage(channel=CHANNEL, text=str(i))["ts"] for i in range(3)]
    assert stamps == ["1700000000.000000", "1700000000.000001", "1700000000.000002"]


def test_malformed_bodies_are_recorded_and_refused_as_slack_refuses_them(slack: SlackStandIn) -> None:
    auth = {"Authorization": f"Bearer {slack.token}"}
    url = slack.base_url + "chat.postMessage"
    form = {**auth, "Content-Type": "application/x-www-form-urlencoded"}
    answers = [post(url, b"{not json", {**auth, "Content-Type": "application/json"}),
               post(url, b"channel=C1&text=t&blocks=%5B%7B", form),
               post(slack.base_url.removesuffix("api/") + "elsewhere/x", b"", auth)]
    assert [(status, json.loads(body)["error"]) for status, _, body in answers[:2]] == [
        (200, "invalid_json"), (200, "invalid_blocks")]
    assert answers[2][0] == 404
    assert [c.error for c in slack.calls()] == ["invalid_json", "invalid_blocks"]
    assert slack.calls()[1].params["blocks"] == "[{"  # recorded as sent
    assert slack.messages("C1") == []


def test_parameters_of_the_wrong_shape_are_refused_not_crashed_on(slack: SlackStandIn, web: WebClient) -> None:
    with pytest.raises(SlackApiError) as e:
        web.api_call("chat.postMessage", json={"channel": CHANNEL, "text": "t", "attachments": ["not an object"]})
    assert e.value.response["error"] == "invalid_attachments"
    with pytest.raises(SlackApiError) as e:
        web.api_call("usergroups.users.list", json={"usergroup": ["S0ADMINS"]})
    assert e.value.response["error"] == "invalid_arguments"
    assert e.value.response["errors"] == ["TypeError: unhashable type: 'list'"]
    assert slack.messages(CHANNEL) == []
