"""Read an evidence bundle directory into `Evidence`. Missing files are "not collected", never "none exist"."""

from __future__ import annotations

import gc
import os
import stat
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.bundle.errors import BundleError
from bot.bundle.files import MAX_DEPTH, deeper_than, find_list_file, load_json_models, load_list
from bot.bundle.logs import LogFile, LogFiles, LogVisitor, read_log_file
from bot.forked import MIN_SHARED_BYTES, Shared
from bot.models import (
    Evidence,
    KubeObject,
    LogExcerpt,
    LogSource,
    Missing,
)
from bot.models.kinds import CLUSTER_SCOPED, NAMESPACED

SINGLE_CLUSTER = "default"

# What a complete dump has; its absence is reported as "not collected".
EXPECTED_CLUSTER = ("nodes",)
EXPECTED_NAMESPACE = ("pods", "events")
EXPECTED_CONTROL_PLANE = ("jobs.rlinf.io",)
EXPECTED_AGENT_NAMESPACE = ("tasks.rlinf.io", "pods.rlinf.io", "nodes.rlinf.io", "leases")


class SnapshotIndex(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)

    captured_at: datetime | None = Field(default=None, alias="capturedAt")
    control_plane: str | None = Field(default=None, alias="controlPlane")
    clusters: list[str] = Field(default_factory=list)
    problems: list[str] = Field(default_factory=list, description="what the collection that wrote it could not read")


def _read_index(root: Path) -> SnapshotIndex:
    path = root / "snapshot.yaml"
    if not path.is_file():
        return SnapshotIndex()
    try:
        doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if deeper_than(doc, MAX_DEPTH):  # parsed (the interpreter's recursion limit allowed it), still refused
            raise BundleError("snapshot.yaml: nested too deeply to read")
        return SnapshotIndex.model_validate(doc)
    except RecursionError as exc:
        raise BundleError("snapshot.yaml: nested too deeply to read") from exc
    except yaml.YAMLError as exc:
        raise BundleError(f"snapshot.yaml: not valid YAML: {str(exc).splitlines()[0]}") from exc
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise BundleError(f"snapshot.yaml: {where}: {err['msg']}") from exc


def _parse_items(items: list[dict[str, Any]], model: type[KubeObject], *, display: str) -> list[KubeObject]:
    out: list[KubeObject] = []
    for i, item in enumerate(items):
        try:
            out.append(model.model_validate(item))
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            raise BundleError(f"{display}: items[{i}].{where}: {err['msg']}") from exc
    return out


def _place(objs: list[KubeObject], *, cluster: str, namespace: str) -> list[KubeObject]:
    """Where the objects were read from: their cluster, and the namespace of their directory when they name none."""
    for obj in objs:
        # What the model's own assignment does (no validation on assignment), without its lookup per call: a
        # thousand-pod bundle has some 20,000 objects.
        obj.__dict__["cluster"] = cluster
        obj.__pydantic_fields_set__.add("cluster")
        if namespace and not obj.metadata.namespace:
            obj.metadata.namespace = namespace
    return objs


@dataclass(frozen=True)
class _LogFileAt:
    path: Path
    display: str
    cluster: str
    namespace: str
    pod: str
    previous: bool
    size: int


def _source(at: _LogFileAt, container: str) -> LogSource:
    return LogSource(cluster=at.cluster, namespace=at.namespace, pod=at.pod, container=container,
                     previous=at.previous)


_Read = tuple[LogFile, list[object | None]]


def _sections_of(at: _LogFileAt) -> _Read:
    """A log file's sections and notes, without its bytes (they are read again per section when asked for)."""
    return replace(read_log_file(at.path, at.display), data=b""), []


def _visit_sections(visitor: LogVisitor, at: _LogFileAt) -> _Read:
    """`_sections_of`, and what `visitor` found in the sections it wants, visited from the bytes just read."""
    read = read_log_file(at.path, at.display)
    visits: list[object | None] = []
    for index, section in enumerate(read.sections):
        source = _source(at, section.container)
        visits.append(visitor.visit(read.excerpt(source, index)) if visitor.wants(source) else None)
    return replace(read, data=b""), visits


