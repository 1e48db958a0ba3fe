"""`/rlark preflight`, `nodes`, `compare`, `timeline`, the "Preflight this Job" shortcut and the Timeline button,
over signed HTTP against the Slack stand-in: the answers and their metadata, the refusals (the same as
diagnose's), retries and double clicks, and nothing secret in anything sent."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote_plus, urlencode

import pytest

from bot.cli import main
from bot.runbook import Runbook
from bot.settings import ChannelBinding
from bot.sources import BundleSource
from bot.store.memory import MemoryStore
from tests.compare.pairs import A, B, build, edit_job, job_yaml, main_of, task_of

from .apphost import CHANNEL, EVERYWHERE, SECRET, USER, AppHost, bundle_of
from .model import Message, unkeyed
from .signing import TEAM_ID, new_trigger_id, post, signed_headers
from .standin import SlackStandIn

PREFLIGHT = bundle_of("preflight")  # Job ppo-franka-0411, domain robotics; 7 RLark Nodes in 4 clusters
JOB = "ppo-franka-0411"
PLANTED = "AKIA4QZ7RLNKX2P9TB3E"  # an AWS access key id, planted in a Job's script
PNG = b"\x89PNG\r\n\x1a\n"
CHANNELS = {
    CHANNEL: EVERYWHERE,
    "C0OTHERLAB": ChannelBinding(domains=["other-lab"], clusters="*", namespaces="*"),
    "C0ROBOTICS": ChannelBinding(domains=["robotics"], clusters="*"),
    "C0GPUB": ChannelBinding(domains="*", clusters=["gpu-b"], namespaces="*"),
}


def planted_bundle(tmp: Path) -> Path:
    """examples/preflight with an AWS key in ppo-franka-0411's run script."""
    root = tmp / "preflight"
    shutil.copytree(PREFLIGHT, root)
    path = root / "kcp" / "jobs.rlinf.io.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    for job in doc["items"]:
        for task in job["spec"]["tasks"]:
            if task.get("head"):
                task["runScript"] = f"export AWS_ACCESS_KEY_ID={PLANTED}\n" + str(task.get("runScript") or "")
    path.write_text(json.dumps(doc), encoding="utf-8")
    return root


def pair_bundle(tmp: Path) -> Path:
    """Runs A and B of one job: B changed its image and hits rlark.ray.cli-missing (its pods restart); both
    scripts carry a planted credential."""
    bundle = build(tmp / "pair", b={"head": {"image": "registry.rlinf.example/rlinf/rlinf:v2"},
                                    "worker": {"image": "registry.rlinf.example/rlinf/rlinf:v2"}},
                   b_outcome="cli-missing")

    def plant(doc: dict[str, Any]) -> None:
        for task in doc["spec"]["tasks"]:
            task["runScript"] = f"export AWS_ACCESS_KEY_ID={PLANTED}\npython train.py\n"

    for name in (A, B):
        edit_job(bundle, name, plant)
    return bundle


def start(slack: SlackStandIn, runbook: Runbook, bundle: Path) -> AppHost:
    return AppHost(slack=slack, bundle=bundle, store=MemoryStore(), runbook=runbook, channels=CHANNELS).start()


@pytest.fixture
def host(slack: SlackStandIn, runbook: Runbook, tmp_path: Path) -> Iterator[AppHost]:
    with start(slack, runbook, planted_bundle(tmp_path)) as running:
        yield running


@pytest.fixture
def pair(slack: SlackStandIn, runbook: Runbook, tmp_path: Path) -> Iterator[AppHost]:
    with start(slack, runbook, pair_bundle(tmp_path)) as running:
        yield running


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    main([*argv, "--format", "json"])
    out = capsys.readouterr().out
    return dict(json.loads(out))


def replies(slack: SlackStandIn, channel: str = CHANNEL) -> list[Message]:
    return [r for root in slack.messages(channel) for r in slack.thread(channel, root.ts)]


def with_event(slack: SlackStandIn, event: str, channel: str = CHANNEL) -> list[Message]:
    return [m for m in replies(slack, channel) if m.event_type == event]


def sent(slack: SlackStandIn) -> str:
    """Everything sent to Slack but the tokens: every call's parameters and body, every file."""
    parts: list[str] = []
    for call in slack.calls():
        parts.append(json.dumps({k: v for k, v in call.params.items() if k != "token"}, ensure_ascii=False))
        raw = call.body.decode("utf-8", errors="replace")
        parts += [raw, unquote_plus(raw)]
    parts += [f.text() for f in slack.files()]
    parts += [json.dumps(r, ensure_ascii=False) for r in slack.responses()]
    return "\n".join(parts)


