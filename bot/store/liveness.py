"""Who holds a lock, and whether that process is known dead.

Every store client has an `Identity`: a fresh instance id per process start, with the machine (host name and
boot id) and the process (pid and its start time). Lock tokens begin with the instance id, and each client keeps a
short-lived liveness record under it. A lock held by an instance is known dead when its liveness record lapsed
(it stopped beating: killed, or its node gone), or at once when it ran on this machine and no process with its
pid and start time exists any more (a restarted replica, a killed process on the same host).
"""

from __future__ import annotations

import json
import os
import socket
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path

INSTANCE_HEX = 32  # the instance id's length in a lock token (then a per-lock nonce)
NONCE_HEX = 8


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""


def start_time(pid: int) -> str:
    """Field 22 of /proc/<pid>/stat (clock ticks after boot); "" when there is no such process."""
    text = _read(f"/proc/{pid}/stat")
    fields = text.rsplit(")", 1)[-1].split()
    return fields[19] if len(fields) > 19 else ""


@dataclass(frozen=True)
class Identity:
    instance: str
    host: str
    boot: str
    pid: int
    start: str

    @classmethod
    def here(cls) -> Identity:
        pid = os.getpid()
        return cls(instance=uuid.uuid4().hex, host=socket.gethostname(),
                   boot=_read("/proc/sys/kernel/random/boot_id"), pid=pid, start=start_time(pid))

    def token(self) -> str:
        """A lock token: this instance, then a nonce of its own."""
        return self.instance + uuid.uuid4().hex[:NONCE_HEX]

    def to_text(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_text(cls, text: str) -> Identity | None:
        try:
            doc = json.loads(text)
            return cls(instance=str(doc["instance"]), host=str(doc["host"]), boot=str(doc["boot"]),
                       pid=int(doc["pid"]), start=str(doc["start"]))
        except (ValueError, KeyError, TypeError):
            return None

    def sees_dead(self, other: Identity) -> bool:
        """Whether `other` ran on this very machine (same host and boot) and its process is gone."""
        if not (self.boot and other.boot and other.start) or (self.host, self.boot) != (other.host, other.boot):
            return False
        return other.instance != self.instance and start_time(other.pid) != other.start


def instance_of(token: str) -> str | None:
    """The instance id a lock token starts with; None for a token of another shape (an older version's)."""
    if len(token) != INSTANCE_HEX + NONCE_HEX:
        return None
    return token[:INSTANCE_HEX]
