"""Credentials given to ``printf`` as positional arguments, named only by the format string.

``printf 'machine %s login %s password %s\\n' HOST USER VALUE > ~/.netrc`` (the netrc idiom), ``printf
'{"token": "%s"}' VALUE``, ``printf '%s:%s' USER VALUE | base64``, also with a bare ``--`` after the format
(meant to end options): the key word stands in the format, before a conversion, and the value is the argument
that conversion takes (printf reuses its format while arguments remain). The conversion itself is no value
(allow.is_placeholder), so the format stays readable.
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.redact.allow import is_file_path, is_placeholder, is_setting, key_shaped, looks_secret
from bot.redact.keynames import classify
from bot.redact.later import later
from bot.redact.spans import PRIO_STRUCT, Span

# printf, an optional "-v VAR" and "--", then the format word
_PRINTF = later(r"(?<![\w.-])printf(?:[ \t]+-v[ \t]+\w+)?(?:[ \t]+--)?[ \t]+")
# A shell word (quoted, or a run without blanks, quotes and the operators that end a command)
_WORD = later(r""""(?P<dq>(?:[^"\\\n]|\\.)*)"|'(?P<sq>[^'\n]*)'|(?P<bare>[^\s"'`|;&<>()]+)""")
_BLANKS = later(r"[ \t]*")
_CONVERSION = later(r"%(?:%|[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?P<c>[diouxXfFeEgGaAcsbq]))")
_ESCAPES = later(r"\\[nrt]")
# the key word right before a conversion: "password %s", "password=%s", '"token": "%s"', "--token %s"
_KEY_BEFORE = later(r"""(?P<k>[A-Za-z_][\w.\-]*)\\?["']?[ \t]*[:=]?[ \t]*\\?["']?$""")
_SCHEMES_BEFORE = later(r"(?:Basic|Bearer|token|Token)[ \t]+$")
_KEY_VALUE_ARG = later(r"[ \t]*(?P<k>[A-Za-z_][\w.\-]*)[ \t]+(?P<v>[^\s\\]+)[ \t]*(?:\\n)?")
MAX_ARGS = 32
_Word = tuple[int, int, str]  # start, end, text
_Role = tuple[str, bool, str]  # the credential's kind, whether the key alone says so, the key
MIN_VALUE = 4
_PAIRED = "password"


def scan_line(line: str) -> list[Span]:
    spans: list[Span] = []
    for m in _PRINTF.finditer(line):
        words = list(_words(line, m.end()))
        if len(words) < 2:
            continue
        kinds = _roles(words[0][2])
        if not kinds:
            continue
        args = words[1:]
        alignments = [args]
        if args[0][2] == "--" and line[args[0][0] - 1] not in "\"'":
            # "printf FORMAT -- ARGS": written to end options, but bash prints the "--" as one more argument, so
            # the value meant for the password slot and the one bash puts there are both masked
            alignments.append(args[1:])
        for aligned in alignments:
            spans.extend(s for s in _aligned(kinds, aligned) if s not in spans)
    return spans


def _aligned(kinds: list[_Role | None], args: list[_Word]) -> list[Span]:
    """The spans of `args` taken by the format's conversions in order (printf reuses its format)."""
    spans: list[Span] = []
    for j, (start, end, value) in enumerate(args):
        role = kinds[j % len(kinds)]
        if role is None:
            spans.extend(_line_argument(start, value))
            continue
        if is_placeholder(value) or "$" in value or len(value) < MIN_VALUE:
            continue
        if is_setting(role[2], value) or is_file_path(value) or (not role[1] and not looks_secret(value)):
            continue  # "token_level_loss=%s 1", a path to where the secret lives
        spans.append(Span(start, end, role[0], PRIO_STRUCT))
        if role[0] == _PAIRED and j and key_shaped(args[j - 1][2]):  # "AK:SK" into an s3fs password file
            spans.append(Span(args[j - 1][0], args[j - 1][1], "cloud-access-key-id", PRIO_STRUCT))
    return spans


def _line_argument(start: int, value: str) -> list[Span]:
    """An argument that is a whole line of a credentials file (``printf '%s\\n' 'machine h' 'password VALUE'``, a
    .netrc written line by line): a key word that names a credential for sure, a blank, the value."""
    m = _KEY_VALUE_ARG.fullmatch(value)
    if m is None:
        return []
    cls = classify(m.group("k"))
    v = m.group("v")
    if cls is None or not cls.strong or is_placeholder(v) or "$" in v or len(v) < MIN_VALUE or is_file_path(v):
        return []
    return [Span(start + m.start("v"), start + m.end("v"), cls.kind, PRIO_STRUCT)]


def _words(line: str, pos: int) -> Iterator[_Word]:
    """(start, end, text) of each word of the command from ``pos``, quotes left out, up to its end."""
    for _ in range(MAX_ARGS + 1):
        m = _WORD.match(line, pos)
        if m is None or m.end() == m.start():
            return
        group = next(g for g in ("dq", "sq", "bare") if m.group(g) is not None)
        yield m.start(group), m.end(group), m.group(group)
        pos = _BLANKS.match(line, m.end()).end()  # type: ignore[union-attr]  # it matches the empty string
        if pos == m.end() and pos < len(line):
            return  # glued to something else ("a"$b, a redirection): the command's words end here


def _roles(fmt: str) -> list[_Role | None]:
    """For each conversion of the format that takes an argument: the credential's kind, whether the key alone
    says so (else the value must look like a credential) and the key; or None."""
    kinds: list[_Role | None] = []
    last = 0
    for m in _CONVERSION.finditer(fmt):
        if m.group("c") is None:  # "%%"
            continue
        before = _ESCAPES.sub(" ", fmt[last : m.start()])
        kinds.append(_kind(before, previous=kinds, first=last == 0))
        last = m.end()
    return kinds


def _kind(before: str, *, previous: list[tuple[str, bool, str] | None],
          first: bool) -> tuple[str, bool, str] | None:
    if before == ":" and previous and not first:
        return _PAIRED, True, ""  # "%s:%s": user, then password (basic auth, s3fs's AK:SK)
    if _SCHEMES_BEFORE.search(before):
        return "token", True, ""
    key = _KEY_BEFORE.search(before)
    if key is None:
        return None
    cls = classify(key.group("k"))
    return None if cls is None else (cls.kind, cls.strong, key.group("k"))
