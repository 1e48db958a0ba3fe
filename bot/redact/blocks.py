"""Secrets whose value is not on the key's line, or whose block needs its context to be read.

* a key that ends its line: the value is on the next one (YAML, pretty-printed dicts, ``KEY=\\``
  shell continuations), also when every line carries the same log prefix;
* a Kubernetes Secret's ``data:``/``stringData:``: every value is a secret, whatever its key.

Offsets are absolute in the text given; functions return spans and how far they looked.
"""

from __future__ import annotations

import re
from functools import lru_cache

from bot.redact.allow import is_placeholder, looks_secret
from bot.redact.keynames import KeyClass, classify
from bot.redact.later import later
from bot.redact.spans import PRIO_KEY, Span

MORE = -1  # the construct may continue past the text: feed more input (streaming)
SECRET_LOOKBACK = 60  # lines before data: searched for "kind: Secret"
SECRET_LOOKAHEAD = 40  # lines after the data block
MAX_SECRET_LINES = 500

_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_VALUE = later(r"""[ \t]*(?P<q>["']?)(?P<v>[^\s"',]+)(?P=q)[ \t]*,?[ \t]*(?:\\|\))?[ \t]*\r?$""")
# Log prefixes repeated on every line: timestamps, CRI "stdout F", "[pod/x]", "(pid=1)", "INFO".
_LOG_PREFIX = later(
    r"""(?x)^(?:
      \d{4}-\d\d-\d\d[T ][\d:.,]+(?:Z|[+-]\d\d:?\d\d)?[ \t]*(?:stdout|stderr)?[ \t]*(?:[FP][ \t])?
    | \[[^\]\n]{1,80}\][ \t]*
    | \([^)\n]{1,80}\)[ \t]*
    | [A-Z]\d{4}[ \t][\d:.]+[ \t]+\d+[ \t][\w.]+:\d+\][ \t]*
    | (?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE)[ \t:]+
    )+"""
)
_KIND_SECRET = later(r"""^[ \t]*["']?kind["']?[ \t]*:[ \t]*["']?Secret["']?[ \t]*,?[ \t]*\r?$""", re.M)
_DATA_KEY = later(r"""(?P<ind>[ \t]*)(?P<q>["']?)(?:data|stringData)(?P=q)[ \t]*:[ \t]*(?P<brace>\{)?[ \t]*\r?$""")
_CHILD = later(r"""^(?P<ind>[ \t]*)["']?[^\s"':]+["']?[ \t]*:[ \t]*(?P<v>.*?)[ \t]*,?[ \t]*\r?$""")
_INLINE = later(r"""\\*["'](?:data|stringData)\\*["'][ \t]*:[ \t]*\{(?P<body>[^{}]*)\}""")
_INLINE_VALUE = later(r""":[ \t]*\\*["'](?P<v>[^"'\\]+)\\*["']""")
_DIGITS = later(r"\d+")
_SHELL_WORDS = later(
    r"(?:export|set|ENV|ARG|declare -x|readonly|local|\+)(?:[ \t]+(?:export|-x))?"
)


def _lines_after(text: str, pos: int, count: int, *, final: bool) -> list[tuple[int, int]] | None:
    """Up to ``count`` (start, end) line ranges from ``pos``; None when one is cut by the text's end."""
    out: list[tuple[int, int]] = []
    while len(out) < count and pos < len(text):
        nl = line_end(text, pos, final=final)
        if nl is None:
            return None
        out.append((pos, nl))
        pos = nl + 1
    return out


def log_prefix(line: str) -> str:
    m = _LOG_PREFIX.match(line)
    return m.group() if m is not None else ""


def _shape(fixed: str) -> re.Pattern[str]:
    """A regex for text shaped like ``fixed``: same characters, any digits where it has digits."""
    return _shape_of(_DIGITS.sub("0", fixed.rstrip()))  # one compiled form per shape, whatever the timestamp


