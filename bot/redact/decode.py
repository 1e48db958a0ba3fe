"""Decoded views of a line, so a secret hidden by an encoding is still found.

Each view maps every character back to the original line, so a find in the decoded text masks the
exact encoded bytes (URL- and JSON-escaped forms) or the whole blob (base64, where positions don't map).
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

from bot.redact.later import later

_ANSI = later(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")
_PCT = later(r"(?:%[0-9A-Fa-f]{2})+")
_JSON_ESC = later(r"\\(?:u[0-9A-Fa-f]{4}|[\"\\/bfnrt])")
_B64_BLOB = later(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{20,}={0,2}")
_SIMPLE = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
MAX_BLOB = 1 << 16


@dataclass(frozen=True)
class View:
    """``text`` decoded from a line; ``origin[i]`` is the line index of ``text[i]``.

    ``origin[len(text)]`` is the end of the decoded region."""

    text: str
    origin: tuple[int, ...]
    # Where removed escapes stood (ANSI colour): a find ends at its last character, and at a colour
    # change that a blank follows, so the reset after a value stays outside its mask.
    cuts: tuple[int, ...] | None = None

    def back(self, start: int, end: int) -> tuple[int, int]:
        a = self.origin[start]
        if self.cuts is None:
            return a, self.origin[end]
        b = self.origin[end - 1] + 1 if end > start else a
        for cut in self.cuts:
            if a < cut < b:
                return a, cut
        return a, b


def _rewrite(line: str, pattern: re.Pattern[str], decode: dict[str, str] | None) -> View | None:
    pieces: list[str] = []
    origin: list[int] = []
    cuts: list[int] = []
    run_start = -1  # the first of escapes that follow one another
    pos = 0
    found = False
    for m in pattern.finditer(line):
        found = True
        run_start = run_start if m.start() == pos and run_start >= 0 and pos > 0 else m.start()
        if decode is None and (m.end() == len(line) or line[m.end()] in " \t\r"):
            cuts.append(run_start)
        pieces.append(line[pos : m.start()])
        origin.extend(range(pos, m.start()))
        token = m.group()
        if decode is not None and token.startswith("%") and len(token) > 3:
            text, where = _utf8_run(token)  # "%E5%AF%86%E7%A0%81" is 密码, not six Latin-1 characters
            pieces.append(text)
            origin.extend(m.start() + w for w in where)
            pos = m.end()
            continue
        if decode is None:
            out = ""
        elif token.startswith("%"):
            out = chr(int(token[1:], 16))
        elif token.startswith("\\u"):
            out = chr(int(token[2:], 16))
        else:
            out = decode[token[1]]
        pieces.append(out)
        origin.extend([m.start()] * len(out))
        pos = m.end()
    if not found:
        return None
    pieces.append(line[pos:])
    origin.extend(range(pos, len(line) + 1))
    return View("".join(pieces), tuple(origin), tuple(cuts) if decode is None else None)


def _utf8_run(token: str) -> tuple[str, list[int]]:
    """A run of percent-escapes decoded as UTF-8 where it is valid (Latin-1 per byte elsewhere), and
    for each character the offset of its first escape in the run."""
    raw = bytes(int(token[i + 1 : i + 3], 16) for i in range(0, len(token), 3))
    chars: list[str] = []
    where: list[int] = []
    i = 0
    while i < len(raw):
        for size in (1, 2, 3, 4):
            try:
                c = raw[i : i + size].decode("utf-8")
            except UnicodeDecodeError:
                continue
            break
        else:
            c, size = chr(raw[i]), 1
        chars.append(c)
        where.append(3 * i)
        i += size
    return "".join(chars), where


def strip_ansi(line: str) -> View | None:
    return _rewrite(line, _ANSI, None) if "\x1b" in line else None


def url_decoded(line: str) -> View | None:
    return _rewrite(line, _PCT, {}) if "%" in line else None


def json_unescaped(line: str) -> View | None:
    return _rewrite(line, _JSON_ESC, _SIMPLE) if "\\" in line else None


def compose(outer: View, inner: View) -> View:
    """A view of a view, mapped straight back to the original line."""
    return View(inner.text, tuple(outer.origin[i] for i in inner.origin))


def base64_blobs(text: str) -> list[tuple[int, int, str]]:
    """(start, end, decoded) for blobs that decode to mostly printable text."""
    found: list[tuple[int, int, str]] = []
    for m in _B64_BLOB.finditer(text):
        blob = m.group()
        if len(blob) > MAX_BLOB:
            continue
        decoded = _b64(blob)
        if decoded is not None:
            found.append((m.start(), m.end(), decoded))
    return found


def _b64(blob: str) -> str | None:
    body = blob.rstrip("=")
    if "-" in body or "_" in body:
        body = body.replace("-", "+").replace("_", "/")
    body += "=" * (-len(body) % 4)
    try:
        raw = base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError):
        return None
    if not raw:
        return None
    text = raw.decode("utf-8", errors="replace")
    printable = sum(1 for c in text if c.isprintable() or c in "\n\r\t")
    return text if printable >= 0.85 * len(text) else None


def base64_forms(literal: str) -> list[str]:
    """The parts of ``literal``'s base64 encoding that do not depend on its alignment or neighbours.

    A secret inside a larger base64 blob starts at byte offset 0, 1 or 2 of a 3-byte group; for each
    shift keep only the output characters fully determined by the literal's own bits.
    """
    raw = literal.encode()
    forms: list[str] = []
    for shift in range(3):
        enc = base64.b64encode(b"\0" * shift + raw + b"\0\0").decode()
        lo = -(-8 * shift // 6)  # first char whose 6 bits start inside the literal
        hi = (8 * (shift + len(raw))) // 6  # chars ending at or before the literal's last bit
        core = enc[lo:hi]
        if len(core) >= 4:
            forms.append(core)
            url = core.replace("+", "-").replace("/", "_")
            if url != core:
                forms.append(url)
    return forms
