"""Structured logs: one JSON object per line on standard error, every value through the redactor.

`JsonFormatter` turns a record into one line: `time`, `level`, `logger`, `message`, then whatever the caller
passed in `extra=` (`request_id`, `diagnosis_id`, `user`, `channel`, `command`, `target`, `outcome`,
`duration_ms`, ...). `RedactingHandler` redacts each string value before it is encoded (so a mask never
lands in the middle of a JSON escape), redacts the finished line once more (that pass is what makes the
`SafeText` that `bot.sinks.write_stderr` insists on) and writes it. The redactor is given to the handler;
there is no global one.
"""

from __future__ import annotations

import json
import logging
import math
import secrets
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Final

from bot.redact import Redacted, Redactor
from bot.sinks import write_stderr

# Attributes every LogRecord has; anything else on a record came from `extra=`.
_STANDARD: Final = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}
_MAX_DEPTH: Final = 6
LEVELS: Final = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _keep(text: str) -> str:
    return text


def new_id() -> str:
    """A short random id for a request or a diagnosis: 16 hex digits, unique enough to grep a day of logs."""
    return secrets.token_hex(8)


def _timestamp(created: float) -> str:
    return datetime.fromtimestamp(created, tz=UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _plain(value: object, clean: Callable[[str], str], depth: int = 0) -> object:
    """A JSON-encodable copy of `value` with every string passed through `clean` (keys included)."""
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, str):
        return clean(value)
    if depth >= _MAX_DEPTH:
        return clean(type(value).__name__)
    if isinstance(value, Mapping):
        return {clean(str(k)): _plain(v, clean, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v, clean, depth + 1) for v in value]
    return clean(str(value))


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line. `clean` is applied to every string value and key."""

    def __init__(self, *, clean: Callable[[str], str] = _keep) -> None:
        super().__init__()
        self._clean = clean

    def fields(self, record: logging.LogRecord) -> dict[str, object]:
        """The record as a flat mapping, before cleaning: the fixed fields first, then the extras."""
        out: dict[str, object] = {
            "time": _timestamp(record.created),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_") and key not in out:
                out[key] = value
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            out["error"] = f"{type(exc).__name__}: {exc}"
            out["stack"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["stack"] = record.exc_text
        if record.stack_info:
            out["stack_info"] = record.stack_info
        return out

    def format(self, record: logging.LogRecord) -> str:
        encoded = _plain(self.fields(record), self._clean)
        return json.dumps(encoded, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


class RedactingHandler(logging.Handler):
    """Writes each record as one redacted JSON line through `bot.sinks.write_stderr`, the only writer.

    `on_redacted` receives the counts of every masking (kind -> values), for `Metrics.count_redactions`.
    """

    def __init__(self, redactor: Redactor, *, level: int | str = logging.NOTSET,
                 on_redacted: Callable[[Mapping[str, int]], None] | None = None) -> None:
        super().__init__(level)
        self._redactor = redactor
        self._on_redacted = on_redacted
        self.setFormatter(JsonFormatter(clean=self._clean))

    def _redact(self, text: str) -> Redacted:
        result = self._redactor.redact(text)
        if result.total and self._on_redacted is not None:
            self._on_redacted(result.counts)
        return result

    def _clean(self, text: str) -> str:
        return str(self._redact(text).text)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = self.format(record)
            safe = self._redact(line + "\n")
            if safe.total and not _is_json(safe.text):
                # Something that only the whole line shows (a value split across fields, a formatter set by
                # someone else) was masked and the mask broke the JSON: say so rather than print half a line.
                safe = self._redact(_withheld(record) + "\n")
            write_stderr(safe.text)
        except Exception:
            self.handleError(record)

    def handleError(self, record: logging.LogRecord) -> None:
        """logging's default prints the raw message and arguments to stderr; this prints neither."""
        if not logging.raiseExceptions:
            return
        try:
            write_stderr(self._redactor.redact(_withheld(record, reason="could not be formatted") + "\n").text)
        except Exception:  # the last resort of the last resort: nothing may escape a log call
            return


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _withheld(record: logging.LogRecord, *, reason: str = "withheld: it held a credential") -> str:
    return json.dumps({"time": _timestamp(record.created), "level": record.levelname.lower(),
                       "logger": record.name, "message": f"log record {reason}"}, separators=(",", ":"))


def configure_logging(*, redactor: Redactor, level: str = "INFO",
                      on_redacted: Callable[[Mapping[str, int]], None] | None = None) -> None:
    """Make the root logger write redacted JSON lines to stderr, and nothing else write there.

    Idempotent: a second call replaces the handler this installed (with the new redactor and level) rather
    than adding one. Plain stream handlers (what `logging.basicConfig` adds) are removed too, since they
    would print the same records unredacted; other handlers (a test's capture, a file the operator added
    on purpose) are left alone.
    """
    name = level.strip().upper()
    if name not in LEVELS:
        raise ValueError(f"log level {level!r}: use one of {', '.join(LEVELS)}")
    root = logging.getLogger()
    for handler in list(root.handlers):
        if isinstance(handler, RedactingHandler) or type(handler) is logging.StreamHandler:
            root.removeHandler(handler)
    root.addHandler(RedactingHandler(redactor, on_redacted=on_redacted))
    root.setLevel(name)
