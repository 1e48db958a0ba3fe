"""Command text and alert keys parse, or fail with one line (no Slack, no clusters: pure)."""

from __future__ import annotations

import pytest

from bot.conversations.parsing import parse_command, parse_duration, parse_key
from bot.errors import UsageError
from bot.models import TargetKind


@pytest.mark.parametrize(("text", "verb", "kind", "name", "namespace", "lang"), [
    ("diagnose ppo-1", "diagnose", TargetKind.JOB, "ppo-1", "", None),
    ("  diagnose   job/ppo-1  --lang zh", "diagnose", TargetKind.JOB, "ppo-1", "", "zh"),
    ("DIAGNOSE pod/x-0 -n ci", "diagnose", TargetKind.POD, "x-0", "ci", None),
    ("diagnose runner/r-1 --namespace=arc --lang=en", "diagnose", TargetKind.RUNNER, "r-1", "arc", "en"),
    ("ticket job/ppo-1", "ticket", TargetKind.JOB, "ppo-1", "", None),
])
def test_targets(text: str, verb: str, kind: TargetKind, name: str, namespace: str, lang: str | None) -> None:
    cmd = parse_command(text)
    assert cmd.verb == verb and cmd.target is not None and cmd.lang == lang
    assert (cmd.target.kind, cmd.target.name, cmd.target.namespace) == (kind, name, namespace)


@pytest.mark.parametrize("text", ["", "   ", "help"])
def test_help(text: str) -> None:
    assert parse_command(text).verb == "help"


@pytest.mark.parametrize(("text", "fragment"), [
    ("diagnose", "one target"), ("diagnose a b", "one target"), ("diagnose Bad_Name", "invalid job name"),
    ("diagnose x --lang fr", "--lang"), ("diagnose x --bogus 1", "unknown option"), ("diagnose x -n", "needs a value"),
    ("ticket x --lang zh", "unknown option"), ("frobnicate", "unknown command"), ("alerts now", "no arguments"),
    ("mute k", "alert key and a duration"), ("mute nokey 2h", "not an alert key"), ("unmute", "one alert key"),
    ("diagnose x\x07", "control characters"), ("diagnose " + "a" * 2000, "too long"),
])
def test_malformed_text_is_one_line(text: str, fragment: str) -> None:
    with pytest.raises(UsageError) as err:
        parse_command(text)
    assert fragment in str(err.value) and "\n" not in str(err.value) and len(str(err.value)) < 300


@pytest.mark.parametrize(("text", "seconds"), [("2h", 7200), ("30m", 1800), ("1h30m", 5400), ("1d", 86400),
                                               ("90s", 90), ("7d", 604800)])
def test_durations(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "2", "h", "8d", "0m", "-1h", "2 h", "1w"])
def test_bad_durations(text: str) -> None:
    with pytest.raises(UsageError):
        parse_duration(text)


def test_mute_and_keys() -> None:
    cmd = parse_command("mute long-pending:gpu-a/rlark-system/Pod/ppo-0 2h")
    assert (cmd.verb, cmd.key, cmd.seconds) == ("mute", "long-pending:gpu-a/rlark-system/Pod/ppo-0", 7200)
    assert parse_key("nodepool-unhealthy:ci//NodePool/npu") == "nodepool-unhealthy:ci//NodePool/npu"
