"""What one log line says, as a value rather than as words: an error, a warning, a retry, a success, a counter
at zero, or a failure that was expected.

A line is read the way a person reads it. "0 failures", "errors: 0" and "estop_triggered=0" name a failure
and say it did not happen; "tests/test_oom.py::test_cuda_oom_is_reported PASSED" quotes an error inside a
test's name and reports a pass; "XFAIL", "1 xfailed" and "expected error" are failures the author expected;
"Retrying (Retry(total=4 ...)) after connection broken by 'ReadTimeoutError'" is an attempt, and the job only
failed when no success follows it. `classify` says which of these a line is; `zero_stripped` gives the line
with its zero-valued counters taken out, so a text pattern can be tried again on what is left; and
`succeeded_later` looks ahead of a retry for the success that ends it.

The patterns are about the shape of values (a key and a zero, a count before a noun, a test runner's verdict),
not about any product's message, so a wording never seen before is still read by its values.
"""

from __future__ import annotations

import re
from enum import Enum


class Kind(Enum):
    ERROR = "error"
    WARNING = "warning"
    RETRY = "retry"
    SUCCESS = "success"
    ZERO = "zero-counter"
    EXPECTED = "expected-failure"
    OTHER = "other"


# Words that make a line look like a failure, in English, in the C library's and coreutils' zh_CN messages and
# in Ascend CANN's error codes (`EI0006:`, `(EI0019)`, `EE9999: Inner Error`, `ERR02005 DIST internal error`).
ALARM = re.compile(
    r"(?i)(?:(?<![A-Za-z])(?:error|errors|errno|exception|traceback|fatal|panic|failed|failure|failures|fail|killed|aborted|"
    r"abort|denied|refused|timed out|timeout|timeouts|cannot|could not|unable to|not found|segmentation fault|"
    r"core dumped|no such file or directory|read-only file system|no space left on device|out of memory|"
    r"operation not permitted|broken pipe|connection reset|no route to host|network is unreachable|bus error|"
    r"illegal instruction|disk quota exceeded|stale file handle|too many open files|already in use|"
    r"EnvironmentNameNotFound|oom|oomkilled|faults?|emergency[_ ]stop|e-?stop|protective[_ ]stop|reflex)(?![A-Za-z])|"
    r"错误|失败|异常|超时|断开|急停|没有那个文件或目录|权限不够|段错误|已杀死|设备上没有空间|拒绝连接|"
    r"无法访问|未找到命令|找不到命令|只读文件系统|非法指令|总线错误|核心已转储|已放弃|断开的管道|"
    r"资源暂时不可用|没有到主机的路由|网络不可达|超出磁盘限额|不允许的操作|无法分配内存|"
    r"\bE[0-9A-Z]\d{4}\b(?=[:\])]|\s*:|\s+Inner Error)|\bERR\d{5}\b|(?-i:\b[A-Z]\w*(?:Error|Exception)\b))"
)

# A key followed by a value meaning "none happened": `errors: 0`, `failed=0`, `error rate 0.00%`, `Failed: 0/128`,
# `estop_triggered=False`, `失败：0`. The value must end the pair (`0x7f`, `0 bytes written` are not zero
# counters of anything).
_ZERO_VALUE = r"(?:0+(?:\.0+)?(?:e[+-]?0+)?%?(?:/\d+)?|false|none|null)"
_PAIR_END = r"(?=\s*$|\s*[,;|)\]}]|\s+[\w.\-]+\s*[:=：]|\s+\w+\s*$|\s+(?:times?|次|个|条)\b)"
ZERO_PAIR = re.compile(
    r"(?i)(?<![\w.-])[A-Za-z_\u4e00-\u9fff][\w.\-/ \u4e00-\u9fff]{0,48}?\s*(?:[:=：]|\s(?=0))\s*\(?" + _ZERO_VALUE
    + r"\)?" + _PAIR_END
)
# A zero count before the noun it counts: `0 failures`, `no errors`, `0 NCCL errors`, `zero faults`, `0 个错误`.
ZERO_COUNT = re.compile(
    r"(?i)(?<![\w.-])(?:0+|no|zero|none)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:errors?|failures?|failed|faults?|fails?|timeouts?|warnings?|exceptions?|crashes|aborts?|retries|"
    r"dropped|lost|killed|oom(?:s|-kills?)?|e-?stops?|emergency stops?|reflex(?:es)?|violations?)\b|"
    r"(?<![\d.])0\s*(?:个|条|次)?\s*(?:错误|失败|异常|超时|故障|告警)"
)

