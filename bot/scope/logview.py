"""A container log as the engine reads it: its lines, credentials masked, its markers, and the first error line.

The Ray wrapper's markers (see `bot.scope.markers`) tell how far a pod got; the first error after the last
marker tells what stopped it. Logs can be large, so positions are found with `str.find` and line numbers are
computed only for the handful of positions that matter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from bot.models import LogExcerpt
from bot.redact import Detection, Scan
from bot.redact.masks import MASK, mask
from bot.redact.masks import OPEN as MASK_OPEN
from bot.scope.lineclass import says_failed
from bot.scope.markers import LITERALS as MARKER_LITERALS
from bot.scope.markers import Markers
from bot.scope.tracebacks import exception_line

HEAD_CHARS = 64 * 1024
TAIL_CHARS = 2 * 1024  # the last line of a log, as far as it is read (a longer one is cut at its end)
TEMP_DIR_LITERALS = ("--temp-dir", "RAY_TEMP_DIR=")  # what the Ray temp-dir signal looks for in a log's head
DEAD_NODE_LITERALS = ("marked dead", "is dead", "has died", "marked as dead")  # Ray on a node it lost
# What the architecture signal looks for before it reads a failing pod's log: an architecture named, or a binary
# that cannot be executed (bot/signals/arch.py).
ARCH_LITERALS = ("x86_64", "aarch64", "amd64", "arm64", "armv7", "armhf", "ppc64le", "s390x", "i686", "i386",
                 "riscv64", "exec format error", "cannot execute binary", "可执行文件格式错误")
# Every literal `Markers.scan`, `masks` and `holds` callers look for: one multi-literal scan can tell which a
# log holds at all, and a literal it does not hold is never searched for.
VIEW_LITERALS = (*MARKER_LITERALS, MASK_OPEN, *TEMP_DIR_LITERALS, *DEAD_NODE_LITERALS, *ARCH_LITERALS)

# Lines that look like errors to a person reading a log. Deliberately broad; BENIGN removes the usual noise.
ERROR_LINE = re.compile(
    r"(?i)(?:\b(?:error|errno|exception|traceback|fatal|panic|failed|failure|killed|aborted|abort|denied|"
    r"refused|timed out|timeout|cannot|could not|unable to|not found|segmentation fault|core dumped|"
    r"no such file or directory|read-only file system|no space left on device|EnvironmentNameNotFound)\b|"
    r"错误|失败|异常|(?:连接|请求|读取|响应|通信|通讯|等待)超时|断开|急停|"
    # The C library's and coreutils' messages in zh_CN (strerror, psignal, the shell's job reports).
    r"没有那个文件或目录|权限不够|已杀死|设备上没有空间|拒绝连接|无法访问|未找到命令|只读文件系统|非法指令|"
    r"核心已转储|已放弃|断开的管道|资源暂时不可用|没有到主机的路由|网络不可达|超出磁盘限额|不允许的操作|"
    r"无法分配内存|输入/输出错误|"
    # Ascend CANN and HCCL: error codes (`EI0006:`, `(EI0019)`, `EE9999: Inner Error`) and torch_npu's ERRnnnnn.
    r"\bE[0-9A-Z]\d{4}\b(?=[:\])]|\s*:|\s+Inner Error)|\bERR\d{5}\b|"
    r"\bE\d{4} \d\d:\d\d|^\s*\w+(?:\.\w+)*(?:Error|Exception|NotFound):)"
)
BENIGN = re.compile(
    r"(?i)\b(?:0|no|zero) (?:errors?|failures?|failed)\b|\berrors?[ _-]?(?:rate|count|s)?\s*[=:]\s*0(?:\.0+)?\b|"
    r"error_rate|_error\b|\berror_\w+|ignore_errors|on_error|errors='|--ignore-errors|"
    r"requirement already satisfied|^\s*(?:warning|info|debug)\b|\[warning\]|\bwarn(?:ing)?:|"
    r"pip's dependency resolver does not currently take into account|"
    r"if .* fails|will retry|retrying|fallback|Timeout\w*=|timeout=\d|timeout_s|"
    r"^\s*(?:#|//)"
)


NOTE_LINE = re.compile(r"(?i)^\s*[\[(]?(?:warn(?:ing)?|info|notice|debug)\b")


def starts_as_note(line: str) -> bool:
    """A line that announces itself as a warning or a note ("Warning: Ray cluster check failed, proceeding
    anyway."): worth reporting, but it describes a symptom rather than the failure that caused it."""
    return bool(NOTE_LINE.search(line))


@dataclass(frozen=True)
class LogLine:
    number: int  # 1-based
    text: str


@dataclass
class LogView:
    """One container log with lazily located markers.

    The text is read from the excerpt when first needed. `survey()` computes, in one visit, what every log
    is asked for (markers, credentials, masks, which literals it holds); `release()` then drops the text of
    a log that can be read again (a bundle's file), so logs are held one at a time. Later questions read it
    again."""

    excerpt: LogExcerpt
    scan: Scan  # the redactor's scan(), passed down from the composition root
    _line_cache: dict[int, int] = field(default_factory=dict, repr=False)
    memo: dict[object, Any] = field(default_factory=dict, repr=False)  # answers of the layers above, per log
    _text: str | None = field(default=None, init=False, repr=False)
    _utf8: bytes | None = field(default=None, init=False, repr=False)
    _present: frozenset[str] | None = field(default=None, init=False, repr=False)
    _tallies: dict[str, tuple[int, int]] | None = field(default=None, init=False, repr=False)

    @property
    def text(self) -> str:
        text = self._text
        if text is None:
            text, self._utf8 = self.excerpt.read()
            self._text = text
        return text

    def take_utf8(self) -> bytes:
        """The text's UTF-8 encoding (lone surrogates passed through): the bytes it was read from, when they
        came with it, so the scan of a log's bytes does not encode its text again. Kept for the credential
        scan of `survey()`, then until the view is released only for an ASCII text (they are then the
        characters one to one): other logs' bytes are not held through the rest of their visit."""
        text = self.text
        data = self._utf8 if self._utf8 is not None else text.encode("utf-8", "surrogatepass")
        self._utf8 = data
        return data

    def release(self) -> None:
        """Drop the text if it can be read again; what was computed from it stays."""
        if not self.excerpt.held:
            self._text = None
            self._utf8 = None

    def survey(self, present: frozenset[str] | None = None) -> None:
        """Compute what is asked of every log while its text is at hand. `present`: which of VIEW_LITERALS
        the text holds, from a scan that already read it (see `Markers.scan`)."""
        if present is not None:
            self._present = present
        if "markers" not in self.__dict__:
            self.__dict__["markers"] = Markers.scan(self, present)  # the cached_property's own slot
        self.detections  # noqa: B018  computed with the bytes at hand
        if self._utf8 is not None and len(self._utf8) != len(self.text):
            self._utf8 = None  # not the characters one to one: not held through the rest of the visit
        self.masks  # noqa: B018
        self.tail()

    def surveyed(self) -> Surveyed:
        """What `survey()` computed, to hand to the same view in another process (see `adopt`)."""
        d = self.__dict__
        return Surveyed(self._present, d["markers"], d["detections"], d["masks"], dict(self.memo))

    def adopt(self, done: Surveyed) -> None:
        """Take what a survey of this same log computed elsewhere, as if `survey()` had run here."""
        self._present = done.present
        self.__dict__.update(markers=done.markers, detections=done.detections, masks=done.masks)
        self.memo.update(done.memo)

    def learn_literals(self, present: frozenset[str]) -> None:
        """Which of VIEW_LITERALS the text holds, found by a scan that read it (the timeline's): `holds` then
        answers for them without reading the text again."""
        self._present = present

    def learn_tallies(self, tallies: dict[str, tuple[int, int]]) -> None:
        """How many times each of `markers.COUNTED` occurs in the text and where its last occurrence starts
        ((0, -1) when it does not), found by a scan that saw every occurrence."""
        self._tallies = tallies

    def tally(self, literal: str) -> tuple[int, int] | None:
        """`learn_tallies`' answer for `literal`, None when no scan told (then count in the text)."""
        return None if self._tallies is None else self._tallies.get(literal)

    def holds(self, literal: str) -> bool:
        """`literal in text`, answered without the text for VIEW_LITERALS once surveyed."""
        if self._present is not None and literal in VIEW_LITERALS:
            return literal in self._present
        return literal in self.text

    def tail(self) -> tuple[int, str] | None:
        """(offset, text) of the last line that is not blank, as a terminal shows it (after the last carriage
        return of a progress bar), None for an empty log; kept with the view (the survey finds it while it holds
        the text), so asking again never reads a released log."""
        if "tail" not in self.memo:
            text = self.text
            end = len(text)
            while end > 0 and text[end - 1] in " \t\r\n":
                end -= 1
            floor = max(0, end - TAIL_CHARS)
            start = max(text.rfind("\n", floor, end), text.rfind("\r", floor, end)) + 1
            self.memo["tail"] = (start, self._masked(start, end).rstrip("\r")) if end else None
        found: tuple[int, str] | None = self.memo["tail"]
        return found

    @cached_property
    def head(self) -> str:
        """The first HEAD_CHARS characters: where the wrapper and `set -x` print the command line and exports."""
        if self._text is not None:
            return self._text[:HEAD_CHARS]
        return self.excerpt.head(HEAD_CHARS)  # a released log: its beginning only is read again

    @cached_property
    def masks(self) -> list[tuple[int, str]]:
        """(line, kind) of each `[REDACTED:<kind>]` mask: a snapshot written by the bot shows where values were."""
        if not self.holds(MASK_OPEN):
            return []
        text = self.text
        return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in MASK.finditer(text)]

    def find(self, needle: str, start: int = 0) -> int:
        return self.text.find(needle, start)

    def rfind(self, needle: str) -> int:
        return self.text.rfind(needle)

    def has(self, needle: str) -> bool:
        return needle in self.text

    @cached_property
    def detections(self) -> list[Detection]:
        """Credentials in this log, found on the whole text so values spanning lines (PEM) are caught."""
        text = self.text  # first: reading the text is what may bring its bytes
        return self.scan(text, utf8=self._utf8)

    def _masked(self, start: int, end: int) -> str:
        """text[start:end] with every detected credential replaced, so evidence lines never carry one."""
        text = self.text
        out: list[str] = []
        cursor = start
        for det in self.detections:
            if det.end <= start or det.start >= end:
                continue
            out.append(text[cursor:max(det.start, start)])
            out.append(mask(det.kind))
            cursor = min(max(det.end, cursor), end)
        out.append(text[cursor:end])
        return "".join(out)

    def line_at(self, pos: int) -> LogLine:
        """The whole line containing character offset `pos`, credentials masked."""
        text = self.text
        start = text.rfind("\n", 0, pos) + 1
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        if pos not in self._line_cache:
            self._line_cache[pos] = text.count("\n", 0, start) + 1
        return LogLine(self._line_cache[pos], self._masked(start, end).rstrip("\r"))

    def context(self, pos: int, *, before: int = 3, after: int = 3) -> list[LogLine]:
        """The line at `pos` with a few lines around it (for tickets)."""
        text = self.text
        start = text.rfind("\n", 0, pos) + 1
        first = self.line_at(pos).number
        lines: list[LogLine] = []
        s = start
        for _ in range(before):
            if s == 0:
                break
            s = text.rfind("\n", 0, s - 1) + 1
        e = start
        for _ in range(after + 1):
            nxt = text.find("\n", e)
            if nxt < 0:
                e = len(text)
                break
            e = nxt + 1
        chunk = self._masked(s, e).splitlines()
        begin = first - text.count("\n", s, start)
        for i, line in enumerate(chunk):
            lines.append(LogLine(begin + i, line))
        return lines

    def first_error(self, start: int = 0, end: int | None = None) -> int | None:
        """Offset of the first error-looking line in [start, end), skipping benign noise. A Python traceback
        says what failed on its last line: its header stands for the exception line that ends it."""
        text = self.text
        stop = len(text) if end is None else end
        for m in ERROR_LINE.finditer(text, start, stop):
            line = self.line_at(m.start())
            if not BENIGN.search(line.text) and says_failed(line.text):
                return exception_line(text, m.start())
        return None

    @cached_property
    def markers(self) -> Markers:
        return Markers.scan(self)


@dataclass(frozen=True)
class Surveyed:
    """A surveyed log's answers (see `LogView.surveyed`): small, and picklable."""

    present: frozenset[str] | None
    markers: Markers
    detections: list[Detection]
    masks: list[tuple[int, str]]
    memo: dict[object, Any]
