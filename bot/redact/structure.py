"""Key-aware masking: the key and the punctuation stay, the value goes.

Handles ``KEY=value`` env lines, JSON/YAML fields (also JSON with escaped quotes), HTTP headers
including the signing schemes, command-line flags and the Kubernetes ``name:``/``value:`` env pair.
"""

from __future__ import annotations

import base64
import binascii
import re

from bot.redact.allow import is_benign, is_file_path, is_placeholder, is_setting, looks_secret
from bot.redact.keynames import KeyClass, classify
from bot.redact.later import later
from bot.redact.spans import PRIO_KEY, PRIO_STRUCT, Span
from bot.redact.values import open_quote, value_span

__all__ = ["KEY_WORDS", "KeyClass", "classify", "is_name_line", "pending_name", "scan_line", "value_line"]

KEY_WORDS = (
    *("pass", "pwd", "secret", "token", "key", "auth", "cred", "cookie", "sig", "sk", "ak", "session"),
    *("appcode", "art-api"),
)
_KEYWORD = later("|".join(KEY_WORDS), re.IGNORECASE)
_KEYWORD_LOWER = later("|".join(KEY_WORDS))
_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
# After a key: an optional closing quote (possibly escaped), then the separator. Whitespace counts
# as a separator only for command-line flags (checked by the caller).
_SEP = later(r"(?:\\*[\"'])?[ \t]*(?P<sep>:=|=>|[.?+|]{1,2}=|=|:(?!//)|>|,(?=[ \t]*\\*[\"'])|[ \t](?=[^\s=:]))")
# A typed declaration between key and "=": "var apiToken string = ...", "token: str = ..."
_TYPED = later(r"(?::[ \t]*|[ \t]+)[A-Za-z_][A-Za-z0-9_.\[\]]{0,24}[ \t]*(?::=|=)[ \t]*(?=[\"'`])")
# Where a key at this position owns the rest of the line: env dumps, YAML, .netrc-like files, Dockerfiles.
_LINE_START = later(r"[ \t]*(?:(?:export|set|ENV|ARG|declare -x)[ \t]+|-[ \t]+)?\Z")
_HEADER_SCHEMES = later(
    r"(?P<scheme>Bearer|Basic|Token|Digest|Negotiate|OAuth|JWT|Bot|token|bearer|basic)[ \t]+", re.IGNORECASE
)
_HMAC = later(r"(?:SDK|AWS4|OBS|V4|HWS|ACS|HMAC)-HMAC-SHA\d+|AWS4-HMAC-SHA256|SDK-HMAC-SHA256", re.I)
_HMAC_PARTS = later(
    r"(?<![A-Za-z])(?P<k>Access|Credential|Signature|AccessKeyId|Sig)=(?P<v>[^,\s\"'&]+)", re.IGNORECASE
)
_OBS_AUTH = later(r"(?<![A-Za-z])(?:OBS|AWS|OSS)[ \t]+(?P<v>[A-Za-z0-9]{12,}:[A-Za-z0-9+/=_-]{16,})")
_BEARER = later(r"(?<![A-Za-z])Bearer[ \t]+(?P<v>[A-Za-z0-9._~+/=\-]{8,})", re.IGNORECASE)
_CMDLINE = later(
    r"""(?x)
    (?:\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n]*?[ \t]-p(?P<my>[^\s"']+))
    | (?:\bsshpass\b[^\n]*?[ \t]-p[ \t]*(?P<sp>[^\s"']+))
    | (?:\bredis-cli\b[^\n]*?[ \t]-a[ \t]+(?P<rd>[^\s"']+))
    | (?:\b(?:curl|wget|http)\b[^\n]*?[ \t](?:-u|--user)[ \t=]*["']?[^\s:"']+:(?P<cu>[^\s"']+))
    | (?:\b(?:docker|podman|nerdctl|helm|skopeo|buildah|crane)\b[^\n]*?\blogin\b
         [^\n]*?[ \t]-p[ \t]+(?P<dk>[^\s"']+))
    """
)
_CMDLINE_WORDS = ("mysql", "mariadb", "sshpass", "redis-cli", "curl", "wget", "http", "login")  # one in every match
_NAME_LINE = later(r"""^[ \t]*(?:-[ \t]*)?["']?name["']?[ \t]*[:=][ \t]*["']?(?P<k>[A-Za-z0-9_.\-]+)["']?""")
_VALUE_LINE = later(r"""^[ \t]*(?:-[ \t]*)?["']?value["']?[ \t]*[:=][ \t]*""")
_PAIR = later(
    r"""["']?name["']?[ \t]*[:=][ \t]*(?P<q>["']?)(?P<k>[A-Za-z0-9_.\-]+)(?P=q)(?:[ \t]*,|[ \t]+)"""
    r"""[ \t]*["']?value["']?[ \t]*[:=][ \t]*"""
)
# the flow form with its value first: "{value: VALUE, name: DB_PASSWORD}"
_VALUE_FIRST = later(r"""(?<![\w-])["']?value["']?[ \t]*[:=][ \t]*""")
_NAME_AFTER = later(
    r"""["']?[ \t]*,[ \t]*["']?name["']?[ \t]*[:=][ \t]*(?P<q>["']?)(?P<k>[A-Za-z0-9_.\-]+)(?P=q)"""
)
_NAMED = later(r"""\bname["']?[ \t]*[:=][ \t]*["']?\Z""")
_NAME_ENDS = later(r"""["']?[ \t]*(?:[,}\]]|\r?$)""")
_MIN_LEN = {"signature": 16, "auth": 8}
# Prose before a bare "key:" ("Cache restored from key: Linux-pip-..."): a lookup key, not a secret.
_PROSE_KEY = later(
    r"(?i)(?:from|with|for|input|primary|restore|restored|cache|lookup|sort|partition|foreign|matching|hash|"
    r"unique|dict|map|index|missing|unknown|the|a|by)[ \t]+\Z"
)
# A flag followed by one of these is a sentence about the flag ("Using --password via the CLI ..."), not a value.
_PROSE_VALUES = frozenset(
    [
        *("via", "is", "are", "and", "or", "the", "to", "with", "instead", "option", "flag", "on", "in", "from"),
        *("for", "of", "was", "not", "must", "should", "will", "can", "argument", "parameter", "value", "when"),
        *("if", "has", "have", "be", "been", "only", "also"),
    ]
)
_COMMAND = later(
    r"(?:cat|echo|printf|vault|jq|base64|head|tail|sed|awk|kubectl|gcloud|aws|security|pass|op)[ \t]+[^\s]"
)
_PATH_FLAGS = ("--from-file=", "--from-env-file=", "file=", "path=")


