"""Split kubectl's per-container log sections (`==== START logs for container c of pod ns/p ====`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

_START = re.compile(r"^==== START logs for container (?P<c>\S+) of pod (?P<ns>[^/\s]+)/(?P<pod>\S+) ====$", re.M)
_END = "==== END logs for container {c} of pod {ns}/{pod} ===="
UNKNOWN_CONTAINER = "(unnamed)"


def split_sections(text: str) -> Iterator[tuple[str, str]]:
    """Yield (container, log text). Text outside any section belongs to no named container."""
    pos = 0
    matched = False
    while True:
        m = _START.search(text, pos)
        if m is None:
            break
        matched = True
        body_start = m.end() + 1 if text[m.end():m.end() + 1] == "\n" else m.end()
        end_marker = _END.format(c=m["c"], ns=m["ns"], pod=m["pod"])
        end = text.find(end_marker, body_start)
        if end < 0:
            # A dump cut short: keep what is there rather than dropping the container.
            yield m["c"], text[body_start:]
            return
        yield m["c"], text[body_start:end]
        pos = end + len(end_marker)
    if not matched and text.strip():
        yield UNKNOWN_CONTAINER, text