def shortcut(host: AppHost, message: Message | dict[str, Any], *, channel: str = CHANNEL,
             trigger: str | None = None, retry: int | None = None) -> int:
    """A click on "Preflight this Job" on `message`, posted to the bot signed as Slack signs it."""
    msg = message if isinstance(message, dict) else {"type": "message", "ts": message.ts, "text": message.text}
    host.last_response_url = host.slack.new_response_url(channel=channel, user=USER)
    payload = {"type": "message_action", "callback_id": "rlark_preflight_message", "trigger_id": trigger or
               new_trigger_id(), "team": {"id": TEAM_ID}, "channel": {"id": channel, "name": "diag"},
               "user": {"id": USER, "name": "asker"}, "message_ts": msg["ts"], "message": msg,
               "response_url": host.last_response_url, "action_ts": f"{time.time():.6f}"}
    body = urlencode({"payload": json.dumps(payload)}).encode("utf-8")
    headers = dict(signed_headers(body, SECRET, retry_num=retry))
    status, _, _ = post(host.url, body, headers)
    return status


# ---- preflight and nodes


def test_preflight_of_a_job_is_a_thread_with_the_cli_json(host: AppHost, slack: SlackStandIn,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    reply = host.command(f"preflight job/{JOB}")
    assert reply.status == 200 and reply.seconds < 3
    host.idle(submitted=1)
    [root] = slack.messages(CHANNEL)
    [answer] = with_event(slack, "rlark_preflight")
    expected = cli_json(capsys, "preflight", f"job/{JOB}", "--snapshot", str(host_bundle(host)))
    assert answer.metadata is not None and unkeyed(answer.metadata)["event_payload"] == expected
    assert not expected["ready"] and any(f["rule"] == "P33" for f in expected["findings"]), "the planted key"
    assert "NOT READY" in slack.message(CHANNEL, root.ts).text, "the root says the verdict"
    assert PLANTED not in sent(slack)


def host_bundle(host: AppHost) -> Path:
    source = host.deps.source
    assert isinstance(source, BundleSource)
    return source.path


def test_nodes_is_the_cli_match_in_a_thread(host: AppHost, slack: SlackStandIn,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    host.command("nodes rlinf.io/pool=a100-train")
    host.idle(submitted=1)
    [answer] = with_event(slack, "rlark_preflight")
    expected = cli_json(capsys, "nodes", "rlinf.io/pool=a100-train", "--snapshot", str(host_bundle(host)))
    assert answer.metadata is not None and unkeyed(answer.metadata)["event_payload"] == expected
    assert len(expected["nodes"]) == 5 and not expected["one_cluster"]


def test_nodes_in_a_channel_bound_to_one_cluster_shows_only_that_cluster(host: AppHost, slack: SlackStandIn) -> None:
    host.command("nodes rlinf.io/pool=a100-train", channel="C0GPUB")
    host.idle(submitted=1)
    [answer] = with_event(slack, "rlark_preflight", "C0GPUB")
    assert answer.metadata is not None
    payload = answer.metadata["event_payload"]
    assert [n["name"] for n in payload["nodes"]] == ["gpu-b-node-0"] and payload["clusters"] == ["gpu-b"]
    assert payload["one_cluster"] and payload["one_node"]
    assert "gpu-a" not in sent(slack), "nothing of a cluster the channel may not see"


# ---- refusals, the same as diagnose's


REFUSED = [
    ("C0UNBOUND", f"preflight job/{JOB}"),
    ("C0OTHERLAB", f"preflight job/{JOB}"),  # the Job's domain is robotics
    ("C0ROBOTICS", "preflight job/no-such-job"),  # missing, in a scoped channel
    ("C0UNBOUND", "nodes rlinf.io/pool=a100-train"),
    ("C0OTHERLAB", f"timeline job/{JOB}"),
    ("C0UNBOUND", f"timeline job/{JOB}"),
]


def test_refusals_are_diagnoses_refusal_and_post_nothing(host: AppHost, slack: SlackStandIn) -> None:
    host.command(f"diagnose job/{JOB}", channel="C0OTHERLAB")
    for channel, text in REFUSED:
        assert host.command(text, channel=channel).status == 200
    host.idle(submitted=len(REFUSED) + 1)
    answers = slack.responses()
    assert len(answers) == len(REFUSED) + 1
    assert len({a["text"] for a in answers}) == 1, "worded as diagnose's, whatever the command"
    assert not slack.calls("chat.postMessage") and not slack.files()


def test_compare_refuses_unless_both_jobs_are_in_scope(pair: AppHost, slack: SlackStandIn) -> None:
    pair.command(f"diagnose job/{A}", channel="C0OTHERLAB")
    pair.command(f"compare job/{A} job/{B}", channel="C0OTHERLAB")
    pair.command(f"compare job/{A} job/no-such-job", channel="C0OTHERLAB")
    pair.idle(submitted=3)
    texts = [a["text"] for a in slack.responses()]
    assert len(texts) == 3 and len(set(texts)) == 1
    assert not slack.calls("chat.postMessage")


@pytest.mark.parametrize("text", ["preflight", "preflight pod/x", "nodes", "nodes a=b,c", "compare job/a",
                                  "compare job/a job/a", "compare job/a ./b.yaml", "timeline"])
def test_malformed_commands_get_the_usage_line(host: AppHost, slack: SlackStandIn, text: str) -> None:
    reply = host.command(text)
    assert reply.status == 200 and "Usage:" in reply.text and "preflight job/NAME" in reply.text
    assert not slack.calls("chat.postMessage")


# ---- compare and timeline


def test_compare_is_the_cli_json_in_a_thread_with_nothing_secret(pair: AppHost, slack: SlackStandIn,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    pair.command(f"compare job/{A} job/{B}")
    pair.idle(submitted=1)
    [answer] = with_event(slack, "rlark_compare")
    expected = cli_json(capsys, "compare", f"job/{A}", f"job/{B}", "--snapshot", str(host_bundle(pair)))
    assert answer.metadata is not None and unkeyed(answer.metadata)["event_payload"] == expected
    assert "image" in expected["categories_changed"]
    assert PLANTED not in sent(slack)


def test_timeline_uploads_the_png_and_the_text_in_a_thread(pair: AppHost, slack: SlackStandIn) -> None:
    pair.command(f"timeline job/{B}")
    pair.idle(submitted=1)
    [root] = slack.messages(CHANNEL)
    [answer] = with_event(slack, "rlark_timeline")
    assert "```" in json.dumps(answer.blocks), "the text form"
    [picture] = slack.files(channel=CHANNEL)
    assert picture.content is not None and picture.content.startswith(PNG) and picture.thread_ts == root.ts
    assert slack.calls("files.getUploadURLExternal") and slack.calls("files.completeUploadExternal")
    assert PLANTED not in sent(slack)


def test_a_diagnosed_job_with_restarts_gets_its_picture_once_and_the_button_adds_none(
        pair: AppHost, slack: SlackStandIn) -> None:
    pair.command(f"diagnose job/{B}")
    [root] = pair.wait_answered()
    pair.idle(submitted=1)
    reply = pair.reply_of(root)
    [button] = [b for b in reply.buttons() if b["action_id"] == "rlark_timeline"]
    assert len(slack.files(channel=CHANNEL)) == 1, "restarting pods: the picture came by itself"
    for _ in range(2):  # a double click
        assert pair.click(button, root=root, message_ts=reply.ts).status == 200
    pair.idle(submitted=3)
    assert len(slack.files(channel=CHANNEL)) == 1, "once per thread"


def test_the_timeline_button_uploads_into_the_diagnosis_thread_once(pair: AppHost, slack: SlackStandIn) -> None:
    pair.deps.settings.timeline_auto = False
    pair.command(f"diagnose job/{A}")
    [root] = pair.wait_answered()
    pair.idle(submitted=1)
    assert not slack.files(channel=CHANNEL), "the setting is off"
    reply = pair.reply_of(root)
    [button] = [b for b in reply.buttons() if b["action_id"] == "rlark_timeline"]
    for _ in range(3):
        pair.click(button, root=root, message_ts=reply.ts)
    pair.idle(submitted=4)
    [picture] = slack.files(channel=CHANNEL)
    assert picture.thread_ts == root.ts and picture.content is not None and picture.content.startswith(PNG)


# ---- retries and the cooldown


def test_retries_and_asking_again_make_one_thread(host: AppHost, slack: SlackStandIn) -> None:
    body = host.command_body(f"preflight job/{JOB}")
    assert host.send(body).status == 200
    assert host.send(body, headers={"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"}).status == 200
    host.idle(submitted=1)
    host.command(f"preflight {JOB}")  # the same Job, spelled otherwise, within the minute
    host.idle(submitted=2)
    assert len(slack.messages(CHANNEL)) == 1 and len(with_event(slack, "rlark_preflight")) == 1
    assert "just" in slack.responses()[-1]["text"], "a link to the thread instead"


# ---- the message shortcut


def test_the_shortcut_preflights_a_yaml_block_in_the_messages_thread(pair: AppHost, slack: SlackStandIn,
                                                                     tmp_path: Path) -> None:
    def plan(doc: dict[str, Any]) -> None:
        main_of(task_of(doc, "actor"))["env"] = [{"name": "HF_TOKEN", "value": "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"}]

    text = job_yaml(host_bundle(pair), A, name="ppo-franka-0414", edit=plan)
    said = "does this look right?\n```\n" + text.replace("&", "&amp;") + "```"
    ts = slack.model.add_message(CHANNEL, {"text": said}).ts  # a person's message, as Slack holds it
    msg = {"type": "message", "ts": ts, "text": said}
    trigger = new_trigger_id()
    assert shortcut(pair, msg, trigger=trigger) == 200
    assert shortcut(pair, msg, trigger=trigger) == 200  # the same delivery twice
    assert shortcut(pair, msg) == 200  # a second click
    pair.idle(submitted=3)
    calls = [c for c in slack.calls("chat.postMessage") if c.params.get("thread_ts") == ts]
    assert len(calls) == 1
    metadata = calls[0].params["metadata"]
    assert metadata["event_type"] == "rlark_preflight"
    assert metadata["event_payload"]["job"] == "ppo-franka-0414"
    assert any(f["rule"] == "P33" for f in metadata["event_payload"]["findings"])
    assert "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" not in sent(slack) and PLANTED not in sent(slack)


@pytest.mark.parametrize("text", ["no code here", "```\nkind: [unclosed\n```", "```\na: &x [1]\nb: *x\n```",
                                  "```\napiVersion: v1\nkind: Pod\n```"])
def test_the_shortcut_on_a_message_without_one_job_is_one_ephemeral_line(pair: AppHost, slack: SlackStandIn,
                                                                         text: str) -> None:
    assert shortcut(pair, {"type": "message", "ts": "1700000000.000200", "text": text}) == 200
    pair.idle(submitted=1)
    [answer] = slack.responses()
    assert answer["response_type"] == "ephemeral" and answer["text"].count("\n") == 0
    assert not slack.calls("chat.postMessage")


def test_the_shortcut_refuses_a_job_outside_the_channels_domains(pair: AppHost, slack: SlackStandIn) -> None:
    text = job_yaml(host_bundle(pair), A, name="ppo-franka-0415")
    msg = {"type": "message", "ts": "1700000000.000300", "text": f"```\n{text}```"}
    shortcut(pair, msg, channel="C0OTHERLAB")
    shortcut(pair, msg, channel="C0UNBOUND")
    pair.command(f"diagnose job/{A}", channel="C0OTHERLAB")
    pair.idle(submitted=3)
    assert len({a["text"] for a in slack.responses()}) == 1 and len(slack.responses()) == 3
    assert not slack.calls("chat.postMessage")


@pytest.mark.xdist_group("worker-processes")
def test_the_commands_run_in_worker_processes(slack: SlackStandIn, runbook: Runbook, tmp_path: Path) -> None:
    from bot.workers.child import WorkerSpec
    from bot.workers.pool import WorkerEngine, wait_started

    def one_worker(settings: Any, bundle: Path) -> WorkerEngine:
        engine = WorkerEngine(WorkerSpec(settings=settings, snapshot=str(bundle), nice=0), workers=1)
        assert wait_started(engine, count=1, timeout=60.0), engine.problem()
        return engine

    with AppHost(slack=slack, bundle=pair_bundle(tmp_path), store=MemoryStore(), runbook=runbook,
                 channels=CHANNELS, engine=one_worker) as host:
        host.command(f"timeline job/{B}")
        host.command(f"compare job/{A} job/{B}")
        host.idle(submitted=2, timeout=60)
        assert len(with_event(slack, "rlark_timeline")) == 1 and len(with_event(slack, "rlark_compare")) == 1
        [picture] = slack.files(channel=CHANNEL)
        assert picture.content is not None and picture.content.startswith(PNG)
        assert PLANTED not in sent(slack)


def test_the_automatic_picture_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.settings import Settings

    assert Settings(_env_file=None).timeline_auto is True  # type: ignore[call-arg]
    monkeypatch.setenv("RLARK_BOT_TIMELINE_AUTO", "false")
    assert Settings(_env_file=None).timeline_auto is False  # type: ignore[call-arg]
