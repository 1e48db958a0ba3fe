"""SIGTERM with a diagnosis whose worker does not answer (stopped for real with SIGSTOP): the process ends
within `--grace` plus the short worker stop, the asker's root says the diagnosis stopped, and stderr holds no
traceback; a command arriving while draining hears "restarting", not "starting up"."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

from slack.signing import signed_headers
from slack.standin import SlackStandIn

from bot.process.lifecycle import WORKER_STOP_SECONDS

from .conftest import CHANNEL, EXAMPLE, Launch, Planted, assert_clean_stderr, target_of
from .process import wait_until
from .test_serve_process import READY_TIMEOUT, command

GRACE = 2.0


def _descendants(pid: int) -> list[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    found, frontier = [], [pid]
    while frontier:
        children = [p for p, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    return found


def test_a_worker_that_never_answers_does_not_outlast_grace_and_the_root_says_stopped(
        launch: Launch, slack: SlackStandIn, planted: Planted) -> None:
    bot = launch(overlay="ha", args=("--grace", str(GRACE)))
    bot.wait_listening()
    bot.wait_status("/readyz", 200, timeout=READY_TIMEOUT)
    wait_until(lambda: len([r for r in bot.records() if r.get("message") == "diagnosis worker started"]) >= 4,
               timeout=90, what="four diagnosis workers started")
    workers = [int(r["pid"]) for r in bot.records() if r.get("message") == "diagnosis worker started"]
    assert set(workers) <= set(_descendants(bot.proc.pid))
    # The root is taken at once but its answer held: meanwhile every worker is stopped, so the one holding the
    # diagnosis never answers again (as a worker stuck in a huge read would not).
    held = slack.delay("chat.postMessage", 30.0, times=1, taken=True)
    body, _ = command(slack, f"diagnose {target_of(EXAMPLE)}")
    assert bot.post("/slack/events", body, signed_headers(body, planted.signing_secret))[0] == 200
    [root] = slack.wait_for(lambda: slack.messages(CHANNEL), timeout=10)
    for pid in workers:
        os.kill(pid, signal.SIGSTOP)
    slack.release(held)
    time.sleep(0.5)  # the bot has its root's ts and has told the (stopped) worker to go on

    bot.proc.send_signal(signal.SIGTERM)
    stopped_at = time.monotonic()
    bot.wait_status("/readyz", 503, timeout=5)
    late, _ = command(slack, "diagnose job/another-job", user="U0LATE")
    status, _, answer = bot.post("/slack/events", late, signed_headers(late, planted.signing_secret))
    assert status == 200
    text = json.loads(answer)["text"]
    assert "restarting" in text and "starting up" not in text, text
    code = bot.proc.wait(timeout=GRACE + WORKER_STOP_SECONDS + 10)
    took = time.monotonic() - stopped_at
    assert code == 0
    assert took <= GRACE + WORKER_STOP_SECONDS + 1.0, f"exit {took:.1f} s after SIGTERM\n{bot.tail(30)}"
    edited = slack.message(CHANNEL, root.ts)
    assert edited is not None and edited.edits > 0 and "stopped" in edited.text, edited.text if edited else None
    assert not [line for line in bot.lines() if "Traceback" in line or "Bad file descriptor" in line], bot.tail()
    assert_clean_stderr(bot, planted)
