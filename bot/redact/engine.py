"""The redactor: prefilter the text, run the layered detectors on candidate lines, mask or report.

Layers, all fail-closed: known secrets of the bot itself (and their encodings), token families,
key-aware structure, signed URLs, multi-line blocks (PEM keys, Kubernetes env name/value pairs,
YAML block scalars), and decoded views (ANSI-stripped, JSON-unescaped, URL-decoded, base64),
rescanned to a bounded depth.
"""

from __future__ import annotations

import base64
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import quote

from bot.redact import blocks, cjk, commands, decode, structure, urls, wrap
from bot.redact.allow import REDACTED_PREFIX
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
from bot.redact.prefilter import DatabaseCache, Prefilter, find_literals
from bot.redact.results import Detection, Redacted
from bot.redact.rules import TOKEN_RULES
from bot.redact.safetext import SafeText, join, mint
from bot.redact.spans import PRIO_CONT, PRIO_STRUCT, PRIO_TOKEN, Span, apply, merge

MAX_DEPTH = 3
CHUNK = 1 << 20  # characters prefiltered at a time
MAX_PEM = 64 * 1024  # larger than any private key; bounds how far a BEGIN looks for its END
LOOKAHEAD_LINES = 3  # a Kubernetes env "name:" line's "value:" follows within this many lines
MAX_BLOCK_LINES = 2000
MIN_ECHO, MAX_ECHO, MAX_ECHO_VALUES = 10, 4096, 256  # bounds for re-finding secret values elsewhere
LINE_CACHE, MAX_CACHED_LINE = 4096, 2048  # findings kept per line, for lines up to this long

