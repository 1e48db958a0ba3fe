"""Keyword prefilter: finds the few lines that could hold a credential, so only they get the full checks.

Hyperscan scans the whole buffer at memory speed; the pure-``re`` fallback finds the same lines
(slower) when hyperscan is unavailable. Soundness matters more than precision here: every detector
lists what any of its matches must contain, and a line without any of it is never looked at again.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, Protocol

_hs: Any
try:  # optional fast path
    import hyperscan as _hs
except ImportError:  # pragma: no cover - exercised by forcing the fallback in tests
    _hs = None


@dataclass(frozen=True)
class Pattern:
    regex: str  # written in the common subset of Python re and Hyperscan (no look-around)
    group: int
    caseless: bool = False
    multiline: bool = False
    som: bool = False  # report the start of match too (needed by a group's filter)
    fallback: str | None = None  # a simpler superset for the pure-``re`` path (which applies no filters)
    cacheable: bool = True  # False for the bot's own secrets: their compiled form is never written anywhere


# A group filter sees (buffer, match start, match end) and may veto the match: it lets the prefilter
# apply checks that regexes without look-around cannot express (e.g. "this key name is a secret's").
MatchFilter = Callable[[bytes, int, int], bool]


class DatabaseCache(Protocol):
    """Where compiled pattern databases may be kept between runs (compiling takes seconds). Given by the
    composition root; the redactor itself does no I/O. Keys name the pattern set; values are opaque bytes."""

    def get(self, key: str) -> bytes | None: ...

    def put(self, key: str, value: bytes) -> None: ...


# A candidate line: [start, end) offsets in the scanned buffer (end excludes the newline) and the
# groups that fired on it; ``None`` means "unknown, run everything" (the fallback).
Candidate = tuple[int, int, "frozenset[int] | None"]


class Prefilter:
    def __init__(
        self,
        patterns: Sequence[Pattern],
        *,
        filters: Mapping[int, MatchFilter] | None = None,
        use_hyperscan: bool = True,
        cache: DatabaseCache | None = None,
    ) -> None:
        self.patterns = tuple(patterns)
        self._filters = dict(filters or {})
        self._db: Any = None
        self._own: Any = None  # the bot's own secrets, compiled apart so that the rest may come from the cache
        self._local = threading.local()
        self._cache = cache
        if use_hyperscan and _hs is not None and self.patterns:
            shared = tuple(p for p in self.patterns if p.cacheable)
            own = tuple(p for p in self.patterns if not p.cacheable)
            if shared:
                self._db = self._compile_hs(shared)
                self._own = _compile(own) if own else None
            else:
                self._db = _compile(own)

    @cached_property
    def _re_text(self) -> re.Pattern[str]:
        """Every pattern in one `re` alternation: the path without Hyperscan (compiled only if it is taken)."""
        parts: list[str] = []
        for p in self.patterns:
            flags = ("i" if p.caseless else "") + ("m" if p.multiline else "")
            regex = p.regex if p.fallback is None else p.fallback
            part = f"(?{flags}:{regex})" if flags else f"(?:{regex})"
            if part not in parts:
                parts.append(part)
        return re.compile("|".join(parts) or r"(?!)")

    @cached_property
    def _re_bytes(self) -> re.Pattern[bytes]:
        return re.compile(self._re_text.pattern.encode("utf-8", "surrogatepass"))

    @property
    def fast(self) -> bool:
        return self._db is not None

    def _compile_hs(self, patterns: tuple[Pattern, ...]) -> Any:
        if any(p.cacheable is False for p in patterns):
            return _compile(patterns)
        key = _cache_key(patterns)
        db = _LOADED.get(key)  # this process already has it (compiled, or read from the cache)
        if db is not None:
            return db
        db = _LOADED[key] = cached_database(self._cache, key, lambda: _compile(patterns))
        return db

    def _scratch(self, db: Any) -> Any:
        # Hyperscan scratch space is per thread (and per database); the Slack bot may scan from several workers.
        scratches: dict[int, Any] | None = getattr(self._local, "scratch", None)
        if scratches is None:
            scratches = self._local.scratch = {}
        scratch = scratches.get(id(db))
        if scratch is None:
            assert _hs is not None
            scratch = scratches[id(db)] = _hs.Scratch(db)
        return scratch

    def _scan(self, data: bytes, on_match: Callable[[int, int, int, int, object], None]) -> None:
        for db in (self._db, self._own):
            if db is not None:
                db.scan(data, match_event_handler=on_match, scratch=self._scratch(db))

    def lines(self, data: bytes) -> list[Candidate]:
        """Candidate lines of ``data`` in order."""
        if self._db is None:
            return list(self._re_lines(data))
        found: dict[int, tuple[int, set[int]]] = {}
        cur = [-1, -1]  # start, end of the line the last match fell in
        cur_ids: list[set[int]] = [set()]

        filters = self._filters

        def on_match(group: int, frm: int, to: int, _flags: int, _ctx: object) -> None:
            last = to - 1 if to > 0 else 0
            if cur[0] <= last < cur[1] or (last == cur[1] and cur[1] == len(data)):
                if group not in cur_ids[0] and (group not in filters or filters[group](data, frm, to)):
                    cur_ids[0].add(group)
                return None
            if group in filters and not filters[group](data, frm, to):
                return None
            start = data.rfind(b"\n", 0, last) + 1
            end = data.find(b"\n", last)
            if end < 0:
                end = len(data)
            entry = found.get(start)
            if entry is None:
                entry = (end, set())
                found[start] = entry
            entry[1].add(group)
            cur[0], cur[1] = start, end
            cur_ids[0] = entry[1]
            return None

        self._scan(data, on_match)
        return [(s, e_ids[0], frozenset(e_ids[1])) for s, e_ids in sorted(found.items())]

    def _re_lines(self, data: bytes) -> Iterator[Candidate]:
        pos = 0
        n = len(data)
        while pos <= n:
            m = self._re_bytes.search(data, pos)
            if m is None:
                return
            last = m.end() - 1 if m.end() > m.start() else m.start()
            start = data.rfind(b"\n", 0, max(last, 0)) + 1 if last > 0 else 0
            if start < pos:
                start = pos
            end = data.find(b"\n", max(last, start))
            if end < 0:
                end = n
            yield (start, end, None)
            pos = end + 1

    def ids(self, text: str) -> frozenset[int] | None:
        """Groups firing anywhere in a short text (a decoded view); empty when nothing can match."""
        if self._db is None:
            return None if self._re_text.search(text) else frozenset()
        hits: set[int] = set()
        filters = self._filters
        data = text.encode("utf-8", "surrogatepass")
        # A decoded view is judged as one line: its line breaks ("%0A", "\\n") may sit inside a value.
        seen = data.replace(b"\n", b"\x01") if b"\n" in data else data

        def on_match(group: int, frm: int, to: int, _flags: int, _ctx: object) -> None:
            if group not in hits and (group not in filters or filters[group](seen, frm, to)):
                hits.add(group)
            return None

        self._scan(data, on_match)
        return frozenset(hits)


def cached_database(cache: DatabaseCache | None, key: str, build: Callable[[], Any]) -> Any:
    """The Hyperscan database `key` names: read from `cache` when it holds a good one, else built (`build` may
    return None: nothing is kept) and put there. A damaged or foreign file is rebuilt and replaced."""
    if cache is not None:
        blob = cache.get(key)
        if blob is not None:
            try:
                return _hs.loadb(blob, _hs.HS_MODE_BLOCK)
            except Exception:  # a damaged or foreign file: build afresh and replace it
                pass
    db = build()
    if cache is not None and db is not None:
        cache.put(key, _hs.dumpb(db))
    return db


# Pattern-set key -> its database, once per process: compiled or read from the cache, a database is read-only and
# shared (scratch space is per thread). Never holds the bot's own secrets: those sets are not cacheable.
_LOADED: dict[str, Any] = {}


def _cache_key(patterns: tuple[Pattern, ...]) -> str:
    digest = hashlib.sha256(repr((getattr(_hs, "__version__", ""), patterns)).encode("utf-8", "surrogatepass"))
    return f"prefilter-{digest.hexdigest()[:32]}"


@lru_cache(maxsize=8)
def _compile(patterns: tuple[Pattern, ...]) -> Any:
    """Compiled once per pattern set (a database is read-only and shared; scratch is per thread)."""
    assert _hs is not None
    db = _hs.Database(mode=_hs.HS_MODE_BLOCK)
    flags = []
    for p in patterns:
        f = 0
        if p.caseless:
            f |= _hs.HS_FLAG_CASELESS
        if p.multiline:
            f |= _hs.HS_FLAG_MULTILINE
        if p.som:
            f |= _hs.HS_FLAG_SOM_LEFTMOST
        flags.append(f)
    db.compile(
        expressions=[p.regex.encode("utf-8", "surrogatepass") for p in patterns],
        ids=[p.group for p in patterns],
        elements=len(patterns),
        flags=flags,
    )
    return db


def find_literals(text: str, literals: Sequence[str], *, limit: int) -> list[tuple[int, int, int]]:
    """(start, end, index) of every occurrence of any literal in ``text[:limit]``, str offsets.

    One pass for all literals (Hyperscan when present), so re-finding a thousand secret values in a
    200 MB text stays linear instead of a thousand ``str.find`` sweeps."""
    if _hs is None or len(literals) <= 4:
        out: list[tuple[int, int, int]] = []
        for index, lit in enumerate(literals):
            pos = text.find(lit, 0, limit)
            while pos >= 0:
                out.append((pos, pos + len(lit), index))
                pos = text.find(lit, pos + len(lit), limit)
        return out
    encoded = [lit.encode("utf-8", "surrogatepass") for lit in literals]
    db = _hs.Database(mode=_hs.HS_MODE_BLOCK)
    db.compile(expressions=encoded, ids=list(range(len(encoded))), elements=len(encoded), flags=0, literal=True)
    head = text[:limit]
    data = head.encode("utf-8", "surrogatepass")
    hits: list[tuple[int, int]] = []

    def on_match(index: int, _frm: int, to: int, _flags: int, _ctx: object) -> None:
        hits.append((to - len(encoded[index]), index))
        return None

    db.scan(data, match_event_handler=on_match)
    if len(data) == len(head):
        return [(b, b + len(encoded[i]), i) for b, i in hits]
    result = []
    last_b = last_c = 0
    for b, i in sorted(hits):  # ascending: convert byte offsets incrementally
        last_c += len(data[last_b:b].decode("utf-8", "surrogatepass"))
        last_b = b
        result.append((last_c, last_c + len(literals[i]), i))
    return result
