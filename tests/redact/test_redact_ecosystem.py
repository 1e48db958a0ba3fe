"""Credentials as RLark jobs and Ascend CI print them: every family, in many spellings and contexts.

The families and their spellings come from bench/redact/ecosystem.py (also the benchmark's planted
set); each record is embedded in ordinary log lines and must lose every value, in every form the
context gives it (raw, JSON-escaped, URL-encoded, cut by a line wrap), with Hyperscan and without,
whole or streamed in small chunks.
"""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.redact.ecosystem import FAMILIES, TOKENS, record
from bot.redact import RedactionSettings, Redactor, redact_stream

REDACTOR = Redactor(RedactionSettings())
FALLBACK = Redactor(RedactionSettings(), use_hyperscan=False)
SOME = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
AROUND = (
    "2026-03-01T12:00:00Z INFO runner Executing prepare script...",
    "(RolloutWorker pid=4411) generated 2048 tokens, max_new_tokens=2048",
    "训练步数 1200，平均奖励 0.431",
)


def _text(lines: list[str]) -> str:
    return "\n".join([AROUND[0], *lines, AROUND[1], AROUND[2]]) + "\n"


def _no_leak(text: str, values: list[str], redactor: Redactor = REDACTOR) -> str:
    out = redactor.redact(text)
    for value in values:
        assert value not in out.text, f"{value!r} survived in\n{text}\n->\n{out.text}"
    assert out.total >= 1
    for line in AROUND:
        assert line in out.text, "the ordinary lines around a secret stay readable"
    again = redactor.redact(out.text)
    assert again.text == out.text and not again.counts, "redaction is idempotent"
    return out.text


@pytest.mark.parametrize("family", sorted(FAMILIES))
@SOME
@given(seed=st.integers(0, 2**32 - 1))
def test_family_never_survives(family: str, seed: int) -> None:
    lines, values = record(random.Random(seed), family)
    _no_leak(_text(lines), values)


@pytest.mark.parametrize("family", sorted(FAMILIES))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_prefilter_loses_nothing_the_full_scan_finds(family: str, seed: int) -> None:
    """The pure-re path checks every line with every detector; the prefiltered path must agree."""
    lines, _ = record(random.Random(seed), family)
    text = _text(lines)
    assert REDACTOR.redact(text).text == FALLBACK.redact(text).text


@pytest.mark.parametrize("family", sorted(FAMILIES))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), chunk=st.sampled_from([7, 64, 333]))
def test_streamed_in_small_chunks_like_whole(family: str, seed: int, chunk: int) -> None:
    lines, values = record(random.Random(seed), family)
    text = _text(lines)
    dst = io.BytesIO()
    redact_stream(io.BytesIO(text.encode()), dst, REDACTOR, chunk_size=chunk)
    streamed = dst.getvalue().decode()
    assert streamed == REDACTOR.redact(text).text
    for value in values:
        assert value not in streamed


@pytest.mark.parametrize("name", sorted(TOKENS))
def test_token_formats_bare_in_prose(name: str) -> None:
    rng = random.Random(name)
    for _ in range(5):
        token = TOKENS[name](rng)
        out = _no_leak(_text([f"uploading with {token} now"]), [token])
        assert "uploading with [REDACTED:" in out and "] now" in out


@pytest.mark.parametrize(
    ("line", "secret"),
    [
        ("obsutil config -i=HPUAXKQ7ZL3M9RTW2VBN -k=Zq8Lm3Nv7Bx2Kc9Wd4Rf6Tg1Hy5Ju0Ip8Ok3Ea7S", "Zq8Lm3Nv7Bx2Kc9Wd4Rf6"),
        ("aws configure set aws_secret_access_key Zq8Lm3Nv7Bx2Kc9Wd4Rf6Tg1Hy5Ju0Ip8Ok3Ea7S", "Zq8Lm3Nv7Bx2Kc9Wd4Rf6"),
        (
            'ObsClient("HPUAXKQ7ZL3M9RTW2VBN", "Zq8Lm3Nv7Bx2Kc9Wd4Rf6Tg1Hy5Ju0Ip8Ok3Ea7S", server=s)',
            "HPUAXKQ7ZL3M9RTW2VBN",
        ),
        ("sshpass -p 'Tr0ub4dor&3xyz' ssh root@10.0.0.5", "Tr0ub4dor&3xyz"),
        ("echo 'Tr0ub4dor3xyz' | docker login ghcr.io -u ci --password-stdin", "Tr0ub4dor3xyz"),
        ("+ echo ::add-mask::Zq8Lm3Nv7Bx2Kc9Wd4Rf6Tg1", "Zq8Lm3Nv7Bx2Kc9Wd4Rf6Tg1"),
        ("curl -u admin:'Tr0ub4dor3xyz' https://art.rlark.internal", "Tr0ub4dor3xyz"),
        ("X-Apig-AppCode: 5f0a9c2e8b7d4a1f9e3c6b2a0d8f7e4c", "5f0a9c2e8b7d4a1f9e3c6b2a0d8f7e4c"),
        ('wandb.login(key="7c4e9a1f2b8d3e6c5a0f9b2d4e7c1a3f8b6d2e9c")', "7c4e9a1f2b8d3e6c5a0f9b2d4e7c1a3f8b6d2e9c"),
        ("https://open.feishu.cn/open-apis/bot/v2/hook/3f2b8c1d-9e4a-4b7c-8d2e-1a5f6b7c8d9e", "3f2b8c1d-9e4a"),
        ("数据库密码：Tr0ub4dor3xyz", "Tr0ub4dor3xyz"),
        ("访问令牌=Zq8Lm3Nv7Bx2Kc9Wd4Rf6Tg1Hy5", "Zq8Lm3Nv7Bx2Kc9Wd4Rf6Tg1Hy5"),
        ("client_secret=bP88Q~rcBcYjzzOhg1Hnn76Wm3jGgakZiZ.8vMgR", "bP88Q~rcBcYjzzOhg1Hnn76Wm3jGgakZiZ.8vMgR"),
        ("<apiToken>Zq8Lm3Nv7Bx2Kc9Wd4Rf6Tg1Hy5</apiToken>", "Zq8Lm3Nv7Bx2Kc9Wd4Rf6Tg1Hy5"),
        ('var apiToken string = "Zq8Lm3Nv7Bx2Kc9Wd4Rf6Tg1Hy5"', "Zq8Lm3Nv7Bx2Kc9Wd4Rf6Tg1Hy5"),
        ('System.setProperty("API_TOKEN", "Zq8Lm3Nv7Bx2Kc9Wd4Rf6Tg1Hy5")', "Zq8Lm3Nv7Bx2Kc9Wd4Rf6Tg1Hy5"),
    ],
)
def test_brief_shapes(line: str, secret: str) -> None:
    _no_leak(_text([line]), [secret])
    _no_leak(_text([line]), [secret], FALLBACK)


