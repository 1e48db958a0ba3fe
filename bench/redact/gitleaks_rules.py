"""A gitleaks-equivalent rule set (ported from gitleaks' default config, v8.x) for the benchmark peer.

Only the rules for families in this ecosystem, written as Python regexes with gitleaks' keyword
prefilter (a rule runs on a line only if one of its keywords occurs, lower-cased) and its entropy
thresholds. Masking a rule's secret group gives the peer's redacted output.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

_END = r"(?:[\x60'\"\s;]|\\[nr]|$)"
_PRE = r"(?:^|[\\'\"\x60\s>=:(,)])"


@dataclass(frozen=True)
class Rule:
    id: str
    regex: re.Pattern[str]
    keywords: tuple[str, ...]
    entropy: float = 0.0
    group: int = 1


def _r(rule_id: str, pattern: str, keywords: tuple[str, ...], entropy: float = 0.0, group: int = 1) -> Rule:
    return Rule(rule_id, re.compile(pattern), keywords, entropy, group)


RULES: tuple[Rule, ...] = (
    _r(
        "aws-access-token",
        r"\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b",
        ("a3t", "akia", "asia", "abia", "acca"),
        3.0,
    ),
    _r("github-pat", r"(ghp_[0-9a-zA-Z]{36})", ("ghp_",), 3.0),
    _r("github-fine-grained-pat", r"(github_pat_\w{82})", ("github_pat_",), 3.0),
    _r("github-oauth", r"(gho_[0-9a-zA-Z]{36})", ("gho_",), 3.0),
    _r("github-app-token", r"((?:ghu|ghs)_[0-9a-zA-Z]{36})", ("ghu_", "ghs_"), 3.0),
    _r("github-refresh-token", r"(ghr_[0-9a-zA-Z]{36})", ("ghr_",), 3.0),
    _r("gitlab-pat", r"(glpat-[\w-]{20})", ("glpat-",), 3.0),
    _r("gitlab-ptt", r"(glptt-[0-9a-f]{40})", ("glptt-",), 3.0),
    _r("gitlab-rrt", r"(GR1348941[\w-]{20})", ("gr1348941",), 3.0),
    _r("slack-bot-token", r"(xoxb-[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]*)", ("xoxb",), 3.0),
    _r("slack-user-token", r"(xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34})", ("xoxp-", "xoxe-"), 2.0),
    _r("slack-app-token", r"(?i)(xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+)", ("xapp",), 2.0),
    _r(
        "slack-webhook-url",
        r"((?:https?://)?hooks.slack.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56})",
        ("hooks.slack.com",),
    ),
    _r(
        "jwt",
        _PRE + r"(ey[a-zA-Z0-9]{17,}\.ey[a-zA-Z0-9/\\_-]{17,}\.(?:[a-zA-Z0-9/\\_-]{10,}={0,2})?)" + _END,
        ("ey",),
        3.0,
    ),
    _r(
        "private-key",
        r"(?i)(-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S-]*?KEY(?: BLOCK)?-----)",
        ("-----begin",),
    ),
    _r("huggingface-access-token", _PRE + r"(hf_(?i:[a-z]{34}))" + _END, ("hf_",)),
    _r("huggingface-organization-api-token", _PRE + r"(api_org_(?i:[a-z]{34}))" + _END, ("api_org_",)),
    _r("npm-access-token", r"(?i)\b(npm_[a-z0-9]{36})" + _END, ("npm_",), 2.0),
    _r("pypi-upload-token", r"(pypi-AgEIcHlwaS5vcmc[\w-]{50,1000})", ("pypi-ageichlwas5vcmc",)),
    _r(
        "openai-api-key",
        r"\b(sk-(?:proj|svcacct|admin)-(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})T3BlbkFJ(?:[A-Za-z0-9_-]{74}|"
        r"[A-Za-z0-9_-]{58})\b|sk-[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20})" + _END,
        ("t3blbkfj",),
        3.0,
    ),
    _r("alibaba-access-key-id", r"\b(LTAI(?i:[a-z0-9]{20}))" + _END, ("ltai",), 2.0),
    _r(
        "alibaba-secret-key",
        r"(?i)[\w.-]{0,50}?(?:alibaba)(?:[ \t\w.-]{0,20})[\s'\"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)"
        r"[\x60'\"\s=]{0,5}([a-z0-9]{30})" + _END,
        ("alibaba",),
        2.0,
    ),
    _r("gcp-api-key", r"\b(AIza[\w-]{35})" + _END, ("aiza",), 4.0),
    _r(
        "curl-auth-header",
        r"\bcurl\b(?:.*?|.*?(?:[\r\n]{1,2}.*?){1,5})[ \t\n\r](?:-H|--header)(?:=|[ \t]{0,5})(?:\"(?i:"
        r"(?:Authorization:[ \t]{0,5}(?:Basic[ \t]([a-z0-9+/]{8,}={0,3})|(?:Bearer|(?:Api-)?Token)[ \t]"
        r"([\w=~@.+/-]{8,})|([\w=~@.+/-]{8,}))|(?:(?:X-(?:[a-z]+-)?)?(?:Api-?)?(?:Key|Token)):[ \t]{0,5}"
        r"([\w=~@.+/-]{8,})))\")",
        ("curl",),
        2.75,
    ),
    _r(
        "curl-auth-user",
        r"\bcurl\b(?:.*|.*(?:[\r\n]{1,2}.*){1,5})[ \t\n\r](?:-u|--user)(?:=|[ \t]{0,5})(?:\"([^:\"]{3,}:[^\"]{3,})\"|"
        r"'([^:']{3,}:[^']{3,})'|((?:\"[^\"]{3,}\"|'[^']{3,}'|[\w$@.-]+):(?:\"[^\"]{3,}\"|'[^']{3,}'|[\w${}@.-]+)))"
        r"(?:\s|\Z)",
        ("curl",),
        2.0,
    ),
    _r(
        "generic-api-key",
        r"(?i)[\w.-]{0,50}?(?:access|auth|(?-i:[Aa]pi|API)|credential|creds|key|passw(?:or)?d|secret|token)"
        r"(?:[ \t\w.-]{0,20})[\s'\"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'\"\s=]{0,5}"
        r"([\w.=-]{10,150}|[a-z0-9][a-z0-9+/]{11,}={0,3})" + _END,
        ("access", "api", "auth", "key", "credential", "creds", "passwd", "password", "secret", "token"),
        3.5,
    ),
)

# gitleaks' global allowlist idea: obvious non-secrets (we keep it small, as gitleaks does for generic).
_STOP = re.compile(r"(?i)^(?:true|false|null|none|\$\{.*\}|<.*>|x{5,}|example|test)")


def _entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(c / len(value) * math.log2(c / len(value)) for c in counts.values())


def find(line: str) -> list[tuple[int, int, str]]:
    """(start, end, rule id) of each secret gitleaks would report on this line."""
    lower = line.lower()
    out: list[tuple[int, int, str]] = []
    for rule in RULES:
        if rule.keywords and not any(k in lower for k in rule.keywords):
            continue
        for m in rule.regex.finditer(line):
            group = next((g for g in range(1, (m.re.groups or 0) + 1) if m.group(g)), 0)
            value = m.group(group)
            if not value or (rule.entropy and _entropy(value) < rule.entropy) or _STOP.match(value):
                continue
            out.append((m.start(group), m.end(group), rule.id))
    return out


def redact_text(text: str) -> str:
    """Mask what the ported rules find; private keys span lines, so the whole text is scanned for them."""
    lines = text.split("\n")
    out = []
    for line in lines:
        spans = sorted(find(line))
        pieces, pos = [], 0
        for start, end, rule_id in spans:
            if start < pos:
                continue
            pieces.append(line[pos:start])
            pieces.append(f"[REDACTED:{rule_id}]")
            pos = end
        pieces.append(line[pos:])
        out.append("".join(pieces))
    joined = "\n".join(out)
    pk = next(r for r in RULES if r.id == "private-key")
    if "-----begin" in joined.lower():
        joined = pk.regex.sub("[REDACTED:private-key]", joined)
    return joined
