"""The third round's shapes, each in many spellings: a value named only by a neighbouring line (a stdin-reading
login, a Kubernetes env entry's name behind a log prefix), by a printf format, inside box-drawing borders, with
colour codes around its key and quotes, or as the ID half of a masked pair; and what must stay readable (config-key
paths, cache keys). Whole, streamed in small chunks, with Hyperscan and without. The generated families are in
bench/redact/shapes3.py (tests/redact/test_redact_ecosystem.py runs them too)."""

from __future__ import annotations

import io
import random

import pytest

from bench.redact.shapes3 import FAMILIES
from bot.redact import Redactor, redact_stream

REDACTORS = [Redactor(), Redactor(use_hyperscan=False)]
IDS = ["hyperscan", "pure-re"]
PW, SK = "Xq7vLm2Rt9Kp4Wz", "Zk3vP9qLm2Xw8Rt5Yu7Io1Pa4Sd6Fg0Hj2Kl4Zx6"
GH = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
AK, AWS = "HPUAXKQ7ZL3M9RTW2VBN", "AKIAZ7QK3M5N2P4R6T2V"
E = "\x1b"
TS = "2026-12-04T10:00:00Z "
AROUND = ("2026-12-01T10:00:00Z INFO runner Executing step 3", "step 1200 | loss 0.431 | 训练步数 1200")

