"""The key schema: how logical keys map to server keys.

Every server key starts with a prefix that names the schema version (default ``rlark-bot:v1:``), so several
installs, test runs and a future schema can share one Redis without seeing each other's data. Each kind of
record lives in its own namespace, so a value and a document under the same logical key never collide.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_PREFIX = "rlark-bot:v1:"


@dataclass(frozen=True)
class KeySchema:
    """Server key names for one prefix."""

    prefix: str = DEFAULT_PREFIX

    def __post_init__(self) -> None:
        if not isinstance(self.prefix, str) or not self.prefix or any(c.isspace() for c in self.prefix):
            raise ValueError(f"store prefix must be a non-empty string without blanks, not {self.prefix!r}")

    def value(self, key: str) -> str:
        """A string value, claim or cooldown."""
        return f"{self.prefix}kv:{key}"

    def doc(self, key: str) -> str:
        """A versioned JSON document (a hash with fields ``doc``, ``v`` and ``w``, the last writer)."""
        return f"{self.prefix}doc:{key}"

    def doc_index(self) -> str:
        """The set of logical keys that have a document, so listing never scans the whole server."""
        return f"{self.prefix}docs"

    def lock(self, name: str) -> str:
        """The current holder of a lease: ``<token>:<fence>``."""
        return f"{self.prefix}lock:{name}"

    def fence(self, name: str) -> str:
        """The fencing counter of a lease; never expires, so fences only grow."""
        return f"{self.prefix}fence:{name}"

    def queue(self, name: str) -> str:
        """A FIFO list."""
        return f"{self.prefix}q:{name}"

    def op(self, token: str) -> str:
        """A short-lived marker that an operation was applied, so a retried call is not applied twice."""
        return f"{self.prefix}op:{token}"

    def pattern(self, start: str = "") -> str:
        """A SCAN pattern matching every key of this prefix that begins with `start` (glob characters escaped)."""
        escaped = "".join("\\" + c if c in "*?[]\\" else c for c in self.prefix + start)
        return escaped + "*"