def scan_line(line: str, *, keys: bool = True, shapes: bool = True) -> list[Span]:
    """``keys``: key-aware assignments; ``shapes``: headers and command lines (prefilter groups)."""
    spans: list[Span] = []
    if keys:
        named = "name" in line
        for key, key_start, key_end in _keys(line):
            if named and _NAMED.search(line, max(0, key_start - 12), key_start) and _NAME_ENDS.match(line, key_end):
                continue  # the name of a name/value pair, whose value is judged below: the word "value" is no value
            spans.extend(_assignment(line, key, key_start, key_end))
        for m in _PAIR.finditer(line) if named else ():
            cls = classify(m.group("k"))
            if cls is not None:
                span = value_span(line, m.end(), anchored=False, quote=None, cookie=False)
                if span and not _keep(line[span[0] : span[1]], cls, m.group("k")):
                    spans.append(Span(span[0], span[1], cls.kind, PRIO_KEY))
        if named and "value" in line:
            spans.extend(_value_first(line))
    if shapes:
        spans.extend(_shapes(line))
    return spans


def _keys(line: str) -> list[tuple[str, int, int]]:
    """Key tokens holding a key word, found from the word outward (much cheaper than a regex that
    tries every position of every line)."""
    found: list[tuple[str, int, int]] = []
    last_end = -1
    n = len(line)
    # Case-insensitive alternation is slow in ``re``; lowering an ASCII line keeps offsets and is not.
    hits = _KEYWORD_LOWER.finditer(line.lower()) if line.isascii() else _KEYWORD.finditer(line)
    for m in hits:
        if m.start() < last_end:
            continue
        start = m.start()
        while start > 0 and line[start - 1] in _KEY_CHARS:
            start -= 1
        end = m.end()
        while end < n and line[end] in _KEY_CHARS:
            end += 1
        last_end = end
        found.append((line[start:end], start, end))
    return found


