"""Where evidence comes from: an evidence bundle or live clusters, behind one protocol.

The CLI, the Slack handlers and the scheduler hold an `EvidenceSource` and never know which kind it is. A
source raises only `bot.errors` types: `NotFound` (the message says where it looked) and `SourceError`.
The Kubernetes client is imported only when a live source is first used.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from bot.bundle import BundleError, read_bundle
from bot.bundle.logs import LogVisitor
from bot.bundle.writer import Scope, listed_in_bundle
from bot.cluster.progress import NullProgress, Progress
from bot.errors import NotFound, SourceError, UsageError
from bot.models import Evidence, Target, TargetKind
from bot.redact import Detection
from bot.settings import Settings


@dataclass(frozen=True)
class Gathered:
    """Evidence plus which lists were read (written even when empty by `snapshot`)."""

    evidence: Evidence
    listed: frozenset[Scope]


@dataclass(frozen=True)
class Location:
    """Where a target lives, for deciding who may see it before anything is said about it.

    `clusters`: the Job's control plane and, where known, the clusters its Tasks were routed to; for a pod or
    runner, its cluster. `gathered`: the evidence already read to find it, when that was the cheapest way.
    """

    clusters: tuple[str, ...]
    namespace: str
    domain: str
    gathered: Gathered | None = None


def find_in(evidence: Evidence, target: Target) -> Location | None:
    """The target's location in evidence already read, or None when it is not there."""
    if target.kind is TargetKind.JOB:
        job = next((j for j in evidence.jobs if j.name == target.name), None)
        if job is None:
            return None
        routed = [t.agent_id or t.cluster for t in evidence.tasks if t.job_name == target.name]
        clusters = dict.fromkeys([c for c in [evidence.control_plane or job.cluster, *routed] if c])
        return Location(tuple(clusters), "", job.spec.domain)
    pool = evidence.pods if target.kind is TargetKind.POD else evidence.ephemeral_runners
    obj = next((o for o in pool if o.name == target.name and (not target.namespace or o.namespace == target.namespace)),
               None)
    return None if obj is None else Location((obj.cluster,), obj.namespace, "")


def where_in(evidence: Evidence, target: Target) -> str:
    """What was searched, in the engine's words (kinds, lists, clusters, namespaces), not a file path."""
    from bot.scope.target import scope_evidence

    return scope_evidence(evidence, target, scan=_no_scan).where


def _no_scan(text: str, /, *, utf8: bytes | None = None) -> list[Detection]:
    return []  # where_in asks where the engine looked, not what the logs hold


class EvidenceSource(Protocol):
    @property
    def label(self) -> str: ...

    def locate(self, target: Target) -> Location: ...

    def check(self) -> str | None:
        """None when the source looks usable (for readiness), else the reason in one line."""
        ...

    def for_target(self, target: Target, *, progress: Progress | None = None) -> Gathered: ...

    def for_checks(self, *, progress: Progress | None = None) -> Gathered: ...

    def glance(self, target: Target) -> str:
        """A fingerprint of what the target's objects say now, read cheaply (a watch's tick): it changes when
        their phases, placement or restarts do. Raises NotFound when the target is gone, SourceError otherwise."""
        ...


class BundleSource:
    """An evidence bundle on disk (CONTRACT §2). Read afresh on every call: a bundle may be replaced."""

    def __init__(self, path: str | Path, *, processes: int = 1, visitor: LogVisitor | None = None) -> None:
        """`processes`: how many may share reading a large bundle's logs; `visitor`: what will be asked of the
        logs, asked while they are read (see `read_bundle`)."""
        if not str(path).strip():
            raise UsageError("--snapshot needs a directory (got an empty value)")
        self.path = Path(path)
        self.processes = processes
        self.visitor = visitor

    @property
    def label(self) -> str:
        return f"snapshot {self.path}"

    def _read(self) -> Gathered:
        try:
            evidence = read_bundle(self.path, processes=self.processes, visitor=self.visitor)
            return Gathered(evidence, frozenset(listed_in_bundle(self.path)))
        except BundleError as exc:
            raise SourceError(f"cannot read snapshot {self.path}: {exc}") from exc
        except RecursionError as exc:  # a pathologically nested document the reader did not name
            raise SourceError(f"cannot read snapshot {self.path}: a file is nested too deeply") from exc

    def check(self) -> str | None:
        return None if self.path.is_dir() else f"{self.path} is not a directory"

    def locate(self, target: Target) -> Location:
        gathered = self._read()
        found = find_in(gathered.evidence, target)
        if found is None:
            raise NotFound(f"{target} not found: {where_in(gathered.evidence, target)}")
        return Location(found.clusters, found.namespace, found.domain, gathered)

    def for_target(self, target: Target, *, progress: Progress | None = None) -> Gathered:
        return self._read()

    def for_checks(self, *, progress: Progress | None = None) -> Gathered:
        return self._read()

    def glance(self, target: Target) -> str:
        """A bundle changes only when it is replaced: the names, sizes and times of its files."""
        try:
            marks = sorted((str(p.relative_to(self.path)), st.st_size, st.st_mtime_ns)
                           for p in self.path.rglob("*") if p.is_file() for st in [p.stat()])
        except OSError as exc:
            raise SourceError(f"cannot read snapshot {self.path}: {exc.strerror or exc}") from exc
        return hashlib.sha256(repr(marks).encode()).hexdigest()[:24]


