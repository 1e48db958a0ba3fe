"""Where a Python or Ray error report says what failed: a traceback's exception line, not its header.

A traceback starts with "Traceback (most recent call last):" and names the failure on its last line; Ray
prefixes each line of an actor's output with `(Name pid=..., ip=...)`, and heads an unhandled task error with
"Unhandled error (suppress with ...)". A remote task's failure re-raised in the driver reads
"ray.exceptions.RayTaskError(DistBackendError): ray::Actor.method() (pid=..., ...)": a wrapper naming the exception it
carries, which Ray prints below it. The first error of a log is the exception such a report ends with.
"""

from __future__ import annotations

import re

# A traceback's header, alone or behind a Ray worker's prefix: group 1 is what precedes it on each of its lines.
TRACEBACK = re.compile(r"(\([\w.:-]+ pid=\d+(?:, ip=[\d.:a-f]+)?\) |)Traceback \(most recent call last\):")
UNHANDLED = re.compile(r"Unhandled error \(suppress with")
# Ray's wrapper of a remote failure: group 1 names the exception it carries.
WRAPPER = re.compile(r"\bRay(?:Task|Actor)Error\((\w+)\): ")
RAISED = re.compile(r"(?:\([\w.:-]+ pid=\d+(?:, ip=[\d.:a-f]+)?\) )?"
                    r"[A-Za-z_][\w.]*(?:Error|Exception)(?:\([\w.]+\))?: ")


def exception_line(text: str, pos: int, *, limit: int = 200) -> int:
    """From a traceback's header line ("Traceback (most recent call last):", also behind a Ray actor's
    `(Name pid=..., ip=...)` prefix) to the exception line that ends it: the first later line with the same
    prefix whose rest is not indented. Any other line: `pos` itself."""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    m = TRACEBACK.match(text, start, end)
    if m is None:
        return _raised_after(text, pos, start, end, limit=limit)
    prefix = m.group(1)
    cursor = end
    for _ in range(limit):
        if cursor >= len(text):
            break
        nxt = cursor + 1
        if not text.startswith(prefix, nxt):
            break  # another process's output: the traceback is interleaved or cut here
        rest = nxt + len(prefix)
        if rest < len(text) and text[rest] not in " \t\n\r":
            line_end = text.find("\n", nxt)
            # the exception may be Ray's wrapper of another one, printed below it
            return _raised_after(text, nxt, nxt, len(text) if line_end < 0 else line_end, limit=limit)
        cursor = text.find("\n", nxt)
        cursor = len(text) if cursor < 0 else cursor
    return pos

def _raised_after(text: str, pos: int, start: int, end: int, *, limit: int) -> int:
    """Ray's "Unhandled error (suppress with ...): ray::Actor.method() (...)" heads the exception it prints
    next: the first exception line below it (within `limit` lines) is what failed."""
    wrapped = WRAPPER.search(text, start, end)
    if wrapped is None and UNHANDLED.search(text, start, end) is None:
        return pos
    carried = wrapped.group(1) if wrapped is not None else ""
    cursor = end
    for _ in range(limit):
        if cursor >= len(text):
            break
        nxt = cursor + 1
        cursor = text.find("\n", nxt)
        cursor = len(text) if cursor < 0 else cursor
        m = RAISED.match(text, nxt, cursor)
        if m is not None and (not carried or _names(text[nxt:m.end()], carried)):
            inner = WRAPPER.search(text, nxt, cursor)
            return nxt if inner is None or carried else _raised_after(text, nxt, nxt, cursor, limit=limit)
    return pos


def _names(raised: str, exception: str) -> bool:
    """Whether an exception line's head ("torch.distributed.DistBackendError: ") raises `exception`."""
    name = raised.rstrip(": ").rsplit(" ", 1)[-1].split("(")[0]
    return name == exception or name.endswith("." + exception)
