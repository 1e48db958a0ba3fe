"""Token families recognisable by their own shape, wherever they appear.

Each rule names the literal prefixes that any match must contain: the prefilter looks for those
(and their base64 forms) so that only candidate lines pay for the regexes below. A rule whose
match could lack its prefixes would be a silent hole, so tests assert every generated token of
every family trips the prefilter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class TokenRule:
    """``regex`` masks its group ``v`` when it has one (context stays readable), else the whole match."""

    kind: str
    regex: re.Pattern[str]
    prefixes: tuple[str, ...]
    caseless: bool = False


# Characters that may precede a token: anything that is not itself part of a token body.
_B = r"(?<![A-Za-z0-9_])"


def _rule(kind: str, pattern: str, *prefixes: str, caseless: bool = False) -> TokenRule:
    flags = re.IGNORECASE if caseless else 0
    return TokenRule(kind, re.compile(pattern, flags), tuple(prefixes), caseless)


TOKEN_RULES: tuple[TokenRule, ...] = (
    _rule(
        "slack-token",
        _B + r"xox[abposer]-[0-9A-Za-z-]{10,250}",
        "xoxa-",
        "xoxb-",
        "xoxp-",
        "xoxo-",
        "xoxs-",
        "xoxr-",
        "xoxe-",
    ),
    _rule("slack-token", _B + r"xoxe\.xox[bp]-\d-[0-9A-Za-z]{20,250}", "xoxe."),
    _rule("slack-token", _B + r"xapp-\d-[0-9A-Za-z-]{10,250}", "xapp-"),
    _rule(
        "slack-webhook",
        r"(?<=hooks\.slack\.com/)(?:services|workflows|triggers)/[A-Za-z0-9_/+-]{20,}",
        "hooks.slack.com/",
    ),
    _rule("github-token", _B + r"gh[pousr]_[A-Za-z0-9]{30,255}", "ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    _rule("github-token", _B + r"github_pat_[A-Za-z0-9_]{50,255}", "github_pat_"),
    _rule(
        "gitlab-token",
        _B + r"gl(?:pat|dt|ptt|rt|cbt|oas|soat|ft|imt|agent|ffct|cs)-[A-Za-z0-9_.-]{20,100}",
        "glpat-",
        "gldt-",
        "glptt-",
        "glrt-",
        "glcbt-",
        "gloas-",
        "glsoat-",
        "glft-",
        "glimt-",
        "glagent-",
        "glffct-",
        "glcs-",
    ),
    _rule("gitlab-token", r"GR1348941[A-Za-z0-9_-]{20,}", "GR1348941"),
    _rule(
        "aws-access-key-id",
        _B + r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}(?![A-Za-z0-9])",
        "A3T",
        "AKIA",
        "ASIA",
        "ABIA",
        "ACCA",
    ),
    _rule("alibaba-access-key-id", _B + r"LTAI[A-Za-z0-9]{12,24}(?![A-Za-z0-9])", "LTAI"),
    _rule("huggingface-token", _B + r"(?:hf_|api_org_)[A-Za-z0-9]{30,40}(?![A-Za-z0-9])", "hf_", "api_org_"),
    _rule(
        "openai-key",
        _B + r"sk-(?:proj-|svcacct-|admin-|ant-[a-z]{2,8}\d\d-)?[A-Za-z0-9_-]{20,200}(?![A-Za-z0-9_-])",
        "sk-",
    ),
    _rule("npm-token", _B + r"npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])", "npm_"),
    _rule("pypi-token", _B + r"pypi-Ag[A-Za-z0-9_-]{50,}", "pypi-Ag"),
    _rule("jwt", _B + r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*", "eyJ"),
    _rule("google-api-key", _B + r"AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])", "AIza"),
    _rule("dockerhub-token", _B + r"dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}", "dckr_pat_", "dckr_oat_"),
    _rule(
        "stripe-key",
        _B + r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}",
        "sk_live_",
        "sk_test_",
        "rk_live_",
        "rk_test_",
    ),
    _rule("vault-token", _B + r"hv[sbr]\.[A-Za-z0-9_-]{24,}", "hvs.", "hvb.", "hvr."),
    _rule("wandb-api-key", r"wandb login (?:--?[a-z-]+ )*(?P<v>(?:local-)?[0-9a-f]{40})", "wandb login "),
    _rule("databricks-token", _B + r"dapi[0-9a-f]{32}(?:-\d)?", "dapi"),
)

# Prefixes that are distinctive enough to look for inside base64 blobs too (see prefilter).
BASE64_PREFIXES: tuple[str, ...] = tuple(
    p for rule in TOKEN_RULES for p in rule.prefixes if len(p) >= 4 and not p.startswith("eyJ")
)
