"""What makes two alert messages "the same": the text without ages, durations and timestamps.

"Pending for 17 min" and "Pending for 18 min" are one state of one alert; only a change in what the message
says (a different cause, another condition) is worth a reply in the thread.
"""

from __future__ import annotations

import re

_TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?")
_UNIT = r"(?:ms|milliseconds?|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|w)"
_DURATION = re.compile(rf"(?<![\w.])(?:\d+(?:\.\d+)?\s?{_UNIT}(?![A-Za-z]))+")
_SPACES = re.compile(r"\s+")


def fingerprint(message: str) -> str:
    """`message` with timestamps and numbers-with-units (`12m`, `3h4m`, `900s`, `190 min`) replaced by markers."""
    text = _TIMESTAMP.sub("<time>", message)
    text = _DURATION.sub("<duration>", text)
    return _SPACES.sub(" ", text).strip()