class LiveSource:
    """Live clusters through kubeconfig contexts (or in-cluster config), read-only and budgeted."""

    def __init__(self, *, kubeconfig: str | None, context: str | None, settings: Settings,
                 observe: Callable[[str, str, str], None] | None = None) -> None:
        """`observe(verb, resource, status)` hears of every Kubernetes request (the bot counts them in a metric)."""
        self.kubeconfig, self.context, self.settings = kubeconfig, context, settings
        self.observe = observe

    @property
    def label(self) -> str:
        return f"context {self.context}" if self.context else "the current kubeconfig context"

    def check(self) -> str | None:
        from bot.cluster.errors import CollectionError
        from bot.cluster.kubeconfig import load_source

        try:
            load_source(self.kubeconfig)
        except CollectionError as exc:
            return str(exc)
        return None

    def locate(self, target: Target) -> Location:
        from bot.cluster.errors import CollectionError, TargetNotFound
        from bot.cluster.locate import locate

        try:
            found = locate(target, kubeconfig=self.kubeconfig, context=self.context, settings=self.settings,
                           observe=self.observe)
        except TargetNotFound as exc:
            raise NotFound(f"{target} not found: looked in {exc.where}") from exc
        except CollectionError as exc:
            raise SourceError(str(exc)) from exc
        return Location((found.cluster,), found.namespace, found.domain)

    def for_target(self, target: Target, *, progress: Progress | None = None) -> Gathered:
        from bot.cluster.collector import collect  # the Kubernetes client loads only in live mode
        from bot.cluster.errors import CollectionError, TargetNotFound

        try:
            collected = collect(target, kubeconfig=self.kubeconfig, context=self.context,
                                namespace=target.namespace or None, settings=self.settings,
                                progress=progress or NullProgress(), observe=self.observe)
        except TargetNotFound as exc:
            raise NotFound(f"{target} not found: looked in {exc.where}") from exc
        except CollectionError as exc:
            raise SourceError(str(exc)) from exc
        return Gathered(collected.to_evidence(), frozenset(collected.listed))

    def glance(self, target: Target) -> str:
        from bot.cluster.errors import CollectionError, TargetNotFound
        from bot.cluster.glance import glance

        try:
            return glance(target, kubeconfig=self.kubeconfig, context=self.context, settings=self.settings,
                          observe=self.observe)
        except TargetNotFound as exc:
            raise NotFound(f"{target} not found: looked in {exc.where}") from exc
        except CollectionError as exc:
            raise SourceError(str(exc)) from exc

    def for_checks(self, *, progress: Progress | None = None) -> Gathered:
        from bot.cluster.collector import collect_checks
        from bot.cluster.errors import CollectionError

        try:
            collected = collect_checks(kubeconfig=self.kubeconfig, context=self.context, settings=self.settings,
                                       progress=progress or NullProgress(), observe=self.observe)
        except CollectionError as exc:
            raise SourceError(str(exc)) from exc
        return Gathered(collected.to_evidence(), frozenset(collected.listed))


def open_source(*, snapshot: str | None, kubeconfig: str | None, context: str | None, settings: Settings,
                observe: Callable[[str, str, str], None] | None = None, processes: int = 1,
                visitor: LogVisitor | None = None) -> EvidenceSource:
    """`--snapshot DIR` reads a bundle; otherwise live clusters. `--snapshot ''` is a usage error, not live mode.
    `processes`: how many may share reading a large bundle; `visitor`: its logs' visits, while they are read."""
    if snapshot is not None:
        if kubeconfig or context:
            raise UsageError("--snapshot reads a bundle: it cannot be combined with --kubeconfig or --context")
        return BundleSource(snapshot, processes=processes, visitor=visitor)
    return LiveSource(kubeconfig=kubeconfig, context=context, settings=settings, observe=observe)