class _Reader:
    def __init__(self, root: Path, kinds: Collection[str] | None = None) -> None:
        self.root = root
        self.kinds = None if kinds is None else frozenset(kinds)  # file stems to read; None: every kind
        self.fields: dict[str, list[Any]] = {}
        self.logs: list[LogExcerpt] = []
        self.files = LogFiles()  # log text is read again when asked for, not held
        self.cut: list[str] = []  # logs read only in part (bounds): the evidence is incomplete, and says where
        self.not_collected: list[Missing] = []
        self.log_files: list[_LogFileAt] = []  # found by the walk, read after it
        self.reads: list[Callable[[], None]] = []  # the walk's List files (and what it missed), in order, after it

    def _load(self, directory: Path, stem: str, spec: tuple[str, type[KubeObject]], *, cluster: str,
              namespace: str, expected: bool) -> None:
        path = find_list_file(directory, stem)
        display = str((directory / f"{stem}.json").relative_to(self.root))
        if path is None:
            if expected:
                self.not_collected.append(Missing(cluster=cluster, namespace=namespace, kind=stem, where=display))
            return
        display = str(path.relative_to(self.root))
        field, model = spec
        objs = load_json_models(path, model)
        if objs is None:  # YAML, or something is wrong with the file: read it the careful way, which says what
            objs = _parse_items(load_list(path, display), model, display=display)
        self.fields.setdefault(field, []).extend(_place(objs, cluster=cluster, namespace=namespace))

    def _find_logs(self, ns_dir: Path, cluster: str, namespace: str) -> None:
        """The log files of every pod directory in `ns_dir`, pods in name order. A namespace of a thousand pods
        is listed once (whether an entry is a directory comes with the listing) and its paths made as text."""
        where = str(ns_dir.relative_to(self.root))
        with os.scandir(ns_dir) as listing:
            pods = sorted(entry.name for entry in listing if entry.is_dir())
        for pod in pods:
            for fname, previous in (("logs.txt", False), ("previous-logs.txt", True)):
                path = os.path.join(ns_dir, pod, fname)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                if stat.S_ISREG(st.st_mode):
                    self.log_files.append(_LogFileAt(Path(path), f"{where}/{pod}/{fname}", cluster, namespace, pod,
                                                     previous, st.st_size))

    def read_logs(self, reads: list[_Read], visitor: LogVisitor | None = None) -> None:
        """Every log file's sections, as excerpts read again when asked for (`reads`: the files, in order),
        each with what `visitor` found in it ahead of time."""
        for at, (read, visits) in zip(self.log_files, reads, strict=True):
            self.cut.extend(read.notes)
            for index, section in enumerate(read.sections):
                load = self.files.loader(at.path, display=at.display, read=read, index=index)
                head = self.files.head_loader(at.path, display=at.display, read=read, index=index)
                excerpt = LogExcerpt.lazy(source=_source(at, section.container), load=load,
                                          size=section.end - section.start, truncated=section.truncated,
                                          load_head=head)
                if visitor is not None and index < len(visits) and visits[index] is not None:
                    excerpt.visited_ahead(visitor.token, visits[index])
                self.logs.append(excerpt)

    def _wanted(self, table: dict[str, tuple[str, type[KubeObject]]]) -> list[tuple[str, tuple[str, type[KubeObject]]]]:
        """The kinds of `table` to read: all, or those the caller asked for (the others are not "not collected":
        they were not asked for)."""
        return [(stem, spec) for stem, spec in table.items() if self.kinds is None or stem in self.kinds]

    def read_cluster(self, directory: Path, cluster: str, *, control_plane: bool) -> None:
        if not directory.is_dir():
            self.reads.append(partial(self.not_collected.append, Missing(
                cluster=cluster, where=f"{directory.relative_to(self.root)}/ (cluster directory)")))
            return
        if directory != self.root and not control_plane and not any(
                not p.name.startswith(".") for p in directory.iterdir()):
            # a member cluster's directory with nothing in it: that whole cluster was not read, said as such
            self.reads.append(partial(self.not_collected.append, Missing(
                cluster=cluster, where=f"{directory.relative_to(self.root)}/ (cluster directory, empty)")))
            return
        for stem, spec in self._wanted(CLUSTER_SCOPED):
            expected = (stem in EXPECTED_CLUSTER and not control_plane) or (
                control_plane and stem in EXPECTED_CONTROL_PLANE)
            self.reads.append(partial(self._load, directory, stem, spec, cluster=cluster, namespace="",
                                     expected=expected))
        for ns_dir in sorted(p for p in directory.iterdir() if p.is_dir()):
            namespace = ns_dir.name
            for stem, spec in self._wanted(NAMESPACED):
                expected = (stem in EXPECTED_NAMESPACE and not control_plane) or (
                    control_plane and namespace.startswith("rlark-") and stem in EXPECTED_AGENT_NAMESPACE)
                self.reads.append(partial(self._load, ns_dir, stem, spec, cluster=cluster, namespace=namespace,
                                         expected=expected))
            self._find_logs(ns_dir, cluster, namespace)


