"""The redactor: prefilter the text, run the layered detectors on candidate lines, mask or report.

Layers, all fail-closed: known secrets of the bot itself (and their encodings), token families,
key-aware structure, signed URLs, multi-line blocks (PEM keys, Kubernetes env name/value pairs,
YAML block scalars), and decoded views (ANSI-stripped, JSON-unescaped, URL-decoded, base64),
rescanned to a bounded depth.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache

from bot.redact import blocks, boxes, cjk, cmdline, decode, known, multiline, pairs, pem, stdin, structure, urls, wrap
from bot.redact.catalog import (
    FILTERS,
    G_B64,
    G_CJK,
    G_CMD,
    G_KNOWN,
    G_KSECRET,
    G_NAME,
    G_PEM,
    G_STRUCT,
    G_TOOL,
    G_URL,
    G_WEAKKEY,
    TOKEN_GROUPS,
    build,
)
from bot.redact.config import RedactionSettings
from bot.redact.offsets import char_offsets, encoded_offsets
from bot.redact.prefilter import DatabaseCache, Prefilter
from bot.redact.results import Detection, Redacted
from bot.redact.rules import TOKEN_RULES
from bot.redact.safetext import SafeText, join, mint
from bot.redact.spans import PRIO_CONT, PRIO_TOKEN, Span, apply, merge

MAX_DEPTH = 3
CHUNK = 1 << 20  # characters prefiltered at a time
LINE_CACHE, MAX_CACHED_LINE = 4096, 2048  # findings kept per line, for lines up to this long


@dataclass(frozen=True)
class _Find:
    """Spans in absolute text offsets, and how far the text was fully examined (for streaming)."""

    spans: list[Span]
    safe_end: int
    pem_open: bool


class Redactor:
    def __init__(self, settings: RedactionSettings | None = None, *, use_hyperscan: bool = True,
                 cache: DatabaseCache | None = None) -> None:
        """`cache`: where the compiled prefilter may be kept between runs (never holding the bot's own secrets)."""
        self.settings = settings or RedactionSettings()
        self._known = known.forms_of(s.get_secret_value() for s in self.settings.known_secrets)
        self._extra = [re.compile(p) for p in self.settings.extra_patterns]
        self._allow = [re.compile(p) for p in self.settings.allowlist]
        self._pre = Prefilter(build(sorted(self._known)), filters=FILTERS, use_hyperscan=use_hyperscan, cache=cache)
        # The same line comes again and again (every rank of a job prints it, progress redraws): its findings
        # are a pure function of the line, so they are kept for the most recent lines.
        self._line_cache: Callable[[str, frozenset[int] | None, int], tuple[Span, ...]] = lru_cache(
            maxsize=LINE_CACHE
        )(self._line_spans)

    @property
    def accelerated(self) -> bool:
        return self._pre.fast

    # -- public API -----------------------------------------------------------------------------

    def redact(self, text: str) -> Redacted:
        found = self._find(text, final=True, pem_open=False)
        if not found.spans:  # nothing to mask: the text itself, not a copy built piece by piece
            return Redacted(text if isinstance(text, SafeText) else mint(text), {})
        spans = merge(found.spans)
        return Redacted(mint(apply(text, spans)), dict(Counter(s.kind for s in spans if s.prio != PRIO_CONT)))

    def scan(self, text: str, /, *, utf8: bytes | None = None) -> list[Detection]:
        """Where the credentials in `text` are. `utf8`: its UTF-8 encoding, when the caller has it."""
        spans = merge(self._find(text, final=True, pem_open=False, utf8=utf8).spans)
        out: list[Detection] = []
        line, pos = 1, 0
        for span in spans:
            if span.prio == PRIO_CONT:
                continue
            line += text.count("\n", pos, span.start)
            pos = span.start
            out.append(Detection(span.kind, span.start, span.end, line))
        return out

    def safe_join(self, parts: Iterable[SafeText], sep: str = "") -> SafeText:
        if sep and self.redact(sep).counts:
            raise ValueError("safe_join separator contains a credential")
        return join(parts, sep)

    # -- streaming hook -------------------------------------------------------------------------

    def redact_prefix(self, text: str, *, final: bool, pem_open: bool) -> tuple[str, Counter[str], int, bool]:
        """Redact ``text[:safe_end]``; the rest must be fed again with more input (see stream.py)."""
        found = self._find(text, final=final, pem_open=pem_open)
        cut = found.safe_end
        spans = merge([s for s in found.spans if s.start < cut])
        if spans and spans[-1].end > cut:
            cut = text.rfind("\n", 0, spans[-1].end) + 1 or len(text)
            cut = max(cut, spans[-1].end)
        return apply(text[:cut], spans), Counter(s.kind for s in spans if s.prio != PRIO_CONT), cut, found.pem_open

    # -- detection ------------------------------------------------------------------------------

    def _candidates(self, text: str, utf8: bytes | None = None) -> Iterator[tuple[int, int, frozenset[int] | None]]:
        """Candidate lines as str offsets. The text is prefiltered in pieces cut at line ends: a piece
        is encoded once, and byte offsets are mapped back (a decode) only in pieces that have
        candidates and are not ASCII, which in clean logs is almost none. A text whose encoding the caller has
        (`utf8`) is scanned as it is, whole."""
        pos = 0
        n = len(text)
        if utf8 is not None and len(utf8) == n:  # ASCII: the bytes are the characters
            for bstart, bend, ids in self._pre.lines(utf8):
                yield bstart, bend, ids
            return
        if utf8 is not None:  # the encoding is at hand: scanned whole, offsets counted back only to candidates
            to_char = encoded_offsets(utf8)
            for bstart, bend, ids in self._pre.lines(utf8):
                yield to_char(bstart), to_char(bend), ids
            return
        step = n if text.isascii() else CHUNK  # ASCII maps bytes to characters one to one: no pieces
        while pos < n:
            cut = text.rfind("\n", pos, pos + step) + 1 if pos + step < n else n
            if cut <= pos:  # one line longer than a piece: take it whole
                cut = text.find("\n", pos + step) + 1 or n
            piece = text[pos:cut] if pos or cut < n else text
            data = piece.encode("utf-8", "surrogatepass")
            to_char = char_offsets(piece, data)
            for bstart, bend, ids in self._pre.lines(data):
                yield pos + to_char(bstart), pos + to_char(bend), ids
            pos = cut

    def _find(self, text: str, *, final: bool, pem_open: bool, utf8: bytes | None = None) -> _Find:
        spans: list[Span] = []
        safe_end = len(text)
        covered = 0  # lines before this offset were consumed by a multi-line block
        open_at_end = False
        ahead: list[tuple[int, int]] = []  # (start of a span on a following line, where its finder's lines start)
        if pem_open:
            tail = pem.tail(text, 0, spans)
            covered = len(text) if tail is None else tail
            open_at_end = tail is None
        for start, end, ids in self._candidates(text, utf8):
            if end < covered:
                continue
            line = text[start:end]
            here = [Span(s.start + start, s.end + start, s.kind, s.prio) for s in self._line(line, ids, 0)]
            spans.extend(here)
            if ids is None or G_TOOL in ids:
                piped = stdin.around(text, start, end, final=final)
                if not isinstance(piped, list):  # the next line is not in yet: this one and those it looks back on wait
                    safe_end = stdin.window_start(text, start)
                    break
                if piped:
                    spans.extend(piped)
                    ahead.extend((s.start, stdin.window_start(text, start)) for s in piped if s.start > end)
            wrapped = wrap.wrapped(text, start, end, here, self._joined, final=final)
            if not isinstance(wrapped, list):  # the next line is not in yet
                safe_end = start
                break
            if wrapped:
                spans.extend(wrapped)
                ahead.extend((s.start, start) for s in wrapped if s.start > end)
            if ids is None or ids & multiline.GROUPS:
                block = multiline.cover(text, start, end, line, spans, ids=ids, final=final)
                if block == blocks.MORE:
                    safe_end = start
                    break
                if block == pem.OPEN:
                    covered, open_at_end = len(text), True
                    break
                covered = max(covered, block)
        for at, origin in ahead:  # a value masked on a line that now waits: the line that named it waits too
            if at >= safe_end:
                safe_end = min(safe_end, origin)
        if not final:
            safe_end = stdin.held_back(text, safe_end, spans)
            safe_end = multiline.held_back(text, safe_end)
        spans = [s for s in spans if s.start < safe_end]
        spans.extend(known.echoes(text, spans, safe_end))
        for pattern in self._extra:
            for m in pattern.finditer(text, 0, safe_end):
                if m.end() > m.start():
                    spans.append(Span(m.start(), m.end(), "custom", PRIO_TOKEN))
        if self._allow:
            spans = [s for s in spans if not any(a.fullmatch(text, s.start, s.end) for a in self._allow)]
        return _Find(spans, safe_end, open_at_end and not final)

    def _line(self, line: str, ids: frozenset[int] | None, depth: int) -> tuple[Span, ...]:
        if len(line) > MAX_CACHED_LINE:
            return self._line_spans(line, ids, depth)
        return self._line_cache(line, ids, depth)

    def _line_spans(self, line: str, ids: frozenset[int] | None, depth: int) -> tuple[Span, ...]:
        spans: list[Span] = []
        groups = TOKEN_GROUPS if ids is None else ids & TOKEN_GROUPS
        for group in sorted(groups):
            rule = TOKEN_RULES[group]
            target = "v" if "v" in rule.regex.groupindex else 0
            for m in rule.regex.finditer(line):
                spans.append(Span(m.start(target), m.end(target), rule.kind, PRIO_TOKEN))
        keys = ids is None or G_STRUCT in ids or G_NAME in ids or G_WEAKKEY in ids
        shapes = ids is None or G_CMD in ids
        if keys or shapes:
            spans.extend(structure.scan_line(line, keys=keys, shapes=shapes))
        if ids is None or G_URL in ids:
            spans.extend(urls.scan_line(line))
        if ids is None or G_TOOL in ids or G_CMD in ids:
            spans.extend(cmdline.scan_line(line))
        if ids is None or G_CJK in ids:
            spans.extend(cjk.scan_line(line))
        if self._known and (ids is None or G_KNOWN in ids):
            spans.extend(known.find(line, self._known))
        if ids is None or G_PEM in ids:
            spans.extend(pem.in_line(line))
        if ids is None or G_KSECRET in ids:
            spans.extend(blocks.secret_inline(line))
        if (spans or "***" in line or "[REDACTED" in line) and pairs.may_pair(line):
            spans.extend(pairs.ids_beside(line, spans))
        if depth < MAX_DEPTH:
            decoded = self._decoded(line, ids, depth)
            if decoded:  # a value's own shape names it better than what its decoding holds
                spans.extend(s for s in decoded if not _covered(s, spans))
        return tuple(spans)

    def _decoded(self, line: str, ids: frozenset[int] | None, depth: int) -> list[Span]:
        spans: list[Span] = []
        for make in (decode.strip_ansi, decode.json_unescaped, decode.url_decoded, boxes.unboxed):
            view = make(line)
            if view is None or view.text == line:
                continue
            vids = self._pre.ids(view.text)
            if vids is not None and not vids:
                continue
            for s in self._line(view.text, vids, depth + 1):
                a, b = view.back(s.start, s.end)
                if b > a:
                    spans.append(Span(a, b, s.kind, s.prio))
        if ids is None or G_B64 in ids:
            for start, end, text in decode.base64_blobs(line):
                vids = self._pre.ids(text)
                if vids is not None and not vids:
                    continue
                inner = self._nested(text, depth + 1)
                if inner:
                    spans.append(Span(start, end, inner, PRIO_TOKEN))
        return spans

    def _nested(self, text: str, depth: int) -> str | None:
        """Kind of the first credential in decoded text (which may span lines, e.g. a PEM key)."""
        spans: list[Span] = []
        for line in text.splitlines() or [text]:
            spans.extend(self._line(line, self._pre.ids(line), depth))
        if not spans:
            m = pem.BEGIN.search(text)
            if m is None:
                return None
            return "private-key"
        return min(spans).kind

    # -- tokens cut across lines ----------------------------------------------------------------

    def _joined(self, text: str) -> list[Span]:
        """Token spans in the join of a line's last run and the next line's first (see wrap.wrapped)."""
        ids = self._pre.ids(text)
        if ids is not None and not ids:
            return []
        return [s for s in self._line(text, ids, MAX_DEPTH) if s.prio == PRIO_TOKEN]


def redacted_counts(results: Iterable[Redacted]) -> Mapping[str, int]:
    total: Counter[str] = Counter()
    for r in results:
        total.update(r.counts)
    return dict(total)


def _covered(span: Span, direct: list[Span]) -> bool:
    """A decoded find inside a direct one that ranks as high adds nothing but, on a tie, a vaguer kind."""
    return any(d.start <= span.start and span.end <= d.end and d.prio >= span.prio for d in direct)
