"""URLs stay readable; their credentials do not: userinfo passwords and signing/token query parameters."""

from __future__ import annotations

import re

from bot.redact.allow import is_placeholder, looks_secret
from bot.redact.later import later
from bot.redact.spans import PRIO_STRUCT, Span

# Query parameters that sign a URL or carry a credential (S3/OBS/OSS/GCS/Azure SAS presigning, tokens).
SIGNING_PARAMS = (
    "x-amz-signature",
    "x-amz-credential",
    "x-amz-security-token",
    "signature",
    "accesskeyid",
    "x-obs-security-token",
    "x-obs-signature",
    "x-obs-credential",
    "sig",
    "x-goog-signature",
    "x-goog-credential",
    "googleaccessid",
    "ossaccesskeyid",
    "security-token",
    "securitytoken",
    "x-oss-signature",
    "x-oss-credential",
    "x-oss-security-token",
)
TOKEN_PARAMS = (
    "token",
    "access_token",
    "accesstoken",
    "id_token",
    "refresh_token",
    "auth",
    "auth_token",
    "api_key",
    "apikey",
    "key",
    "password",
    "passwd",
    "pwd",
    "secret",
    "client_secret",
    "private_token",
    "session",
    "sessionid",
    "x-auth-token",
    "code",
)
_PARAM = later(
    r"(?<=[?&;#])(?P<name>"
    + "|".join(re.escape(p) for p in sorted(SIGNING_PARAMS + TOKEN_PARAMS, key=len, reverse=True))
    + r")=(?P<v>[^&#\s\"'<>\\]+)",
    re.IGNORECASE,
)
_SIGNING = frozenset(SIGNING_PARAMS)
_UUID = later(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
# scheme://user:password@host — the password part only; a bare user stays readable.
_USERINFO = later(r"(?i)\b[a-z][a-z0-9+.\-]{1,15}://(?P<user>[^\s:/@\"'<>]*):(?P<pw>[^\s/\"'<>]+)@")
_MIN_TOKEN_PARAM = 8  # ?key=train and ?code=200 are not credentials
# scheme://TOKEN@host — a token used as the whole userinfo (git over HTTPS, index URLs)
_BARE_USERINFO = later(r"(?i)\b[a-z][a-z0-9+.\-]{1,15}://(?P<tok>[A-Za-z0-9_\-.~%]{16,})@")
# The secret part of a webhook URL is its path: Feishu/Lark bot hooks, Discord, Teams, DingTalk-like robots.
HOOK_MARKERS = ("/hook/", "/hooks/", "/webhook/", "/webhooks/", "/webhookb2/", "/robot/send/")
_HOOK = later(
    r"(?i)(?:/hook|/hooks|/webhook|/webhooks|/webhookb2|/robot/send)/(?P<v>[A-Za-z0-9_\-@.~]{16,}(?:/[A-Za-z0-9_\-@.~]+)*)"
)


def scan_line(line: str) -> list[Span]:
    spans: list[Span] = []
    if "=" in line:
        for m in _PARAM.finditer(line):
            value = m.group("v")
            if is_placeholder(value):
                continue
            name = m.group("name").lower()
            if name in _SIGNING:
                spans.append(Span(m.start("v"), m.end("v"), "url-signature", PRIO_STRUCT))
            elif len(value) >= _MIN_TOKEN_PARAM:
                spans.append(Span(m.start("v"), m.end("v"), "url-token", PRIO_STRUCT))
    if "@" in line:
        for m in _USERINFO.finditer(line):
            if not is_placeholder(m.group("pw")):
                spans.append(Span(m.start("pw"), m.end("pw"), "url-password", PRIO_STRUCT))
        for m in _BARE_USERINFO.finditer(line):
            if looks_secret(m.group("tok")):
                spans.append(Span(m.start("tok"), m.end("tok"), "url-token", PRIO_STRUCT))
    if "hook" in line or "robot" in line:
        for m in _HOOK.finditer(line):
            value = m.group("v")
            if not value.isdigit() and (looks_secret(value) or _UUID.search(value)):
                spans.append(Span(m.start("v"), m.end("v"), "webhook-secret", PRIO_STRUCT))
    return spans
