"""Find the first line matching each runbook log pattern in each log, fast.

All patterns are compiled into one Hyperscan database and every log is scanned once; Hyperscan only
prefilters, and Python's `re` confirms the candidate line, so matching semantics are exactly those of the
runbook's regexes. The one scan keeps every candidate of every pattern (a few per log: a rejected candidate,
say a harmless NCCL plugin warning at the top of every rank's log, then costs no second pass over the rest of
the log); a log with more than MAX_CANDIDATES of them (`bot.diagnose.hsscan`, Hyperscan's side of the scan) is
scanned again keeping the first of each only, and its later candidates are looked for one pattern at a time.
Patterns Hyperscan cannot compile, or runs without Hyperscan installed, fall back to `re` over the text.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.diagnose.hsscan import (
    every_end,
    first_lines,
    lines_of,
    next_line_ascii,
    next_line_known,
    next_line_utf8,
)
from bot.redact.prefilter import DatabaseCache, cached_database
from bot.runbook.schema import LogCond
from bot.scope.lineclass import RETRY, Kind, classify, not_a_failure, succeeded_later, warned_then_went_on
from bot.scope.logview import VIEW_LITERALS, LogView
from bot.scope.markers import COUNTED

hyperscan: Any
try:  # the C extension is optional: the pure-Python path gives the same answers, only slower
    import hyperscan
except ImportError:  # pragma: no cover - exercised when the wheel is unavailable
    hyperscan = None

# Multiline anchors as in `re.M`; only the first match per pattern and log is needed.
_FLAGS: int = (hyperscan.HS_FLAG_MULTILINE | hyperscan.HS_FLAG_SINGLEMATCH | hyperscan.HS_FLAG_ALLOWEMPTY
               if hyperscan is not None else 0)
# The runbook's patterns in the survey's scan: every match (its candidates), the view's literals still once.
_ALL: int = _FLAGS & ~hyperscan.HS_FLAG_SINGLEMATCH if hyperscan is not None else 0


@dataclass(frozen=True)
class _Key:
    pattern: str
    unless: str | None


def _key(cond: LogCond) -> _Key:
    return _Key(cond.pattern.pattern, cond.unless.pattern if cond.unless else None)


class LogMatcher:
    """Built once per runbook; `first_match` answers per (condition, log)."""

    def __init__(self, conds: Iterable[LogCond], *, use_hyperscan: bool = True,
                 cache: DatabaseCache | None = None) -> None:
        """`cache`: where the compiled database may be kept between runs (the runbook's own patterns only;
        given by a composition root, the matcher itself does no I/O)."""
        self._conds: dict[_Key, LogCond] = {}
        for c in conds:
            self._conds.setdefault(_key(c), c)
        self._by_pattern: dict[str, list[tuple[_Key, LogCond]]] = {}  # a log's candidates name its few patterns
        for key, cond in self._conds.items():
            self._by_pattern.setdefault(key.pattern, []).append((key, cond))
        self._patterns = sorted({k.pattern for k in self._conds})
        self._db: Any = None
        self._hs_ids: dict[int, str] = {}
        self._hs_patterns: frozenset[str] = frozenset()
        self._singles: dict[str, Any] = {}
        self._literal_ids: dict[int, str] = {}
        self._all: Any = None  # the database keeping every candidate (the survey's), when it compiles
        self._once: frozenset[int] = frozenset()  # its single-match ids (the view's literals)
        self._counted: dict[int, str] = {}  # its ids of the literals counted (markers.COUNTED)
        if use_hyperscan and hyperscan is not None:
            self._compile(cache)

    @property
    def accelerated(self) -> int:
        """How many patterns the Hyperscan prefilter covers."""
        return len(self._hs_ids)

    def _compile(self, cache: DatabaseCache | None) -> None:
        flags = _FLAGS
        usable = [(i, p.encode("utf-8")) for i, p in enumerate(self._patterns)]
        # The view's literals (wrapper markers, masks) ride along in the same scan: which a log holds comes free.
        base = len(self._patterns)
        literals = [(base + j, re.escape(lit).encode("utf-8")) for j, lit in enumerate(VIEW_LITERALS)]
        db = self._cached(cache, usable + literals, flags)
        if db is None:  # some pattern is not Hyperscan syntax: find which, keep them on the `re` path
            usable = [(i, e) for i, e in usable if self._build([(i, e)], flags) is not None]
            db = self._build(usable + literals, flags) if usable else None
        if db is None:
            return
        self._db = db
        self._literal_ids = {base + j: lit for j, lit in enumerate(VIEW_LITERALS)}
        self._hs_ids = {i: self._patterns[i] for i, _ in usable}
        self._hs_patterns = frozenset(self._hs_ids.values())
        # Every match of a pattern (its candidates) and of a counted literal; the other literals once.
        every = [_ALL] * len(usable) + [_ALL if lit in COUNTED else flags for lit in VIEW_LITERALS]
        self._all = self._cached(cache, usable + literals, every, name="candidates")
        self._once = frozenset(pid for pid, lit in self._literal_ids.items() if lit not in COUNTED)
        self._counted = {pid: lit for pid, lit in self._literal_ids.items() if lit in COUNTED}

    def _cached(self, cache: DatabaseCache | None, exprs: list[tuple[int, bytes]], flags: int | list[int], *,
                name: str = "runbook") -> Any:
        """The whole set's database, from the cache when it holds this very set; only a set that compiles whole
        is kept (one with patterns Hyperscan refuses is sorted out afresh each time)."""
        if cache is None:
            return self._build(exprs, flags)
        version = getattr(hyperscan, "__version__", "")
        key = f"{name}-" + hashlib.sha256(repr((version, flags, exprs)).encode("utf-8")).hexdigest()[:32]
        return cached_database(cache, key, lambda: self._build(exprs, flags))

    @staticmethod
    def _build(exprs: list[tuple[int, bytes]], flags: int | list[int]) -> Any:
        db = hyperscan.Database()
        try:
            db.compile(expressions=[e for _, e in exprs], ids=[i for i, _ in exprs], elements=len(exprs),
                       flags=flags if isinstance(flags, list) else [flags] * len(exprs))
        except hyperscan.error:
            return None
        return db

    def covers(self, cond: LogCond) -> bool:
        """Whether the prefilter decides for `cond`: a log without a candidate for it cannot match."""
        return cond.pattern.pattern in self._hs_patterns

    def skips(self, cond: LogCond, candidates: dict[str, int]) -> bool:
        """True when the prefilter already proved `cond` cannot match this log (the common case)."""
        pat = cond.pattern.pattern
        return pat in self._hs_patterns and pat not in candidates

    def prefilter(self, view: LogView) -> dict[str, int]:
        """Pattern -> character offset of the line of its first candidate, for the accelerated patterns."""
        if self._db is None:
            return {}
        ids = self._hs_ids
        return {ids[pid]: off for pid, off in first_lines(self._db, view.text).items() if pid in ids}

    def survey(self, view: LogView) -> tuple[dict[str, int], frozenset[str] | None]:
        """`prefilter` and which of VIEW_LITERALS the log holds (None: not known), then `first_match` of every
        condition with a candidate in this log (and that may look at its container), kept with the view: one
        visit of the text answers every later question about it."""
        if self._db is None:
            return {}, None
        text = view.text
        data = view.take_utf8()
        ascii_data = data if len(data) == len(text) else None
        ends: dict[int, list[int]] | None = None
        if ascii_data is not None and self._all is not None:  # byte offsets are characters: keep every candidate
            ends = every_end(self._all, ascii_data, self._once)
        lines = first_lines(self._db, text, data) if ends is None else lines_of(ends, data)
        if ends is not None and self._counted:  # every occurrence seen: how many, and where the last starts
            view.learn_tallies({lit: (len(ends[pid]), ends[pid][-1] - len(lit)) if pid in ends else (0, -1)
                                for pid, lit in self._counted.items()})
        found = {self._hs_ids[pid]: off for pid, off in lines.items() if pid in self._hs_ids}
        present = frozenset(self._literal_ids[pid] for pid in lines if pid in self._literal_ids) \
            if self._literal_ids else None
        container = view.excerpt.source.container
        later = None if ends is None else {self._hs_ids[pid]: e for pid, e in ends.items() if pid in self._hs_ids}
        for pattern in found:
            for key, cond in self._by_pattern[pattern]:
                if cond.container is None or cond.container.search(container):
                    view.memo[key] = self._first_match(cond, view, found, ascii_data, later, utf8=data)
        return found, present

    def _single(self, pat: str) -> Any:
        """A one-pattern database, to look for the next candidate after a rejected one."""
        if pat not in self._singles:
            pid = next(i for i, p in self._hs_ids.items() if p == pat)
            self._singles[pat] = self._build([(pid, pat.encode("utf-8"))], _FLAGS)
        return self._singles[pat]

    def _next_candidate(self, pat: str, text: str, start: int, ascii_data: bytes | None,
                        later: dict[str, list[int]] | None = None, utf8: bytes | None = None) -> int | None:
        if pat not in self._hs_patterns:
            return start if start < len(text) else None  # the `re` path reads on from here
        if ascii_data is not None and later is not None:  # every candidate is known: the first from `start` on
            return next_line_known(later[pat], ascii_data, start)
        if ascii_data is not None:  # byte and character offsets agree: no encoding of the rest
            return next_line_ascii(self._single(pat), ascii_data, start)
        if utf8 is not None:  # the text's encoding at hand: the rest is scanned where it lies
            return next_line_utf8(self._single(pat), text, utf8, start)
        found = first_lines(self._single(pat), text[start:])
        return None if not found else start + next(iter(found.values()))

    def first_match(self, cond: LogCond, view: LogView, *, candidates: dict[str, int]) -> int | None:
        """Offset of the first line of `view` matching `cond` (and not its `unless`).

        Hyperscan proposes candidate lines; `re` decides. A rejected candidate (say the `unless` of
        "NCCL WARN" on a harmless plugin warning) sends Hyperscan on from the next line, not `re` through
        the rest of a large log. The answer `survey` found while it had the text is reused.
        """
        pat = cond.pattern.pattern
        if pat in self._hs_patterns and pat not in candidates:
            return None  # the prefilter proved it (the common case): nothing to look up
        key = _key(cond)
        if key in view.memo:
            answer: int | None = view.memo[key]
            return answer
        return self._first_match(cond, view, candidates, None)

    def _first_match(self, cond: LogCond, view: LogView, candidates: dict[str, int],
                     ascii_data: bytes | None, later: dict[str, list[int]] | None = None, *,
                     utf8: bytes | None = None) -> int | None:
        pat = cond.pattern.pattern
        accelerated = pat in self._hs_patterns
        pos: int | None = candidates.get(pat) if accelerated else 0
        if pos is None:
            return None  # no candidate: the text is not even read
        text = view.text
        while pos is not None:
            if not accelerated:  # no prefilter for this pattern: `re` finds the next candidate
                m = cond.pattern.search(text, pos)
                if m is None:
                    return None
                pos = m.start()
            line_start = text.rfind("\n", 0, pos) + 1
            line_end = text.find("\n", pos)
            line_end = len(text) if line_end < 0 else line_end
            line = text[line_start:line_end]
            hit = cond.pattern.search(line)
            if hit is not None and (cond.unless is None or not cond.unless.search(line)) \
                    and not _said_otherwise(cond, line, text, line_end):
                return line_start + hit.start()
            pos = self._next_candidate(pat, text, line_end + 1, ascii_data, later, utf8)
        return None


def _said_otherwise(cond: LogCond, line: str, text: str, line_end: int) -> bool:
    """Whether the line's values say that what `cond` found did not fail: a counter at zero, a test that passed,
    an expected failure, a retry that a later line shows succeeded, or a warning with no failure in it that a
    later success shows the step went past."""
    if not_a_failure(line, cond.pattern) or warned_then_went_on(line, text, line_end):
        return True
    return RETRY.search(line) is not None and classify(line) is Kind.RETRY and succeeded_later(text, line_end)
