"""The Ray temp dir a role really uses, and errors on it (rlark.ray.temp-dir).

Ray writes its sockets and session files to /tmp/ray, or to RAY_TEMP_DIR when the role sets it - often a
mounted path (`/data/shared/ray_tmp`, `/mnt/scratch/ray`). A regex in the runbook can only know /tmp/ray; this
signal reads the role's own setting (the pod's or the Task's `main` env, or `--temp-dir=` on the command
line) and looks in every log of the pod, previous instances too, for a permission, read-only, space or quota
error naming that path.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from bot.scope.hits import EvidenceItem, Hit, log_at, log_item
from bot.scope.logview import TEMP_DIR_LITERALS
from bot.signals.base import SignalContext, signal
from bot.signals.stages import reached_at

if TYPE_CHECKING:
    from bot.scope.logview import LogView
    from bot.scope.target import PodCtx

DEFAULT = "/tmp/ray"
TEMP_FLAG = re.compile(r"--temp-dir[= ](/[^\s'\"]+)")
TEMP_EXPORT = re.compile(r"\bRAY_TEMP_DIR=[\"']?(/[^\s'\";]+)")
FS_ERROR = re.compile(
    r"(?i)permission denied|read-only file system|no space left on device|disk quota exceeded|"
    r"errno (?:13|28|30|122)\b|权限不够|只读文件系统|设备上没有空间|超出磁盘限额"
)


def _env_values(env: Iterable[dict[str, Any]]) -> list[str]:
    return [str(e.get("value")) for e in env if e.get("name") == "RAY_TEMP_DIR" and e.get("value")]


def _task_env(ctx: PodCtx) -> list[dict[str, Any]]:
    spec = ctx.task.spec if ctx.task is not None else None
    workload = spec.kubernetes.workload if spec is not None and spec.kubernetes is not None else None
    containers = ((workload.template if workload is not None else {}).get("spec") or {}).get("containers") or []
    return [e for c in containers if isinstance(c, dict) for e in c.get("env") or [] if isinstance(e, dict)]


def temp_dirs(ctx: PodCtx) -> tuple[list[str], str]:
    """(paths, where the setting came from): RAY_TEMP_DIR of the pod's or Task's main container, else /tmp/ray."""
    if ctx.pod is not None:
        for c in ctx.pod.spec.containers:
            found = _env_values(c.env)
            if found:
                return [p.rstrip("/") for p in found], f"RAY_TEMP_DIR={found[0]} in the pod spec"
    found = _env_values(_task_env(ctx))
    if found:
        return [p.rstrip("/") for p in found], f"RAY_TEMP_DIR={found[0]} in the Task spec"
    spec = ctx.task.spec if ctx.task is not None else None
    for label, script in (("prepareScript", spec.prepare_script if spec else ""),
                          ("runScript", spec.run_script if spec else "")):
        m = TEMP_EXPORT.search(script) if "RAY_TEMP_DIR" in script else None
        if m is not None:
            fixed = m.group(1).split("$", 1)[0].rstrip("/")  # `/data/raytmp/$RLINF_JOB_NAME`: its fixed part
            if fixed:
                return [fixed], f"RAY_TEMP_DIR={m.group(1)} set in the Task's {label}"
    for view in ctx.logs:
        # The wrapper and a `set -x` prepare script print the command line and exports first: read the head
        # of each log only, never the whole of a long training log.
        if not any(view.holds(lit) for lit in TEMP_DIR_LITERALS):
            continue  # known from the survey: the text is not read again
        head = view.head
        m = TEMP_FLAG.search(head) if "--temp-dir" in head else None
        if m is None and "RAY_TEMP_DIR=" in head:
            m = TEMP_EXPORT.search(head)
        if m is not None:
            return [m.group(1).rstrip("/")], f"{m.group(0)} in the log"
    return [DEFAULT], "the default"


def _first_fs_error(view: LogView, path: str) -> int | None:
    text = view.text
    pos = text.find(path)
    while pos >= 0:
        start = text.rfind("\n", 0, pos) + 1
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        if FS_ERROR.search(text, start, end):
            return start
        pos = text.find(path, end)
    return None


@signal("ray.temp-dir")
def temp_dir_error(sc: SignalContext) -> list[Hit]:
    hits: list[Hit] = []
    for ctx in sc.scope.pods:
        paths, origin = temp_dirs(ctx)
        if paths == [DEFAULT]:
            continue  # the runbook's own patterns cover /tmp/ray
        views = sorted(ctx.logs, key=lambda v: (not v.excerpt.source.previous, v.excerpt.source.container != "main"))
        for view in views:
            pos = next((p for p in (_first_fs_error(view, path) for path in paths) if p is not None), None)
            if pos is None:
                continue
            stage = reached_at(view.markers, pos) + 1 if view.markers.any else None
            items = [log_item(view, pos), EvidenceItem(ctx.key, f"Ray temp dir {paths[0]} ({origin})")]
            hits.append(Hit(items, pod=ctx.key, stage=stage, at=log_at(view, pos),
                            earlier_instance=view.excerpt.source.previous))
            break
    return hits
