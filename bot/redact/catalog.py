"""The prefilter's pattern catalogue: for each detector, what any of its matches must contain."""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.redact.decode import base64_forms
from bot.redact.prefilter import Pattern
from bot.redact.rules import BASE64_PREFIXES, TOKEN_RULES
from bot.redact.structure import KEY_WORDS
from bot.redact.urls import SIGNING_PARAMS, TOKEN_PARAMS

# Group ids after the token rules (which use their index in TOKEN_RULES).
_BASE = len(TOKEN_RULES)
G_STRUCT = _BASE + 0  # key-aware masking, headers, command lines
G_URL = _BASE + 1  # signed-URL parameters and userinfo
G_PEM = _BASE + 2
G_ANSI = _BASE + 3
G_PCT = _BASE + 4
G_JSONESC = _BASE + 5
G_B64 = _BASE + 6  # base64 forms of token prefixes and key words
G_KNOWN = _BASE + 7
TOKEN_GROUPS = frozenset(range(_BASE))

# Key words also looked for inside base64 (case variants, since base64 is case-sensitive).
_B64_WORDS = (
    "password",
    "passwd",
    "secret",
    "token",
    "auth",
    "private",
    "credential",
    "api_key",
    "apikey",
    "-----BEGIN",
    "PRIVATE KEY",
    "Bearer",
    "access_key",
    "ACCESS_KEY",
    "_KEY=",
    "_AK=",
    "_SK=",
    "_ID=",
    "_SECRET",
    "_TOKEN",
    "PASSWORD",
    '"auths"',
    '"auth"',
    '"password"',
)


def _lit(text: str) -> str:
    return re.escape(text)


def build(known_forms: Sequence[str]) -> list[Pattern]:
    pats: list[Pattern] = []
    for group, rule in enumerate(TOKEN_RULES):
        pats.extend(Pattern(_lit(p), group, caseless=rule.caseless) for p in rule.prefixes)
    for word in KEY_WORDS:
        if word in {"sk", "ak"}:
            continue
        pats.append(Pattern(_lit(word), G_STRUCT, caseless=True))
    # ak/sk only as a key word of their own (HUAWEICLOUD_SDK_AK, obsSk), not inside "task" or "disk".
    pats.append(Pattern(r"(?:^|[^A-Za-z])[AaSs][Kk](?:[^a-z]|$)", G_STRUCT, multiline=True))
    pats.append(Pattern(r"[a-z0-9][AS]k(?:[^a-z]|$)", G_STRUCT, multiline=True))
    for word in ("bearer", "hmac-sha", "mysql", "mariadb", "sshpass", "redis-cli"):
        pats.append(Pattern(_lit(word), G_STRUCT, caseless=True))
    pats.append(Pattern(r"(?:curl|wget|http)[^\n]*(?:-u|--user)", G_STRUCT))
    pats.append(Pattern(r"login[^\n]* -p", G_STRUCT))
    pats.append(Pattern(r"(?:OBS|AWS|OSS)[ \t]+[A-Za-z0-9]{12}", G_STRUCT))
    params = "|".join(_lit(p) for p in sorted(SIGNING_PARAMS + TOKEN_PARAMS))
    pats.append(Pattern(rf"[?&;#](?:{params})=", G_URL, caseless=True))
    pats.append(Pattern(r"://[^\s/@]*:", G_URL))
    pats.append(Pattern(r"BEGIN[ A-Z0-9]*PRIVATE KEY", G_PEM))
    pats.append(Pattern(r"\x1b", G_ANSI))
    pats.append(Pattern(r"%(?:[0-7][0-9A-Fa-f])", G_PCT))
    pats.append(Pattern(r"\\u00[0-7][0-9A-Fa-f]", G_JSONESC))
    b64: set[str] = set()
    for word in (
        BASE64_PREFIXES
        + _B64_WORDS
        + tuple(w.upper() for w in _B64_WORDS)
        + tuple(w.capitalize() for w in _B64_WORDS)
    ):
        b64.update(base64_forms(word))
    pats.extend(Pattern(_lit(form), G_B64) for form in sorted(b64) if len(form) >= 4)
    pats.extend(Pattern(_lit(form), G_KNOWN) for form in known_forms)
    return pats