@lru_cache(maxsize=256)
def _shape_of(form: str) -> re.Pattern[str]:
    parts = []
    for run in re.findall(r"\d+|\D", form):
        parts.append(r"\d+" if run[0].isdigit() else re.escape(run))
    return re.compile("".join(parts) + r"[ \t]*")


def _pending_key(line: str) -> tuple[int, str, bool, KeyClass] | None:
    """(key start, separator, continued with a backslash, class) of a secret's key ending ``line``."""
    i = len(line.rstrip(" \t\r"))
    cont = False
    if i and line[i - 1] in "\\(":
        cont = line[i - 1] == "\\"
        i = len(line[: i - 1].rstrip(" \t"))
    sep = ""
    if i and line[i - 1] == ">" and "<" in line[: i - 1] and not line.endswith("/>"):
        sep = ">"  # an XML element opened at the end of the line: <apiToken>
        i -= 1
    elif i and line[i - 1] in ":=":
        sep = line[i - 1]
        i = len(line[: i - 1].rstrip(" \t"))
    elif not cont:
        return None
    if i and line[i - 1] in "\"'" and sep != ">":
        i -= 1
    k = i
    while k > 0 and line[k - 1] in _KEY_CHARS:
        k -= 1
    key = line[k:i]
    if not key or (not sep and not key.startswith("-")) or (sep == ">" and not line.startswith("<", k - 1)):
        return None
    cls = classify(key)
    return None if cls is None else (k, sep, cont, cls)


def pending_value(text: str, start: int, end: int, *, final: bool) -> tuple[list[Span], int] | int | None:
    """A secret's key ending the line at ``text[start:end]``, its value alone on the next line."""
    line = text[start:end]
    found = _pending_key(line)
    if found is None:
        return None
    key_start, sep, cont, cls = found
    nxt = _lines_after(text, end + 1, 1, final=final)
    if nxt is None or (not nxt and not final):
        return MORE
    if not nxt:
        return None
    a, b = nxt[0]
    value_line = text[a:b]
    skip = _skip_prefix(line[:key_start], value_line)
    if skip < 0 and cont:
        skip = 0  # a continuation line carries no prefix of its own
    if skip < 0:
        return None  # the next line is another record: not this key's value
    vm = _VALUE.match(value_line, skip)
    if vm is None:
        return None
    value = vm.group("v")
    if is_placeholder(value) or value.endswith(":") or value.startswith(("-", "#", "{", "[")):
        return None
    if not cls.strong and not looks_secret(value):
        return None
    if not cont and sep == "=" and "=" in value:
        return None  # "A=" then "B=2": an empty value, then the next assignment
    return [Span(a + vm.start("v"), a + vm.end("v"), cls.kind, PRIO_KEY)], b


def _skip_prefix(prefix: str, value_line: str) -> int:
    """Where the value starts in ``value_line`` when the key line began with ``prefix``: after the same
    prefix (digits may differ: timestamps), after the same log prefix, or after blanks; -1 if neither."""
    body = prefix.strip(" \t{[(,'\"<-")
    if not body or _SHELL_WORDS.fullmatch(body):
        return 0
    for fixed in (prefix, log_prefix(prefix)):
        if fixed.strip():
            pm = _shape(fixed).match(value_line)
            if pm is not None:
                return pm.end()
    return -1


def secret_inline(line: str) -> list[Span]:
    """``{"data": {"k": "v", ...}, "kind": "Secret"}`` on one line: every value of data/stringData."""
    if "Secret" not in line:
        return []
    spans = []
    for m in _INLINE.finditer(line):
        for v in _INLINE_VALUE.finditer(m.group("body")):
            if not is_placeholder(v.group("v")):
                base = m.start("body")
                spans.append(Span(base + v.start("v"), base + v.end("v"), "kubernetes-secret", PRIO_KEY))
    return spans