# A test runner's verdict: the test named on the line passed (its name may hold any error word).
PASS_VERDICT = re.compile(
    r"(?:\sPASSED\b|^\s*PASSED\s|^\s*\[\s+(?:OK|PASSED)\s+\]|^\s*---\s+PASS:|^\s*ok\s+\d+\s|\s\.\.\.\s+ok\s*$|"
    r"\s\.\.\.\s+(?:passed|PASS)\s*$|\stest\s.*\.\.\.\s+ok\b|^\s*✓|^\s*\[PASS\]|\bPASS\s*$)"
)
# A pytest or unittest summary with no failed or error count: `=== 12 passed, 2 skipped in 3.1s ===`.
TEST_SUMMARY = re.compile(r"(?i)^\W*\d+\s+passed\b|\btest result:\s*ok\b|^\s*OK(?:\s*\(.*\))?\s*$")
# Failures the author expected.
EXPECTED = re.compile(
    r"(?i)\bXFAIL(?:ED)?\b|\bxfail(?:ed)?\b|\bXPASS\b|::\S+\s+SKIPPED\b|^\s*SKIPPED\s|\b\d+\s+skipped\b|"
    r"^\s*---\s+SKIP:|\.\.\.\s+(?:skipped|ignored)\b|"
    r"\bexpected (?:an? )?(?:error|failure|exception|to fail|fail)|\bexpect(?:ing|s)? (?:an? )?(?:error|failure)\b|"
    r"\b(?:error|failure|exception|timeout)s? (?:is|was|are|were) expected\b|\bas expected\b|\(expected\)|"
    r"pytest\.raises|assertRaises|预期(?:的)?(?:错误|失败|异常)|符合预期"
)
RETRY = re.compile(
    r"(?i)\bretry(?:ing)?\b|\bretried\b|\bwill retry\b|\bretries left\b|\battempt\s+\d+\s*(?:of|/)\s*\d+|"
    r"\(\d+ tries remaining\)|\btrying again\b|\bspurious network error\b|\bbacking off\b|\breconnecting\b|"
    r"^\s*Ign:\d|重试|重新连接"
)
GAVE_UP = re.compile(
    r"(?i)max retries exceeded|giving up|gave up|retries exhausted|exhausted (?:all )?retries|"
    r"after \d+ (?:attempts|retries|tries)|no more retries|all \d+ attempts failed|重试.*(?:失败|次数已用完)"
)
SUCCESS = re.compile(
    r"(?i)\bsuccessfully\b|\bsucceeded\b|\bsuccess\b|\bpassed\b|\bcompleted?\b|\bdone\b|\bconnected\b|"
    r"\bestablished\b|\breachable\b|\bdownload complete\b|\bpull complete\b|\bfinished\b|\bresolved\b|"
    r"\brecovered\b|\bis ready\b|\bready\.|成功|已连接|完成|已恢复"
)
NOTE = re.compile(r"(?i)^\s*[\[(]?(?:warn(?:ing)?|info|notice|debug)\b|^\s*W\d{4}\s|^\s*\[W |\[warning\]|"
                  r"\bwarn(?:ing)?:|\w+Warning:")


# A limit someone configured, not a timeout that happened: `HCCL exec timeout is set to 1800s`, `connect timeout
# 120s`, `timeout=1800`, `NCCL_TIMEOUT: 600`, `with a timeout of 30 s`, `超时时间：120 秒`. A duration that was
# exceeded, expired or reached stays a failure.
SETTING = re.compile(
    r"(?i)\b(?:[\w.]*_)?time_? ?outs?(?:_\w+)?(?:\(\w+\))?\s*(?:(?:is|was|are)\s+)?(?:set\s+to|set|of|to|[:=])?\s*"
    r"\d+(?:\.\d+)?\s*(?:ms|s|secs?|seconds?|m|mins?|minutes?|h|hours?)?(?![\w.])"
    r"(?!\s*(?:exceeded|expired|reached|elapsed|passed|hit))|"
    r"超时(?:时间)?\s*[:=：]?\s*\d+\s*(?:毫秒|秒|分钟|s|ms)?"
)


