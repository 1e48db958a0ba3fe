"""What one live collection gathered: raw objects per cluster and scope, logs, and what could not be read.

`listed` remembers which (cluster, namespace, file stem) lists were actually read, even when empty, so a
snapshot written from this writes an empty List there ("none exist") and nothing where reading failed
("not collected"): CONTRACT §2 gives a missing file that meaning.
"""

from __future__ import annotations

import threading
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from bot.cluster.resources import Resource
from bot.models import Evidence, KubeObject, LogExcerpt, Missing
from bot.models.kinds import CLUSTER_SCOPED, NAMESPACED

Obj = dict[str, Any]
Scope = tuple[str, str, str]  # cluster, namespace ("" when cluster-scoped), file stem


def _key(obj: Obj) -> tuple[str, str]:
    meta = obj.get("metadata") or {}
    return str(meta.get("namespace", "")), str(meta.get("name", ""))


class Collected:
    def __init__(self, *, captured_at: datetime) -> None:
        self.captured_at = captured_at
        self.control_plane: str | None = None
        self.clusters: list[str] = []
        self.listed: set[Scope] = set()
        self.logs: list[LogExcerpt] = []
        self.problems: list[str] = []
        self.not_collected: list[Missing] = []
        self._objects: dict[tuple[str, str], dict[tuple[str, str], Obj]] = {}
        self._problem_keys: set[str] = set()
        self._problem_at: dict[str, int] = {}
        self._lock = threading.Lock()

    def add_cluster(self, name: str) -> None:
        with self._lock:
            if name not in self.clusters:
                self.clusters.append(name)

    def add(self, cluster: str, resource: Resource, *, items: list[Obj], listed_in: tuple[str, ...] = ()) -> None:
        """Keep `items` (deduplicated by namespace/name) and mark the given namespaces' lists as read.

        For cluster-scoped resources pass `listed_in=("",)` when the whole list was read.
        """
        with self._lock:
            bucket = self._objects.setdefault((cluster, resource.stem), {})
            for item in items:
                bucket.setdefault(_key(item), item)
            for ns in listed_in:
                self.listed.add((cluster, ns if resource.namespaced else "", resource.stem))

    def objects(self, cluster: str, resource: Resource) -> list[Obj]:
        with self._lock:
            return list(self._objects.get((cluster, resource.stem), {}).values())

    def add_log(self, excerpt: LogExcerpt) -> None:
        with self._lock:
            self.logs.append(excerpt)

    def problem(self, text: str, *, key: str | None = None) -> None:
        """One line per distinct problem; `key` folds repeats (every read of an unreachable cluster) into one."""
        with self._lock:
            k = key or text
            if k not in self._problem_keys:
                self._problem_keys.add(k)
                self._problem_at[k] = len(self.problems)
                self.problems.append(text)

    def amend(self, key: str, addition: str) -> bool:
        """Extend the problem line filed under `key` (a later read changed what it means); False if none."""
        with self._lock:
            at = self._problem_at.get(key)
            if at is None:
                return False
            self.problems[at] += addition
            return True

    def missing(self, gap: Missing) -> None:
        with self._lock:
            if gap not in self.not_collected:
                self.not_collected.append(gap)

    def to_evidence(self) -> Evidence:
        fields: dict[str, list[KubeObject]] = {}
        with self._lock:
            # Reads finish in any order; evidence comes out in one: clusters as added, objects as the API lists them.
            order = {c: i for i, c in enumerate(self.clusters)}
            for (cluster, stem) in sorted(self._objects, key=lambda k: (order.get(k[0], len(order)), k)):
                bucket = self._objects[(cluster, stem)]
                spec = CLUSTER_SCOPED.get(stem) or NAMESPACED.get(stem)
                if spec is None:
                    continue
                field, model = spec
                for _, obj in sorted(bucket.items()):
                    try:
                        parsed = model.model_validate(obj)
                    except ValidationError:
                        # An object the models cannot read says nothing reliable; the rest still counts.
                        self._note_unparsable(cluster, stem, obj)
                        continue
                    parsed.cluster = cluster
                    fields.setdefault(field, []).append(parsed)
            logs = sorted(self.logs, key=lambda x: (x.source.cluster, x.source.namespace, x.source.pod,
                                                     x.source.container, x.source.previous))
            return Evidence(captured_at=self.captured_at, control_plane=self.control_plane,
                            clusters=list(self.clusters), logs=logs, not_collected=list(self.not_collected),
                            problems=list(self.problems), **fields)

    def _note_unparsable(self, cluster: str, stem: str, obj: Obj) -> None:
        ns, name = _key(obj)
        text = f"{cluster}: {stem} {ns + '/' if ns else ''}{name}: unreadable object skipped"
        if text not in self._problem_keys:
            self._problem_keys.add(text)
            self.problems.append(text)
