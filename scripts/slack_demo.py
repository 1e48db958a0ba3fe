"""Run the whole Slack flow locally: `serve --http` against the project's Slack Web API stand-in.

Sends one signed `/rlark diagnose` for a bundled example (`scripts/slack-demo [EXAMPLE] [--alerts] [--watch]`;
with `--alerts` it also waits for the scheduled checks' first alert thread, clicks its Diagnose button and its
"I'm on it" button; with `--watch` it also sends `/rlark watch` and waits for the watch's root and its first
tick), waits for the answers, prints the channel as a person would see it (root, its edits, the reply, buttons,
files), and stops the bot.
No Slack workspace, no cluster and no Redis server are needed (the bot starts its embedded store).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.slack.signing import block_action_body, post, signed_headers, slash_command_body  # noqa: E402
from tests.slack.standin import SlackStandIn  # noqa: E402
from tests.slack.view import render_thread  # noqa: E402

CHANNEL = "C0DEMO"
SECRET = "demo-signing-secret-0123456789"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def answered_in(slack: SlackStandIn) -> bool:
    return any(root.edits > 0 and any(m.event_type == "rlark_diagnosis" for m in slack.thread(CHANNEL, root.ts))
               for root in slack.messages(CHANNEL))


def from_the_alert(slack: SlackStandIn, port: int) -> None:
    """Diagnose from the alert's root (the answer lands in its thread), then "I'm on it"."""
    root = next(m for m in slack.messages(CHANNEL) if m.event_type == "rlark_alert")
    buttons = {b["action_id"]: b for b in root.buttons()}
    for action_id, user in (("rlark_diagnose", "U0ONCALL"), ("rlark_ack", "U0ONCALL")):
        if action_id not in buttons:
            continue
        body = block_action_body(action_id=action_id, value=buttons[action_id]["value"], message_ts=root.ts,
                                 channel_id=CHANNEL, user_id=user)
        post(f"http://127.0.0.1:{port}/slack/events", body, signed_headers(body, SECRET))
    if "rlark_diagnose" in buttons:
        slack.wait_for(lambda: any("Diagnosis of" in json.dumps(m.blocks) for m in slack.thread(CHANNEL, root.ts))
                       or slack.ephemerals(user="U0ONCALL"), timeout=60)  # the progress reply shows the verdict
    slack.wait_for(lambda: "is on it" in json.dumps(slack.message(CHANNEL, root.ts).blocks), timeout=30)


def wait_ready(port: int, proc: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"rlark-bot serve exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("rlark-bot serve did not become ready")


def watch(slack: SlackStandIn, port: int, target: str) -> None:
    """`/rlark watch TARGET`: its root (the current stage), then one tick of the scheduler (a snapshot does not
    move, so the tick has nothing to say and the thread stays empty)."""
    body = slash_command_body(text=f"watch {target}", channel_id=CHANNEL,
                              response_url=slack.new_response_url(channel=CHANNEL, user="U0ASKER"))
    post(f"http://127.0.0.1:{port}/slack/events", body, signed_headers(body, SECRET))
    try:
        slack.wait_for(lambda: any(m.event_type == "rlark_watch" for m in slack.messages(CHANNEL)), timeout=30)
    except AssertionError:
        print(render_thread(slack, CHANNEL))
        raise SystemExit("slack-demo: no watch root within 30 s") from None
    time.sleep(6)  # one watch tick (RLARK_BOT_WATCH__INTERVAL_SECONDS=5)


def main() -> int:
    args = [a for a in sys.argv[1:] if a not in ("--alerts", "--watch")]
    with_watch = "--watch" in sys.argv[1:]
    with_alerts = "--alerts" in sys.argv[1:]  # also wait for the scheduled checks' first alert thread
    # The default example's job raises no scheduled-check alert; the CI runner's long Pending does.
    example = args[0] if args else ("ci-runner-image-pull" if with_alerts else "ray-workers-never-join")
    bundle = ROOT / "examples" / example
    if not (bundle / "TARGET").is_file():
        known = ", ".join(sorted(p.name for p in (ROOT / "examples").iterdir() if (p / "TARGET").is_file()))
        raise SystemExit(f"slack-demo: no example {example!r} (examples: {known})")
    target = (bundle / "TARGET").read_text(encoding="utf-8").strip()
    port = free_port()
    with SlackStandIn() as slack, tempfile.TemporaryDirectory() as data:
        slack.add_channel(CHANNEL, name="team-training")
        env = {**os.environ, "SLACK_BOT_TOKEN": slack.token, "SLACK_SIGNING_SECRET": SECRET,
               "SLACK_API_BASE_URL": slack.base_url, "RLARK_BOT_DATA_DIR": data, "PORT": str(port),
               "RLARK_BOT_CHANNELS": json.dumps({CHANNEL: {"domains": "*", "namespaces": "*", "clusters": "*",
                                                           "alerts": True}}),
               "RLARK_BOT_CHECKS__INTERVAL_SECONDS": "5", "RLARK_BOT_WATCH__INTERVAL_SECONDS": "5"}
        env.pop("REDIS_URL", None)
        bot = subprocess.Popen([str(ROOT / ".venv" / "bin" / "rlark-bot"), "serve", "--http", "--host", "127.0.0.1",
                                "--snapshot", str(bundle)], env=env, stderr=subprocess.PIPE)
        try:
            wait_ready(port, bot)
            body = slash_command_body(text=f"diagnose {target}", channel_id=CHANNEL,
                                      response_url=slack.new_response_url(channel=CHANNEL, user="U0ASKER"))
            started = time.monotonic()
            status, _, _ = post(f"http://127.0.0.1:{port}/slack/events", body, signed_headers(body, SECRET))
            acked = time.monotonic() - started
            try:
                slack.wait_for(lambda: answered_in(slack), timeout=60)
            except AssertionError:
                print(render_thread(slack, CHANNEL))
                for c in slack.calls("chat.postMessage"):
                    print(c)
                raise SystemExit("slack-demo: no answer in the thread within 60 s (its calls are above)") from None
            answered = time.monotonic() - started
            if with_alerts:
                try:
                    slack.wait_for(lambda: any(m.event_type == "rlark_alert" for m in slack.messages(CHANNEL)),
                                   timeout=30)
                except AssertionError:
                    print(render_thread(slack, CHANNEL))
                    raise SystemExit(f"slack-demo: no alert thread within 30 s; `rlark-bot check --snapshot "
                                     f"examples/{example}` says what the scheduled checks find there") from None
                from_the_alert(slack, port)
            if with_watch:  # a watch follows a Job or a pod: a runner is followed through its pod (same name)
                watch(slack, port, f"pod/{target.split('/', 1)[1]}" if target.startswith("runner/") else target)
            print(f"$ /rlark diagnose {target}   (HTTP {status}, acknowledged in {acked * 1000:.0f} ms, "
                  f"answered in {answered:.1f} s)\n")
            print(render_thread(slack, CHANNEL))
            if with_alerts:
                print("\n(on the alert: Diagnose, then I'm on it, both clicked by U0ONCALL)")
        finally:
            bot.terminate()
            bot.wait(timeout=40)
    return 0


if __name__ == "__main__":
    sys.exit(main())
