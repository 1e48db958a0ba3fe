"""Fixtures: planted credentials, the Slack stand-ins, and `launch`, which starts `rlark-bot serve` as the pod does."""

from __future__ import annotations

import json
import secrets
import shutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from slack.socket_standin import SocketModeStandIn
from slack.standin import SlackStandIn

from bot.cache import default_cache_dir

from .process import (
    ENTRYPOINT,
    EXAMPLES,
    IMAGE_ENV,
    ServedBot,
    configmap_settings,
    entry_command,
    free_port,
    manifest_env_names,
)

CHANNEL = "C0OPS"
ADMIN_CHANNEL = "C0ADMIN"
ALERTS_CHANNEL = "C0ALERTS"
EXAMPLE = "ray-workers-never-join"
# Settings a test may give its own process although no manifest sets them: how often `/readyz`'s checks run while
# not ready (5 s in a pod), so a test that waits for a refusal to clear is not waiting out the interval.
TEST_SETTINGS = frozenset({"RLARK_BOT_READINESS_INTERVAL_SECONDS"})


@dataclass(frozen=True)
class Planted:
    """Credentials made up per test; none of them may ever show in the process's output."""

    bot_token: str
    signing_secret: str
    app_token: str

    def values(self) -> tuple[str, ...]:
        return (self.bot_token, self.signing_secret, self.app_token)


@pytest.fixture
def planted() -> Planted:
    return Planted(bot_token=f"xoxb-{secrets.randbelow(10**12)}-{secrets.token_hex(12)}",
                   signing_secret=secrets.token_hex(16),
                   app_token=f"xapp-1-A0STANDIN-{secrets.randbelow(10**12)}-{secrets.token_hex(16)}")


@pytest.fixture
def slack(planted: Planted) -> Iterator[SlackStandIn]:
    with SlackStandIn(token=planted.bot_token, app_token=planted.app_token) as standin:
        standin.add_channel(CHANNEL, name="team-training")
        standin.add_channel(ADMIN_CHANNEL, name="platform-admins")
        standin.add_channel(ALERTS_CHANNEL, name="platform-alerts")
        yield standin


@pytest.fixture
def socket_mode(slack: SlackStandIn) -> Iterator[SocketModeStandIn]:
    """Request it before `launch`, so the bot is stopped before this stand-in closes."""
    with SocketModeStandIn() as server:
        slack.attach(server)
        yield server


def target_of(example: str) -> str:
    return (EXAMPLES / example / "TARGET").read_text(encoding="utf-8").strip()


def pod_env(*, slack: SlackStandIn, planted: Planted, tmp: Path, port: int, socket_mode: bool,
            changes: Mapping[str, str | None] | None = None) -> dict[str, str]:
    """The pod's environment: the ConfigMap's settings with this test's channels and Slack, the Secret's tokens,
    the Deployment's own variables, and what the image sets. Embedded store (no REDIS_URL). `changes` sets
    (or, with None, removes) variables on top."""
    env = configmap_settings()
    env.update({
        "RLARK_BOT_CHANNELS": json.dumps({CHANNEL: {"domains": "*", "namespaces": "*", "clusters": "*",
                                                    "lang": "en", "alerts": False}}),
        "RLARK_BOT_ADMIN_CHANNEL": ADMIN_CHANNEL,
        "RLARK_BOT_ALERTS_CHANNEL": ALERTS_CHANNEL,
        "SLACK_API_BASE_URL": slack.base_url,
        "RLARK_BOT_DATA_DIR": str(tmp / "data"),
        "SLACK_BOT_TOKEN": planted.bot_token,
        "SLACK_SIGNING_SECRET": planted.signing_secret,
        "PORT": str(port),
        "KUBECONFIG": str(tmp / "kube" / "config"),  # the optional kubeconfig Secret is not mounted
        "PATH": f"{ENTRYPOINT.parent}:/usr/local/bin:/usr/bin:/bin",
        "HOME": str(tmp / "home"),
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    })
    env.pop("REDIS_URL", None)
    if socket_mode:
        env["SLACK_APP_TOKEN"] = planted.app_token
    for name, value in (changes or {}).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    unknown = set(env) - manifest_env_names() - IMAGE_ENV - TEST_SETTINGS
    assert not unknown, f"variables the deploy/ manifests do not set: {sorted(unknown)}"
    return env


Launch = Callable[..., ServedBot]


def warm_pattern_cache(home: Path) -> None:
    """The pod's home gets the compiled pattern databases this machine's cache holds, as a container restarted in
    its pod finds them in /tmp (its HOME, an emptyDir): a start then reads them instead of compiling them again
    (about a second of CPU). Only built-in rules are ever cached, never a credential."""
    cache = home / ".cache" / "rlark-bot"
    cache.mkdir(parents=True)
    for database in default_cache_dir().glob("*.bin"):
        shutil.copyfile(database, cache / database.name)


@pytest.fixture
def launch(slack: SlackStandIn, planted: Planted, tmp_path: Path) -> Iterator[Launch]:
    """`launch(overlay=..., example=...)`: serve as that overlay's container runs it, reading that example bundle;
    `cold=True`: a pod's first start, with nothing cached in its home."""
    if not ENTRYPOINT.exists():
        pytest.skip(f"{ENTRYPOINT} is not installed (pip install .)")
    started: list[ServedBot] = []

    def start(*, overlay: str, example: str = EXAMPLE, socket_mode: bool = False,
              env: Mapping[str, str | None] | None = None, cold: bool = False,
              args: tuple[str, ...] = ()) -> ServedBot:
        tmp = tmp_path / f"pod{len(started)}"
        for sub in ("data", "home", "work"):
            (tmp / sub).mkdir(parents=True)
        if not cold:
            warm_pattern_cache(tmp / "home")
        port = free_port()
        environment = pod_env(slack=slack, planted=planted, tmp=tmp, port=port, socket_mode=socket_mode, changes=env)
        argv = [*entry_command(overlay), "--snapshot", str(EXAMPLES / example), *args]
        bot = ServedBot(argv, env=environment, port=port, cwd=tmp / "work")
        started.append(bot)
        return bot

    yield start
    for bot in started:
        bot.kill()


def assert_clean_stderr(bot: ServedBot, planted: Planted) -> list[dict[str, object]]:
    """Every stderr line is one JSON event with time, level and message; no planted credential anywhere."""
    records = bot.records()
    assert records, "serve wrote no log at all"
    for record in records:
        assert {"time", "level", "message"} <= set(record), record
    # slack-bolt is built without a token conflict: it never says a token is unused or ignored.
    assert not [r for r in records if "`token`" in str(r["message"])], "bolt warned about the token"
    text = "\n".join(bot.lines())
    for value in planted.values():
        assert value not in text
    return records
