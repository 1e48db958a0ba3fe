"""Write `Evidence` as an evidence bundle (CONTRACT §2), every string redacted on the way out.

The layout is exactly what `read_bundle` reads: `snapshot.yaml`, one directory per cluster, List files named by
the reader's stems, kubectl's START/END sections in `<ns>/<pod>/logs.txt` and `previous-logs.txt`. A file is
written for every list that was read, even an empty one; a list that was not read has no file, which is how
the format says "not collected".
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from bot.bundle.errors import BundleError
from bot.bundle.files import find_list_file
from bot.bundle.reader import SINGLE_CLUSTER, SnapshotIndex
from bot.models import Evidence, KubeObject, LogExcerpt
from bot.models.kinds import CLUSTER_SCOPED, NAMESPACED
from bot.redact import Redactor, SafeText
from bot.sinks import write_file

Scope = tuple[str, str, str]  # cluster, namespace ("" for cluster-scoped), file stem
_FIELD_STEM = {field_name: stem for stem, (field_name, _) in {**CLUSTER_SCOPED, **NAMESPACED}.items()}
# List kinds as the API server names them; anything else is written as a plain v1 List.
_LIST_KIND = {"nodes": "NodeList", "pods": "PodList", "events": "EventList", "statefulsets": "StatefulSetList",
              "persistentvolumeclaims": "PersistentVolumeClaimList", "leases": "LeaseList"}


@dataclass
class WriteReport:
    files: int = 0
    redactions: dict[str, int] = field(default_factory=dict)

    @property
    def redacted(self) -> int:
        return sum(self.redactions.values())


class _Redact:
    """The one place strings pass through `bot.redact` before touching disk (memoized: dumps repeat a lot)."""

    def __init__(self, report: WriteReport, redactor: Redactor) -> None:
        self._report = report
        self._redactor = redactor
        self._cache: dict[str, str] = {}

    def text(self, value: str) -> str:
        return self._run(value)[0]

    def final(self, document: str) -> SafeText:
        """The file as written: its parts are redacted already, so this pass finds nothing new (idempotent)."""
        return self._redactor.redact(document).text

    def _run(self, value: str) -> tuple[str, bool]:
        cached = self._cache.get(value)
        if cached is not None:
            return cached, cached != value
        result = self._redactor.redact(value)
        out, counts = str(result.text), result.counts
        for kind, n in counts.items():
            self._report.redactions[kind] = self._report.redactions.get(kind, 0) + n
        if len(value) < 512:  # memoize names, labels, images; long texts are rarely repeated
            self._cache[value] = out
        return out, bool(counts)

    def pair(self, key: str, value: str) -> str:
        """A value is also checked together with its name (`WANDB_API_KEY=...`): alone it may look harmless."""
        out, hit = self._run(value)
        if hit or not key:
            return out
        joined, hit = self._run(f"{key}={value}")
        if not hit:
            return out
        prefix = f"{key}="
        return joined[len(prefix):] if joined.startswith(prefix) else "[REDACTED]"

    def tree(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.tree(v) for v in value]
        if isinstance(value, dict):
            # Env entries are {"name": N, "value": V}: V is judged under the name N.
            env_name = value.get("name") if isinstance(value.get("name"), str) else None
            out: dict[str, Any] = {}
            for k, v in value.items():
                key = self.text(str(k))
                if isinstance(v, str):
                    out[key] = self.pair(env_name if k == "value" and env_name else str(k), v)
                else:
                    out[key] = self.tree(v)
            return out
        return value


def _dump(obj: KubeObject) -> dict[str, Any]:
    # exclude_unset gives back what the API server sent (unknown fields included), not the models' defaults.
    data: dict[str, Any] = obj.model_dump(mode="json", by_alias=True, exclude_unset=True, exclude={"cluster"})
    return data


def listed_in_bundle(root: Path) -> set[Scope]:
    """The lists a bundle on disk holds (so re-writing it keeps "empty" apart from "not collected")."""
    index = SnapshotIndex.model_validate(yaml.safe_load((root / "snapshot.yaml").read_text(encoding="utf-8")) or {}) \
        if (root / "snapshot.yaml").is_file() else SnapshotIndex()
    names = list(dict.fromkeys(([index.control_plane] if index.control_plane else []) + index.clusters))
    dirs = {n: root / n for n in names} if names else {SINGLE_CLUSTER: root}
    out: set[Scope] = set()
    for cluster, directory in dirs.items():
        if not directory.is_dir():
            continue
        out |= {(cluster, "", stem) for stem in CLUSTER_SCOPED if find_list_file(directory, stem)}
        for ns_dir in (p for p in directory.iterdir() if p.is_dir()):
            out |= {(cluster, ns_dir.name, stem) for stem in NAMESPACED if find_list_file(ns_dir, stem)}
    return out


def _log_files(logs: list[LogExcerpt]) -> dict[tuple[str, str, str, bool], list[LogExcerpt]]:
    files: dict[tuple[str, str, str, bool], list[LogExcerpt]] = {}
    for excerpt in logs:
        s = excerpt.source
        files.setdefault((s.cluster, s.namespace, s.pod, s.previous), []).append(excerpt)
    return files


def _safe_segment(name: str, what: str) -> str:
    if not name or "/" in name or name in (".", "..") or "\x00" in name:
        raise BundleError(f"cannot write {what} {name!r}: not usable as a directory name")
    return name


class _Writer:
    def __init__(self, root: Path, redact: _Redact, report: WriteReport) -> None:
        self.root, self.redact, self.report = root, redact, report

    def put(self, rel: Path, text: str) -> None:
        """Every string in `text` was redacted on its way in; the whole is checked once more as it leaves."""
        write_file(self.root / rel, self.redact.final(text))
        self.report.files += 1

    def write_list(self, cluster: str, namespace: str, *, stem: str, items: list[dict[str, Any]]) -> None:
        rel = Path(_safe_segment(cluster, "cluster"))
        if namespace:
            rel /= _safe_segment(namespace, "namespace")
        doc = {"kind": _LIST_KIND.get(stem, "List"), "apiVersion": "v1", "metadata": {},
               "items": self.redact.tree(items)}
        self.put(rel / f"{stem}.json", json.dumps(doc, indent=2, ensure_ascii=False) + "\n")

    def write_logs(self, key: tuple[str, str, str, bool], excerpts: list[LogExcerpt]) -> None:
        cluster, namespace, pod, previous = key
        parts: list[str] = []
        for ex in sorted(excerpts, key=lambda e: e.source.container):
            c = ex.source.container
            body = self.redact.text(ex.text)
            if body and not body.endswith("\n"):
                body += "\n"
            parts.append(f"==== START logs for container {c} of pod {namespace}/{pod} ====\n{body}"
                         f"==== END logs for container {c} of pod {namespace}/{pod} ====\n")
        rel = Path(_safe_segment(cluster, "cluster"), _safe_segment(namespace, "namespace"), _safe_segment(pod, "pod"))
        self.put(rel / ("previous-logs.txt" if previous else "logs.txt"), "".join(parts))


def write_bundle(evidence: Evidence, out: Path, *, redactor: Redactor, listed: Iterable[Scope] = ()) -> WriteReport:
    """Write `evidence` under `out` (must not exist, or be an empty directory). Atomic: a failed write leaves
    nothing behind. `listed`: the (cluster, namespace, stem) lists that were read, written even when empty.
    Every string passes `redactor` (the one built from settings: extra patterns and the bot's own tokens apply)."""
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise BundleError(f"{out}: already exists and is not an empty directory")
    report = WriteReport()
    buckets: dict[Scope, list[dict[str, Any]]] = {scope: [] for scope in listed}
    for field_name, stem in _FIELD_STEM.items():
        for obj in getattr(evidence, field_name):
            ns = obj.metadata.namespace if stem in NAMESPACED else ""
            buckets.setdefault((obj.cluster or SINGLE_CLUSTER, ns, stem), []).append(_dump(obj))
    clusters = list(dict.fromkeys(([evidence.control_plane] if evidence.control_plane else []) + evidence.clusters
                                  + sorted({c for c, _, _ in buckets} | {x.source.cluster for x in evidence.logs})))
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    except OSError as exc:
        raise BundleError(f"{_where(exc, out)}: {exc.strerror or exc}") from exc
    try:
        writer = _Writer(tmp, _Redact(report, redactor), report)
        for (cluster, ns, stem), items in sorted(buckets.items()):
            writer.write_list(cluster, ns, stem=stem, items=items)
        for key, excerpts in sorted(_log_files(evidence.logs).items()):
            writer.write_logs(key, excerpts)
        index: dict[str, Any] = {"capturedAt": evidence.captured_at.isoformat().replace("+00:00", "Z")
                                 if evidence.captured_at else None}
        if evidence.control_plane:
            index["controlPlane"] = evidence.control_plane
        index["clusters"] = clusters
        if evidence.problems:
            # Not read by the bundle reader today; kept so a ticket shows the snapshot is partial, and why.
            index["incomplete"] = True
            index["problems"] = [writer.redact.text(p) for p in evidence.problems]
        writer.put(Path("snapshot.yaml"), yaml.safe_dump(
            {k: v for k, v in index.items() if v is not None}, sort_keys=False, allow_unicode=True))
        if out.exists():
            out.rmdir()
        os.replace(tmp, out)
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(exc, OSError):  # a full disk, a quota: said of the directory the bundle was going to
            raise BundleError(f"{out.parent}: {exc.strerror or exc}") from exc
        raise
    return report


def _where(exc: OSError, out: Path) -> Path:
    """The directory an OS error is about: a missing or unusable one above `out`, or `out`'s own parent (where
    the bundle is first written under a temporary name, then renamed)."""
    failed = Path(str(exc.filename)) if exc.filename else out.parent
    return out.parent if failed.parent == out.parent else failed