def _assignment(line: str, key: str, key_start: int, key_end: int) -> list[Span]:
    m = _TYPED.match(line, key_end) or _SEP.match(line, key_end)
    if m is None:
        return []
    cls = classify(key)
    if cls is None:
        return []
    sep = m.group("sep") if "sep" in m.re.groupindex else "="
    if sep == ">" and not line.startswith("<", key_start - 1):
        return []  # only an XML element's name: <apiToken>value</apiToken>
    if sep == "," and (open_quote(line, key_start) is None or not _closed_before(line, key_end, m.start("sep"))):
        return []  # only a quoted key, closed before the comma: System.setProperty("API_TOKEN", "value")
    if sep.isspace() and not key.startswith("-"):
        return []  # "token expired": prose, not an assignment
    lower = key.lower().lstrip("-")
    if lower in {"authorization", "proxy-authorization"} and sep == ":":
        return _authorization(line, m.end())
    if lower in {"key", "keys"} and _PROSE_KEY.search(line, max(0, key_start - 24), key_start):
        return []
    if line.endswith(_PATH_FLAGS, 0, key_start):
        return []  # "--from-file=token=/run/secrets/token": the value is where the secret lives
    if key_start > 0 and line[key_start - 1] == "/" and not line.startswith("://", max(0, key_start - 3)):
        return []  # "open /etc/passwd: permission denied": a file's name, not a key
    anchored = _LINE_START.match(line, 0, key_start) is not None and not sep.isspace()
    quote = open_quote(line, key_start)
    span = value_span(line, m.end(), anchored=anchored, quote=quote, cookie=cls.kind == "cookie")
    if span is None:
        return []
    start, end = span
    if sep.isspace() and (line.startswith("-", start) or line[start:end].lower() in _PROSE_VALUES):
        return []  # "--password --other-flag": the flag has no inline value here
    if line.startswith("://", key_start - 3):
        at = line.find("@", start, end)  # "https://ci-token:SECRET@host/repo": the host and path stay
        end = at if at > start else end
    if _keep(line[start:end], cls, key):
        return []
    kind = cls.kind
    if lower == "auth" and _is_userpass_b64(line[start:end]):
        kind = "docker-auth"
    return [Span(start, end, kind, PRIO_KEY)]


def _closed_before(line: str, key_end: int, sep_start: int) -> bool:
    return line[key_end:sep_start].rstrip(" \t").endswith(("\"", "'"))


def _shapes(line: str) -> list[Span]:
    spans: list[Span] = []
    # Each pattern needs a word of its own: a substring test first (for the caseless ones only on an ASCII
    # line, where lowering is exact; any other line goes to those patterns as it is).
    low = line.lower() if line.isascii() else None
    if (low is None or "hmac-sha" in low) and _HMAC.search(line):
        for m in _HMAC_PARTS.finditer(line):
            if not is_placeholder(m.group("v")):
                spans.append(Span(m.start("v"), m.end("v"), "request-signature", PRIO_STRUCT))
    if "OBS" in line or "AWS" in line or "OSS" in line:
        for m in _OBS_AUTH.finditer(line):
            spans.append(Span(m.start("v"), m.end("v"), "request-signature", PRIO_STRUCT))
    if low is None or "bearer" in low:
        for m in _BEARER.finditer(line):
            if not is_placeholder(m.group("v")):
                spans.append(Span(m.start("v"), m.end("v"), "bearer-token", PRIO_STRUCT))
    if any(word in line for word in _CMDLINE_WORDS):
        for m in _CMDLINE.finditer(line):
            group = m.lastgroup
            if group and not is_placeholder(m.group(group)):
                spans.append(Span(m.start(group), m.end(group), "password", PRIO_STRUCT))
    return spans