_PEM_BEGIN = re.compile(r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----")
_PEM_END = re.compile(r"-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----")
_PEM_BODY = re.compile(
    r"[ \t\"',]*(?:[A-Za-z0-9+/=]{1,80}|Proc-Type:.*|DEK-Info:.*|Comment:.*|Version:.*)?"
    r"[ \t\"',\\n]*\r?"
)
_KEY_RUN = re.compile(r"[A-Za-z0-9+/=]{16,}")
_BLOCK_KEY = re.compile(r"""^([ \t]*)(?:-[ \t]+)?["']?([A-Za-z0-9_.\-]+)["']?[ \t]*:[ \t]*[|>][-+]?[0-9]?[ \t]*$""")
_MORE = blocks.MORE
_OPEN = -2
_B64_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_")


_BLOCK_GROUPS = frozenset({G_PEM, G_STRUCT, G_NAME, G_KSECRET})


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
        self._known = _known_forms(s.get_secret_value() for s in self.settings.known_secrets)
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
        candidates and are not ASCII, which in clean logs is almost none. An ASCII text whose encoding the
        caller has (`utf8`) is scanned as it is."""
        pos = 0
        n = len(text)
        if utf8 is not None and len(utf8) == n:  # ASCII: the bytes are the characters
            for bstart, bend, ids in self._pre.lines(utf8):
                yield bstart, bend, ids
            return
        step = n if text.isascii() else CHUNK  # ASCII maps bytes to characters one to one: no pieces
        while pos < n:
            cut = text.rfind("\n", pos, pos + step) + 1 if pos + step < n else n
            if cut <= pos:  # one line longer than a piece: take it whole
                cut = text.find("\n", pos + step) + 1 or n
            piece = text[pos:cut] if pos or cut < n else text
            data = piece.encode("utf-8", "surrogatepass")
            to_char = _offsets(piece, data)
            for bstart, bend, ids in self._pre.lines(data):
                yield pos + to_char(bstart), pos + to_char(bend), ids
            pos = cut

    def _find(self, text: str, *, final: bool, pem_open: bool, utf8: bytes | None = None) -> _Find:
        spans: list[Span] = []
        safe_end = len(text)
        covered = 0  # lines before this offset were consumed by a multi-line block
        open_at_end = False
        if pem_open:
            tail = self._pem_tail(text, 0, spans)
            covered = len(text) if tail is None else tail
            open_at_end = tail is None
        for start, end, ids in self._candidates(text, utf8):
            if end < covered:
                continue
            line = text[start:end]
            here = [Span(s.start + start, s.end + start, s.kind, s.prio) for s in self._line(line, ids, 0)]
            spans.extend(here)
            wrapped = wrap.wrapped(text, start, end, here, self._joined, final=final)
            if not isinstance(wrapped, list):  # the next line is not in yet
                safe_end = start
                break
            spans.extend(wrapped)
            if ids is None or ids & _BLOCK_GROUPS:
                block = self._blocks(text, start, end, line, spans, ids=ids, final=final)
                if block == _MORE:
                    safe_end = start
                    break
                if block == _OPEN:
                    covered, open_at_end = len(text), True
                    break
                covered = max(covered, block)
        spans = [s for s in spans if s.start < safe_end]
        spans.extend(_echoes(text, spans, safe_end))
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
            spans.extend(commands.scan_line(line))
        if ids is None or G_CJK in ids:
            spans.extend(cjk.scan_line(line))
        if self._known and (ids is None or G_KNOWN in ids):
            spans.extend(self._known_spans(line))
        if ids is None or G_PEM in ids:
            spans.extend(_pem_in_line(line))
        if ids is None or G_KSECRET in ids:
            spans.extend(blocks.secret_inline(line))
        if depth < MAX_DEPTH:
            decoded = self._decoded(line, ids, depth)
            if decoded:  # a value's own shape names it better than what its decoding holds
                spans.extend(s for s in decoded if not _covered(s, spans))
        return tuple(spans)

    def _decoded(self, line: str, ids: frozenset[int] | None, depth: int) -> list[Span]:
        spans: list[Span] = []
        for make in (decode.strip_ansi, decode.json_unescaped, decode.url_decoded):
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
            m = _PEM_BEGIN.search(text)
            if m is None:
                return None
            return "private-key"
        return min(spans).kind

    def _known_spans(self, line: str) -> list[Span]:
        spans: list[Span] = []
        for form in self._known:
            pos = line.find(form)
            while pos >= 0:
                start, end = pos, pos + len(form)
                if form in self._known_b64:
                    while start > 0 and line[start - 1] in _B64_CHARS:
                        start -= 1
                    while end < len(line) and line[end] in _B64_CHARS:
                        end += 1
                spans.append(Span(start, end, "known-secret", PRIO_TOKEN + 1))
                pos = line.find(form, pos + 1)
        return spans

    @property
    def _known_b64(self) -> frozenset[str]:
        return _b64_known(self._known)

    # -- multi-line blocks ----------------------------------------------------------------------

    def _joined(self, text: str) -> list[Span]:
        """Token spans in the join of a line's last run and the next line's first (see wrap.wrapped)."""
        ids = self._pre.ids(text)
        if ids is not None and not ids:
            return []
        return [s for s in self._line(text, ids, MAX_DEPTH) if s.prio == PRIO_TOKEN]

    def _blocks(
        self,
        text: str,
        start: int,
        end: int,
        line: str,
        spans: list[Span],
        *,
        ids: frozenset[int] | None,
        final: bool,
    ) -> int:
        """Handle constructs that continue past this line; return the offset they cover to, or
        ``_MORE`` when the block may continue beyond the text and more input is needed (streaming),
        or ``_OPEN`` when a PEM body runs to the end of the text without its END marker."""
        covered = end
        steps = (
            (blocks.secret_after_kind, (G_KSECRET,)),
            (blocks.secret_data, (G_KSECRET,)),
            (blocks.pending_value, (G_STRUCT,)),
        )
        for step, groups in steps:
            if ids is None or any(g in ids for g in groups):
                found = step(text, start, end, final=final)
                if found == blocks.MORE:
                    return _MORE
                if isinstance(found, tuple):
                    spans.extend(found[0])
                    # the lines between "kind: Secret" and its data are still read one by one
                    return end if step is blocks.secret_after_kind else max(found[1], end)
        m = _PEM_BEGIN.search(line)
        if m is not None and _PEM_END.search(line, m.end()) is None:
            body_start = start + m.end()
            end_m = _PEM_END.search(text, body_start, body_start + MAX_PEM)
            if end_m is not None:
                prefix, suffix = line[: m.start()], line[m.end() :]
                if prefix.strip() or suffix.strip():
                    spans.extend(blocks.pem_lines(text, body_start, end_m.start(), prefix=prefix, suffix=suffix))
                else:
                    spans.extend(_pem_body(text, body_start, end_m.start()))
                return end_m.end()
            if not final and len(text) - body_start < MAX_PEM:
                return _MORE
            tail_end = self._pem_tail(text, body_start, spans)
            return _OPEN if tail_end is None else tail_end
        cls = structure.pending_name(line)
        if cls is not None:
            pos = end + 1
            for _ in range(LOOKAHEAD_LINES):
                if pos > len(text):
                    break
                nxt_end = text.find("\n", pos)
                if nxt_end < 0:
                    if not final:
                        return _MORE
                    nxt_end = len(text)
                nxt = text[pos:nxt_end]
                span = structure.value_line(nxt, cls)
                if span is not None:
                    spans.append(span._replace(start=span.start + pos, end=span.end + pos))
                    covered = nxt_end
                    break
                if structure.is_name_line(nxt):
                    break
                pos = nxt_end + 1
            return covered
        bm = _BLOCK_KEY.match(line)
        if bm is not None:
            bcls = structure.classify(bm.group(2))
            if bcls is not None and bcls.strong:
                indent = len(bm.group(1).expandtabs())
                pos = end + 1
                body_start = pos
                body_end = end
                for _ in range(MAX_BLOCK_LINES):
                    if pos > len(text):
                        break
                    nxt_end = text.find("\n", pos)
                    if nxt_end < 0:
                        if not final:
                            return -1
                        nxt_end = len(text)
                    nxt = text[pos:nxt_end]
                    if nxt.strip() and len(nxt) - len(nxt.lstrip()) <= indent:
                        break
                    body_end = nxt_end
                    pos = nxt_end + 1
                while body_start < body_end and text[body_start] in " \t\r\n":
                    body_start += 1  # keep the indentation: the block stays a valid YAML shape
                if body_end > body_start and not text.startswith(REDACTED_PREFIX, body_start):
                    spans.append(Span(body_start, body_end, bcls.kind, PRIO_STRUCT))
                    covered = body_end
        return covered

    def _pem_tail(self, text: str, pos: int, spans: list[Span]) -> int | None:
        """Mask PEM body lines from ``pos`` (no END in sight: a truncated key is still a key).

        Returns the offset just past the END marker, or ``None`` when the body runs to the end of text."""
        end_m = _PEM_END.search(text, pos, pos + MAX_PEM)
        if end_m is not None:
            spans.extend(_pem_body(text, pos, end_m.start()))
            return end_m.end()
        cur = pos
        while cur < len(text):
            nl = text.find("\n", cur)
            stop = len(text) if nl < 0 else nl
            if cur > pos and _PEM_BODY.fullmatch(text, cur, stop) is None:
                break
            cur = stop + 1
        cur = min(cur, len(text))
        spans.extend(_pem_body(text, pos, cur))
        return None if cur >= len(text) else cur


def _echoes(text: str, spans: list[Span], limit: int) -> list[Span]:
    """Other occurrences of a value already found to be secret: a token printed once next to its key
    and again bare later (``echo $TOKEN``) must not survive the second time."""
    values = {
        text[s.start : s.end]: s.kind for s in spans if MIN_ECHO <= s.end - s.start <= MAX_ECHO and s.prio != PRIO_CONT
    }
    if not values or len(values) > MAX_ECHO_VALUES:
        return []
    literals = list(values)
    kinds = [values[v] for v in literals]
    return [Span(a, b, kinds[i], PRIO_STRUCT) for a, b, i in find_literals(text, literals, limit=limit)]


def _pem_in_line(line: str) -> list[Span]:
    """A PEM key inside one line (JSON-escaped with \\n, or a kubectl one-liner)."""
    spans = []
    for m in _PEM_BEGIN.finditer(line):
        end_m = _PEM_END.search(line, m.end())
        if end_m is not None:
            spans.extend(_pem_body(line, m.end(), end_m.start()))
            continue
        runs = list(_KEY_RUN.finditer(line, m.end()))  # no END here: key material only if it shows
        if runs:
            spans.extend(_pem_body(line, runs[0].start(), runs[-1].end()))
    return spans


def _pem_body(text: str, start: int, end: int) -> list[Span]:
    """The key material between the markers, without the surrounding line breaks (literal or
    JSON-escaped), so the mask keeps the block's shape and a second pass finds nothing new."""
    while start < end:
        if text[start] in " \t\r\n\"',":
            start += 1
        elif text.startswith(("\\n", "\\r"), start):
            start += 2
        else:
            break
    while end > start:
        if text[end - 1] in " \t\r\n\"',":
            end -= 1
        elif text[end - 2 : end] in ("\\n", "\\r"):
            end -= 2
        else:
            break
    if end <= start or (text.startswith(REDACTED_PREFIX, start) and text.find("]", start) == end - 1):
        return []
    return [Span(start, end, "private-key", PRIO_TOKEN)]


def _offsets(text: str, data: bytes) -> Callable[[int], int]:
    """byte offset -> str index; identity for ASCII, incremental decoding otherwise (offsets ascend)."""
    if len(data) == len(text):
        return _identity
    state = [0, 0]

    def to_char(b: int) -> int:
        lb, lc = state
        if b < lb:
            lb, lc = 0, 0
        lc += len(data[lb:b].decode("utf-8", "surrogatepass"))
        state[0], state[1] = b, lc
        return lc

    return to_char


def _identity(b: int) -> int:
    return b


def _known_forms(values: Iterable[str]) -> frozenset[str]:
    forms: set[str] = set()
    for value in values:
        forms.add(value)
        forms.add(quote(value, safe=""))
        forms.add(json.dumps(value)[1:-1])
        full = base64.b64encode(value.encode()).decode()
        forms.add(full.rstrip("="))
        forms.update(decode.base64_forms(value))
    return frozenset(f for f in forms if len(f) >= 4)


@lru_cache(maxsize=64)
def _b64_known(forms: frozenset[str]) -> frozenset[str]:
    return frozenset(f for f in forms if set(f) <= _B64_CHARS)


def redacted_counts(results: Iterable[Redacted]) -> Mapping[str, int]:
    total: Counter[str] = Counter()
    for r in results:
        total.update(r.counts)
    return dict(total)


def _covered(span: Span, direct: list[Span]) -> bool:
    """A decoded find inside a direct one that ranks as high adds nothing but, on a tie, a vaguer kind."""
    return any(d.start <= span.start and span.end <= d.end and d.prio >= span.prio for d in direct)
