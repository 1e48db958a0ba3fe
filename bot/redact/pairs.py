"""An access key's ID beside its masked secret: half a credential pair is not left behind.

``MINIO_ROOT_USER=AK MINIO_ROOT_PASSWORD=SK``, ``client_id=X client_secret=Y``, ``app_id``/``app_secret``: when a
secret's value on a line is masked, the value of the key naming its pair's ID on the same line (same stem:
``MINIO_ROOT_``, ``client_``) goes too, if it looks like an ID (not a user's name: letters with digits, or an
access key ID's shape). ``AK/SK: ID/SECRET`` gives both in one value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from bot.redact.allow import is_placeholder, key_shaped
from bot.redact.later import later
from bot.redact.spans import PRIO_KEY, PRIO_STRUCT, Span

# The last words of a pair's keys (lower case, "-" as "_"), longest first: the ID's, and the secret's.
_ID_ENDS = ("access_key_id", "accesskeyid", "access_keyid", "accesskey_id", "access_key", "accesskey", "username",
            "user", "id", "ak")
_SECRET_ENDS = ("secret_access_key", "secretaccesskey", "secret_key", "secretkey", "password", "secret", "pass",
                "sk")
# An assignment or a flag whose value may be an ID: the key is judged by its last words (no regex tries every
# suffix at every position of a line)
_ASSIGN = later(
    r"""(?<![A-Za-z0-9_.\-])(?P<k>[A-Za-z0-9_.\-]+)["']?(?P<sep>[ \t]*[:=][ \t]*|[ \t]+)["']?"""
    r"""(?P<v>[A-Za-z0-9_\-]{12,64})(?![A-Za-z0-9_\-])"""
)
_MAX_KEY = 128
_REACH = 200  # characters either side of a secret where its pair's ID may stand
_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_MASKED = later(r"""(?P<k>[A-Za-z0-9_.\-]+)["']?[ \t]*[:=][ \t]*["']?(?:\*{3,}|\[REDACTED[^\]\s]*\]|<hidden>)""")
SLASH_PAIR = later(
    r"(?i:\b(?:ak|access[ _-]?key(?:[ _-]?id)?)[ \t]*/[ \t]*(?:sk|secret[ _-]?(?:access[ _-]?)?key))"
    r"[ \t]*(?:[:=]|：)[ \t]*(?P<ak>[A-Za-z0-9]{16,64})[ \t]*/[ \t]*(?P<sk>[A-Za-z0-9/+=]{16,80})"
)


def ids_beside(line: str, spans: Iterable[Span]) -> list[Span]:
    """The pair's ID beside each masked secret of ``spans`` on ``line``, or beside a secret masked already
    (``client_secret=***``): looked for within a short reach of the secret (lines may be long)."""
    spans = list(spans)
    stems: dict[str, list[tuple[int, int]]] = {}  # stem -> where its secrets are
    if "***" in line or "[REDACTED" in line or "<hidden>" in line:
        for m in _MASKED.finditer(line):
            stem = _stem(m.group("k"), _SECRET_ENDS)
            if stem is not None:
                stems.setdefault(stem, []).append((m.start(), m.end()))
    for span in spans:
        key = _key_before(line, span.start)
        stem = _stem(key, _SECRET_ENDS) if key else None
        if stem is not None:
            stems.setdefault(stem, []).append((span.start, span.end))
    out: list[Span] = []
    for a, b in sorted({(max(0, a - _REACH), b + _REACH) for where in stems.values() for a, b in where}):
        for m in _assignments(line, a, b):
            key, value = m.group("k"), m.group("v")
            if not m.group("sep").strip() and not key.startswith("-"):
                continue  # "client id X" in prose; "--client-id X" is a flag and its value
            if _stem(key, _ID_ENDS) not in stems or is_placeholder(value) or not _id_like(value):
                continue
            if not any(s.start < m.end("v") and m.start("v") < s.end for s in [*spans, *out]):
                out.append(Span(m.start("v"), m.end("v"), "cloud-access-key-id", PRIO_KEY))
    return out


def _key_before(line: str, pos: int) -> str:
    """The key of an assignment (``key=``, ``"key": ``) or a flag (``--key``) whose value starts at ``pos``; ""
    when none. Walks back from ``pos`` (no copy of the line before it: lines may be long)."""
    i = pos
    while i > 0 and line[i - 1] in "\"'":  # the value's opening quote
        i -= 1
    k = i
    while k > 0 and line[k - 1] in " \t":
        k -= 1
    if k > 0 and line[k - 1] in ":=":
        end, flag = k - 1, False
        while end > 0 and line[end - 1] in " \t\"'":
            end -= 1
    elif k < i:
        end, flag = k, True  # blanks alone: a flag's value
    else:
        return ""
    j = end
    while j > 0 and line[j - 1] in _KEY_CHARS and end - j < _MAX_KEY:
        j -= 1
    key = line[j:end]
    return "" if flag and not key.startswith("-") else key


def may_pair(line: str) -> bool:
    """Whether a line may hold a pair's ID and its secret: a word that the key of every ID's assignment holds, and
    two assignments or flags."""
    if line.count("=") + line.count(": ") + line.count('":') < 2 and line.count("--") < 2 and line.count(" -") < 2:
        return False
    low = line.lower()
    return "id" in low or "user" in low or "ak" in low or "access" in low


def slash_pairs(line: str) -> list[Span]:
    out: list[Span] = []
    for m in SLASH_PAIR.finditer(line):
        out.append(Span(m.start("ak"), m.end("ak"), "cloud-access-key-id", PRIO_STRUCT))
        out.append(Span(m.start("sk"), m.end("sk"), "secret-key", PRIO_STRUCT))
    return out


def _assignments(line: str, pos: int, end: int) -> Iterator[re.Match[str]]:
    """Every match of _ASSIGN in ``line[pos:end]``, also those whose key is another's value (``cmd=USER_KEY=V``)."""
    while (m := _ASSIGN.search(line, pos, end)) is not None:
        yield m
        pos = m.start("v")


def _stem(key: str, ends: tuple[str, ...]) -> str | None:
    """What precedes the key's last words when they are one of ``ends`` (normalised), else None."""
    low = key.lower().replace("-", "_")
    for end in ends:
        if low.endswith(end):
            return low[: len(low) - len(end)].rstrip("_.")
    return None


def _id_like(value: str) -> bool:
    return key_shaped(value) or (any(c.isdigit() for c in value) and any(c.isalpha() for c in value))
