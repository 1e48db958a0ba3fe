"""A password read from stdin, printed on a line of its own next to the command that reads it.

``echo "$PW" | docker login --password-stdin`` under ``set -x`` prints ``+ echo VALUE`` on one line and ``+
docker login ... --password-stdin`` on another (the pipeline's two sides are traced in either order); a script
may also log the value alone on the line before. The value is found by its place: the one argument of an
``echo``/``printf``/``cat <<<`` traced within two lines before or one line after the reading command (past an
echo of a plain word in between), or a lone
credential-looking word on the line right before it. A stream holds such a line back until the next one is in
(``may_precede``), so the line before is always there to be masked.
"""

from __future__ import annotations

from bot.redact.allow import is_benign, is_placeholder, looks_secret
from bot.redact.blocks import MORE, line_end
from bot.redact.later import later
from bot.redact.spans import PRIO_STRUCT, Span

_READER = later(
    r"--password-stdin|--passwd-stdin|--token-stdin|--with-token|\bpasswd[ \t]+--stdin\b|=/dev/stdin\b"
    r"|\bsudo[ \t]+(?:-[A-Za-z]+[ \t]+)*-S\b|\bchpasswd\b"
)
LOOK_BACK = 2  # lines
# log prefixes repeated on every line, then the shell's trace marks ("+ ", "++ ")
_PREFIX = later(
    r"""(?:\d{4}-\d\d-\d\d[T ][\d:.,]+(?:Z|[+-]\d\d:?\d\d)?[ \t]*(?:stdout|stderr)?[ \t]*(?:[FP][ \t])?"""
    r"""|\[[^\]\n]{1,80}\][ \t]*|\([^)\n]{1,80}\)[ \t]*|(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE)[ \t:]+"""
    r"""|[\w.\-/@]{1,64}[ \t]*\|[ \t]?)*(?P<trace>\++[ \t]+)?"""
)
_ECHO = later(
    r"""(?:echo|printf|cat[ \t]+<<<)(?:[ \t]+-[neE]+)*(?:[ \t]+(?:'%s(?:\\n)?'|"%s(?:\\n)?"|%s(?:\\n)?))?[ \t]+"""
    r"""(?:"(?P<dq>[^"\s]+)"|'(?P<sq>[^'\s]+)'|(?P<bare>[^\s"'|;&<>]+))[ \t]*\r?$"""
)
_ECHO_WORD = later(r"(?:echo|printf)[ \t]")
_LONE = later(r"""(?:"(?P<dq>[^"\s]{6,256})"|'(?P<sq>[^'\s]{6,256})'|(?P<bare>[^\s"'|;&<>]{6,256}))[ \t]*\r?$""")


def around(text: str, start: int, end: int, *, final: bool) -> list[Span] | int:
    """The value a stdin-reading command on ``text[start:end]`` is given, on a line next to it; MORE when the
    next line is not in yet (a stream's next piece)."""
    line = text[start:end]
    if not ("stdin" in line or "-with-token" in line or "chpasswd" in line or "sudo" in line):
        return []  # the words one of which every match of _READER holds: a substring test is much cheaper
    if _READER.search(line) is None:
        return []
    spans: list[Span] = []
    pos = start
    for back in range(LOOK_BACK):
        if pos == 0:
            break
        a = text.rfind("\n", 0, pos - 1) + 1
        found = _value(text, a, pos - 1, lone=back == 0)
        if found is not None:
            spans.append(found)
            if _plausible(text[found.start : found.end]):
                break  # else a traced echo of something else ("::group::login") may stand between: look on
        pos = a
    if end >= len(text):
        return spans if final else MORE
    nxt_end = line_end(text, end + 1, final=final)
    if nxt_end is None:
        return MORE
    found = _value(text, end + 1, nxt_end, lone=False)
    return [*spans, found] if found is not None else spans


def window_start(text: str, start: int) -> int:
    """Where the lines ``around`` looks back on from the line at ``start`` begin."""
    pos = start
    for _ in range(LOOK_BACK):
        if pos == 0:
            break
        pos = text.rfind("\n", 0, pos - 1) + 1
    return pos


def may_precede(line: str) -> bool:
    """Whether a stdin-reading command on the next line would make this line's value a credential."""
    return _match(line, lone=True) is not None


def _value(text: str, a: int, b: int, *, lone: bool) -> Span | None:
    found = _match(text[a:b], lone=lone)
    return None if found is None else Span(a + found[0], a + found[1], "password", PRIO_STRUCT)


def _match(line: str, *, lone: bool) -> tuple[int, int] | None:
    prefix = _PREFIX.match(line)
    at = prefix.end() if prefix is not None else 0
    m = _ECHO.match(line, at)
    alone = m is None
    if alone and lone and (prefix is None or prefix.group("trace") is None):
        m = _LONE.match(line, at)
    if m is None:
        return None
    group = next(g for g in ("dq", "sq", "bare") if m.group(g) is not None)
    value = m.group(group)
    if is_placeholder(value) or (alone and not _plausible(value)):
        return None
    return m.start(group), m.end(group)


def _plausible(value: str) -> bool:
    """A word alone on its line that may be a password: not a placeholder, number, digest, path or plain word, and
    mixing letters with digits (or looking random)."""
    if is_placeholder(value) or is_benign(value) or value.startswith(("/", "./", "~", "http")):
        return False
    if len(value) < 8 or (value.isalpha() and not any(c.isupper() for c in value[1:])):
        return False  # a word ("Authenticating", "Done"), not a password
    return looks_secret(value) or (any(c.isdigit() for c in value) and any(c.isalpha() for c in value))


def held_back(text: str, safe_end: int, spans: list[Span]) -> int:
    """A stream's text ends at a line end: its last line waits for the next one when a command reading a
    password from stdin there would make it a credential (stdin.around then sees both), unless what came
    before it has masked some of it already (a wrapped token's tail: that needs the line before)."""
    if safe_end < len(text) or len(text) < 2:
        return safe_end
    last = text.rfind("\n", 0, len(text) - 1) + 1
    line = text[last : len(text) - 1]
    if any(s.end > last for s in spans):
        return safe_end
    found = _match(line, lone=True)
    if last > 0 and (found is None or not _plausible(line[found[0] : found[1]])) and _echoes(line):
        before = text.rfind("\n", 0, last - 1) + 1  # an echo of something else: the line before may hold the value
        if may_precede(text[before : last - 1]) and not any(s.end > before for s in spans):
            return before
    return last if found is not None else safe_end


def _echoes(line: str) -> bool:
    """Whether the line is a traced echo or printf (of anything)."""
    prefix = _PREFIX.match(line)
    return _ECHO_WORD.match(line, prefix.end() if prefix is not None else 0) is not None
