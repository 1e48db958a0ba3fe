"""Architecture decided by comparing values, not by one package's name: the node's `kubernetes.io/arch` (else its
nodeInfo) against what the evidence says about the image or the native code it loads.

A failing pod's logs, container messages and events are read for an architecture named where native code is
fetched or loaded: a wheel's platform tag (`rpds_py-0.18.0-cp311-cp311-manylinux_2_17_x86_64.whl`, any package),
a shared object or ELF complaint, an image platform or manifest message. One naming another architecture than the
node's is the fact "built for X, running on Y". "exec format error" on a node whose architecture is known says
the same without naming X.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.scope.hits import EvidenceItem, Hit, clip
from bot.scope.logview import ARCH_LITERALS
from bot.signals.base import SignalContext, failed, signal
from bot.signals.stages import INDEX

if TYPE_CHECKING:
    from bot.models import Node
    from bot.scope.target import PodCtx

ARCH_LABEL = "kubernetes.io/arch"
ALIASES = {"x86_64": "amd64", "amd64": "amd64", "x64": "amd64", "aarch64": "arm64", "arm64": "arm64",
           "arm64v8": "arm64", "armv7l": "arm", "armv7": "arm", "armhf": "arm", "ppc64le": "ppc64le",
           "s390x": "s390x", "i686": "386", "i386": "386", "riscv64": "riscv64"}
_TOKEN = "|".join(sorted(ALIASES, key=len, reverse=True))
ARCH = re.compile(rf"(?<![A-Za-z0-9])(?:linux[/_])?({_TOKEN})(?![A-Za-z0-9])", re.I)
# Where an architecture named on a line is about native code being fetched or loaded, not a log's chatter.
NATIVE = re.compile(r"(?i)\.whl\b|\bwheel\b|\bmanylinux|\bmusllinux|shared object|\.so(?:\.\d+)*\b|\bELF\b|"
                    r"exec format|\bplatform\b|\bmanifest\b|cannot execute binary")
WHEEL = re.compile(rf"[\w.+-]+-(?:manylinux|musllinux|linux)[\w.]*?_({_TOKEN})\.whl", re.I)
ERRORISH = re.compile(r"(?i)error|cannot|can't|unable|not a supported|failed|does not match|no match|wrong|"
                      r"mismatch|incompatible|not found")
EXEC_FORMAT = re.compile(r"(?i)exec format error|cannot execute binary file|可执行文件格式错误")
MAX_PODS = 32  # failing pods judged: a thousand pods failing alike need not be read a thousand times
MAX_LINES = 2000  # mentions of one log looked at: the signal reads failing pods' logs only
# One pass over a log finds the only lines worth a look: those naming an architecture or failing to execute.
CANDIDATE = re.compile(rf"(?i)(?<![A-Za-z0-9])(?:{_TOKEN})(?![A-Za-z0-9])|exec format error|cannot execute binary|"
                       r"可执行文件格式错误")


def node_arch(node: Node) -> str:
    raw = node.metadata.labels.get(ARCH_LABEL) or node.status.node_info.architecture
    return ALIASES.get(raw.lower(), raw.lower()) if raw else ""


def foreign(line: str, arch: str) -> str:
    """The architecture a line names for native code that is not `arch` ("" when none): a wheel built for another
    platform, or a failure to load or run native code that names one."""
    wheels = sorted({ALIASES[m.group(1).lower()] for m in WHEEL.finditer(line)} - {arch})
    if wheels:
        return wheels[0]
    if not NATIVE.search(line) or not ERRORISH.search(line):
        return ""
    named = {ALIASES[m.group(1).lower()] for m in ARCH.finditer(line)}
    others = sorted(named - {arch})
    # "wanted linux/arm64, actual linux/amd64" names both: the one that is not the node's is what was built.
    return others[0] if others else ""


def _texts(ctx: PodCtx) -> list[tuple[str, str]]:
    """(source, text) of what the pod says: container state messages, events, then log lines."""
    out: list[tuple[str, str]] = []
    if ctx.pod is not None:
        for status, _ in ctx.pod.all_statuses():
            for state in (status.state, status.last_state):
                for part in (state.waiting, state.terminated):
                    if part is not None and part.message:
                        out.append((f"{ctx.key}:{status.name}", part.message))
    out.extend((e.ref(), f"{e.reason}: {e.message}") for e in ctx.events if e.involved_object.kind == "Pod")
    for view in ctx.logs:
        if not any(view.holds(lit) for lit in ARCH_LITERALS):
            continue  # known from the one visit of the log: nothing to read again
        text = view.text
        seen = -1
        for n, m in enumerate(CANDIDATE.finditer(text)):
            if n >= MAX_LINES:
                break
            if m.start() <= seen:
                continue  # another mention on a line already taken
            line = view.line_at(m.start())
            seen = text.find("\n", m.start())
            seen = len(text) if seen < 0 else seen
            out.append((f"{view.excerpt.source.ref()} line {line.number}", line.text))
    return out


def _mismatch(ctx: PodCtx, arch: str) -> EvidenceItem | None:
    exec_format: tuple[str, str] | None = None
    for source, text in _texts(ctx):
        other = foreign(text, arch)
        if other:
            return EvidenceItem(source, f"built for {other}, node is {arch}: {clip(text, 300)}")
        if exec_format is None and EXEC_FORMAT.search(text):
            exec_format = (source, text)
    if exec_format is not None:
        return EvidenceItem(exec_format[0], f"a binary the {arch} node cannot run: {clip(exec_format[1], 300)}")
    return None


@signal("node.arch-mismatch")
def arch_mismatch(sc: SignalContext) -> list[Hit]:
    hits: list[Hit] = []
    judged = 0
    for ctx in sc.scope.pods:
        node = ctx.node  # the node object the pod is bound to, when it was read
        if node is None or judged >= MAX_PODS or not failed(ctx):
            continue
        judged += 1
        arch = node_arch(node)
        if not arch:
            continue
        item = _mismatch(ctx, arch)
        if item is not None:
            hits.append(Hit([item, EvidenceItem(f"{node.cluster}//{node.name}", f"node {node.name}: "
                                                f"{ARCH_LABEL}={arch}")], pod=ctx.key,
                            stage=INDEX["containers-started"]))
    return hits
