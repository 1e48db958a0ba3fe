"""Outputs written where they will not last (rlark.run.no-persistent-output).

Only what lies under a volumeMount outlives the container: the container's own filesystem, a directory next to
a mount point and a hostPath on another node are not the expected output (rlark-first-run § 处理没有持久输出的任务).
This signal reads where a role writes - from its scripts (output and checkpoint arguments, Hydra's run dir,
`mkdir -p`, redirections) and from its logs' last lines ("Saving checkpoint to /...") - and compares each
absolute path with the mount paths of the role's `main` container (the pod's, else the Task template's). A path
under no mount is reported once per role, with where it came from.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from bot.scope.hits import EvidenceItem, Hit, clip
from bot.signals.base import SignalContext, signal
from bot.signals.stages import INDEX

if TYPE_CHECKING:
    from bot.scope.logview import LogView
    from bot.scope.target import PodCtx

_PATH = r"[\"']?(/[^\s'\";&|<>()`,]+)"
# Arguments and settings that name where outputs and checkpoints go: --output_dir=/x, save_path: /x,
# hydra.run.dir=/x, ... (not where logs go: a log path is not the run's output).
OUTPUT_ARG = re.compile(
    r"(?i)(?:--|\b)(?:[\w.]*\.)?(?:output|out|save|ckpt|checkpoint|result|export|run|exp|experiment)"
    r"[\w-]*?(?:_|-|\.)?(?:dir|path|root|folder|prefix)\b\s*[=: ]\s*" + _PATH
)
MKDIR = re.compile(r"\bmkdir\s+(?:-\w+\s+)*" + _PATH)
REDIRECT = re.compile(r"(?<![<>&\d])>>?\s*" + _PATH)
# A log saying it wrote a checkpoint, model or result somewhere.
SAVED = re.compile(
    r"(?i)\b(?:sav(?:ing|ed?)|writ(?:ing|ten|es?)|dump(?:ing|ed)?|export(?:ing|ed)?|stor(?:ing|ed?))\b[^\n]{0,60}?"
    r"\b(?:checkpoints?|ckpts?|models?|weights|outputs?|results?|state[_ ]dict)\b[^\n]{0,40}?\b(?:to|at|in|into)\s+"
    + _PATH
)
# Scratch that is meant to be thrown away, and the kernel's and runtime's own trees: never "lost output".
SCRATCH = ("/dev/", "/proc/", "/sys/", "/run/", "/var/run/", "/tmp/ray", "/dev/shm")
SCRATCH_FOR_SHELL = ("/tmp", "/var/tmp")  # mkdir and redirections there are scratch; output arguments are not
OUTPUTISH = re.compile(r"(?i)out|result|ckpt|checkpoint|save|model|exp|run|train|eval|artifact")
MAX_PATHS = 3


def _fixed(path: str) -> str:
    """The fixed part of a path with variables (`/data/out/${RUN}` -> `/data/out`), without a trailing slash."""
    cut = re.split(r"\$|\{|\*", path, maxsplit=1)[0]
    return cut.rstrip("/") or "/"


def _mounts_of(containers: Iterable[Any]) -> list[str]:
    out: list[str] = []
    for c in containers:
        if isinstance(c, dict):
            name, mounts = c.get("name"), c.get("volumeMounts")
        else:
            name = getattr(c, "name", "")
            mounts = getattr(c, "volume_mounts", None) or (getattr(c, "model_extra", None) or {}).get("volumeMounts")
        if name not in ("main", None, "") or not isinstance(mounts, list):
            continue
        out += [str(m.get("mountPath", "")).rstrip("/") or "/" for m in mounts
                if isinstance(m, dict) and m.get("mountPath")]
    return out


def mount_paths(ctx: PodCtx) -> list[str] | None:
    """Mount paths of the role's main container: the pod's, else the Task template's; None when neither is known."""
    if ctx.pod is not None and ctx.pod.spec.containers:
        return _mounts_of(ctx.pod.spec.containers)
    spec = ctx.task.spec if ctx.task is not None else None
    workload = spec.kubernetes.workload if spec is not None and spec.kubernetes is not None else None
    if workload is None:
        return None
    containers = ((workload.template or {}).get("spec") or {}).get("containers")
    return _mounts_of(containers) if isinstance(containers, list) else None


def _under(path: str, mounts: list[str]) -> bool:
    return any(path == m or path.startswith(m + "/") or m == "/" for m in mounts)


def _written(text: str, *, shell: bool) -> Iterator[tuple[str, str]]:
    """(path, the words that write it) for each absolute path the text writes to."""
    kinds = [(OUTPUT_ARG, False), (MKDIR, True), (REDIRECT, True)] if shell else [(SAVED, False)]
    for pattern, scratch_ok in kinds:
        for m in pattern.finditer(text):
            path = _fixed(m.group(1))
            if path == "/" or path.startswith(SCRATCH) or path in SCRATCH:
                continue
            if scratch_ok and (path in SCRATCH_FOR_SHELL or path.startswith(tuple(p + "/" for p in SCRATCH_FOR_SHELL))
                               or not OUTPUTISH.search(path)):
                continue  # a shell write is output only where the path says so (not /etc/hosts)
            yield path, clip(m.group(0), 160)


def _log_texts(ctx: PodCtx) -> Iterator[tuple[LogView, str]]:
    """The last line of each workload log (kept from the survey: no log is read again for this)."""
    for view in ctx.logs:
        if view.excerpt.source.container not in ("main", "(unnamed)"):
            continue
        tail = view.tail()
        if tail is not None:
            yield view, tail[1]


@signal("run.no-persistent-output")
def no_persistent_output(sc: SignalContext) -> list[Hit]:
    hits: list[Hit] = []
    seen_roles: set[str] = set()
    for ctx in sc.scope.pods:
        role = ctx.task.name if ctx.task is not None else ctx.key
        if role in seen_roles:
            continue
        mounts = mount_paths(ctx)
        if mounts is None:
            continue
        seen_roles.add(role)  # one pod per role: its replicas share the scripts and the mounts
        lost: dict[str, EvidenceItem] = {}
        spec = ctx.task.spec if ctx.task is not None else None
        for label, script in (("prepareScript", spec.prepare_script if spec else ""),
                              ("runScript", spec.run_script if spec else "")):
            for path, words in _written(script, shell=True):
                if not _under(path, mounts):
                    lost.setdefault(path, EvidenceItem(f"{ctx.task.ref() if ctx.task else ctx.key}:{label}",
                                                       f"writes {path}: {words}"))
        for view, text in _log_texts(ctx):
            if not SAVED.search(text):
                continue
            for path, words in _written(text, shell=False):
                if not _under(path, mounts):
                    lost.setdefault(path, EvidenceItem(view.excerpt.source.ref(), f"writes {path}: {words}"))
        if not lost:
            continue
        items = list(lost.values())[:MAX_PATHS]
        where = ", ".join(sorted(set(mounts))) or "none"
        items.append(EvidenceItem(ctx.key + ":main", f"volumeMounts of main: {where}; the paths above are under none"))
        hits.append(Hit(items, pod=ctx.key, stage=INDEX["training-signal"], concrete=False))
    return hits
