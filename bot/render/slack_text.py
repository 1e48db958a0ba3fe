"""Text for Slack: cleaned, redacted, escaped, then cut to a limit — in that order.

* `clean` drops terminal escapes and control characters (so what the redactor checked is what Slack shows)
  and redacts. Everything the Slack renderers emit starts here.
* `mrkdwn` escapes `&`, `<` and `>` as Slack asks, so log text cannot become a link, a mention or `<!channel>`.
* `code` puts text in a code block with its backticks neutralised, so evidence cannot close the block.
* `cut` and `fit_lines` shorten text that has already been redacted and escaped: a cut never lands inside a
  redaction mark or an HTML entity, and the caller always says what was left out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from bot.redact import Redactor
from bot.redact.allow import REDACTED_PREFIX
from bot.render.blocklimits import slack_len
from bot.render.plain import plain

ELLIPSIS = "…"
_TICK = "ˋ"  # U+02CB stands in for a backtick inside code
# What a cut must not split: a redaction mark (kinds are short) or one of the entities `mrkdwn` writes.
_ATOMIC = re.compile(re.escape(REDACTED_PREFIX) + r"[a-z0-9_.-]{0,60}\]|&amp;|&lt;|&gt;")
_WINDOW = 80


def clean(text: str, redactor: Redactor) -> str:
    """`text` without escapes or control characters, redacted."""
    return str(redactor.redact(plain(text)).text)


def clean_line(text: str, redactor: Redactor) -> str:
    """`clean`, on one line: line breaks and tabs become spaces (titles, list items, button labels)."""
    return " ".join(clean(text, redactor).split())


def mrkdwn(text: str) -> str:
    """Escape the three characters Slack's mrkdwn treats as markup."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _neutral(text: str) -> str:
    return text.replace("`", _TICK)


def code(text: str) -> str:
    """A mrkdwn code block holding `text` verbatim (escaped, backticks neutralised)."""
    return "```\n" + mrkdwn(_neutral(text)) + "\n```"


def inline(text: str) -> str:
    """Inline code on one line (case ids, targets, stage ids)."""
    return "`" + mrkdwn(_neutral(" ".join(text.split()))) + "`"


def _prefix_end(text: str, limit: int) -> int:
    """The largest i with slack_len(text[:i]) <= limit."""
    if slack_len(text) <= limit:
        return len(text)
    if len(text) == slack_len(text):
        return limit
    used = 0
    for i, ch in enumerate(text):
        used += 2 if ord(ch) > 0xFFFF else 1
        if used > limit:
            return i
    return len(text)


def cut(text: str, limit: int, *, mark: str = ELLIPSIS) -> str:
    """`text` shortened to at most `limit` (ending in `mark` when cut), never inside a mask or an entity."""
    if slack_len(text) <= limit:
        return text
    end = _prefix_end(text, max(0, limit - slack_len(mark)))
    lo = max(0, end - _WINDOW)
    for m in _ATOMIC.finditer(text, lo, end + _WINDOW):
        if m.start() < end < m.end():
            end = m.start()
            break
    return text[:end] + mark


def fit_lines(lines: Sequence[str], limit: int, *, more: Callable[[int], str],
              max_lines: int | None = None) -> tuple[list[str], int]:
    """As many of `lines` (at most `max_lines`) as fit in `limit` when joined by newlines, together with the
    line `more(n)` when n lines are not shown in full. A first line too long alone is cut (and counted in n).
    Returns the lines to show, the `more` line included, and n."""
    cap = len(lines) if max_lines is None else min(max_lines, len(lines))
    if cap == len(lines) and sum(slack_len(line) for line in lines) + max(0, len(lines) - 1) <= limit:
        return list(lines), 0
    kept: list[str] = []
    used = 0
    for i, line in enumerate(lines):
        rest = len(lines) - i - 1
        size = slack_len(line) + (1 if kept else 0)
        tail = slack_len(more(rest)) + 1 if rest else 0
        if i < cap and used + size + tail <= limit:
            kept.append(line)
            used += size
            continue
        if not kept and i < cap:
            room = limit - slack_len(more(rest + 1)) - 1
            return [cut(line, max(room, 1)), more(rest + 1)], rest + 1
        return [*kept, more(len(lines) - i)], len(lines) - i
    return kept, 0


def code_line(text: str) -> str:
    """One line as it goes inside a code block (escaped, backticks neutralised)."""
    return mrkdwn(_neutral(text))