@contextmanager
def _no_gc_pauses() -> Iterator[None]:
    """Reading builds a million small acyclic objects; the cycle collector would walk them all again and again
    (half of the read's time on a thousand-pod bundle). It runs as usual once the read is done, with what was
    read already counted as old (freeze then unfreeze moves every tracked object to the oldest generation
    without walking it): they are collected like any other object, at the next full collection. A process that
    froze its own start-up heap (the Slack app, a forked helper) keeps it frozen: what was read then stays young."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if not gc.get_freeze_count():
            gc.freeze()
            gc.unfreeze()
        if enabled:
            gc.enable()


def read_bundle(root: Path, *, processes: int = 1, visitor: LogVisitor | None = None,
                kinds: Collection[str] | None = None) -> Evidence:
    """Read everything in the bundle; raises BundleError (one line) on a corrupt file. `processes` > 1: log files
    are read for their sections in forked helpers while this process reads the List files (a large bundle's logs
    are most of its bytes), and the logs `visitor` wants are visited there too, from the bytes just read; this
    process joins in once its List files are read. `kinds`: the file stems of the kinds to read
    (`bot.models.kinds`), None for all; the others are neither read nor reported as not collected."""
    if not root.is_dir():
        raise BundleError("not a directory")  # the caller names the path
    with _no_gc_pauses():
        return _read_bundle(root, processes, visitor, kinds)


def _read_bundle(root: Path, processes: int, visitor: LogVisitor | None, kinds: Collection[str] | None) -> Evidence:
    index = _read_index(root)
    reader = _Reader(root, kinds)
    if index.clusters or index.control_plane:
        names = list(dict.fromkeys(([index.control_plane] if index.control_plane else []) + index.clusters))
        for name in names:
            if "/" in name or name in ("", ".", ".."):
                raise BundleError(f"snapshot.yaml: clusters: {name!r} is not a directory name")
            reader.read_cluster(root / name, name, control_plane=name == index.control_plane)
    else:
        names = [SINGLE_CLUSTER]
        reader.read_cluster(root, SINGLE_CLUSTER, control_plane=False)
    files = reader.log_files
    share = processes if sum(at.size for at in files) >= MIN_SHARED_BYTES else 1
    order = sorted(range(len(files)), key=lambda i: -files[i].size) if share > 1 else None
    ahead = visitor if share > 1 else None  # with no helper, the visits wait until they are asked for
    work = _sections_of if ahead is None else partial(_visit_sections, ahead)
    with Shared(files, work, processes=share, order=order) as shared:
        for load in reader.reads:  # meanwhile, in this process
            load()
        reader.read_logs(shared.results(), ahead)
    return Evidence(
        captured_at=index.captured_at,
        control_plane=index.control_plane,
        clusters=names,
        logs=reader.logs,
        not_collected=reader.not_collected,
        problems=list(index.problems) + reader.cut,
        **reader.fields,
    )
