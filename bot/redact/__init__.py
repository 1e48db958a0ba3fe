"""Redaction: the only way to turn evidence text into ``SafeText`` that sinks accept.

Pure: stdlib, pydantic and (optionally) hyperscan; nothing here knows about Kubernetes or Slack.
"""

from bot.redact.config import RedactionSettings
from bot.redact.redactor import Redactor
from bot.redact.results import Detection, Redacted, Scan
from bot.redact.safetext import SafeText
from bot.redact.sealed import SafeValue, dump_json, seal
from bot.redact.stream import redact_stream

__all__ = [
    "Detection",
    "Redacted",
    "RedactionSettings",
    "Redactor",
    "SafeText",
    "SafeValue",
    "Scan",
    "dump_json",
    "redact_stream",
    "seal",
]
