"""Token families recognisable by their own shape, wherever they appear.

Each rule names the literal prefixes that any match must contain: the prefilter looks for those
(and their base64 forms) so that only candidate lines pay for the regexes below. A rule whose
match could lack its prefixes would be a silent hole, so tests assert every generated token of
every family trips the prefilter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.redact.later import later


@dataclass(frozen=True)
class TokenRule:
    """``regex`` masks its group ``v`` when it has one (context stays readable), else the whole match."""

    kind: str
    regex: re.Pattern[str]
    prefixes: tuple[str, ...]
    caseless: bool = False
    prefilter: str | None = None  # a regex standing in for the prefixes when none is distinctive alone


# Characters that may precede a token: anything that is not itself part of a token body.
_B = r"(?<![A-Za-z0-9_])"


def _rule(kind: str, pattern: str, *prefixes: str, caseless: bool = False, prefilter: str | None = None) -> TokenRule:
    flags = re.IGNORECASE if caseless else 0
    return TokenRule(kind, later(pattern, flags), tuple(prefixes), caseless, prefilter)


_E = r"(?![A-Za-z0-9_-])"  # a token ends where its alphabet does


# Vendors seen in RLark jobs and Ascend CI besides the big ones above (shapes as documented by the
# vendors and catalogued by secret scanners; each needs a literal or a tight regex the prefilter finds).
VENDOR_RULES: tuple[TokenRule, ...] = (
    _rule(
        "azure-client-secret",
        r"(?<![A-Za-z0-9_~.])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}(?![A-Za-z0-9_~.\-])",
        prefilter=r"[0-9]Q~",
    ),
    _rule("aws-bedrock-key", _B + r"ABSK[A-Za-z0-9+/]{100,270}={0,2}", "ABSK"),
    _rule("aws-bedrock-key", _B + r"bedrock-api-key-[A-Za-z0-9+/=_-]{20,}", "bedrock-api-key-"),
    _rule("tencent-secret-id", _B + r"AKID[A-Za-z0-9]{13,40}" + _E, "AKID"),
    _rule("volcengine-access-key-id", _B + r"AKLT[A-Za-z0-9_-]{20,64}" + _E, "AKLT"),
    _rule("baidu-access-key", _B + r"ALTAK[A-Za-z0-9]{10,40}" + _E, "ALTAK"),
    _rule("jfrog-token", _B + r"AKCp[A-Za-z0-9]{60,80}" + _E, "AKCp"),
    _rule("jfrog-token", _B + r"cmVmdGtu[A-Za-z0-9]{50,70}" + _E, "cmVmdGtu"),
    _rule("grafana-token", _B + r"glc_[A-Za-z0-9+/]{32,400}={0,3}", "glc_"),
    _rule("grafana-token", _B + r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}", "glsa_"),
    _rule("grafana-token", _B + r"eyJrIjoi[A-Za-z0-9+/]{40,400}={0,3}", "eyJrIjoi"),
    _rule("digitalocean-token", _B + r"do[opr]_v1_[a-f0-9]{64}", "dop_v1_", "doo_v1_", "dor_v1_"),
    _rule("sentry-token", _B + r"sntry[su]_[A-Za-z0-9+/=_]{40,}", "sntrys_", "sntryu_"),
    _rule("sendgrid-key", _B + r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,50}", "SG."),
    _rule("twilio-key", _B + r"SK[0-9a-fA-F]{32}" + _E, prefilter=r"SK[0-9a-fA-F]{32}"),
    _rule("shopify-token", _B + r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}", "shpat_", "shpca_", "shppa_", "shpss_"),
    _rule("linear-key", _B + r"lin_(?:api|oauth)_[A-Za-z0-9]{32,64}", "lin_api_", "lin_oauth_"),
    _rule("notion-token", _B + r"ntn_[0-9]{11}[A-Za-z0-9]{32,40}", "ntn_"),
    _rule("postman-key", _B + r"PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}", "PMAK-"),
    _rule("pulumi-token", _B + r"pul-[a-f0-9]{40}", "pul-"),
    _rule(
        "doppler-token",
        _B + r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}",
        "dp.pt.",
        "dp.st.",
        "dp.sa.",
        "dp.ct.",
    ),
    _rule("heroku-key", _B + r"HRKU-AA[0-9A-Za-z_-]{58}", "HRKU-"),
    _rule("perplexity-key", _B + r"pplx-[A-Za-z0-9]{48}", "pplx-"),
    _rule("groq-key", _B + r"gsk_[A-Za-z0-9]{48,56}", "gsk_"),
    _rule("xai-key", _B + r"xai-[A-Za-z0-9]{70,90}", "xai-"),
    _rule("nvidia-key", _B + r"nvapi-[A-Za-z0-9_-]{60,70}", "nvapi-"),
    _rule("replicate-token", _B + r"r8_[A-Za-z0-9]{37}" + _E, "r8_"),
    _rule("harness-key", _B + r"(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}", "pat.", "sat."),
    _rule("terraform-token", r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}", ".atlasv1."),
    _rule("age-secret-key", r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}", "AGE-SECRET-KEY-1"),
    _rule("onepassword-token", _B + r"ops_eyJ[A-Za-z0-9+/]{100,}={0,3}", "ops_eyJ"),
    _rule("openshift-token", _B + r"sha256~[A-Za-z0-9_-]{43}", "sha256~"),
    _rule("cloudflare-key", _B + r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}", "v1.0-"),
    _rule("dynatrace-token", _B + r"dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}", "dt0c01."),
    _rule("newrelic-key", _B + r"NR(?:AK|JS|II)-[A-Za-z0-9-]{19,32}", "NRAK-", "NRJS-", "NRII-"),
    _rule("planetscale-token", _B + r"pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}", "pscale_"),
    _rule("prefect-key", _B + r"pnu_[A-Za-z0-9]{36}", "pnu_"),
    _rule("rubygems-key", _B + r"rubygems_[a-f0-9]{48}", "rubygems_"),
    _rule(
        "flyio-token", _B + r"(?:fo1_[A-Za-z0-9_-]{43}|fm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3})", "fo1_", "fm1", "fm2_"
    ),
    _rule("atlassian-token", _B + r"(?:ATATT3|ATCTT3)[A-Za-z0-9_=-]{150,220}", "ATATT3", "ATCTT3"),
    _rule("bitbucket-token", _B + r"ATBB[A-Za-z0-9]{32}" + _E, "ATBB"),
    _rule("facebook-token", _B + r"EAA[MC][A-Za-z0-9]{100,}", "EAAM", "EAAC"),
    _rule("mailgun-key", _B + r"key-[a-f0-9]{32}" + _E, "key-"),
    _rule("square-token", _B + r"sq0(?:atp|csp)-[A-Za-z0-9_-]{22,60}", "sq0atp-", "sq0csp-"),
    _rule("sourcegraph-token", _B + r"sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}" + _E, "sgp_"),
    _rule("intra42-secret", _B + r"s-s4t2(?:ud|af)-[a-fA-F0-9]{64}", "s-s4t2"),
    _rule("yandex-key", _B + r"AQVN[A-Za-z0-9_-]{35,38}" + _E, "AQVN"),
)

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
        _B + r"gl(?:pat|dt|ptt|rt|cbt|oas|soat|ft|imt|agent|ffct|cs)-[A-Za-z0-9_.-]{20,300}",
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
    # The secret key right after its access key id, as a credentials CSV or `aws configure list` prints them:
    # 40 base64 characters with no key word of their own, a secret by their place.
    _rule(
        "aws-secret-key",
        _B + r"(?:AKIA|ASIA)[A-Z2-7]{16}[\"']?[ \t]*[,;:|\t /][ \t]*[\"']?(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
        "AKIA",
        "ASIA",
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
        _B + r"(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,99}",
        *("sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_"),
    ),
    _rule("stripe-key", _B + r"whsec_[A-Za-z0-9]{24,}", "whsec_"),
    _rule("vault-token", _B + r"hv[sbr]\.[A-Za-z0-9_-]{24,}", "hvs.", "hvb.", "hvr."),
    _rule(
        "wandb-api-key",
        r"wandb[ \t]+login\b[^\n]*?(?<![\w-])(?P<v>(?:local-)?[0-9a-f]{40})(?![0-9a-f])",
        "wandb login",
    ),
    _rule("databricks-token", _B + r"dapi[0-9a-f]{32}(?:-\d)?", "dapi"),
    *VENDOR_RULES,
)

# Prefixes that are distinctive enough to look for inside base64 blobs too (see prefilter).
# Only the families that travel inside base64 env files and docker configs; the vendor shapes are
# found in plain text (each base64 form is one more literal for every byte of every log).
BASE64_PREFIXES: tuple[str, ...] = tuple(
    p
    for rule in TOKEN_RULES
    if rule not in VENDOR_RULES
    for p in rule.prefixes
    if len(p) >= 4 and not p.startswith("eyJ")
)
