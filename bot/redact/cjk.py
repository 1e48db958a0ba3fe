"""Chinese key words (密码, 口令, 密钥, 访问令牌 ...) and full-width separators.

Ascend CI and RLark job scripts print messages such as ``数据库密码：...`` or ``访问令牌=...``; the
key-aware layer only knows ASCII keys and ASCII separators. The value is the ASCII token after the
separator: Chinese text after it (``...，请检查``) stays readable.
"""

from __future__ import annotations

import re

from bot.redact.allow import is_placeholder, looks_secret
from bot.redact.keynames import classify
from bot.redact.later import later
from bot.redact.spans import PRIO_KEY, Span

# Longest first, so 秘密访问密钥 is one key, not 密钥 after some text.
CJK_KEYS: dict[str, str] = {
    "秘密访问密钥": "secret-key",
    "私有访问密钥": "secret-key",
    "访问密钥ID": "cloud-access-key-id",
    "访问密钥": "cloud-access-key-id",
    "安全令牌": "security-token",
    "临时令牌": "security-token",
    "访问令牌": "token",
    "身份令牌": "token",
    "令牌": "token",
    "私钥": "private-key",
    "密钥": "secret-key",
    "秘钥": "secret-key",
    "密码": "password",
    "口令": "password",
    "凭证": "credential",
    "凭据": "credential",
    "授权码": "auth",
}
# Any of these right after the key: ASCII or full-width colon/equals, 为/是 ("is"), with blanks around.
_SEP = r"[ \t]*(?:[:：=＝]|为|是)[:：]?[ \t]*"
_VALUE = r"""(?:"(?P<dq>[^"\n]+)"|'(?P<sq>[^'\n]+)'|“(?P<cq>[^”\n]+)”|(?P<bare>[\x21-\x7e]+))"""
_KEYS = "|".join(re.escape(k) for k in sorted(CJK_KEYS, key=len, reverse=True))
_CJK = later(rf"(?P<k>{_KEYS})(?P<sep>{_SEP}|[ \t]+){_VALUE}")
# An ASCII key with a full-width colon: "token：abc", "Password：abc".
_WIDE = later(r"(?P<k>[A-Za-z0-9_.\-]+)[ \t]*[：＝][ \t]*" + _VALUE)
_TRAILING = ".,;:)]}>"


def scan_line(line: str) -> list[Span]:
    spans: list[Span] = []
    for m in _CJK.finditer(line):
        kind = CJK_KEYS[m.group("k")]
        spaced = not m.group("sep").strip()  # "令牌 abc": only a credential-looking value
        span = _value(m, weak=spaced or kind == "auth")
        if span is not None:
            spans.append(Span(span[0], span[1], kind, PRIO_KEY))
    for m in _WIDE.finditer(line):
        cls = classify(m.group("k"))
        if cls is not None:
            span = _value(m, weak=not cls.strong)
            if span is not None:
                spans.append(Span(span[0], span[1], cls.kind, PRIO_KEY))
    return spans


def _value(m: re.Match[str], *, weak: bool) -> tuple[int, int] | None:
    for group in ("dq", "sq", "cq", "bare"):
        if m.group(group) is not None:
            start, end = m.start(group), m.end(group)
            break
    else:
        return None
    if group == "bare":
        while end > start and m.string[end - 1] in _TRAILING:
            end -= 1
    value = m.string[start:end]
    if not value or is_placeholder(value) or (weak and not looks_secret(value)):
        return None
    return start, end
