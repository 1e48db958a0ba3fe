"""A credential whose naming comes in an unusual order: a ``printf`` with ``--`` between its format and its
positional arguments, and a Kubernetes env entry printed with ``value:`` before ``name:`` (block and flow forms,
behind log prefixes). The value is masked, whole and streamed; the format, host, user and ordinary entries stay."""

from __future__ import annotations

import io

import pytest

from bot.redact import Redactor, redact_stream

REDACTORS = [Redactor(), Redactor(use_hyperscan=False)]
IDS = ["hyperscan", "pure-re"]
PW, SK = "Xq7vLm2Rt9Kp4Wz", "Zk3vP9qLm2Xw8Rt5Yu7Io1Pa4Sd6Fg0Hj2Kl4Zx6"
GH = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
AROUND = ("2026-12-04T10:00:00Z INFO runner Executing step 3", "step 1200 | loss 0.431")
TS = "2026-12-04T10:00:00Z "

LEAKS = [
    # printf FORMAT -- ARGS: the "--" is no argument the format's conversions name
    ([f"printf 'machine %s login %s password %s\\n' -- git.example.com ci {PW}"], [PW]),
    ([f'printf "machine %s login %s password %s\\n" -- git.example.com ci {PW} >> ~/.netrc'], [PW]),
    ([f"+ printf 'machine %s login %s password %s\\n' -- github.com x-access-token '{GH}' >> ~/.netrc"], [GH]),
    ([f"{TS}+ printf 'password=%s\\n' -- \"{PW}\" > .env"], [PW]),
    ([f"printf -- 'machine %s\\nlogin %s\\npassword %s\\n' -- obs.example.com ci {SK}"], [SK]),
    ([f"printf -v line 'token: %s' -- {GH}"], [GH]),
    # ... which bash prints as one more argument, so what it writes in the password slot is masked too
    ([f"printf 'machine %s login %s password %s\\n' -- git.example.com {SK} {PW} >> ~/.netrc"], [SK, PW]),
    # a Kubernetes env entry with value: before name:
    ([f"- value: {PW}", "  name: AWS_SECRET_ACCESS_KEY"], [PW]),
    ([f"    - value: \"{SK}\"", "      name: DB_PASSWORD"], [SK]),
    ([f"{TS}- value: {PW}", f"{TS}  name: AWS_SECRET_ACCESS_KEY"], [PW]),
    ([f"[pod/x] - value: '{PW}'", "[pod/x]   name: API_TOKEN"], [PW]),
    ([f"- value: {SK}", "  valueFrom: null", "  name: GITHUB_TOKEN"], [SK]),
    ([f'  - "value": "{PW}"', '    "name": "REGISTRY_PASSWORD"'], [PW]),
    ([f"worker-1 | - value: {PW}", "worker-1 |   name: OBS_SECRET_KEY"], [PW]),
    ([f"{{value: {PW}, name: DB_PASSWORD}}"], [PW]),
    ([f'{TS}{{"value": "{PW}", "name": "AWS_SECRET_ACCESS_KEY"}}'], [PW]),
    ([f"  - {{value: {SK}, name: api_key}}", "  - {value: info, name: LOG_LEVEL}"], [SK]),
]

STAYS = [
    "printf 'machine %s login %s password %s\\n' -- git.example.com ci \"$NETRC_PASSWORD\" >> ~/.netrc",
    "printf '%s\\n' -- alpha beta gamma",
    "printf 'step %s of %s\\n' -- 3 10",
    "- value: debug\n  name: LOG_LEVEL\n",
    f"{TS}- value: Xq7vLm2Rt9Kp4\n{TS}  name: LOG_LEVEL\n",
    "- value: \"8080\"\n  name: PORT\n",
    "{value: info, name: LOG_LEVEL}",
    "- value: Zk3vP9qLm2Xw8Rt5\n  name: BUILD_ID\n- name: DB_PASSWORD\n  valueFrom:\n",
    "- value: Zk3vP9qLm2Xw8Rt5\n- name: DB_PASSWORD\n  valueFrom:\n",  # the value is the entry's before
    "- value: Zk3vP9qLm2Xw8Rt5\n  name: REPLICAS\n  value: other\n",
]


def _text(lines: list[str]) -> str:
    return "\n".join([AROUND[0], *lines, AROUND[1]]) + "\n"


@pytest.mark.parametrize("redactor", REDACTORS, ids=IDS)
@pytest.mark.parametrize(("lines", "values"), LEAKS, ids=[str(i) for i in range(len(LEAKS))])
def test_the_value_is_masked(redactor: Redactor, lines: list[str], values: list[str]) -> None:
    text = _text(lines)
    out = redactor.redact(text).text
    for value in values:
        assert value not in out, f"{value!r} survived in\n{text}\n->\n{out}"
    assert AROUND[0] in out and AROUND[1] in out
    assert redactor.redact(out).text == out, "redaction is idempotent"


@pytest.mark.parametrize(("lines", "values"), LEAKS, ids=[str(i) for i in range(len(LEAKS))])
@pytest.mark.parametrize("chunk", [5, 64])
def test_streamed_like_whole(lines: list[str], values: list[str], chunk: int) -> None:
    text = _text(lines)
    dst = io.BytesIO()
    redact_stream(io.BytesIO(text.encode()), dst, REDACTORS[0], chunk_size=chunk)
    assert dst.getvalue().decode() == REDACTORS[0].redact(text).text


@pytest.mark.parametrize("redactor", REDACTORS, ids=IDS)
@pytest.mark.parametrize("text", STAYS)
def test_ordinary_lines_stay(redactor: Redactor, text: str) -> None:
    assert redactor.redact(text).text == text


def test_only_the_value_is_masked() -> None:
    r = REDACTORS[0]
    line = f"printf 'machine %s login %s password %s\\n' -- git.example.com ci {PW} >> ~/.netrc"
    assert r.redact(line).text == (
        "printf 'machine %s login %s password %s\\n' -- git.example.com ci [REDACTED:password] >> ~/.netrc"
    )
    text = f"{TS}- value: {PW}\n{TS}  name: DB_PASSWORD\n"
    assert r.redact(text).text == f"{TS}- value: [REDACTED:password]\n{TS}  name: DB_PASSWORD\n"
    assert r.redact(f"{{value: {PW}, name: DB_PASSWORD}}").text == "{value: [REDACTED:password], name: DB_PASSWORD}"
