"""Find the first line matching each runbook log pattern in each log, fast.

All patterns are compiled into one Hyperscan database and every log is scanned once; Hyperscan only
prefilters (first candidate per pattern), and Python's `re` confirms the candidate line, so matching
semantics are exactly those of the runbook's regexes. Patterns Hyperscan cannot compile, or runs without
Hyperscan installed, fall back to `re` over the text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.runbook.schema import LogCond
from bot.signals.markers import LogView

hyperscan: Any
try:  # the C extension is optional: the pure-Python path gives the same answers, only slower
    import hyperscan
except ImportError:  # pragma: no cover - exercised when the wheel is unavailable
    hyperscan = None


@dataclass(frozen=True)
class _Key:
    pattern: str
    unless: str | None


def _key(cond: LogCond) -> _Key:
    return _Key(cond.pattern.pattern, cond.unless.pattern if cond.unless else None)


class LogMatcher:
    """Built once per runbook; `first_match` answers per (condition, log)."""

    def __init__(self, conds: Iterable[LogCond], *, use_hyperscan: bool = True) -> None:
        self._conds: dict[_Key, LogCond] = {}
        for c in conds:
            self._conds.setdefault(_key(c), c)
        self._patterns = sorted({k.pattern for k in self._conds})
        self._db: Any = None
        self._hs_ids: dict[int, str] = {}
        self._hs_patterns: frozenset[str] = frozenset()
        if use_hyperscan and hyperscan is not None:
            self._compile()

    @property
    def accelerated(self) -> int:
        """How many patterns the Hyperscan prefilter covers."""
        return len(self._hs_ids)

    def _compile(self) -> None:
        flags = hyperscan.HS_FLAG_MULTILINE | hyperscan.HS_FLAG_SINGLEMATCH | hyperscan.HS_FLAG_ALLOWEMPTY
        usable: list[tuple[int, bytes]] = []
        for i, pat in enumerate(self._patterns):
            expr = pat.encode("utf-8")
            probe = hyperscan.Database()
            try:
                probe.compile(expressions=[expr], ids=[i], elements=1, flags=[flags])
            except hyperscan.error:
                continue  # this pattern stays on the `re` path
            usable.append((i, expr))
        if not usable:
            return
        self._db = hyperscan.Database()
        self._db.compile(expressions=[e for _, e in usable], ids=[i for i, _ in usable], elements=len(usable),
                         flags=[flags] * len(usable))
        self._hs_ids = {i: self._patterns[i] for i, _ in usable}
        self._hs_patterns = frozenset(self._hs_ids.values())

    def prefilter(self, view: LogView) -> dict[str, int]:
        """Pattern -> character offset of its first candidate, for the accelerated patterns."""
        if self._db is None:
            return {}
        text = view.text
        data = text.encode("utf-8", "surrogatepass")
        found: dict[int, int] = {}

        def on_match(pid: int, _start: int, end: int, _flags: int, _ctx: object) -> bool:
            found.setdefault(pid, end)
            return False

        self._db.scan(data, match_event_handler=on_match)
        ascii_only = len(data) == len(text)
        out: dict[str, int] = {}
        for pid, end in found.items():
            line_start = data.rfind(b"\n", 0, max(end - 1, 0)) + 1 if end else 0
            offset = line_start if ascii_only else len(data[:line_start].decode("utf-8", "replace"))
            out[self._hs_ids[pid]] = offset
        return out

    def first_match(self, cond: LogCond, view: LogView, candidates: dict[str, int]) -> int | None:
        """Offset of the first line of `view` matching `cond` (and not its `unless`)."""
        pat = cond.pattern.pattern
        text = view.text
        if pat in self._hs_patterns:
            if pat not in candidates:
                return None
            start = candidates[pat]
        else:
            start = 0
        for m in cond.pattern.finditer(text, start):
            line = view.line_at(m.start())
            if cond.unless is not None and cond.unless.search(line.text):
                continue
            if not cond.pattern.search(line.text):
                continue  # a match spanning lines: only single-line evidence counts
            return m.start()
        return None

