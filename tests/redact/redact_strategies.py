"""Hypothesis strategies: one generator per credential family, and the contexts they are embedded in."""

from __future__ import annotations

import base64
import json
import string
from dataclasses import dataclass

from hypothesis import strategies as st

ALNUM = string.ascii_letters + string.digits
UPPER_NUM = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"


def chars(alphabet: str, n: int, m: int | None = None) -> st.SearchStrategy[str]:
    return st.text(alphabet=alphabet, min_size=n, max_size=n if m is None else m)


@dataclass(frozen=True)
class Family:
    name: str
    key: str  # the variable name it is usually assigned to
    value: st.SearchStrategy[str]
    bare: bool  # recognisable without its key (a token with a distinctive prefix)


def _jwt(h: str, p: str, s: str) -> str:
    return f"eyJ{h}.eyJ{p}.{s}"


FAMILIES: tuple[Family, ...] = (
    Family(
        "github",
        "GITHUB_TOKEN",
        st.builds(lambda p, b: p + b, st.sampled_from(["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]), chars(ALNUM, 36)),
        True,
    ),
    Family(
        "github-pat", "GH_PAT", st.builds(lambda a, b: f"github_pat_{a}_{b}", chars(ALNUM, 22), chars(ALNUM, 59)), True
    ),
    Family("gitlab", "GITLAB_TOKEN", st.builds(lambda b: "glpat-" + b, chars(URLSAFE, 20)), True),
    Family(
        "slack-bot",
        "SLACK_BOT_TOKEN",
        st.builds(
            lambda a, b, c: f"xoxb-{a}-{b}-{c}",
            chars(string.digits, 11, 13),
            chars(string.digits, 12),
            chars(ALNUM, 24),
        ),
        True,
    ),
    Family(
        "slack-app",
        "SLACK_APP_TOKEN",
        st.builds(
            lambda a, b, c: f"xapp-1-A{a}-{b}-{c}", chars(UPPER_NUM, 10), chars(string.digits, 13), chars(HEX, 64)
        ),
        True,
    ),
    Family(
        "slack-webhook",
        "SLACK_WEBHOOK_URL",
        st.builds(
            lambda a, b, c: f"https://hooks.slack.com/services/T{a}/B{b}/{c}",
            chars(UPPER_NUM, 8),
            chars(UPPER_NUM, 10),
            chars(ALNUM, 24),
        ),
        True,
    ),
    Family(
        "aws-key-id",
        "AWS_ACCESS_KEY_ID",
        st.builds(lambda p, b: p + b, st.sampled_from(["AKIA", "ASIA"]), chars(string.ascii_uppercase + "234567", 16)),
        True,
    ),
    Family("aws-secret", "AWS_SECRET_ACCESS_KEY", chars(B64, 40), False),
    Family("huawei-ak", "HUAWEICLOUD_SDK_AK", chars(UPPER_NUM, 20), False),
    Family("huawei-sk", "HUAWEICLOUD_SDK_SK", chars(ALNUM, 40), False),
    Family("alibaba-id", "ALIBABA_CLOUD_ACCESS_KEY_ID", st.builds(lambda b: "LTAI" + b, chars(ALNUM, 20)), True),
    Family("alibaba-secret", "ALIBABA_CLOUD_ACCESS_KEY_SECRET", chars(ALNUM, 30), False),
    Family("huggingface", "HF_TOKEN", st.builds(lambda b: "hf_" + b, chars(string.ascii_letters, 34)), True),
    Family("wandb", "WANDB_API_KEY", chars(HEX, 40), False),
    Family(
        "openai",
        "OPENAI_API_KEY",
        st.builds(lambda p, b: p + b, st.sampled_from(["sk-", "sk-proj-", "sk-svcacct-"]), chars(ALNUM, 48)),
        True,
    ),
    Family("npm", "NPM_TOKEN", st.builds(lambda b: "npm_" + b, chars(ALNUM, 36)), True),
    Family("pypi", "TWINE_PASSWORD", st.builds(lambda b: "pypi-AgEIcHlwaS5vcmc" + b, chars(URLSAFE, 60, 80)), True),
    Family(
        "jwt", "KUBE_TOKEN", st.builds(_jwt, chars(URLSAFE, 20, 40), chars(URLSAFE, 40, 120), chars(URLSAFE, 43)), True
    ),
    Family("google", "GOOGLE_API_KEY", st.builds(lambda b: "AIza" + b, chars(URLSAFE, 35)), True),
    Family(
        "password",
        "DB_PASSWORD",
        st.builds(lambda a, b: a + b, chars(ALNUM, 1), chars(ALNUM + "!%^*_+.@#-", 11, 24)),
        False,
    ),
    Family("generic-secret", "CLIENT_SECRET", chars(ALNUM, 16, 48), False),
)
BY_NAME = {f.name: f for f in FAMILIES}

# Surrounding noise: ordinary log words, never glued to the secret (a separator always intervenes).
NOISE_WORDS = st.sampled_from(
    [
        "INFO",
        "step=120",
        "loss=0.4312",
        "ray",
        "worker-3",
        "Connecting",
        "to",
        "head",
        "at",
        "10.0.3.7:6379",
        "(pid=4411)",
        "[2024-05-01T12:00:03Z]",
        "tokens/s=5321.4",
        "epoch",
        "main",
        "rlark-system",
        "pod/ppo-0",
        "sha256:" + "ab" * 32,
        "GET",
        "/api/v1/namespaces",
        "200",
        "->",
        "|",
        "{",
        "}",
        "ok",
        "Traceback",
    ]
)
SEPS = st.sampled_from([" ", "\t", " | ", ", ", "\n", " -- "])
noise = st.lists(NOISE_WORDS, max_size=8).map(" ".join)
random_text = st.text(alphabet=string.ascii_letters + string.digits + " .,:;/()[]{}<>=+-_\n", max_size=60)


def forms(value: str) -> list[str]:
    """The raw value and its encodings, none of which may survive redaction."""
    from urllib.parse import quote

    out = [value, quote(value, safe=""), json.dumps(value)[1:-1]]
    return [f for f in out if len(f) >= 8]


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()
