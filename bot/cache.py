"""A small on-disk cache for compiled pattern databases, so a CLI run does not recompile them every time.

Only the built-in rules are kept (the bot's own secrets are never compiled into a cached database). Every
failure (read-only file system, no home directory, a damaged file) simply means "not cached".
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

MAX_BYTES = 64 << 20


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rlark-bot"


class FileCache:
    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, key: str) -> Path:
        safe = "".join(c for c in key if c.isalnum() or c in "-_.")
        return self.directory / f"{safe}.bin"

    def get(self, key: str) -> bytes | None:
        try:
            path = self._path(key)
            if path.stat().st_size > MAX_BYTES:
                return None
            return path.read_bytes()
        except OSError:
            return None

    def put(self, key: str, value: bytes) -> None:
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".tmp-")
            with os.fdopen(fd, "wb") as out:
                out.write(value)
            os.replace(tmp, self._path(key))  # atomic: a reader sees the old file or the whole new one
        except OSError:
            return
