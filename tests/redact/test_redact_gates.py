"""The substring tests in front of the line checks' patterns lose nothing: wherever a pattern matches,
the words its test looks for are in the line (so a line that fails the test has no match to lose).

Lines are each shape a pattern stands for (one per alternative), with fragments swapped for others at
random and random text around it, so a word left out of a test shows up as a failing example."""

from __future__ import annotations

import random
import re

import pytest

from bot.redact import cmdline, structure

_FRAGMENTS = [
    *("mysql", "MySQL", "mysqldump", "mariadb", "mongo", "mongosh", "sshpass", "SSHPASS", "redis-cli"),
    *("docker", "podman", "helm", "login", "LOGIN", "zip", "unzip", "gh", "secret", "Secret", "set", "sudo"),
    *("curl", "Curl", "wget", "http", "HTTP", "echo", "printf", "wandb", "WANDB", "wandb.login(", ".login("),
    *("name", "Name", "value", "OBS", "obs", "AWS", "OSS", "Bearer", "BEARER", "bearer", "bEaReR", "Bot"),
    *("SDK-HMAC-SHA256", "AWS4-HMAC-SHA256", "hmac-sha1", "Hmac-Sha", "OBS-HMAC-SHA1", "Access="),
    *("-p", "-P", "-a", "-u", "--user", "--username", "-b", "--cookie", "--body", "--password", "-pass", "-S"),
    *("pass:", "|", "--password-stdin", "--with-token", "chpasswd", "passwd", "--stdin", "key=", "=", ":", ","),
    *("'", '"', "'pw1234567'", "user:", "ci@", "@", "(", ")", "{", "%s", "x", "-", "_", ".", "/", "\\"),
    *("AKIAIOSFODNN7EXAMPLE", "0123456789abcdef0123456789abcdef01234567", "local-", "Zx9QwErTy12345678"),
    *(" ", "\t", "\u00e9", "\u017f", "\u212a", "\u5bc6\u7801"),
]
_S = " "
_CORES: dict[re.Pattern[str], list[list[str]]] = {
    cmdline._QUOTED_PW: [
        ["mysql", _S, "-p", "'pw1234567'"],
        ["sshpass", _S, "-p", _S, "x"],
        ["redis-cli", _S, "-a", _S, "x"],
        ["docker", _S, "login", _S, "-p", _S, "x"],
        ["zip", _S, "-P", _S, "x"],
        ["-pass", _S, "pass:", "x"],
        ["gh", _S, "secret", _S, "set", _S, "-b", _S, "x"],
    ],
    cmdline._PIPED: [
        ["echo", _S, "x", _S, "|", _S, "sudo", _S, "-S"],
        ["printf", _S, "x", _S, "|", _S, "chpasswd"],
        ["echo", _S, "x", _S, "|", _S, "docker", _S, "login", _S, "--password-stdin"],
    ],
    cmdline._CURL_COOKIE: [["curl", _S, "-b", _S, "x", "=", "x"]],
    cmdline._REGISTRY_USER: [
        [_S, "-u", _S, "ci@", "AKIAIOSFODNN7EXAMPLE"],
        [_S, "--username", "=", "ci@", "AKIAIOSFODNN7EXAMPLE"],
    ],
    cmdline._WANDB: [["wandb.login(", "key=", "'pw1234567'", ")"]],
    cmdline._WANDB_CLI: [["wandb", _S, "login", _S, "0123456789abcdef0123456789abcdef01234567"]],
    structure._PAIR: [["name", ":", _S, "'", "x", "'", ",", _S, "value", ":", _S, "'pw1234567'"]],
    structure._CMDLINE: [
        ["mysql", _S, "-p", "x"],
        ["sshpass", _S, "-p", _S, "x"],
        ["redis-cli", _S, "-a", _S, "x"],
        ["curl", _S, "-u", _S, "user:", "x"],
        ["http", _S, "--user", _S, "user:", "x"],
        ["docker", _S, "login", _S, "-p", _S, "x"],
    ],
    structure._OBS_AUTH: [[k, _S, "AKIAIOSFODNN7EXAMPLE", ":", "Zx9QwErTy12345678"] for k in ("OBS", "AWS", "OSS")],
    structure._HMAC: [[h, _S, "Access=", "x"] for h in ("SDK-HMAC-SHA256", "AWS4-HMAC-SHA256", "OBS-HMAC-SHA1")],
    structure._BEARER: [[b, _S, "Zx9QwErTy12345678"] for b in ("Bearer", "BEARER", "bEaReR")],
}
# pattern -> the words its test looks for: one word of each group (for the caseless ones: in the lowered line,
# on ASCII lines only)
_WORDS: dict[re.Pattern[str], list[tuple[str, ...]]] = {
    cmdline._QUOTED_PW: [cmdline._QUOTED_PW_WORDS],
    cmdline._PIPED: [("echo", "printf")],
    cmdline._CURL_COOKIE: [("curl",)],
    cmdline._REGISTRY_USER: [("-u",)],
    cmdline._WANDB: [("wandb",), ("login",)],
    cmdline._WANDB_CLI: [("wandb",), ("login",)],
    structure._PAIR: [("name",)],
    structure._CMDLINE: [structure._CMDLINE_WORDS],
    structure._OBS_AUTH: [("OBS", "AWS", "OSS")],
}
_CASELESS = {structure._HMAC: "hmac-sha", structure._BEARER: "bearer"}
EXAMPLES = 3000  # lines per pattern, drawn from a generator seeded by the pattern: the same lines every run


def _line(rng: random.Random, pattern: re.Pattern[str]) -> str:
    core = rng.choice(_CORES[pattern])
    swapped = [rng.choice(_FRAGMENTS) if rng.randrange(8) == 0 else part for part in core]
    before = [rng.choice(_FRAGMENTS) for _ in range(rng.randrange(5))]
    after = [rng.choice(_FRAGMENTS) for _ in range(rng.randrange(5))]
    return "".join([*before, *swapped, *after])


@pytest.mark.parametrize("pattern", list(_CORES), ids=lambda p: p.pattern[:24])
def test_every_match_holds_a_word_its_test_looks_for(pattern: re.Pattern[str]) -> None:
    rng = random.Random(pattern.pattern)
    matched = 0
    for _ in range(EXAMPLES):
        line = _line(rng, pattern)
        if pattern.search(line) is None:
            continue
        matched += 1
        if pattern in _CASELESS:
            assert not line.isascii() or _CASELESS[pattern] in line.lower(), line
        else:
            assert all(any(word in line for word in group) for group in _WORDS[pattern]), line
    assert matched >= 100, f"only {matched} of {EXAMPLES} lines match: too few to say anything"


def test_each_shape_is_a_match() -> None:
    """Not vacuous: every shape the lines are made from matches its pattern, and is made of the fragments."""
    assert set(_CORES) == set(_WORDS) | set(_CASELESS)
    for pattern, cores in _CORES.items():
        for core in cores:
            assert set(core) <= set(_FRAGMENTS), core
            assert pattern.search("".join(core)) is not None, core