def test_chinese_text_after_a_value_stays() -> None:
    out = _no_leak(_text(["token=Zq8Lm3Nv7Bx2Kc9Wd4Rf6Tg1Hy5，请检查权限"]), ["Zq8Lm3Nv7Bx2Kc9Wd4Rf6Tg1Hy5"])
    assert "token=[REDACTED:token]，请检查权限" in out


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        (
            "git clone https://gitlab-ci-token:Zq8Lm3Nv7Bx2Kc9Wd4Rf6T@gitlab.example.com/group/repo.git",
            "@gitlab.example.com/group/repo.git",
        ),
        (
            "git clone https://ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5@github.com/rlinf/RLinf.git",
            "@github.com/rlinf/RLinf.git",
        ),
        (
            "pip install --index-url https://ci:Tr0ub4dor3xyz@repo.huaweicloud.com/repository/pypi/simple torch",
            "@repo.huaweicloud.com/repository/pypi/simple torch",
        ),
        ('{"env": "A=1\\nPASSWORD=Tr0ub4dor3xyz\\nB=2\\nC=3"}', '\\nB=2\\nC=3"}'),
    ],
)
def test_a_mask_eats_no_more_than_the_secret(line: str, kept: str) -> None:
    out = REDACTOR.redact(line)
    assert out.total >= 1 and kept in out.text, out.text


def test_prefixed_pem_keeps_its_prefixes_and_neighbours() -> None:
    body = ["MIIEowIBAAKCAQEAx8Lm3Nv7Bx2Kc9Wd4Rf6Tg1Hy5Ju0Ip8Ok3Ea7S", "Zq8Lm3Nv7Bx2Kc9Wd4Rf6Tg1Hy5Ju0Ip8Ok3Ea7SAAAA"]
    prefix = "2026-03-01T12:00:00.{}Z stdout F "
    lines = [prefix.format(1) + "-----BEGIN RSA PRIVATE KEY-----"]
    lines += [prefix.format(10 + i) + b for i, b in enumerate(body)]
    lines += [prefix.format(99) + "-----END RSA PRIVATE KEY-----", prefix.format(100) + "next step"]
    out = REDACTOR.redact("\n".join(lines)).text.split("\n")
    assert out[0] == lines[0] and out[-2:] == lines[-2:]
    assert out[1:3] == [prefix.format(10 + i) + "[REDACTED:private-key]" for i in range(2)]
    assert REDACTOR.redact("\n".join(lines)).counts == {"private-key": 1}


def test_kubernetes_secret_values_go_config_map_values_stay() -> None:
    secret = "apiVersion: v1\ndata:\n  anything: c2VjcmV0LXZhbHVlLTEyMw==\nkind: Secret\nmetadata:\n  name: x\n"
    config = "apiVersion: v1\ndata:\n  num_workers: '16'\n  ray_config.yaml: bnVtX3dvcmtlcnM6IDE2\nkind: ConfigMap\n"
    assert "c2VjcmV0LXZhbHVlLTEyMw==" not in REDACTOR.redact(secret).text
    assert REDACTOR.redact(config).text == config


@pytest.mark.parametrize("line", [
    "AKIAZ7QK3M5N2P4R6T2V,Zk3vP9qLm2Xw8Rt5Yu7Io1Pa4Sd6Fg0Hj2Kl4Zx6",
    "ASIAQ2W3E4R5T6Y7U2I3 \tq9W8e7R6t5Y4u3I2o1P0a9S8d7F6g5H4j3K2l1Z0",
    'creds: "AKIAZ7QK3M5N2P4R6T2V", "Zk3vP9qLm2Xw8Rt5Yu7Io1Pa4Sd6Fg0Hj2Kl4Zx6"',
    "2026-11-20T08:00:00Z | AKIAZ7QK3M5N2P4R6T2V | Zk3vP9qLm2Xw8Rt5Yu7Io1Pa4Sd6Fg0Hj2Kl4Zx6 | default",
])
def test_a_bare_secret_key_after_its_access_key_id_is_masked(line: str) -> None:
    secret = next(w.strip('"') for w in line.replace(",", " ").replace("|", " ").split() if len(w.strip('"')) == 40)
    out = str(Redactor().redact(line).text)
    assert secret not in out and "[REDACTED:aws-secret-key]" in out and "[REDACTED:aws-access-key-id]" in out
