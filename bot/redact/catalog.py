"""The prefilter's pattern catalogue: for each detector, what any of its matches must contain."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from bot.redact.decode import base64_forms
from bot.redact.keys import classify
from bot.redact.prefilter import MatchFilter, Pattern
from bot.redact.rules import BASE64_PREFIXES, TOKEN_RULES
from bot.redact.structure import KEY_WORDS
from bot.redact.urls import SIGNING_PARAMS, TOKEN_PARAMS

# Group ids after the token rules (which use their index in TOKEN_RULES).
_BASE = len(TOKEN_RULES)
G_STRUCT = _BASE + 0  # key-aware masking (assignments, fields, flags, env name/value)
G_URL = _BASE + 1  # signed-URL parameters and userinfo
G_PEM = _BASE + 2
G_ANSI = _BASE + 3
G_CMD = _BASE + 4  # command lines and auth headers with their own shapes (mysql -p, Bearer, HMAC)
G_JSONESC = _BASE + 5
G_B64 = _BASE + 6  # base64 forms of token prefixes and key words
G_KNOWN = _BASE + 7
G_NAME = _BASE + 8  # the name: of a Kubernetes env entry whose value: follows
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


_KEY_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_KEY_RIGHT = re.compile(rb"[A-Za-z0-9_.\-]*")


def secret_key_at(data: bytes, frm: int, to: int) -> bool:
    """Prefilter veto for G_STRUCT: the key token around the match start must name a secret.

    Mirrors structure._keys/_assignment, which expand from the key word over the same characters
    and skip keys that ``classify`` rejects; so vetoing here loses nothing (``pad_token_id=``,
    ``KeyError:``, ``task_id=`` are never candidates)."""
    start = frm
    while start > 0 and data[start - 1] in _KEY_BYTES:
        start -= 1
    right = _KEY_RIGHT.match(data, frm)
    end = right.end() if right is not None else frm
    return _is_secret_key(data[start:end])


@lru_cache(maxsize=8192)
def _is_secret_key(key: bytes) -> bool:
    return classify(key.decode("ascii", "replace")) is not None


FILTERS: dict[int, MatchFilter] = {G_STRUCT: secret_key_at}


def build(known_forms: Sequence[str]) -> list[Pattern]:
    pats: list[Pattern] = []
    for group, rule in enumerate(TOKEN_RULES):
        pats.extend(Pattern(_lit(p), group, caseless=rule.caseless) for p in rule.prefixes)
    # Key words only in the shapes the structure layer acts on: an assignment (``KEY=``, ``"key":``,
    # ``\"key\":``, URL-encoded ``key%3D``), a command-line flag (``--password x``), or the ``name:`` of a
    # Kubernetes env entry. Bare words ("tokens/s", "KeyError") in prose are not candidates.
    words = "|".join(KEY_WORDS)
    chars = r"[A-Za-z0-9_.\-]*"
    sep = r"(?:\\*[\"'])?[ \t]*(?:[:=]|%3[ad]|%22)"
    pats.append(Pattern(rf"(?:{words}){chars}{sep}", G_STRUCT, caseless=True, som=True))
    pats.append(Pattern(rf"-{chars}(?:{words}){chars}[ \t]", G_STRUCT, caseless=True, som=True))
    pats.append(Pattern(rf"name\\*[\"']?[ \t]*[:=][ \t]*\\*[\"']?{chars}(?:{words})", G_NAME, caseless=True))
    for word in ("bearer", "hmac-sha", "mysql", "mariadb", "sshpass", "redis-cli"):
        pats.append(Pattern(_lit(word), G_CMD, caseless=True))
    pats.append(Pattern(r"(?:curl|wget|http)[^\n]*(?:-u|--user)", G_CMD))
    pats.append(Pattern(r"login[^\n]*[ \t]-p", G_CMD))
    pats.append(Pattern(r"(?:OBS|AWS|OSS)[ \t]+[A-Za-z0-9]{12}", G_CMD))
    params = "|".join(_lit(p) for p in sorted(SIGNING_PARAMS + TOKEN_PARAMS))
    pats.append(Pattern(rf"(?:[?&;#]|%26|%3f)(?:{params})(?:=|%3d)", G_URL, caseless=True))
    pats.append(Pattern(r"://[^\s/@]*:", G_URL))
    pats.append(Pattern(r"%3a%2f%2f[^\s/@%]*%3a", G_URL, caseless=True))
    pats.append(Pattern(r"BEGIN[ A-Z0-9]*PRIVATE KEY", G_PEM))
    # An escape sequence only hides something when it is glued inside a token or between a key and
    # its separator; colour around whole words leaves every other pattern visible.
    pats.append(Pattern(r"[A-Za-z0-9_\-]\x1b\[[0-9;]*[A-Za-z][A-Za-z0-9_\-=:]", G_ANSI))
    pats.append(Pattern(r"\\u00[0-7][0-9A-Fa-f]", G_JSONESC))
    b64: set[str] = set()
    for word in (
        BASE64_PREFIXES + _B64_WORDS + tuple(w.upper() for w in _B64_WORDS) + tuple(w.capitalize() for w in _B64_WORDS)
    ):
        b64.update(base64_forms(word))
    pats.extend(Pattern(_lit(form), G_B64) for form in sorted(b64) if len(form) >= 4)
    pats.extend(Pattern(_lit(form), G_KNOWN) for form in known_forms)
    return pats
