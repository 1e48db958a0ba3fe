"""P35: absolute paths the scripts write (output and checkpoint directories) should lie under a volumeMount."""

from __future__ import annotations

import re

from bot.preflight.findings import Findings
from bot.preflight.view import TaskView, as_dict, as_list, text

_PATH = r"(/[^\s'\";|&<>()$`]*)"
_WRITES = (
    re.compile(r"\bmkdir(?:\s+-[a-z]+)*\s+" + _PATH),
    re.compile(r"(?<![0-9<])>>?\s*" + _PATH),
    re.compile(r"\btee(?:\s+-[a-z]+)*\s+" + _PATH),
    re.compile(r"--[\w-]*(?:output|out[_-]dir|save|ckpt|checkpoint|log[_-]?dir|[_-]dir)[\w-]*(?:=|\s+)['\"]?" + _PATH),
    re.compile(r"(?<![\w-])(?:[\w]+\.)*(?:run\.dir|[\w]*(?:output|save|ckpt|checkpoint)[\w]*|[\w]*_dir)=['\"]?"
               + _PATH),
)
SYSTEM = ("/dev/", "/proc/", "/sys/")


def written_paths(script: str) -> list[str]:
    """Absolute paths a script writes, in order of first appearance."""
    found: dict[str, int] = {}
    for pattern in _WRITES:
        for m in pattern.finditer(script):
            path = m.group(1).rstrip("/.,") or "/"
            if path != "/" and not path.startswith(SYSTEM) and path != "/dev/null":
                found[path] = min(found.get(path, m.start(1)), m.start(1))
    return sorted(found, key=found.__getitem__)


def _mounts(t: TaskView) -> list[str]:
    out: list[str] = []
    for c in t.containers():
        for m in as_list(c.data.get("volumeMounts")):
            where = text(as_dict(m).get("mountPath")).rstrip("/")
            if where:
                out.append(where)
    return out


def check_paths(tasks: list[TaskView], out: Findings) -> None:
    for t in tasks:
        mounts = _mounts(t)
        for key in ("prepareScript", "runScript"):
            for path in written_paths(text(t.data.get(key))):
                if any(path == m or path.startswith(m + "/") for m in mounts):
                    continue
                shown = ", ".join(mounts) or "none"
                out.warn("P35", task=t.label, path=f"{t.path}.{key}",
                         en=f"{path} is written but lies under no volumeMount (mounts: {shown}): the output is lost "
                            "with the container; write under a mounted directory",
                         zh=f"{path} 会被写入，但不在任何 volumeMount 之下（挂载：{shown}）：容器结束后输出会丢失；"
                            "请写到已挂载的目录")