def _blank(m: re.Match[str]) -> str:
    return " " * len(m.group(0))


def zero_stripped(line: str) -> str:
    """`line` with the values that say nothing failed blanked out: counters at zero and configured timeouts (same
    length, so offsets still agree)."""
    out = line
    low = line.lower()
    if "timeout" in low or "time out" in low or "time_out" in low or "超时" in line:
        out = SETTING.sub(_blank, out)
    if "0" not in line and not re.search(r"(?i)\b(?:no|zero|none|false|null)\b", line):
        return out
    out = ZERO_PAIR.sub(_blank, out)
    return ZERO_COUNT.sub(_blank, out)


def only_zero(line: str, pattern: re.Pattern[str]) -> bool:
    """Whether `pattern` finds `line` only because of counters at zero: it matches the line, not what is left
    once they are taken out ("estop_triggered=0", "0 NCCL errors")."""
    stripped = zero_stripped(line)
    return stripped != line and pattern.search(stripped) is None


def test_passed(line: str) -> bool:
    """A test runner's line saying a test passed (the error words on it are the test's name)."""
    return bool(PASS_VERDICT.search(line)) and not re.search(r"\b(?:FAILED|ERROR)\b", line)


def classify(line: str) -> Kind:
    """The kind of one log line."""
    if test_passed(line):
        return Kind.SUCCESS
    if TEST_SUMMARY.search(line) and not _unexpected_failure(line):
        return Kind.SUCCESS
    alarming = ALARM.search(line) is not None
    if alarming and ALARM.search(zero_stripped(line)) is None:
        return Kind.ZERO
    if EXPECTED.search(line) and not UNEXPECTED_WORD.search(line) and not _unexpected_failure(line):
        return Kind.EXPECTED
    if GAVE_UP.search(line):
        return Kind.ERROR
    if RETRY.search(line):
        return Kind.RETRY
    if alarming:
        return Kind.WARNING if NOTE.search(line) else Kind.ERROR
    if NOTE.search(line):
        return Kind.WARNING
    return Kind.SUCCESS if SUCCESS.search(line) else Kind.OTHER


UNEXPECTED_WORD = re.compile(r"(?i)\b(?:unexpected(?:ly)?|XPASS\(strict\))")
UNEXPECTED = re.compile(r"(?i)\b[1-9]\d* (?:failed|errors?)\b|(?-i:\bFAILED\b|^\s*ERROR\b)|"
                        r"^\s*(?:E\s+)?[\w.]*(?:Error|Exception):")


def _unexpected_failure(line: str) -> bool:
    """A line that reports real failures beside expected ones (`1 failed, 3 xfailed`), or an exception or
    assertion whose message merely speaks of what was expected ("AssertionError: expected error ...")."""
    return UNEXPECTED.search(zero_stripped(line)) is not None


# A line that echoes a command rather than reporting its result: a shell's `set -x` trace, a prompt, a GitHub
# Actions step header, a Python assertion about a message.
COMMAND_ECHO = re.compile(r"^\s*(?:\++ |\$ |##\[group\]Run |Run |>>> |assert )")


def quoted_in_command(line: str, pattern: re.Pattern[str]) -> bool:
    """Whether `pattern` finds the line only inside a quoted string of an echoed command (`+ grep -q 'No space
    left on device' train.log`, `assert "EI0019" in msg`): words the command looks for, not a failure."""
    if COMMAND_ECHO.search(line) is None or ("'" not in line and '"' not in line):
        return False
    for m in pattern.finditer(line):
        before = line[:m.start()]
        inside = before.count("'") % 2 == 1 or before.count('"') % 2 == 1
        if not inside:
            return False
    return True