def secret_data(text: str, start: int, end: int, *, final: bool) -> tuple[list[Span], int] | int | None:
    """The values under a ``data:``/``stringData:`` block of a Kubernetes Secret (YAML or pretty JSON)."""
    dm = _DATA_KEY.match(text, start, end)
    if dm is None:
        return None
    indent = len(dm.group("ind").expandtabs())
    body = _block_body(text, end + 1, indent, final=final)
    if body is None:
        return MORE  # the block may go on in the next piece of a stream
    block_end = body[-1][1] if body else end
    after = _lines_after(text, block_end + 1, SECRET_LOOKAHEAD, final=final)
    if after is None:
        return MORE
    stop = after[-1][1] if after else block_end
    if not _is_secret(text, start, stop):
        if not final and len(after) < SECRET_LOOKAHEAD:
            return MORE  # "kind: Secret" may still follow
        return None
    spans: list[Span] = []
    scalar_indent = -1
    for a, b in body:
        piece = text[a:b]
        width = len(piece.expandtabs()) - len(piece.expandtabs().lstrip())
        if scalar_indent >= 0 and (width > scalar_indent or not piece.strip()):
            stripped = piece.strip()
            if stripped and not is_placeholder(stripped):
                lead = a + (len(piece) - len(piece.lstrip()))
                spans.append(Span(lead, lead + len(stripped), "kubernetes-secret", PRIO_KEY))
            continue
        scalar_indent = -1
        cm = _CHILD.match(piece)
        if cm is None:
            continue
        value = cm.group("v").strip("\"'")
        if value in {"|", ">", "|-", ">-", "|+", ">+"}:
            scalar_indent = width
            continue
        if value and not is_placeholder(value) and value not in {"{", "}", "[", "]"}:
            vs = a + cm.start("v") + (1 if cm.group("v")[:1] in "\"'" else 0)
            spans.append(Span(vs, vs + len(value), "kubernetes-secret", PRIO_KEY))
    return spans, block_end


def line_end(text: str, pos: int, *, final: bool) -> int | None:
    """Where the line starting at ``pos`` ends; None when the text ends first and more of it may come (a
    stream's next piece)."""
    end = text.find("\n", pos)
    if end >= 0:
        return end
    return len(text) if final else None


def _block_body(text: str, pos: int, indent: int, *, final: bool) -> list[tuple[int, int]] | None:
    """The lines from ``pos`` indented deeper than ``indent`` (blank ones too), read up to the first line
    that closes the block; None when the text ends first and more of it may come (streaming)."""
    body: list[tuple[int, int]] = []
    while len(body) < MAX_SECRET_LINES:
        if pos >= len(text):
            return body if final else None
        nl = line_end(text, pos, final=final)
        if nl is None:
            return None
        piece = text[pos:nl]
        if piece.strip() and len(piece.expandtabs()) - len(piece.expandtabs().lstrip()) <= indent:
            return body
        body.append((pos, nl))
        pos = nl + 1
    return body


def secret_after_kind(text: str, start: int, end: int, *, final: bool) -> tuple[list[Span], int] | int | None:
    """``kind: Secret`` before its ``data:``: find that block ahead (so a stream keeps the kind line
    until the block has arrived) and mask it."""
    if _KIND_SECRET.match(text, start, end) is None:
        return None
    lines = _lines_after(text, end + 1, SECRET_LOOKAHEAD, final=final)
    if lines is None:
        return MORE
    for a, b in lines:
        if text.startswith("---", a):
            return None
        if _DATA_KEY.match(text, a, b) is not None:
            return secret_data(text, a, b, final=final)
    if not final and len(lines) < SECRET_LOOKAHEAD:
        return MORE
    return None


def _is_secret(text: str, start: int, stop: int) -> bool:
    """Is the document around ``start`` a Secret? Looks back to the document's start ("---")."""
    lo = start
    for _ in range(SECRET_LOOKBACK):
        if lo <= 0:
            break
        lo = text.rfind("\n", 0, lo - 1) + 1
        if text.startswith("---", lo):
            break
    return _KIND_SECRET.search(text, lo, stop) is not None
