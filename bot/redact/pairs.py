"""An access key's ID beside its masked secret: half a credential pair is not left behind.

``MINIO_ROOT_USER=AK MINIO_ROOT_PASSWORD=SK``, ``client_id=X client_secret=Y``, ``app_id``/``app_secret``: when a
secret's value on a line is masked, the value of the key naming its pair's ID on the same line (same stem:
``MINIO_ROOT_``, ``client_``) goes too, if it looks like an ID (not a user's name: letters with digits, or an
access key ID's shape). ``AK/SK: ID/SECRET`` gives both in one value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.redact.allow import is_placeholder, key_shaped
from bot.redact.spans import PRIO_KEY, PRIO_STRUCT, Span

_ID_SUFFIX = (
    r"(?:USER(?:NAME)?|User(?:name)?|user(?:name)?|_?I[Dd]|_?id|AK|ak|ACCESS_?KEY(?:_?ID)?"
    r"|[Aa]ccess_?[Kk]ey(?:_?[Ii]d)?)"
)
_SECRET_SUFFIX = re.compile(
    r"(?:PASSWORD|[Pp]assword|PASS|SECRET(?:_?KEY)?|[Ss]ecret(?:_?[Kk]ey)?|SK|sk|SECRET_?ACCESS_?KEY"
    r"|[Ss]ecret_?[Aa]ccess_?[Kk]ey)$"
)
_ID_ASSIGN = re.compile(
    r"(?<![A-Za-z0-9_.\-])(?P<k>[A-Za-z0-9_.\-]*?)" + _ID_SUFFIX
    + r"""["']?(?P<sep>[ \t]*[:=][ \t]*|[ \t]+)["']?(?P<v>[A-Za-z0-9_\-]{12,64})(?![A-Za-z0-9_\-])"""
)
_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_MASKED = re.compile(r"""(?P<k>[A-Za-z0-9_.\-]+)["']?[ \t]*[:=][ \t]*["']?(?:\*{3,}|\[REDACTED[^\]\s]*\]|<hidden>)""")
SLASH_PAIR = re.compile(
    r"(?i:\b(?:ak|access[ _-]?key(?:[ _-]?id)?)[ \t]*/[ \t]*(?:sk|secret[ _-]?(?:access[ _-]?)?key))"
    r"[ \t]*(?:[:=]|：)[ \t]*(?P<ak>[A-Za-z0-9]{16,64})[ \t]*/[ \t]*(?P<sk>[A-Za-z0-9/+=]{16,80})"
)


def ids_beside(line: str, spans: Iterable[Span]) -> list[Span]:
    """The pair's ID beside each masked secret of ``spans`` on ``line``, or beside a secret masked already
    (``client_secret=***``)."""
    spans = list(spans)
    stems = set()
    if "***" in line or "[REDACTED" in line or "<hidden>" in line:
        for m in _MASKED.finditer(line):
            suffix = _SECRET_SUFFIX.search(m.group("k"))
            if suffix is not None:
                stems.add(_stem(m.group("k")[: suffix.start()]))
    for span in spans:
        key = _key_before(line, span.start)
        suffix = _SECRET_SUFFIX.search(key) if key else None
        if suffix is not None:
            stems.add(_stem(key[: suffix.start()]))
    if not stems:
        return []
    out: list[Span] = []
    for m in _ID_ASSIGN.finditer(line):
        value = m.group("v")
        if not m.group("sep").strip() and not m.group("k").startswith("-"):
            continue  # "client id X" in prose; "--client-id X" is a flag and its value
        taken = any(s.start < m.end("v") and m.start("v") < s.end for s in spans)
        if not taken and _stem(m.group("k")) in stems and not is_placeholder(value) and _id_like(value):
            out.append(Span(m.start("v"), m.end("v"), "cloud-access-key-id", PRIO_KEY))
    return out


def _key_before(line: str, pos: int) -> str:
    """The key of an assignment (``key=``, ``"key": ``) or a flag (``--key``) whose value starts at ``pos``; ""
    when none."""
    i = len(line[:pos].rstrip("\"'"))  # before the value's opening quote
    k = len(line[:i].rstrip(" \t"))
    if k > 0 and line[k - 1] in ":=":
        end, flag = len(line[: k - 1].rstrip(" \t\"'")), False
    elif k < i:
        end, flag = k, True  # blanks alone: a flag's value
    else:
        return ""
    j = end
    while j > 0 and line[j - 1] in _KEY_CHARS:
        j -= 1
    key = line[j:end]
    return "" if flag and not key.startswith("-") else key


def two_keys(line: str) -> bool:
    """Whether a line may hold two assignments or flags (a pair needs both)."""
    return line.count("=") + line.count(": ") + line.count('":') >= 2 or line.count("--") >= 2 or line.count(" -") >= 2


def slash_pairs(line: str) -> list[Span]:
    out: list[Span] = []
    for m in SLASH_PAIR.finditer(line):
        out.append(Span(m.start("ak"), m.end("ak"), "cloud-access-key-id", PRIO_STRUCT))
        out.append(Span(m.start("sk"), m.end("sk"), "secret-key", PRIO_STRUCT))
    return out


def _stem(key: str) -> str:
    return key.lower().replace("-", "_").rstrip("_.")


def _id_like(value: str) -> bool:
    return key_shaped(value) or (any(c.isdigit() for c in value) and any(c.isalpha() for c in value))