# A test's identifier: a pytest node id (`tests/test_codes.py::test_map[EL0004]`), a test function (`test_oom_207001`,
# with its parameters), a Go test (`TestHostOOM_EL0004`). Words inside it name the test, they report nothing.
TEST_ID = re.compile(r"[\w./-]+\.py::\S+|\btest_\w+(?:\[[^\]\s]*\])?|\bTest[A-Z0-9]\w*")


def named_in_test_id(line: str, pattern: re.Pattern[str]) -> bool:
    """Whether `pattern` finds the line only inside test identifiers (`FAILED tests/test_codes.py::test_el0004[
    aclrtMallocHostWithCfg]`): the test that failed is named, the failure the words describe did not happen."""
    if "test" not in line.lower():
        return False
    spans = [m.span() for m in TEST_ID.finditer(line)]
    if not spans:
        return False
    found = False
    for m in pattern.finditer(line):
        found = True
        if not any(a <= m.start() and m.end() <= b for a, b in spans):
            return False
    return found


def not_a_failure(line: str, pattern: re.Pattern[str]) -> bool:
    """Whether a line a failure `pattern` found says, by its values, that nothing failed: the pattern holds
    only through counters at zero, the line reports a test that passed, a failure that was expected, the
    words are quoted in a command that looks for them, or they only name a test."""
    if only_zero(line, pattern) or test_passed(line) or quoted_in_command(line, pattern):
        return True
    if named_in_test_id(line, pattern):
        return True
    return EXPECTED.search(line) is not None and classify(line) is Kind.EXPECTED


def says_failed(line: str) -> bool:
    """For a line that looks like an error: whether its values agree (not a zero counter, a test that passed, an
    expected failure or a retry)."""
    return classify(line) not in (Kind.ZERO, Kind.SUCCESS, Kind.EXPECTED, Kind.RETRY)


def is_failure(line: str) -> bool:
    """Whether the line reports a failure that happened: an error, not a zero counter, an expected failure, a
    passed test, a retry or a warning."""
    return classify(line) is Kind.ERROR


def _note_of_success(line: str) -> bool:
    """An INFO-style line that reports a success and names no failure (`[INFO] dataloader ready.`)."""
    return SUCCESS.search(line) is not None and ALARM.search(zero_stripped(line)) is None


LOOKAHEAD_LINES = 2000
LOOKAHEAD_CHARS = 512 * 1024


def succeeded_later(text: str, end: int, *, limit: int = LOOKAHEAD_LINES) -> bool:
    """Whether a retry whose line ends at `end` was followed by a success before any new failure: the next line
    or one several lines later (pip's "Successfully installed" after its "Retrying" warnings). Looks at most
    `limit` lines or LOOKAHEAD_CHARS ahead; a log that ends first proves nothing (the retry may still hang)."""
    stop = min(len(text), end + LOOKAHEAD_CHARS)
    pos = end + 1
    for _ in range(limit):
        if pos >= stop:
            return False
        nxt = text.find("\n", pos, stop)
        nxt = stop if nxt < 0 else nxt
        line = text[pos:nxt]
        kind = classify(line)
        if kind is Kind.SUCCESS or (kind is Kind.WARNING and _note_of_success(line)):
            return True
        if kind is Kind.ERROR:
            return False
        pos = nxt + 1
    return False


# A level its writer gave the line, below error: `NCCL WARN`, `[W 412 412]`-style tokens aside, the upper-case words
# loggers print (`WARN`, `WARNING`, `INFO`, `NOTICE`).
LEVEL_BELOW_ERROR = re.compile(r"\b(?:WARN|WARNING|INFO|NOTICE)\b")


def warned_then_went_on(line: str, text: str, end: int) -> bool:
    """Whether a line its writer logged below error level, with no failure word of its own beyond that level
    (counters at zero aside), was followed by a success before any failure: a step that warned and went on (NCCL's
    "NCCL WARN NET/Socket : GPU Direct RDMA Disabled" before "Connected all rings"), not a failure. A warning that
    names one ("NCCL WARN Cuda failure 'out of memory'") is not excused, nor one that no success follows."""
    if LEVEL_BELOW_ERROR.search(line) is None and NOTE.search(line) is None:
        return False
    if ALARM.search(zero_stripped(line)) is not None:
        return False
    return succeeded_later(text, end)