def _value_first(line: str) -> list[Span]:
    """A name/value pair on one line with its value first: the value up to the comma before ``name:``."""
    spans: list[Span] = []
    for m in _VALUE_FIRST.finditer(line):
        span = value_span(line, m.end(), anchored=False, quote=None, cookie=False)
        if span is None:
            continue
        end = span[1] - 1 if line.endswith(",", span[0], span[1]) else span[1]
        nm = _NAME_AFTER.match(line, end)
        cls = None if nm is None else classify(nm.group("k"))
        if cls is not None and nm is not None and not _keep(line[span[0] : end], cls, nm.group("k")):
            spans.append(Span(span[0], end, cls.kind, PRIO_KEY))
    return spans


def pending_name(line: str) -> KeyClass | None:
    """A Kubernetes env entry's ``name:`` line whose ``value:`` (on a following line) is a secret."""
    m = _NAME_LINE.match(line)
    if m is None or _VALUE_LINE.search(line):
        return None
    return classify(m.group("k"))


def value_line(line: str, cls: KeyClass) -> Span | None:
    m = _VALUE_LINE.match(line)
    if m is None:
        return None
    span = value_span(line, m.end(), anchored=True, quote=None, cookie=False)
    if span is None or _keep(line[span[0] : span[1]], cls, "value"):
        return None
    return Span(span[0], span[1], cls.kind, PRIO_KEY)


def is_name_line(line: str) -> bool:
    return _NAME_LINE.match(line) is not None


def _keep(value: str, cls: KeyClass, key: str) -> bool:
    if is_placeholder(value.strip()) or value.strip() in {"|", ">", "|-", ">-", "{", "[", "{}", "[]", "\\", "("}:
        return True
    if _COMMAND.match(value):
        return True  # `cat /etc/ci/token`: the command that reads it, not the value
    if value.startswith(("[{", '{"', "{'", '["', "['")):
        return True  # a structure, whose own keys are judged one by one
    if key.lower().lstrip("-") in {"pwd", "oldpwd"} and value.startswith(("/", "~")):
        return True  # the shell's working directory
    if len(value) < _MIN_LEN.get(cls.kind, 1):
        return True
    if is_setting(key, value) or is_file_path(value):
        return True
    if cls.strong:
        return value.startswith(("sha256:", "sha512:")) and is_benign(value)
    return not looks_secret(value.strip("\"'"))


def _authorization(line: str, pos: int) -> list[Span]:
    quote = open_quote(line, pos)
    span = value_span(line, pos, anchored=True, quote=quote, cookie=True)
    if span is None:
        return []
    start, end = span
    value = line[start:end].strip("\"'")
    if is_placeholder(value):
        return []
    if _HMAC.match(value):
        return []  # the signing-scheme pass masks Access/Credential/Signature and keeps SignedHeaders
    m = _HEADER_SCHEMES.match(line, start)
    kind = "authorization"
    if m is not None:
        scheme = m.group("scheme").lower()
        kind = "basic-auth" if scheme == "basic" else "bearer-token"
        start = m.end()
    if start >= end or is_placeholder(line[start:end].strip("\"'")):
        return []
    return [Span(start, end, kind, PRIO_STRUCT)]


def _is_userpass_b64(value: str) -> bool:
    try:
        raw = base64.b64decode(value.strip("\"'"), validate=True)
    except (binascii.Error, ValueError):
        return False
    return b":" in raw