LEAKS = [
    # a value on its own line next to a command reading it from stdin (set -x traces both sides, in either order)
    ([f"+ echo {PW}", "+ docker login -u ci --password-stdin registry.example.com"], [PW]),
    ([PW, "+ docker login -u ci --password-stdin swr.cn-north-4.myhuaweicloud.com"], [PW]),
    ([f"2026-12-01T10:00:01Z {PW}", "2026-12-01T10:00:01Z + docker login --username ci --password-stdin"], [PW]),
    ([f"+ echo '{PW}'", "+ helm registry login ghcr.io -u x --password-stdin"], [PW]),
    (["++ cat /run/secrets/pw", f"+ echo {PW}", "+ podman login -u ci --password-stdin quay.io"], [PW]),
    (["+ docker login -u ci --password-stdin r.example.com", f'+ echo -n "{PW}"'], [PW]),
    ([f"[pod/ci-7] + printf '%s\\n' {GH}", "[pod/ci-7] + gh auth login --with-token"], [GH]),
    # printf: the format names the credential, a positional argument carries it
    ([f"printf 'machine %s login %s password %s\\n' git.example.com ci {PW} > ~/.netrc"], [PW]),
    ([f"+ printf 'machine %s login %s password %s' github.com x-access-token {GH}"], [GH]),
    ([f'printf "%s:%s" admin {PW} | base64'], [PW]),
    ([f"printf 'password=%s\\n' {PW} >> .env"], [PW]),
    ([f"+ printf 'machine %s\\nlogin %s\\npassword %s\\n' obs.example.com ci '{PW}'"], [PW]),
    ([f"printf '%s:%s' {AK} {SK} > /etc/passwd-s3fs"], [AK, SK]),
    ([f'printf "Authorization: Bearer %s" {PW}'], [PW]),
    ([f"printf -v NETRC 'machine %s login %s password %s' h u \"{PW}\""], [PW]),
    # a Kubernetes env entry's value after its name, each line behind its own log prefix
    (["[pod/ppo-0] - name: DB_PASSWORD", f"[pod/ppo-0]   value: {PW}"], [PW]),
    ([
        "2026-12-01T10:00:00.123Z stdout F     - name: WANDB_API_KEY",
        f"2026-12-01T10:00:00.124Z stdout F       value: {PW}",
    ], [PW]),
    (["worker-1 |   - name: MINIO_SECRET_KEY", f'worker-1 |     value: "{PW}"'], [PW]),
    (["[2026-12-01 10:00:00,000][INFO]   - name: OBS_SK", f"[2026-12-01 10:00:00,001][INFO]     value: '{PW}'"], [PW]),
    (["| - name: REGISTRY_PASSWORD", f"|   value: {PW}"], [PW]),
    # box-drawing borders: rich/textual tracebacks, locals panels, tables
    ([f"│ token = '{GH}' │"], [GH]),
    ([f"│ password │ {PW} │"], [PW]),
    ([f"║ api_key ║ {SK} ║"], [SK]),
    ([f"┃ password ┃ {PW} ┃"], [PW]),
    ([f"│ │ token = '{GH[:20]}     │ │", f"│ │ {GH[20:]}'                  │ │"], [GH[:20], GH[20:]]),
    ([f"│ │   token = ('{GH[:30]}'       │ │", f"│ │            '{GH[30:]}')       │ │"], [GH[:30], GH[30:]]),
    ([f"│ {GH[:32]} │", f"│ {GH[32:]} │"], [GH[32:]]),
    # colour codes between a printed dict's key, quotes, separator and value
    ([f"{{{E}[32m'password'{E}[0m: {E}[33m'{PW}'{E}[0m}}"], [PW]),
    ([f"{{'password'{E}[0m: '{E}[1;31m{PW}{E}[0m'}}"], [PW]),
    ([f"{{{E}[34m'token'{E}[39m:{E}[32m '{PW}'{E}[39m}}"], [PW]),
    ([f"{E}[1m{{{E}[0m{E}[32m'api_key'{E}[0m: {E}[32m'{SK}'{E}[0m{E}[1m}}{E}[0m"], [SK]),
    ([f'{{"password"{E}[0m:{E}[0m "{E}[32m{PW}{E}[0m"}}'], [PW]),
    # an access key's ID beside its secret
    ([f"{AWS} / {SK}"], [AWS, SK]),
    ([f"AK/SK: {AK}/{SK}"], [AK, SK]),
    ([f"MINIO_ROOT_USER={AK} MINIO_ROOT_PASSWORD={SK}"], [AK, SK]),
    (["client_id=9f8e7d6c5b4a39281706f5e4d3c2b1a0 client_secret=***"], ["9f8e7d6c5b4a39281706f5e4d3c2b1a0"]),
    ([f"--client-id 0oa1b2c3d4E5f6G7h8I9 --client-secret {SK}"], ["0oa1b2c3d4E5f6G7h8I9", SK]),
    # more spellings: a here-string, an echo of a plain word in between, a file read from /dev/stdin
    ([f"+ cat <<< {PW}", "+ docker login -u ci --password-stdin r.example.com"], [PW]),
    ([f"+ cat <<< '{PW}'", "+ oras login -u ci --password-stdin r.example.com"], [PW]),
    ([f"+ echo {PW}", "+ echo '::group::login'", "+ docker login -u ci --password-stdin r.example.com"], [PW]),
    ([f"+ echo {PW}", "+ kubectl create secret generic pw --from-file=pw=/dev/stdin"], [PW]),
    # a .netrc written by printf one line per argument
    ([f"printf '%s\\n' 'machine git.example.com' 'login ci' 'password {PW}' > ~/.netrc"], [PW]),
    ([f"+ printf '%s\\n' \"machine obs\" \"login ci\" \"password {PW}\" >> $HOME/.netrc"], [PW]),
    # a Kubernetes env value behind klog's prefix, behind colour codes, as a block scalar, in a flow mapping
    (["I1201 10:00:00.123456 1 pod.go:12]   - name: HF_TOKEN",
      f"I1201 10:00:00.123457 1 pod.go:12]     value: {PW}"], [PW]),
    ([f"{E}[32m2026-12-01{E}[0m   - name: DB_PASSWORD", f"{E}[32m2026-12-01{E}[0m     value: {PW}"], [PW]),
    (["ppo-0 | - name: HF_TOKEN", "ppo-0 |   value: >-", f"ppo-0 |     {PW}"], [PW]),
    (["  - name: OBS_SK", "    value: |", f"      {SK}"], [SK]),
    ([f"  - {{name: DB_PASSWORD, value: {PW}}}"], [PW]),
    ([f"env: [{{name: HF_TOKEN, value: '{PW}'}}, {{name: LOG_LEVEL, value: info}}]"], [PW]),
    ([f"name: API_TOKEN value: {PW}"], [PW]),
    # a table drawn in ASCII
    ([f"| password | {PW} |"], [PW]),
    ([f"| Password | `{PW}` |"], [PW]),
    (["+----------+-----------------+", f"| secret_key | {SK} |", "+----------+-----------------+"], [SK]),
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
def test_nothing_survives(redactor: Redactor, lines: list[str], values: list[str]) -> None:
    text = _text(lines)
    out = redactor.redact(text).text
    for value in values:
        assert value not in out, f"{value!r} survived in\n{text}\n->\n{out}"
    assert AROUND[0] in out and AROUND[1] in out
    assert redactor.redact(out).text == out, "redaction is idempotent"
    assert redactor.scan(text)


@pytest.mark.parametrize(("lines", "values"), LEAKS, ids=[str(i) for i in range(len(LEAKS))])
@pytest.mark.parametrize("chunk", [5, 64])
def test_streamed_in_small_chunks_like_whole(lines: list[str], values: list[str], chunk: int) -> None:
    text = _text(lines)
    dst = io.BytesIO()
    redact_stream(io.BytesIO(text.encode()), dst, REDACTORS[0], chunk_size=chunk)
    assert dst.getvalue().decode() == REDACTORS[0].redact(text).text


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_generated_spellings_never_survive(family: str) -> None:
    for seed in range(60):
        lines, values = FAMILIES[family](random.Random(seed))
        text = _text(lines)
        for redactor in REDACTORS:
            out = redactor.redact(text).text
            assert not [v for v in values if v in out], f"seed {seed}:\n{text}\n->\n{out}"


@pytest.mark.parametrize("redactor", REDACTORS, ids=IDS)
@pytest.mark.parametrize(
    "line",
    [
        "    full_key: hydra.job.env_set.WANDB_NOTES",
        "  key: hydra.job.env_set.WANDB_NOTES",
        "key=hydra.job.env_set.WANDB_API_KEY",
        "--key hydra.job.env_set.HF_TOKEN",
        '{"key": "hydra.job.env_set.WANDB_NOTES", "value": "ppo"}',
        "  sort_key: hydra.job.env_set.WANDB_NOTES_2026",
        "config_key: hydra.job.env_set.OBS_AK",
        "hydra.job.env_set.WANDB_NOTES=ppo-Run7-KL01",
        "Cache restored from key: Linux-pip-3f2b8c1d9e4a4b7c8d2e1a5f6b7c8d9e3f2b8c1d9e4a4b7c8d2e1a5f6b7c8d9e",
        "  key: Linux-pip-74bf20f876ffc474c0251908fcdce4b314f68d9dcbd7a085a368932ff2b2d409",
        "Cache hit for restore-key: Linux-pip-74bf20f876ffc474c0251908fcdce4b314f68d9dcbd7a085a368932ff2b2d409",
        "cache-key: setup-python-Linux-x64-24.04-Ubuntu-python-3.11.7-pip-"
        "74bf20f876ffc474c0251908fcdce4b314f68d9dcbd7a085a368932ff2b2d409",
        "CACHE_KEY=Linux-uv-74bf20f876ffc474c0251908fcdce4b314f68d9dcbd7a085a368932ff2b2d409-"
        "dd311ca871902316d9841aab4ccec38d79d89a0da0c41aebb8f01c9e4a4b7c8d",
        '{"key":"Linux-pip-74bf20f876ffc474c0251908fcdce4b314f68d9dcbd7a085a368932ff2b2d409","restoreKeys":[]}',
        "printf 'machine %s login %s password %s\\n' \"$HOST\" \"$USER\" \"$PASSWORD\" > ~/.netrc",
        "printf 'token_level_loss=%s\\n' 1",
        "│ │ tokens_per_second = 1532.4 │ │",
        "client_id=rlark-bot client_secret=***",
        "python train.py hydra.job.env_set.WANDB_NOTES=baseline "
        "hydra.job.env_set.WANDB_API_KEY=${oc.env:WANDB_API_KEY}",
        "+hydra.job.env_set.HF_TOKEN=${oc.env:HF_TOKEN,null} trainer.max_steps=1000",
        "- {name: API_TOKEN, value: ${API_TOKEN}}",
        '{"name": "DB_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "db", "key": "password"}}}',
        "| loss | 0.431 |",
        "| password_file | /etc/ci/password |",
        "| token | None |",
        "| Name | Type | Params |",
        "- name: LOG_LEVEL",
        "printf '%s\\n' 'step 1200' 'loss 0.431'",
    ],
)
def test_what_a_reader_needs_stays(redactor: Redactor, line: str) -> None:
    assert redactor.redact(line).text == line
    assert redactor.scan(line) == [], "not reported as a credential either"


def test_a_mask_lands_on_the_value_not_the_format() -> None:
    line = f"printf 'machine %s login %s password %s\\n' git.example.com ci {PW} > ~/.netrc"
    out = REDACTORS[0].redact(line).text
    assert out == "printf 'machine %s login %s password %s\\n' git.example.com ci [REDACTED:password] > ~/.netrc"


def test_the_word_value_is_no_value() -> None:
    line = f'{{"name": "DB_PASSWORD", "value": "{PW}"}}'
    assert REDACTORS[0].redact(line).text == '{"name": "DB_PASSWORD", "value": "[REDACTED:password]"}'


def test_a_plain_word_before_a_login_stays() -> None:
    text = "Authenticating\n+ docker login -u ci --password-stdin registry.example.com\n"
    assert REDACTORS[0].redact(text).text == text


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
